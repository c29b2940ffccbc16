import { runLoad } from './loadTest';

/**
 * `npm run classroom:load [-- --students N --actions K]`: the load test on its own, printing the
 * figures and, on its last line, one JSON object.
 */
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : dflt;
  if (!Number.isInteger(v) || v < 1 || v > 64) {
    process.stderr.write(`--${name}: expected a whole number from 1 to 64\n`);
    process.exit(2);
  }
  return v;
};
const students = arg('students', 40);
const actionsEach = arg('actions', 4);
const r = await runLoad({ students, actionsEach, spreadMs: 8000, speed: 1, deadlineMs: 120_000, log: (l) => process.stderr.write(`${l}\n`) });
const ms = (s: { median: number; p95: number }): string => `median ${s.median} ms, p95 ${s.p95} ms`;
process.stdout.write(
  [
    `${r.students} students, ${r.actions} actions: ${r.accepted} accepted, ${r.refused} refused, ${r.diverged} devices diverged, ${r.serverDrops} hostile messages dropped`,
    `request → ordered by the teacher's device: ${ms(r.order)}`,
    `request → on every device:               ${ms(r.deliver)}`,
    `request → on every screen (300 ms lead):  ${ms(r.screen)}, max ${r.screen.max} ms`,
    JSON.stringify(r),
  ].join('\n') + '\n',
);
process.exit(r.accepted === r.actions && r.diverged === 0 ? 0 : 1);
