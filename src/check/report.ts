import { reproCommand, type CheckArgs } from './args';
import type { SeedProblem, SeedResult } from './runner';

/**
 * The checker's results: one seed's `--jsonl` record, a strategy's report tallied from its
 * records, and the report's one-line summary.
 */

export interface StrategyReport {
  kind: string;
  config: Record<string, unknown>;
  seeds: number;
  from: number;
  /** Largest seed run (from + seeds − 1 unless the run was a shard). */
  to: number;
  failing: Array<{ seed: number; problems: SeedProblem[]; repro: string }>;
  violations: number;
  lostUpdates: number;
  seedsWithLoss: number;
  lossAllowed: boolean;
  livenessOk: number;
  linearizability: { checked: number; linearizable: number; notLinearizable: number; gaveUp: number };
  /** The coordination service's metadata key (with --coord, where the service promises linearizable reads). */
  metaLinearizability: { checked: number; linearizable: number; notLinearizable: number; gaveUp: number };
  coord?: 'etcd' | 'zookeeper';
  ops: number;
  ms: number;
  seedsPerMinute: number;
  pass: boolean;
}

/**
 * One strategy and seed, as a `--jsonl` line: deterministic (no timings), self-contained (the
 * options that change the verdict travel with it), so shards' lines merge into one run's result.
 */
export interface SeedRecord {
  kind: string;
  config: Record<string, unknown>;
  seed: number;
  expectLoss: boolean;
  lossAllowed: boolean;
  problems: SeedProblem[];
  violations: number;
  lostUpdates: number;
  livenessOk: boolean;
  linearizability: 'linearizable' | 'not-linearizable' | 'unknown' | null;
  /** With --coord only (lines of plain runs stay as they were): the service beside the strategy. */
  coord?: 'etcd' | 'zookeeper';
  /** With --coord only: the metadata key's verdict, null where the service does not promise linearizable reads. */
  metaLinearizability?: 'linearizable' | 'not-linearizable' | 'unknown' | null;
  ops: number;
  repro: string | null;
}

export function seedRecord(a: CheckArgs, kind: string, config: Record<string, unknown>, res: SeedResult): SeedRecord {
  return {
    kind,
    config,
    seed: res.seed,
    expectLoss: a.expectLoss,
    lossAllowed: res.lossAllowed,
    problems: res.problems,
    violations: res.violations,
    lostUpdates: res.lostUpdates,
    livenessOk: !res.problems.some((p) => p.check === 'liveness'),
    linearizability: res.linearizability?.result ?? null,
    ...(a.coord ? { coord: a.coord, metaLinearizability: res.metaLinearizability?.result ?? null } : {}),
    ops: res.ops,
    repro: res.problems.length ? reproCommand(a, kind, res.seed) : null,
  };
}

/** A strategy's report from its seeds' records (one run, one shard, or merged shards). */
export function reportFrom(kind: string, config: Record<string, unknown>, lossAllowed: boolean, expectLoss: boolean, records: readonly SeedRecord[], ms: number): StrategyReport {
  const seeds = records.map((r) => r.seed);
  const r: StrategyReport = {
    kind,
    config,
    seeds: records.length,
    from: seeds.length ? Math.min(...seeds) : 0,
    to: seeds.length ? Math.max(...seeds) : -1,
    failing: [],
    violations: 0,
    lostUpdates: 0,
    seedsWithLoss: 0,
    lossAllowed,
    livenessOk: 0,
    linearizability: { checked: 0, linearizable: 0, notLinearizable: 0, gaveUp: 0 },
    metaLinearizability: { checked: 0, linearizable: 0, notLinearizable: 0, gaveUp: 0 },
    ...(records[0]?.coord ? { coord: records[0].coord } : {}),
    ops: 0,
    ms,
    seedsPerMinute: ms > 0 ? Math.round((records.length * 60000) / ms) : 0,
    pass: true,
  };
  for (const s of [...records].sort((x, y) => x.seed - y.seed)) {
    r.violations += s.violations;
    r.lostUpdates += s.lostUpdates;
    r.ops += s.ops;
    if (s.lostUpdates > 0) r.seedsWithLoss++;
    if (s.livenessOk) r.livenessOk++;
    count(r.linearizability, s.linearizability);
    count(r.metaLinearizability, s.metaLinearizability ?? null);
    if (s.problems.length) r.failing.push({ seed: s.seed, problems: s.problems, repro: s.repro ?? '' });
  }
  r.pass = r.failing.length === 0 && (!expectLoss || r.seedsWithLoss > 0);
  return r;
}

function count(tally: StrategyReport['linearizability'], verdict: SeedRecord['linearizability']): void {
  if (!verdict) return;
  tally.checked++;
  if (verdict === 'linearizable') tally.linearizable++;
  else if (verdict === 'not-linearizable') tally.notLinearizable++;
  else tally.gaveUp++;
}

export function summaryLine(r: StrategyReport, expectLoss: boolean): string {
  const lin = r.linearizability;
  const linText =
    lin.checked === 0
      ? 'linearizability not promised'
      : r.ops === 0
        ? 'linearizability unchecked: the strategy records no operations (ctx.op)'
        : `linearizable ${lin.linearizable}/${lin.checked}${lin.gaveUp ? ` (search gave up on ${lin.gaveUp})` : ''} over ${r.ops} operations`;
  const loss = expectLoss
    ? `lost updates found in ${r.seedsWithLoss}/${r.seeds} seeds (${r.lostUpdates} in all)${r.seedsWithLoss === 0 ? ' — NONE FOUND' : ''}`
    : `lost updates ${r.lostUpdates}${r.lossAllowed ? ` (allowed by this configuration; in ${r.seedsWithLoss} seeds)` : ''}`;
  const ml = r.metaLinearizability;
  const coordText = r.coord
    ? ` · ${r.coord}: metadata ${ml.checked ? `linearizable ${ml.linearizable}/${ml.checked}${ml.gaveUp ? ` (search gave up on ${ml.gaveUp})` : ''}` : 'reads not promised linearizable'}`
    : '';
  const range = r.to - r.from + 1 === r.seeds ? `seeds ${r.from}..${r.to}` : `${r.seeds} seeds in ${r.from}..${r.to}`;
  // Merged results carry no timings (their lines have none).
  const time = r.ms > 0 ? ` · ${(r.ms / 1000).toFixed(1)} s (${r.seedsPerMinute} seeds/min)` : '';
  return (
    `${r.pass ? 'PASS' : 'FAIL'} ${r.kind}${r.coord ? ` + ${r.coord}` : ''}: ${range}, ${r.failing.length} failing · violations ${r.violations} · ${loss} · ` +
    `liveness ${r.livenessOk}/${r.seeds} · ${linText}${coordText}${time}`
  );
}
