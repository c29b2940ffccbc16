import { strategies, strategyInfo } from '../protocols';
import { allowsLoss } from './models';
import { strategyConfig } from './runner';
import { parseShard, type Shard } from './shard';
import { unknownOption } from './unknownOption';

/**
 * The arguments of `npm run check -- [--strategy KIND|all] [--seeds N] [--from S] [--duration MS]
 * [--config JSON] [--coord etcd|zookeeper] [--expect-loss] [--liveness MS] [--workers N]
 * [--servers N] [--shard I/N] [--json | --jsonl] | --merge FILE…`, the randomized fault-schedule
 * checker: its usage text, the parser, and the one-seed reproduction command built back from them.
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
      errors.push(unknownOption(name, [...valueNames, 'json', 'jsonl', 'expect-loss', 'help']));
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
