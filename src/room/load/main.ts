import { runLoad } from './loadTest';
import { parseLoadArgs, usage } from './args';

/**
 * `npm run classroom:load [-- --students N --actions K]`: the load test on its own, printing the
 * figures and, on its last line, one JSON object.
 */
const parsed = parseLoadArgs(process.argv.slice(2));
if ('help' in parsed || 'error' in parsed) {
  process.stderr.write(`${'error' in parsed ? `error: ${parsed.error}\n` : ''}${usage}\n`);
  process.exit('help' in parsed ? 0 : 2);
}
const { students, actionsEach } = parsed;
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
