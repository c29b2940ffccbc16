/**
 * `npx tsx bench/engineCost.ts [allreduce|async|fashion-ar|fashion-async] [reps] [--sha noble|node|lines|rows]`:
 * what the engine alone costs per gradient step — stand-in gradients (InstantTrainer) — in CPU µs
 * (process.cpuUsage: on a shared machine wall time is mostly other people's). The history's
 * digests: `noble` (default) its lines written and hashed with the pure-JS SHA-256, on this
 * thread; `node` with node:crypto, as the CLI hashes; `lines` every line written and its bytes
 * dropped (what the page's main thread did while its hash worker took the bytes); `rows` the
 * history's rows handed over in batches and dropped — the page's hash worker writes the lines from
 * them (sim/historyRows.ts), so this is the main thread's share of the browser bench's cluster
 * run, minus the messaging. A tool for finding work, never a test.
 */
import { readFileSync } from 'node:fs';
import { Simulation } from '../src/engine/simulation';
import { InstantTrainer } from '../src/engine/testing/instantTrainer';
import { validateScenario } from '../src/scenario/validate';
import { strategySchema, type Scenario } from '../src/scenario/schema';
import { throughputScenario } from './cluster';
import { nodeSha256 } from '../src/cli/nodeSha256';
import type { Sha256Factory } from '../src/sim/history';
import { flag } from './args';

function builtin(id: string): Scenario {
  const v = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  return v.scenario;
}
const fa = builtin('fashion-mnist-allreduce-vs-async');
const cases: Array<[string, Scenario, number, number]> = [
  ['allreduce', builtin('allreduce-partition'), 105, 400],
  ['async', builtin('async-partition'), 105, 400],
  ['fashion-ar', fa, 101770, 5000],
  ['fashion-async', { ...fa, cluster: { ...fa.cluster, servers: 1 }, strategy: strategySchema.parse({ kind: 'ps-async' }) }, 101770, 5000],
];
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const only = positional[0];
const reps = Number(positional[1] ?? 5);
const shaName = flag('sha', 'noble');
/** The lines are written (EventHashes) and their bytes dropped: what hashing in another thread leaves here. */
const lines: Sha256Factory = () => ({ update: () => undefined, peekHex: () => '' });
/** The rows handed over in batches and dropped: what the page's main thread does (its hash worker writes the lines). */
const rows: Sha256Factory = Object.assign(() => lines(), { rows: () => ({ add: () => undefined, digests: () => ({ scheduleHash: '', eventLogHash: '' }) }) });
const shas: Record<string, Sha256Factory | undefined> = { noble: undefined, node: nodeSha256, lines, rows };
if (!(shaName in shas)) throw new Error(`--sha: one of ${Object.keys(shas).join(', ')}, not "${shaName}"`);
const sha256 = shas[shaName];
for (const [name, base, params, samples] of cases) {
  if (only && only !== name) continue;
  const sc = throughputScenario(base, name.startsWith('fashion') ? 20000 : 60000);
  let best = Infinity;
  let steps = 0;
  let events = 0;
  for (let r = 0; r < reps; r++) {
    const sim = await Simulation.create(sc, { trainer: new InstantTrainer(params, samples), sampleEveryMs: 0, sha256 });
    const c0 = process.cpuUsage();
    await sim.runToEnd();
    const c1 = process.cpuUsage(c0);
    const dt = (c1.user + c1.system) / 1000; // CPU ms: the machine is shared, wall time is not ours
    steps = sim.metric('steps') ?? 0;
    events = sim.history.length;
    best = Math.min(best, dt / steps);
  }
  console.log(`${name}: ${steps} steps, ${(events / steps).toFixed(1)} events/step, best ${(best * 1000).toFixed(0)} µs CPU/step (engine + InstantTrainer gradient, SHA-256 ${shaName})`);
}
