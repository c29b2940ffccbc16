import { readFileSync } from 'node:fs';
import { checkUsage, parseCheckArgs } from '../check/args';
import { checkStrategy, mergeRecords } from '../check/cli';
import { summaryLine, type StrategyReport } from '../check/report';
import { livenessBound, STAND_IN_NOTE, strategyConfig } from '../check/runner';
import { nodeSha256 } from './nodeSha256';

/**
 * `npm run check -- …`: the randomized fault-schedule checker (logic in src/check/). This file
 * only wires arguments, output and the exit status.
 */

function readSource(name: string): { name: string; text: string } {
  return { name: name === '-' ? 'stdin' : name, text: readFileSync(name === '-' ? 0 : name, 'utf8') };
}

function finish(reports: StrategyReport[], expectLoss: boolean, json: boolean, say: (line: string) => void): number {
  const pass = reports.every((r) => r.pass);
  if (json) process.stdout.write(`${JSON.stringify({ note: STAND_IN_NOTE, expectLoss, strategies: reports, pass })}\n`);
  else say(`result: ${pass ? 'PASS' : 'FAIL'} (${reports.length} strateg${reports.length === 1 ? 'y' : 'ies'}, ${reports.reduce((s, r) => s + r.seeds, 0)} seeds)`);
  return pass ? 0 : 1;
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCheckArgs(argv);
  if (!parsed.ok) {
    for (const e of parsed.errors) process.stderr.write(`error: ${e}\n`);
    process.stderr.write('run with --help for usage\n');
    return 2;
  }
  if ('help' in parsed) {
    process.stdout.write(`${checkUsage}\n`);
    return 0;
  }
  if ('merge' in parsed) {
    let sources;
    try {
      sources = parsed.merge.map(readSource);
    } catch (e) {
      process.stderr.write(`error: --merge: ${(e as Error).message}\n`);
      return 2;
    }
    const m = mergeRecords(sources);
    if (!m.ok) {
      for (const e of m.errors) process.stderr.write(`error: ${e}\n`);
      return 2;
    }
    const say = (line: string) => process.stdout.write(`${line}\n`);
    for (const r of m.reports) {
      for (const f of r.failing) say(`  FAIL ${r.kind} seed ${f.seed}: ${f.problems.map((p) => `${p.check}: ${p.detail}`).join(' | ')}\n       ${f.repro}`);
      say(summaryLine(r, m.expectLoss));
    }
    return finish(m.reports, m.expectLoss, false, say);
  }
  const a = parsed.args;
  // In --json and --jsonl modes stdout carries only the results.
  const quiet = a.json || a.jsonl;
  const say = (line: string) => (quiet ? process.stderr : process.stdout).write(`${line}\n`);
  say(STAND_IN_NOTE);
  if (a.strategies.length === 0) say('no registered strategy matches (with --expect-loss: none allows loss by default)');
  const shard = a.shard ? ` (shard ${a.shard.index}/${a.shard.count})` : '';
  const reports: StrategyReport[] = [];
  for (const kind of a.strategies) {
    const c = strategyConfig(kind, a.config);
    const bound = c.ok ? livenessBound(c.cfg, a.livenessMs, a.coord) : a.livenessMs;
    const coord = a.coord ? `, with a ${a.coord} coordination service on c0-c2 (GC pauses and metadata writes too)` : '';
    say(`${kind}: seeds ${a.from}..${a.from + a.seeds - 1}${shard}, faults for ${a.faultMs} ms${coord}, then heal and ${bound + 1000} ms quiet (progress must resume within ${bound} ms)${a.expectLoss ? ' (expect loss: crashing servers and leaders)' : ''}`);
    const onRecord = a.jsonl ? (rec: object) => process.stdout.write(`${JSON.stringify(rec)}\n`) : undefined;
    const r = await checkStrategy(a, kind, { sha256: nodeSha256, log: say, onRecord });
    reports.push(r);
    say(summaryLine(r, a.expectLoss));
  }
  return finish(reports, a.expectLoss, a.json, say);
}

main(process.argv.slice(2)).then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (e: unknown) => {
    process.stderr.write(`internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.CAP_DEBUG && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
    process.stdout.write('', () => process.exit(3));
  },
);
