import { strategies, strategyInfo } from '../protocols';
import type { Sha256Factory } from '../sim/history';
import { allowsLoss } from './models';
import { runSeed, strategyConfig, type SeedProblem, type SeedResult } from './runner';

/**
 * `npm run check -- [--strategy KIND|all] [--seeds N] [--from S] [--duration MS] [--config JSON]
 * [--expect-loss] [--liveness MS] [--workers N] [--json]`: the randomized fault-schedule checker.
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
  --coord SERVICE    run a coordination service (etcd or zookeeper) on c0-c2 beside the strategy:
                     its nodes take faults too, processes pause (GC), the metadata key is written
                     and read; its invariants count as violations, and etcd's metadata reads are
                     checked for linearizability
  --json             print one JSON object on stdout
  -h, --help         show this help

exit status: 0 no violation, 1 a violation (or an unexpected loss), 2 invalid arguments`;

export interface CheckArgs {
  strategies: string[];
  seeds: number;
  from: number;
  faultMs: number;
  livenessMs: number;
  workers: number;
  config: Record<string, unknown>;
  configText?: string;
  coord?: 'etcd' | 'zookeeper';
  expectLoss: boolean;
  json: boolean;
}

export function parseCheckArgs(argv: readonly string[]): { ok: true; args: CheckArgs } | { ok: true; help: true } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const valueNames = ['strategy', 'seeds', 'from', 'duration', 'config', 'liveness', 'workers', 'coord'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return { ok: true, help: true };
    if (!arg.startsWith('--')) {
      errors.push(`unexpected argument "${arg}"`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (name === 'json' || name === 'expect-loss') {
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

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    args: { strategies: list, seeds, from, faultMs, livenessMs, workers, config, ...(configText !== undefined ? { configText } : {}), ...(coord ? { coord } : {}), expectLoss, json: flags.has('json') },
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
  if (a.configText !== undefined) parts.push('--config', `'${a.configText.replace(/'/g, `'\\''`)}'`);
  if (a.coord) parts.push('--coord', a.coord);
  if (a.expectLoss) parts.push('--expect-loss');
  return parts.join(' ');
}

export async function checkStrategy(
  a: CheckArgs,
  kind: string,
  opts: { sha256?: Sha256Factory; clock?: () => number; onSeed?: (r: SeedResult, report: (line: string) => void) => void; log?: (line: string) => void } = {},
): Promise<StrategyReport> {
  const clock = opts.clock ?? (() => globalThis.performance.now());
  const t0 = clock();
  const c = strategyConfig(kind, a.config);
  if (!c.ok) throw new Error(c.error);
  const r: StrategyReport = {
    kind,
    config: c.cfg as unknown as Record<string, unknown>,
    seeds: a.seeds,
    from: a.from,
    failing: [],
    violations: 0,
    lostUpdates: 0,
    seedsWithLoss: 0,
    lossAllowed: allowsLoss(c.cfg),
    livenessOk: 0,
    linearizability: { checked: 0, linearizable: 0, notLinearizable: 0, gaveUp: 0 },
    metaLinearizability: { checked: 0, linearizable: 0, notLinearizable: 0, gaveUp: 0 },
    ...(a.coord ? { coord: a.coord } : {}),
    ops: 0,
    ms: 0,
    seedsPerMinute: 0,
    pass: true,
  };
  for (let seed = a.from; seed < a.from + a.seeds; seed++) {
    const res = await runSeed({ kind, config: a.config, seed, faultMs: a.faultMs, livenessMs: a.livenessMs, workers: a.workers, crashServers: a.expectLoss, sha256: opts.sha256, ...(a.coord ? { coord: a.coord } : {}) });
    r.violations += res.violations;
    r.lostUpdates += res.lostUpdates;
    r.ops += res.ops;
    if (res.lostUpdates > 0) r.seedsWithLoss++;
    if (!res.problems.some((p) => p.check === 'liveness')) r.livenessOk++;
    const lin = res.linearizability;
    if (lin) {
      r.linearizability.checked++;
      if (lin.result === 'linearizable') r.linearizability.linearizable++;
      else if (lin.result === 'not-linearizable') r.linearizability.notLinearizable++;
      else r.linearizability.gaveUp++;
    }
    const ml = res.metaLinearizability;
    if (ml) {
      r.metaLinearizability.checked++;
      if (ml.result === 'linearizable') r.metaLinearizability.linearizable++;
      else if (ml.result === 'not-linearizable') r.metaLinearizability.notLinearizable++;
      else r.metaLinearizability.gaveUp++;
    }
    if (res.problems.length) {
      const repro = reproCommand(a, kind, seed);
      r.failing.push({ seed, problems: res.problems, repro });
      opts.log?.(`  FAIL ${kind} seed ${seed}: ${res.problems.map((p) => `${p.check}: ${p.detail}`).join(' | ')}\n       ${repro}`);
    }
  }
  r.ms = clock() - t0;
  r.seedsPerMinute = r.ms > 0 ? Math.round((a.seeds * 60000) / r.ms) : 0;
  r.pass = r.failing.length === 0 && (!a.expectLoss || r.seedsWithLoss > 0);
  return r;
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
  return (
    `${r.pass ? 'PASS' : 'FAIL'} ${r.kind}${r.coord ? ` + ${r.coord}` : ''}: seeds ${r.from}..${r.from + r.seeds - 1}, ${r.failing.length} failing · violations ${r.violations} · ${loss} · ` +
    `liveness ${r.livenessOk}/${r.seeds} · ${linText}${coordText} · ${(r.ms / 1000).toFixed(1)} s (${r.seedsPerMinute} seeds/min)`
  );
}
