import { strategies } from '../protocols';
import type { Sha256Factory } from '../sim/history';
import type { CheckArgs } from './args';
import { allowsLoss } from './models';
import { reportFrom, seedRecord, type SeedRecord, type StrategyReport } from './report';
import { runSeed, strategyConfig, type SeedResult } from './runner';
import { shardOf } from './shard';
import { nextTask } from './nextTask';

/**
 * The two ways `npm run check` gets its per-strategy reports: running a strategy's seeds, or
 * merging the `--jsonl` lines of a run's shards (`--merge`). Arguments are in ./args, records,
 * reports and summaries in ./report; src/cli/check.ts wires them to the terminal.
 */

/** The seeds this invocation runs: from … from+seeds−1, or its shard of them. */
export function seedList(a: Pick<CheckArgs, 'from' | 'seeds' | 'shard'>): number[] {
  return shardOf(Array.from({ length: a.seeds }, (_, k) => a.from + k), a.shard);
}

export async function checkStrategy(
  a: CheckArgs,
  kind: string,
  opts: {
    sha256?: Sha256Factory;
    clock?: () => number;
    onSeed?: (r: SeedResult, report: (line: string) => void) => void;
    log?: (line: string) => void;
    /** Each seed's record as soon as it is done (the --jsonl stream). */
    onRecord?: (r: SeedRecord) => void;
  } = {},
): Promise<StrategyReport> {
  const clock = opts.clock ?? (() => globalThis.performance.now());
  const t0 = clock();
  const c = strategyConfig(kind, a.config);
  if (!c.ok) throw new Error(c.error);
  const config = c.cfg as unknown as Record<string, unknown>;
  const records: SeedRecord[] = [];
  for (const seed of seedList(a)) {
    const res = await runSeed({ kind, config: a.config, seed, faultMs: a.faultMs, livenessMs: a.livenessMs, workers: a.workers, servers: a.servers, crashServers: a.expectLoss, sha256: opts.sha256, ...(a.coord ? { coord: a.coord } : {}) });
    const rec = seedRecord(a, kind, config, res);
    records.push(rec);
    opts.onRecord?.(rec);
    if (rec.repro) opts.log?.(`  FAIL ${kind} seed ${seed}: ${res.problems.map((p) => `${p.check}: ${p.detail}`).join(' | ')}\n       ${rec.repro}`);
    await nextTask();
  }
  // --expect-loss asks that some seed of the whole range loses an update: a shard cannot judge
  // that alone (its seeds may all be clean), so it is left to --merge.
  return reportFrom(kind, config, allowsLoss(c.cfg), a.expectLoss && !a.shard, records, clock() - t0);
}

/**
 * `--merge`: the lines of one run or of all its shards, in any order, back into per-strategy
 * reports (in registry order) and the run's verdict. Errors name the file and line.
 */
export function mergeRecords(sources: ReadonlyArray<{ name: string; text: string }>): { ok: true; reports: StrategyReport[]; expectLoss: boolean } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const byKind = new Map<string, SeedRecord[]>();
  const seen = new Set<string>();
  for (const { name, text } of sources) {
    text.split('\n').forEach((line, i) => {
      // Only lines that open a JSON object are records: collected logs (kubectl logs, CI) also
      // carry the checker's progress text from stderr.
      if (!line.trimStart().startsWith('{')) return;
      let rec: SeedRecord;
      try {
        rec = JSON.parse(line) as SeedRecord;
      } catch (e) {
        errors.push(`${name}:${i + 1}: not JSON (${(e as Error).message})`);
        return;
      }
      if (typeof rec?.kind !== 'string' || !Number.isSafeInteger(rec.seed) || !Array.isArray(rec.problems)) {
        errors.push(`${name}:${i + 1}: not a --jsonl seed record`);
        return;
      }
      const key = `${rec.kind}#${rec.seed}`;
      if (seen.has(key)) errors.push(`${name}:${i + 1}: ${rec.kind} seed ${rec.seed} appears twice (overlapping shards?)`);
      seen.add(key);
      byKind.set(rec.kind, [...(byKind.get(rec.kind) ?? []), rec]);
    });
  }
  const all = [...byKind.values()].flat();
  if (!errors.length && !all.length) errors.push('no seed records to merge');
  const expectLoss = all.some((r) => r.expectLoss);
  if (all.some((r) => r.expectLoss !== expectLoss)) errors.push('records mix --expect-loss and plain runs');
  for (const [kind, recs] of byKind) if (recs.some((r) => r.coord !== recs[0].coord)) errors.push(`${kind}: records mix runs with different --coord services`);
  if (errors.length) return { ok: false, errors };
  const order = strategies.map((s) => s.kind as string);
  const kinds = [...byKind.keys()].sort((x, y) => order.indexOf(x) - order.indexOf(y));
  const reports = kinds.map((k) => {
    const recs = byKind.get(k)!;
    return reportFrom(k, recs[0].config, recs[0].lossAllowed, expectLoss, recs, 0);
  });
  return { ok: true, reports, expectLoss };
}
