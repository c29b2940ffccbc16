/**
 * `NODE_OPTIONS=--expose-gc npx tsx bench/heap.ts [scenario] [workers] [minutes]`: how the heap a
 * run keeps grows with its length (issue 9, "cost independent of the run's length"). Runs a
 * built-in (default raft-ps-majority, 8 workers, 4 simulated minutes) with the stand-in trainer,
 * syncing the history index as the app does, forces a GC at 1 minute and at the end, and prints
 * heapUsed growth per simulated minute and which structures hold the memory (an estimate: a walk
 * that counts each object once, attributed to the first structure that reaches it). Ends with one
 * JSON line. A measurement tool, not a test: nothing here asserts.
 */
import { readFileSync } from 'node:fs';
import { Simulation } from '../src/engine/simulation';
import { InstantTrainer } from '../src/engine/testing/instantTrainer';
import { validateScenario } from '../src/scenario/validate';
import { nodeSha256 } from '../src/cli/nodeSha256';

const [id = 'raft-ps-majority', workersArg = '8', minutesArg = '4'] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with NODE_OPTIONS=--expose-gc (a forced GC makes heapUsed comparable)');
const log = (s: string) => process.stdout.write(s + '\n');

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}

// ---------------------------------------------------------------- a size estimate by walking

/** Rough V8 sizes (64-bit, no pointer compression as in Node; Chrome's compressed pointers halve most). */
class Walker {
  private readonly seen = new Set<unknown>();
  private readonly strings = new Set<string>();
  count = 0;
  /** Bytes of typed arrays' buffers seen so far (outside the JS heap: not in heapUsed, in arrayBuffers). */
  ext = 0;

  /** Estimated bytes reachable from `root` not already counted by an earlier walk. */
  size(root: unknown): number {
    let bytes = 0;
    const stack: unknown[] = [root];
    while (stack.length) {
      const v = stack.pop();
      if (typeof v === 'string') {
        if (!this.strings.has(v)) {
          this.strings.add(v);
          bytes += 24 + v.length;
        }
        continue;
      }
      if (typeof v === 'number') {
        // Heap numbers (non-Smi): 16 bytes, unless held in a double field (not knowable here).
        if (!Number.isInteger(v) || Math.abs(v) > 2 ** 30) bytes += 16;
        continue;
      }
      if (v === null || typeof v !== 'object' || this.seen.has(v)) continue;
      this.seen.add(v);
      this.count++;
      if (ArrayBuffer.isView(v)) {
        bytes += 80;
        if (!this.seen.has(v.buffer)) {
          this.seen.add(v.buffer);
          this.ext += v.buffer.byteLength;
        }
        continue;
      }
      if (Array.isArray(v)) {
        bytes += 32 + 8 * v.length;
        for (const x of v) stack.push(x);
        continue;
      }
      if (v instanceof Map) {
        bytes += 40 + 24 * v.size + 8 * v.size;
        for (const [k, x] of v) stack.push(k, x);
        continue;
      }
      if (v instanceof Set) {
        bytes += 40 + 16 * v.size + 8 * v.size;
        for (const x of v) stack.push(x);
        continue;
      }
      const keys = Object.keys(v);
      bytes += 24 + 8 * keys.length;
      for (const k of keys) {
        const x = (v as Record<string, unknown>)[k];
        if (typeof x !== 'function') stack.push(x);
      }
    }
    return bytes;
  }
}

type Any = Record<string, unknown>;
const priv = (o: unknown, k: string): unknown => (o as Any)[k];

interface Census {
  heapMB: number;
  /** process.memoryUsage().arrayBuffers: typed arrays' buffers (the history's columns, gradients). */
  bufMB: number;
  events: number;
  /** Estimated MB per structure. */
  holders: Record<string, number>;
  /** Events per history type. */
  counts: Record<string, number>;
}

