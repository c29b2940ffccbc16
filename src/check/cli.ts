import { strategies, strategyInfo } from '../protocols';
import type { Sha256Factory } from '../sim/history';
import { allowsLoss } from './models';
import { runSeed, strategyConfig, type SeedProblem, type SeedResult } from './runner';
import { parseShard, shardOf, type Shard } from './shard';

/**
 * `npm run check -- [--strategy KIND|all] [--seeds N] [--from S] [--duration MS] [--config JSON]
 * [--coord etcd|zookeeper] [--expect-loss] [--liveness MS] [--workers N] [--servers N] [--shard I/N]
 * [--json | --jsonl] | --merge FILE…`: the randomized fault-schedule checker.
 * Exit status: 0 no violation (with --expect-loss: lost updates were found), 1 a violation (or an
 * unexpected loss, or none found with --expect-loss), 2 invalid arguments.
 */

export const checkUsage = `usage: npm run check -- [options]

options:
  --strategy KIND    a registered strategy, or all (default: all)
  --seeds N          seeds per strategy (default 100)
  --from S           first seed (default 1)
  --duration MS      length of the fault phase in simulated ms (default 5000); heal and quiet follow
  --config JSON      strategy knobs over the defaults, e.g. '{"acks":"1"}'
  --expect-loss      show that a configuration that allows loss does lose acknowledged updates
                     (the nemesis favours crashing servers, brokers and leaders)
  --liveness MS      after the heal, progress must resume within this bound (default 3000, or
                     the strategy's longest timeout knob + 2 s, e.g. Kafka's request.timeout.ms)
  --workers N        workers in the cluster (default 4, at least what the strategy needs)
  --shard I/N        run only this shard of the seeds: the I-th, (I+N)-th, … seed of the range
                     (1 ≤ I ≤ N); the N shards together run every seed exactly once
  --servers N        servers in the cluster (default: what the strategy needs, or its check size)
  --coord SERVICE    run a coordination service (etcd or zookeeper) on c0-c2 beside the strategy:
                     its nodes take faults too, processes pause (GC), the metadata key is written
                     and read; its invariants count as violations, and etcd's metadata reads are
                     checked for linearizability
  --json             print one JSON object on stdout
  --jsonl            print one JSON line per strategy and seed on stdout (no timings): the
                     lines of all shards, concatenated, are the lines of the unsharded run
  --merge FILE…      read such lines (FILE - for stdin; lines not starting with { are skipped,
                     so collected logs work) instead of running; print the summary
                     and exit as the one run would have (a shard's own exit status covers its
                     seeds; with --expect-loss, "some seed lost an update" is judged here)
  -h, --help         show this help

exit status: 0 no violation, 1 a violation (or an unexpected loss), 2 invalid arguments`;

export interface CheckArgs {
  strategies: string[];
  seeds: number;
  from: number;
  shard?: Shard;
  jsonl?: boolean;
  faultMs: number;
  livenessMs: number;
  workers: number;
  /** Servers, when given (else the strategy's default). */
  servers?: number;
  config: Record<string, unknown>;
  configText?: string;
  coord?: 'etcd' | 'zookeeper';
  expectLoss: boolean;
  json: boolean;
}

