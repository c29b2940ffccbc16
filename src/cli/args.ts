import { unknownOption } from '../check/unknownOption';

/**
 * Command-line arguments of `npm run sim` (CONTRACTS §2). Hand-rolled rather than node:util
 * parseArgs so every error names the flag and the bad value in our own words; the caller turns
 * errors into exit status 2.
 */

export const cliBackends = ['cpu', 'wasm'] as const;
export type CliBackend = (typeof cliBackends)[number];

export interface CliArgs {
  /** A scenario file path or a built-in id. */
  target: string;
  seed?: number;
  untilMs?: number;
  json: boolean;
  log?: string;
  /** Write the operations on the parameters (reads, updates) as Jepsen-style JSON Lines. */
  history?: string;
  /** Write the engine's metric samples as CSV (`t_ms,metric,node,value`). */
  samples?: string;
  backend: CliBackend;
}

export type ArgsResult = { ok: true; args: CliArgs } | { ok: true; help: true } | { ok: false; errors: string[] };

export const usage = `usage: npm run sim -- <scenario.json | built-in id> [options]

options:
  --seed N           override the scenario's seed (an integer)
  --until MS         stop at this simulated time instead of durationMs
                     (expectations after it are reported as not reached)
  --json             print exactly one JSON object (the run summary) on stdout
  --log FILE.jsonl   write the event log, one JSON object per line
  --history FILE.jsonl
                     write the reads and updates of the parameters, one operation event per
                     line: {process, type: invoke|ok|fail|info, f: read|update, value, time, id}
  --samples FILE.csv write the engine's metric samples (period 250 ms, every expectation
                     time and the end): t_ms,metric,node,value — an empty node is cluster-wide
  --backend B        tfjs backend: cpu (default) or wasm
  -h, --help         show this help

A scenario with variants runs the base and then every variant (each with the base seed); the
summary reports each, --json adds "variants": [{id, scheduleHash, eventLogHash, metrics,
expectations, pass}], and the verdict needs all of them. --log and --history describe the base
run. The page opens one variant with ?scenario=<id>&variant=<variant id>.

exit status: 0 all expectations hold, 1 one fails, 2 invalid input or arguments`;

const valueFlags = ['seed', 'until', 'log', 'history', 'samples', 'backend'] as const;
type ValueFlag = (typeof valueFlags)[number];
const boolFlags = ['json', 'help'] as const;

export function parseCliArgs(argv: readonly string[]): ArgsResult {
  const errors: string[] = [];
  const positionals: string[] = [];
  const values = new Map<ValueFlag, string>();
  let json = false;
  let help = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-') errors.push(`unknown option "${arg}"`);
      else positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const inline = eq >= 0 ? arg.slice(eq + 1) : undefined;

    if ((boolFlags as readonly string[]).includes(name)) {
      if (inline !== undefined) {
        errors.push(`--${name} takes no value (got "${inline}")`);
        continue;
      }
      if (name === 'json') json = true;
      else help = true;
      continue;
    }
    if ((valueFlags as readonly string[]).includes(name)) {
      const flag = name as ValueFlag;
      let value = inline;
      if (value === undefined) {
        const next = argv[i + 1];
        // A following flag is not a value: `--seed --json` is a missing seed, not seed "--json".
        if (next === undefined || (next.startsWith('--') && next.length > 2)) {
          errors.push(`--${flag} needs a value`);
          continue;
        }
        value = next;
        i++;
      }
      if (values.has(flag)) errors.push(`--${flag} given more than once`);
      values.set(flag, value);
      continue;
    }
    errors.push(unknownOption(name, [...valueFlags, ...boolFlags]));
  }

  if (help) return { ok: true, help: true };

  if (positionals.length === 0) errors.push('missing scenario: give a scenario file or a built-in id');
  else if (positionals.length > 1) errors.push(`expected one scenario, got ${positionals.length}: ${positionals.map((p) => `"${p}"`).join(' ')}`);

  const args: CliArgs = { target: positionals[0] ?? '', json, backend: 'cpu' };

  const seed = values.get('seed');
  if (seed !== undefined) {
    const r = parseSeed(seed);
    if (typeof r === 'string') errors.push(r);
    else args.seed = r;
  }

  const until = values.get('until');
  if (until !== undefined) {
    const n = until.trim() === '' ? NaN : Number(until);
    if (!Number.isFinite(n) || n <= 0) errors.push(`--until: "${until}" is not a positive number of simulated milliseconds`);
    else args.untilMs = n;
  }

  const log = values.get('log');
  if (log !== undefined) {
    if (log === '') errors.push('--log: empty file name');
    else args.log = log;
  }

  const history = values.get('history');
  if (history !== undefined) {
    if (history === '') errors.push('--history: empty file name');
    else args.history = history;
  }

  const samples = values.get('samples');
  if (samples !== undefined) {
    if (samples === '') errors.push('--samples: empty file name');
    else args.samples = samples;
  }

  const backend = values.get('backend');
  if (backend !== undefined) {
    const r = parseBackend(backend);
    if (r.ok) args.backend = r.backend;
    else errors.push(r.error);
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, args };
}

/** `--seed`'s value: an integer, or the error line (sim and sweep say it alike). */
export function parseSeed(raw: string): number | string {
  const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) ? n : `--seed: "${raw}" is not an integer`;
}

/** `--backend`'s value: one of cliBackends, or the error line. */
export function parseBackend(raw: string): { ok: true; backend: CliBackend } | { ok: false; error: string } {
  return (cliBackends as readonly string[]).includes(raw) ? { ok: true, backend: raw as CliBackend } : { ok: false, error: `--backend: "${raw}" is not one of ${cliBackends.join(', ')}` };
}