function census(sim: Simulation, heap: number): Census {
  const w = new Walker();
  const holders: Record<string, number> = {};
  const counts: Record<string, number> = {};
  const add = (k: string, b: number) => {
    holders[k] = (holders[k] ?? 0) + b / 2 ** 20;
    // Buffers go on a line of their own, so the table's heap figures compare with heapUsed.
    if (w.ext > 0) holders[`${k} [buffers]`] = (holders[`${k} [buffers]`] ?? 0) + w.ext / 2 ** 20;
    w.ext = 0;
  };
  const h = sim.history;
  const n = h.length;
  for (let i = 0; i < n; i++) {
    const e = h.at(i);
    counts[e.type] = (counts[e.type] ?? 0) + 1;
  }
  // The history's own storage: per event type where it keeps objects, its columns otherwise.
  const objects = priv(h, 'objects') as Array<{ type: string }> | undefined;
  if (objects) for (const e of objects) add(`history.${e.type}`, w.size(e));
  for (const k of Object.keys(h)) if (k !== 'objects' && k !== 'listeners' && k !== 'materialized') add(`history:${k}`, w.size(priv(h, k)));
  const ix = sim.index();
  for (const k of Object.keys(ix)) add(`index.${k}`, w.size(priv(ix, k)));
  const strategy = priv(sim, 'strategy') as Any;
  // Raft servers' logs (the entries with their gradients) on their own line.
  const servers = priv(strategy, 'srv');
  if (servers instanceof Map) {
    for (const s of servers.values()) {
      const p = priv(s, 'p');
      if (p && typeof p === 'object' && Array.isArray(priv(p, 'log'))) add('strategy.raftLogs', w.size(priv(p, 'log')));
    }
  }
  for (const k of ['obs', 'clients']) if (priv(strategy, k)) add(`strategy.${k}`, w.size(priv(strategy, k)));
  for (const k of Object.keys(strategy)) add(`strategy.${k}`, w.size(strategy[k]));
  const read = priv(sim, 'read') as Any;
  for (const k of Object.keys(read)) if (k !== 'c') add(`read.${k}`, w.size(read[k]));
  add('core.rest', w.size(priv(sim, 'c')));
  return { heapMB: heap / 2 ** 20, bufMB: process.memoryUsage().arrayBuffers / 2 ** 20, events: n, holders, counts };
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  const v = validateScenario(JSON.parse(readFileSync(`public/scenarios/${id}.json`, 'utf8')));
  if (!v.ok) throw new Error(v.errors.join('\n'));
  const minutes = Number(minutesArg);
  const sc = { ...v.scenario, durationMs: minutes * 60_000, cluster: { ...v.scenario.cluster, workers: Number(workersArg) } };
  const sim = await Simulation.create(sc, { trainer: new InstantTrainer(), sha256: nodeSha256 });
  const base = heapAfterGc();
  const t0 = performance.now();
  let at1: Census | null = null;
  // Advance in slices and sync the index after each, as the app does every frame.
  for (let t = 500; t <= sc.durationMs; t += 500) {
    await sim.advanceTo(t);
    sim.index();
    if (t === 60_000) at1 = census(sim, heapAfterGc());
  }
  await sim.runToEnd();
  sim.index();
  const wallS = (performance.now() - t0) / 1000;
  const end = census(sim, heapAfterGc());
  if (!at1) throw new Error('the run is shorter than a minute');
  const perMin = (end.heapMB - at1.heapMB) / (minutes - 1);
  log(`${id}, ${sc.cluster.workers} workers, ${minutes} simulated min, ${wallS.toFixed(1)} s wall; heap before the run ${(base / 2 ** 20).toFixed(1)} MB`);
  log(`heapUsed after GC: ${at1.heapMB.toFixed(1)} MB at 1 min, ${end.heapMB.toFixed(1)} MB at ${minutes} min → ${perMin.toFixed(2)} MB per simulated minute`);
  const bufPerMin = (end.bufMB - at1.bufMB) / (minutes - 1);
  log(`arrayBuffers (typed arrays, outside heapUsed): ${at1.bufMB.toFixed(1)} MB at 1 min, ${end.bufMB.toFixed(1)} MB at ${minutes} min → ${bufPerMin.toFixed(2)} MB per simulated minute`);
  log(`events: ${at1.events} at 1 min, ${end.events} at ${minutes} min`);
  log('');
  log('estimated holder (walk)         MB@1min   MB@end   MB/min');
  const keys = Object.keys(end.holders).sort((a, b) => end.holders[b] - end.holders[a]);
  for (const k of keys) {
    const a = at1.holders[k] ?? 0;
    const b = end.holders[k];
    if (b < 0.05) continue;
    log(`${k.padEnd(30)} ${a.toFixed(2).padStart(8)} ${b.toFixed(2).padStart(8)} ${((b - a) / (minutes - 1)).toFixed(3).padStart(8)}`);
  }
  log('');
  log(`events by type at the end: ${Object.entries(end.counts).sort((a, b) => b[1] - a[1]).map(([k, c]) => `${k} ${c}`).join(', ')}`);
  const holdersPerMin = Object.fromEntries(keys.map((k) => [k, +(((end.holders[k] - (at1!.holders[k] ?? 0)) / (minutes - 1)).toFixed(3))]));
  log(JSON.stringify({ scenario: id, workers: sc.cluster.workers, minutes, heapMBAt1: +at1.heapMB.toFixed(2), heapMBAtEnd: +end.heapMB.toFixed(2), heapMBPerSimMinute: +perMin.toFixed(3), arrayBuffersMBPerSimMinute: +bufPerMin.toFixed(3), events: end.events, scheduleHash: sim.scheduleHash(), holdersMBPerMin: holdersPerMin }));
}

void main();