export function parseCheckArgs(
  argv: readonly string[],
): { ok: true; args: CheckArgs } | { ok: true; help: true } | { ok: true; merge: string[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const valueNames = ['strategy', 'seeds', 'from', 'duration', 'config', 'liveness', 'workers', 'servers', 'shard', 'coord'];
  const mergeAt = argv.indexOf('--merge');
  if (mergeAt >= 0) {
    // Merging reads results; the run's options are in the lines themselves.
    const files = argv.slice(mergeAt + 1);
    const other = argv.slice(0, mergeAt);
    if (other.length) return { ok: false, errors: [`--merge takes only files (got ${other.join(' ')} before it)`] };
    if (!files.length) return { ok: false, errors: ['--merge needs at least one file of --jsonl lines (- for stdin)'] };
    return { ok: true, merge: files };
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return { ok: true, help: true };
    if (!arg.startsWith('--')) {
      errors.push(`unexpected argument "${arg}"`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (name === 'json' || name === 'jsonl' || name === 'expect-loss') {
      flags.add(name);
      continue;
    }
    if (!valueNames.includes(name)) {
      errors.push(`unknown option "--${name}"`);
      continue;
    }
    let value = eq >= 0 ? arg.slice(eq + 1) : argv[i + 1];
    if (eq < 0) {
      if (value === undefined || (value.startsWith('--') && value.length > 2)) {
        errors.push(`--${name} needs a value`);
        continue;
      }
      i++;
    }
    value = value ?? '';
    if (values.has(name)) errors.push(`--${name} given more than once`);
    values.set(name, value);
  }

  const int = (name: string, dflt: number, min: number): number => {
    const v = values.get(name);
    if (v === undefined) return dflt;
    const n = /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      errors.push(`--${name}: "${v}" is not an integer ≥ ${min}`);
      return dflt;
    }
    return n;
  };
  const seeds = int('seeds', 100, 1);
  const from = int('from', 1, 0);
  const faultMs = int('duration', 5000, 100);
  const livenessMs = int('liveness', 3000, 100);
  const workers = int('workers', 4, 1);
  const servers = values.has('servers') ? int('servers', 0, 1) : undefined;

  const kinds = strategies.map((s) => s.kind as string);
  const strategy = values.get('strategy') ?? 'all';
  let list: string[] = [];
  if (strategy === 'all') list = kinds;
  else if (strategyInfo(strategy)) list = [strategy];
  else errors.push(`--strategy: "${strategy}" is not a registered strategy (${kinds.join(', ')}, or all)`);

  let config: Record<string, unknown> = {};
  const configText = values.get('config');
  if (configText !== undefined) {
    try {
      const parsed: unknown = JSON.parse(configText);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      config = parsed as Record<string, unknown>;
    } catch (e) {
      errors.push(`--config: not a JSON object of knobs (${(e as Error).message})`);
    }
  }
  if (configText !== undefined && list.length > 1) errors.push('--config needs one --strategy');
  for (const kind of list) {
    const c = strategyConfig(kind, config);
    if (!c.ok) errors.push(`--config for ${kind}: ${c.error}`);
  }
  const coordText = values.get('coord');
  if (coordText !== undefined && coordText !== 'etcd' && coordText !== 'zookeeper') errors.push(`--coord: "${coordText}" is not a coordination service (etcd or zookeeper)`);
  const coord = coordText === 'etcd' || coordText === 'zookeeper' ? coordText : undefined;
  const expectLoss = flags.has('expect-loss');
  if (expectLoss) {
    // With `all`, only the strategies whose default configuration allows loss take part.
    if (strategy === 'all') list = list.filter((k) => lossAllowedFor(k, config));
    else if (list.length === 1 && !lossAllowedFor(list[0], config)) {
      errors.push(`--expect-loss: this configuration of ${list[0]} does not allow loss; give one that does with --config (e.g. Kafka's acks=1 or unclean election)`);
    }
  }

  let shard: Shard | undefined;
  const shardText = values.get('shard');
  if (shardText !== undefined) {
    const p = parseShard(shardText);
    if (p.ok) shard = p.shard;
    else errors.push(p.error);
  }
  if (flags.has('json') && flags.has('jsonl')) errors.push('--json and --jsonl: choose one output');

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    args: {
      strategies: list,
      seeds,
      from,
      ...(shard ? { shard } : {}),
      ...(flags.has('jsonl') ? { jsonl: true } : {}),
      faultMs,
      livenessMs,
      workers,
      ...(servers !== undefined ? { servers } : {}),
      config,
      ...(configText !== undefined ? { configText } : {}),
      ...(coord ? { coord } : {}),
      expectLoss,
      json: flags.has('json'),
    },
  };
}

function lossAllowedFor(kind: string, config: Record<string, unknown>): boolean {
  const c = strategyConfig(kind, config);
  return c.ok && allowsLoss(c.cfg);
}

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

export function reproCommand(a: CheckArgs, kind: string, seed: number): string {
  const parts = ['npm run check --', '--strategy', kind, '--seeds', '1', '--from', String(seed)];
  if (a.faultMs !== 5000) parts.push('--duration', String(a.faultMs));
  if (a.livenessMs !== 3000) parts.push('--liveness', String(a.livenessMs));
  if (a.workers !== 4) parts.push('--workers', String(a.workers));
  if (a.servers !== undefined) parts.push('--servers', String(a.servers));
  if (a.configText !== undefined) parts.push('--config', `'${a.configText.replace(/'/g, `'\\''`)}'`);
  if (a.coord) parts.push('--coord', a.coord);
  if (a.expectLoss) parts.push('--expect-loss');
  return parts.join(' ');
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
