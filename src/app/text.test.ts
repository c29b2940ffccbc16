import { beforeAll, describe, expect, it } from 'vitest';
import { builtinIds } from '../cli/builtins';
import type { Simulation } from '../engine/simulation';
import { capOf, strategies } from '../protocols';
import { resolveVariant } from '../scenario/validate';
import { clusterNodeIds } from '../scenario/nodes';
import type { NetFaults } from '../sim/faults';
import { metricNames, type Scenario } from '../scenario/schema';
import { checkModel } from '../check/models';
import { explain, type ExplainState } from './explain';
import { catalogOf } from './i18n/catalog';
import { keysOf, s, type StringKey } from './i18n/strings';
import { explainAt, interestingTimes, runBuiltin } from './testing/runs';
import { indexOf, staticOf } from './views/runView';
import { serverPanelModel } from './views/serverModel';
import { kindName, vs, type ViewStringKey } from './views/strings';
import { wordsContext } from './views/wordsContext';
import { withStrategy } from './strategySwitch';
import { checkWhatText } from './words/checkWords';
import { list } from './words/text';
import { nodeLines } from './words/nodeWords';
import { noteText } from './words/noteWords';

/**
 * What the app says, checked on real simulations of every built-in (stand-in gradients: the
 * protocols, faults and facts are real) at the moments that matter, in English and Chinese:
 * the explanation is true for the configuration on screen (TRUTHS "Careful wording"), and no
 * English word reaches a Chinese screen.
 */

interface Run {
  label: string;
  sim: Simulation;
  times: number[];
}

const runs: Run[] = [];

const loneFollower = [
  { at: 2000, do: 'partition', groups: [['s0', 's1', 's2', 's3', 'w0', 'w1', 'w2', 'w3'], ['s4']] },
  { at: 8000, do: 'heal' },
] as Scenario['timeline'];

/** Built-ins with a knob changed: the truths that depend on the configuration, on real runs. */
const variants: Array<[string, string, (s: Scenario) => Scenario]> = [
  ['raft-ps-majority', 'raft, local reads', (sc) => ({ ...sc, strategy: { ...sc.strategy, readMode: 'local' } as Scenario['strategy'] })],
  ['raft-ps-majority', 'raft, no leader no-op', (sc) => ({ ...sc, strategy: { ...sc.strategy, leaderNoop: false } as Scenario['strategy'] })],
  // A dragged partition: w0, w1 cut off from every server, alone.
  ['raft-ps-majority', 'raft, workers cut off alone', (sc) => ({ ...sc, timeline: sc.timeline.map((e) => (e.do === 'partition' ? { ...e, groups: [['w2', 'w3'], ['w0', 'w1']] } : e)) })],
  ['raft-ps-majority', 'raft, one worker cut off alone', (sc) => ({ ...sc, timeline: sc.timeline.map((e) => (e.do === 'partition' ? { ...e, groups: [['w1', 'w2', 'w3'], ['w0']] } : e)) })],
  ['raft-leader-crash', 'raft, 4 servers', (sc) => ({ ...sc, cluster: { ...sc.cluster, servers: 4 } })],
  ['ssp-bounded-staleness', 'ssp, s = ∞', (sc) => ({ ...sc, strategy: { ...sc.strategy, staleness: 'inf' } as Scenario['strategy'] })],
  ['ssp-bounded-staleness', 'ssp, s = 0', (sc) => ({ ...sc, strategy: { ...sc.strategy, staleness: 0 } as Scenario['strategy'] })],
  ['kafka-acks-isr', 'kafka, 2 topic partitions', (sc) => ({ ...sc, strategy: { ...sc.strategy, 'num.partitions': 2 } as Scenario['strategy'] })],
  ['coordination-fencing', 'etcd, serializable reads', (sc) => ({ ...sc, coordination: { ...sc.coordination!, service: 'etcd', reads: 'serializable' } })],
  ['coordination-fencing', 'zookeeper, sync then local reads', (sc) => ({ ...sc, coordination: { ...sc.coordination!, reads: 'sync-then-local' } })],
  // Epochs from each side's own detector (no coordination service) and a store that does not check them.
  ['degrade-average', 'degrade, detector epochs, no fencing', (sc) => ({ ...sc, strategy: { ...sc.strategy, fencing: false } as Scenario['strategy'] })],
  // A partition that heals, then a slow worker the detector takes for another one (free play can do this).
  [
    'interview-consistency-answer',
    'degrade, a false alarm after a healed partition',
    (sc) => {
      const r = resolveVariant(sc, 'degrade');
      if (!r.ok) throw new Error(r.errors.join('\n'));
      const timeline = [
        { at: 1000, do: 'partition', groups: [['w0', 'w1', 'w2', 'w3'], ['w4', 'w5']] },
        { at: 3000, do: 'heal' },
        { at: 8000, do: 'slow', node: 'w5', factor: 3 },
        { at: 11000, do: 'slow', node: 'w5', factor: 1 },
      ] as Scenario['timeline'];
      return { ...r.scenario, timeline };
    },
  ],
  // A worker's link to a server cut and restored: the servers were never split (it said "servers that were cut off see the higher term").
  ['raft-ps-majority', "raft, a worker's links cut and restored", (sc) => ({ ...sc, timeline: [{ at: 2000, do: 'cut', from: 'w1', to: 's0' }, { at: 2000, do: 'cut', from: 'w1', to: 's1' }, { at: 5000, do: 'restore', from: 'w1', to: 's0' }, { at: 5000, do: 'restore', from: 'w1', to: 's1' }] as Scenario['timeline'] })],
  // A server cut off before any election times out into the term the majority then elects in: at the heal it is in the leader's own term (it read "servers that were cut off see the higher term 1").
  ['raft-figure-8', 'raft, a server cut off before the first election', (sc) => ({ ...sc, durationMs: 5000, timeline: [{ at: 1196, do: 'partition', groups: [['w0', 'w1', 's0', 's1', 's3', 's4'], ['s2']] }, { at: 1692, do: 'timeout', node: 's0' }, { at: 3756, do: 'heal' }] as Scenario['timeline'] })],
  // Heal pressed on a whole network, and a worker crashed and restarted: neither cut a server off (both read "servers that were cut off see the higher term").
  ['raft-ps-majority', 'raft, a heal with nothing cut and a worker restart', (sc) => ({ ...sc, timeline: [{ at: 1500, do: 'heal' }, { at: 3000, do: 'crash', node: 'w1' }, { at: 5000, do: 'restart', node: 'w1' }] as Scenario['timeline'] })],
  // A one-way cut between two workers: the ring stalls, yet the workers that still hear everyone count every worker as their side.
  ['degrade-average', 'degrade, a one-way cut', (sc) => ({ ...sc, durationMs: 12000, timeline: [{ at: 5000, do: 'cut', from: 'w0', to: 'w1' }, { at: 9000, do: 'restore', from: 'w0', to: 'w1' }] as Scenario['timeline'] })],
  // A cut off the ring's path: nothing stalls, nothing degrades, nothing merges.
  ['degrade-average', 'degrade, a cut the ring does not use', (sc) => ({ ...sc, durationMs: 12000, timeline: [{ at: 5000, do: 'cut', from: 'w0', to: 'w2' }, { at: 9000, do: 'restore', from: 'w0', to: 'w2' }] as Scenario['timeline'] })],
  // The coordination servers split, the workers whole, then a slow worker: the detector's alarm is still a false one.
  ['degrade-merge-fencing', 'degrade, coordination servers split and a slow worker', (sc) => ({ ...sc, durationMs: 14000, timeline: [{ at: 3000, do: 'partition', groups: [['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'c1'], ['c0', 'c2']] }, { at: 6000, do: 'slow', node: 'w0', factor: 5 }, { at: 10000, do: 'slow', node: 'w0', factor: 1 }] as Scenario['timeline'] })],
  // A worker partitioned off alone, then crashed: the other side is every live worker, not every worker.
  ['degrade-average', 'degrade, the lone worker crashes', (sc) => ({ ...sc, durationMs: 10000, timeline: [{ at: 3000, do: 'partition', groups: [['w1', 'w2', 'w3', 'w4', 'w5'], ['w0']] }, { at: 6000, do: 'crash', node: 'w0' }] as Scenario['timeline'] })],
  // Multi-Paxos split twice: workers on both sides, then the leader's side a minority of servers alone.
  ['paxos-vs-2pc', 'paxos, two partitions', (sc) => ({ ...sc, timeline: [{ at: 10, do: 'timeout', node: 's0' }, { at: 3000, do: 'partition', groups: [['s0', 's1', 's2', 'w0', 'w1'], ['s3', 's4', 'w2', 'w3']] }, { at: 6000, do: 'heal' }, { at: 8000, do: 'partition', groups: [['s2', 's3', 's4', 'w0', 'w1', 'w2', 'w3'], ['s0', 's1']] }, { at: 12000, do: 'heal' }] as Scenario['timeline'] })],
  // Two asynchronous-PS workers crash together (it said "After a restart it pulls" of both).
  ['async-partition', 'asp, two workers crash', (sc) => ({ ...sc, timeline: [{ at: 3000, do: 'crash', node: 'w0' }, { at: 3000, do: 'crash', node: 'w1' }, { at: 7000, do: 'restart', node: 'w0' }, { at: 7000, do: 'restart', node: 'w1' }] as Scenario['timeline'] })],
  // Two-phase commit split by a partition (its caption ignored the partition at availability 0).
  [
    'paxos-vs-2pc',
    '2pc, a participant partitioned off',
    (sc) => {
      const r = resolveVariant(sc, '2pc');
      if (!r.ok) throw new Error(r.errors.join('\n'));
      return { ...r.scenario, timeline: [{ at: 3000, do: 'partition', groups: [['s0', 's2', 's3', 's4', 'w0', 'w1', 'w2', 'w3'], ['s1']] }, { at: 7000, do: 'heal' }] as Scenario['timeline'] };
    },
  ],
  // A follower partitioned off alone for 6 s, without and with PreVote: its term climbs (or does not),
  // and on the heal deposes the leader (it said "servers that were cut off see the higher term 1").
  ['raft-ps-majority', 'raft, a follower cut off alone', (sc) => ({ ...sc, durationMs: 12000, timeline: loneFollower })],
  ['raft-ps-majority', 'raft, a follower cut off alone, PreVote', (sc) => ({ ...sc, durationMs: 12000, strategy: { ...sc.strategy, preVote: true } as Scenario['strategy'], timeline: loneFollower })],
  ['paxos-vs-2pc', 'paxos, a server cut off alone', (sc) => ({ ...sc, durationMs: 12000, timeline: [{ at: 10, do: 'timeout', node: 's0' }, ...loneFollower] as Scenario['timeline'] })],
  // A partition 1 s in: a detector switches before it misses the other side and counts every worker as its own.
  ['degrade-average', 'degrade, a partition at 1 s', (sc) => ({ ...sc, durationMs: 6000, timeline: [{ at: 1000, do: 'partition', groups: [['w0', 'w1', 'w2', 'w3'], ['w4', 'w5']] }, { at: 3500, do: 'heal' }] as Scenario['timeline'] })],
  // A second partition without a heal between: the sides counted at the first are kept, and the
  // new cut splits one of them (it was called a detector's lagging view "soon after the cut").
  ['degrade-average', 'degrade, a partition moved', (sc) => ({ ...sc, durationMs: 10000, timeline: [{ at: 3000, do: 'partition', groups: [['w0', 'w1', 'w2', 'w3'], ['w4', 'w5']] }, { at: 6500, do: 'partition', groups: [['w0', 'w1', 'w4', 'w5'], ['w2', 'w3']] }] as Scenario['timeline'] })],
  // Exploration seed 84: a crash alone; two detectors switch while the crashed worker still counts as heard.
  ['degrade-average', 'degrade, a crash counted as heard', (sc) => ({ ...sc, durationMs: 16000, timeline: [{ at: 13444, do: 'crash', node: 'w2' }] as Scenario['timeline'] })],
  // Exploration seed 441: a paused worker (a GC pause) counted as heard by some detectors, not by others.
  ['degrade-average', 'degrade, a pause counted as heard', (sc) => ({ ...sc, durationMs: 6000, timeline: [{ at: 1484, do: 'pause', node: 'w4', ms: 1488 }] as Scenario['timeline'] })],
  // Exploration seed 815: s2 and s4 climbed terms together cut off from leader s1; s4 rejoined s1 and deposed it, s2 stayed cut off.
  ['raft-prevote', 'raft, two servers climbed together and one rejoined', (sc) => ({ ...sc, durationMs: 9000, timeline: [{ at: 1713, do: 'partition', groups: [['w0', 'w3', 's0', 's1', 's2', 's3'], ['w1', 'w2', 's4']] }, { at: 2828, do: 'partition', groups: [['w0', 'w3', 's0', 's1', 's3'], ['w1', 'w2', 's2', 's4']] }, { at: 3820, do: 'partition', groups: [['w2', 's2'], ['s0', 's3'], ['w0', 'w1', 'w3', 's1', 's4']] }, { at: 7340, do: 'heal' }, { at: 7460, do: 'timeout', node: 's2' }] as Scenario['timeline'] })],
  // s3 and s4 cut off together, s3 starting phase 1 again and again with s4 promising; s4 rejoins the
  // leader alone and its answer carries s3's ballot: s0 steps down for a server it never heard from.
  ['paxos-vs-2pc', 'paxos, two servers cut off together and one rejoined', (sc) => ({ ...sc, durationMs: 6000, timeline: [{ at: 10, do: 'timeout', node: 's0' }, { at: 2000, do: 'partition', groups: [['s0', 's1', 's2', 'w0', 'w1'], ['s3', 's4', 'w2', 'w3']] }, { at: 4600, do: 'partition', groups: [['s3', 'w2'], ['s0', 's1', 's2', 's4', 'w0', 'w1', 'w3']] }, { at: 4690, do: 'heal' }] as Scenario['timeline'] })],
  // Exploration seed 620: a slow worker and a paused one both held the ring when the detector fired.
  ['degrade-merge-fencing', 'degrade, a slow worker and a paused one', (sc) => ({ ...sc, durationMs: 10000, timeline: [{ at: 7956, do: 'slow', node: 'w3', factor: 2 }, { at: 8644, do: 'pause', node: 'w5', ms: 2160 }] as Scenario['timeline'] })],
  // Exploration seed 83: a lagging view from 7.6 s still held at 19.4 s, beside a side the new partition split.
  ['degrade-average', 'degrade, a lagging view under a later partition', (sc) => ({ ...sc, timeline: [{ at: 7044, do: 'partition', groups: [['w0', 'w1', 'w4', 'w5'], ['w2', 'w3']] }, { at: 7932, do: 'partition', groups: [['w0', 'w1', 'w5'], ['w4'], ['w2', 'w3']] }, { at: 13052, do: 'crash', node: 'w2' }, { at: 19324, do: 'partition', groups: [['w0', 'w1', 'w2', 'w4', 'w5'], ['w3']] }, { at: 20268, do: 'partition', groups: [['w0', 'w1', 'w4', 'w5'], ['w2', 'w3']] }, { at: 21148, do: 'crash', node: 'w4' }] as Scenario['timeline'] })],
];

/**
 * Whether the network joined `a` and `b` again by `t`: at `t` neither a partition nor a cut link
 * separates them, and some earlier state did. A heal, a restore or a new partition that puts them on
 * one side (exploration seed 224: a repartition at 9.41 s brought s0 back to leader s2).
 */
function reunited(net: ReturnType<typeof indexOf>['net'], a: string, b: string, t: number): boolean {
  const upTo = net.filter((x) => x.t <= t);
  return upTo.length > 0 && !apartIn(upTo.at(-1)!.value, a, b) && upTo.some((x) => apartIn(x.value, a, b));
}

function apartIn(f: NetFaults, a: string, b: string): boolean {
  return (f.groups !== null && (f.groups.get(a) ?? 0) !== (f.groups.get(b) ?? 0)) || f.cuts.has(`${a}>${b}`) || f.cuts.has(`${b}>${a}`);
}

/** Whether the network at `t` kept `a` and `b` apart (a partition or a cut link between them). */
function apartAt(net: ReturnType<typeof indexOf>['net'], a: string, b: string, t: number): boolean {
  const at = net.filter((x) => x.t <= t).at(-1);
  return at !== undefined && apartIn(at.value, a, b);
}

/** A list of workers as the captions write it: "w0, w2–w7" → [w0, w2, …, w7]. */
function ids(text: string): string[] {
  return text.split(/, | and /).flatMap((part) => {
    const m = /^w(\d+)–w(\d+)$/.exec(part.trim());
    return m ? Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, k) => `w${Number(m[1]) + k}`) : [part.trim()];
  });
}

beforeAll(async () => {
  for (const id of builtinIds()) {
    const sim = await runBuiltin(id);
    runs.push({ label: id, sim, times: interestingTimes(sim) });
    // The file's own variants too (paxos-vs-2pc's "2pc" runs two-phase commit).
    for (const v of sim.scenario.variants ?? []) {
      const variant = await runBuiltin(id, (sc) => {
        const r = resolveVariant(sc, v.id);
        if (!r.ok) throw new Error(r.errors.join('\n'));
        return r.scenario;
      });
      runs.push({ label: `${id} / ${v.id}`, sim: variant, times: interestingTimes(variant) });
    }
  }
  for (const [id, label, patch] of variants) {
    const sim = await runBuiltin(id, patch);
    // 10 ms after the lone follower's heal, before the leader hears its term (a round is ~10 ms).
    const extra = label.startsWith('raft, a follower cut off alone') ? [8010] : [];
    runs.push({ label, sim, times: [...interestingTimes(sim), ...extra].sort((a, b) => a - b) });
  }
  // Every built-in again with its scripted faults moved in time: the same faults at another phase of
  // the protocol's rounds, as free play makes them (a partition 1 s into a degrade run had the
  // detector's stale view; a Paxos recovery with no gaps said "filled 0 gaps"). SHIFTED=a,b adds shifts.
  const shifts = [-1700, 900, ...(process.env.SHIFTED ? process.env.SHIFTED.split(',').map(Number) : [])];
  for (const id of builtinIds())
    for (const dt of shifts) {
        const sim = await runBuiltin(id, (sc) => ({
          ...sc,
          timeline: sc.timeline.map((e) => ('at' in e && typeof e.at === 'number' ? { ...e, at: Math.max(50, Math.min(sc.durationMs - 500, e.at + dt)) } : e)) as Scenario['timeline'],
        }));
        runs.push({ label: `${id} shifted ${dt}`, sim, times: interestingTimes(sim) });
      }
  // Exploration only (SWITCHED=1): every built-in switched to every other strategy as the strategy
  // menu does it (its faults kept; what was written for the old strategy left out).
  if (process.env.SWITCHED)
    for (const id of builtinIds())
      for (const info of strategies) {
        const sim = await runBuiltin(id, (sc) => (info.kind === sc.strategy.kind ? sc : (withStrategy(sc, info.kind)?.scenario ?? sc))).catch(() => null);
        if (sim && sim.scenario.strategy.kind === info.kind) runs.push({ label: `${id} switched to ${info.kind}`, sim, times: interestingTimes(sim) });
      }
  // Exploration only (RANDOM=n [RANDOM_FROM=k]): seeded free-play timelines k…n−1 per built-in
  // (crashes, restarts, two- and three-way partitions, heals, slow and paused nodes, one-way cuts and
  // restores, forced timeouts, a link's or the whole network's latency and loss).
  for (let k = Number(process.env.RANDOM_FROM ?? 0); k < Number(process.env.RANDOM ?? 0); k++)
    for (const id of builtinIds()) {
      let seed = (k + 1) * 7919 + id.length * 104729;
      const rnd = (n: number): number => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      const sim = await runBuiltin(id, (sc) => {
        const ids = clusterNodeIds(sc.cluster);
        const pick = () => ids[rnd(ids.length)];
        const timeline: Scenario['timeline'] = [];
        for (let i = 0; i < 7; i++) {
          const at = 300 + rnd(Math.max(1, sc.durationMs - 1000));
          const kind = rnd(10);
          if (kind === 0) timeline.push({ at, do: 'crash', node: pick() } as Scenario['timeline'][number]);
          else if (kind === 1) timeline.push({ at, do: 'restart', node: '@crashed' } as Scenario['timeline'][number]);
          else if (kind === 2) {
            const cut = ids.filter(() => rnd(3) === 0);
            const rest = ids.filter((x) => !cut.includes(x));
            if (cut.length && rest.length) timeline.push({ at, do: 'partition', groups: [rest, cut] } as Scenario['timeline'][number]);
          } else if (kind === 3) timeline.push({ at, do: 'heal' } as Scenario['timeline'][number]);
          else if (kind === 4) timeline.push({ at, do: 'slow', node: pick(), factor: 1 + rnd(5) } as Scenario['timeline'][number]);
          else if (kind === 5) {
            const a = pick();
            const b = pick();
            if (a !== b) timeline.push({ at, do: 'cut', from: a, to: b } as Scenario['timeline'][number]);
          } else if (kind === 6) {
            // A three-way partition, or the whole network's latency and loss changed.
            if (rnd(2) === 0) {
              const g = ids.map(() => rnd(3));
              const groups = [0, 1, 2].map((k) => ids.filter((_, j) => g[j] === k)).filter((x) => x.length > 0);
              if (groups.length > 1) timeline.push({ at, do: 'partition', groups } as Scenario['timeline'][number]);
            } else timeline.push({ at, do: 'network', latencyMs: 2 + rnd(60), loss: rnd(4) / 20 } as Scenario['timeline'][number]);
          } else if (kind === 7) timeline.push({ at, do: 'pause', node: pick(), ms: 400 + rnd(2000) } as Scenario['timeline'][number]);
          else if (kind === 8) {
            const servers = ids.filter((x) => x.startsWith('s'));
            if (servers.length) timeline.push({ at, do: 'timeout', node: servers[rnd(servers.length)] } as Scenario['timeline'][number]);
          } else if (kind === 9) {
            const a = pick();
            const b = pick();
            if (a !== b) timeline.push({ at, do: 'link', from: a, to: b, latencyMs: 100 + rnd(400) } as Scenario['timeline'][number]);
          } else {
            const lastCut = timeline.filter((e) => e.do === 'cut').at(-1) as { from: string; to: string } | undefined;
            if (lastCut) timeline.push({ at, do: 'restore', from: lastCut.from, to: lastCut.to } as Scenario['timeline'][number]);
          }
        }
        timeline.sort((a, b) => ((a as { at: number }).at ?? 0) - ((b as { at: number }).at ?? 0));
        return { ...sc, timeline, expect: [] };
      });
      runs.push({ label: `${id} random ${k}: ${JSON.stringify(sim.scenario.timeline)}`, sim, times: interestingTimes(sim) });
    }
}, 600_000);

function each(f: (r: Run, t: number, en: string, zh: string, st: ExplainState) => void): void {
  for (const r of runs)
    for (const t of r.times) {
      const { st } = explainAt(r.sim, t);
      f(r, t, explain(st, 'en'), explain(st, 'zh'), st);
    }
}

/** Every node tooltip line, servers-panel row and timeline note of every run, in English and Chinese. */
function eachPhrase(f: (where: string, en: string, zh: string) => void): void {
  for (const r of runs) {
    const ctx = wordsContext(r.sim.scenario, staticOf(r.sim));
    for (const t of r.times) {
      const { state } = explainAt(r.sim, t);
      for (const n of state.nodes) {
        const [en, zh] = [nodeLines(n, ctx, 'en'), nodeLines(n, ctx, 'zh')];
        en.forEach((line, i) => f(`${r.label} ${n.id}@${t}`, line, zh[i] ?? ''));
      }
      const [pe, pz] = [serverPanelModel(state, indexOf(r.sim), 30, ctx, 'en'), serverPanelModel(state, indexOf(r.sim), 30, ctx, 'zh')];
      pe.rows.forEach((row, i) => f(`${r.label} panel ${row.id}@${t}`, [row.facts, ...row.lines].join(' | '), [pz.rows[i].facts, ...pz.rows[i].lines].join(' | ')));
    }
    for (const n of indexOf(r.sim).notes) f(`${r.label} note ${n.what}@${n.t}`, noteText(n, 'en', r.sim.scenario), noteText(n, 'zh', r.sim.scenario));
  }
}

/** A cut between two workers, or a partition with workers on two sides (the ring's faults; a split of coordination servers alone is not one). */
function splitsWorkers(f: NetFaults, st: ExplainState): boolean {
  const ws = st.workers.map((w) => w.id);
  return [...f.cuts].some((k) => k.split('>').every((id) => ws.includes(id))) || (f.groups !== null && new Set(ws.map((id) => f.groups!.get(id) ?? 0)).size > 1);
}

function newestLeaderTerm(r: Run, t: number): number | null {
  let term: number | null = null;
  for (const n of explainAt(r.sim, t).state.nodes) if (n.up && n.facts?.kind === 'raft-server' && n.facts.role === 'leader') term = Math.max(term ?? 0, n.facts.term);
  return term;
}

describe('the explanation is true for the configuration on screen (real runs)', () => {
  it('covers every built-in and the knob variants', () => {
    expect(runs.length).toBeGreaterThanOrEqual(builtinIds().length + variants.length);
    expect(new Set(runs.map((r) => r.sim.scenario.strategy.kind))).toEqual(new Set(strategies.map((x) => x.kind)));
  });

  it('never prints "2f + 1" for an even number of servers, and states the tolerance of the cluster it runs', () => {
    each((r, t, en, zh) => {
      for (const text of [en, zh]) {
        const m = /2f \+ 1 = (\d+)/.exec(text);
        if (m) expect(Number(m[1]) % 2, `${r.label} @${t}: ${text}`).toBe(1);
      }
    });
    const four = runs.find((r) => r.label === 'raft, 4 servers')!;
    const { st } = explainAt(four.sim, 0);
    expect(explain(st, 'en')).toContain('4 servers tolerate f = 1 crash — no more than 3 would');
  });

  it('names only the class of the running configuration (capOf), and the Kafka durable recipe never says PA', () => {
    each((r, t, en, zh) => {
      const cap = capOf(r.sim.scenario.strategy);
      for (const text of [en, zh]) {
        for (const m of text.matchAll(/P[AC]\/E[LC]/g)) expect(m[0], `${r.label} @${t}: ${text}`).toBe(cap.pacelc);
        if (cap.partitionKeeps === 'durability') {
          expect(text, `${r.label} @${t}`).not.toMatch(/\bPA\b|PA\//);
          expect(text).not.toMatch(/C over A|选择 C|保住了 C/);
        }
      }
    });
    // The durable recipe is labelled PC/EL somewhere in its run, and the acks=1 one PA/EL.
    const said = (label: string) => runs.find((r) => r.label === label)!.times.map((t) => explain(explainAt(runs.find((r) => r.label === label)!.sim, t).st, 'en')).join(' ');
    expect(said('kafka-acks-isr')).toContain('PC/EL');
    expect(said('kafka-acks-isr')).toContain('durability over write availability');
    expect(said('kafka-acks1-leader-crash')).toContain('PA/EL');
  });

  it('calls only linearizable configurations C: lockstep, bounded staleness, durability and local reads are named for what they are', () => {
    each((r, t, en, zh) => {
      const cap = capOf(r.sim.scenario.strategy);
      if (cap.consistency === 'linearizable') return;
      expect(en, `${r.label} @${t}`).not.toMatch(/C over A|keeps C\b|C kept|choos\w* C\b|linearizable \(C\)|history: C/);
      expect(zh, `${r.label} @${t}`).not.toMatch(/保住了 C|保住 C|选择 C|线性一致（C）/);
      // A coordination service's own reads and writes may be linearizable while the strategy is not:
      // sentences naming the service are checked below, by the service's configuration.
      const strategyEn = r.sim.scenario.coordination ? en.replace(/[^.]*\b(etcd|ZooKeeper)\b[^.]*\./g, '') : en;
      if (cap.consistency !== 'committed-prefix') expect(strategyEn, `${r.label} @${t}`).not.toMatch(/(?<!not |not be |never )linearizable(?! history)/);
    });
  });

  it('Raft: a sentence about the commit rule names the leader\'s current term and Figure 8; local reads are not called linearizable', () => {
    let checked = 0;
    let localSaid = 0;
    each((r, t, en, zh) => {
      if (r.sim.scenario.strategy.kind !== 'raft-ps') return;
      const term = newestLeaderTerm(r, t);
      if (/commits? once a majority/.test(en)) {
        expect(en, `${r.label} @${t}`).toContain('Figure 8');
        expect(zh).toContain('图 8');
        if (term !== null && !/Raft-replicated parameter server/.test(en)) {
          expect(en, `${r.label} @${t}`).toContain(`term ${term}`);
          checked++;
        }
      }
      if (r.label === 'raft, local reads') {
        expect(en).not.toMatch(/reads are linearizable|so they are linearizable|C kept/);
        if (/not linearizable/.test(en) && /may be stale|can be stale/.test(en)) localSaid++;
      }
      if (r.label === 'raft, no leader no-op') expect(en).not.toContain('appends a no-op');
    });
    expect(checked).toBeGreaterThan(3);
    expect(localSaid).toBeGreaterThan(2);
  });

  it('Raft: the failover\'s pause in commits is past only once the new term has committed (Figure 8 without a no-op said "was" beside a gap of 0 ms), and a gap quoted spans an election timeout', () => {
    let past = 0;
    let pending = 0;
    each((r, t, en, zh) => {
      if (r.sim.scenario.strategy.kind !== 'raft-ps') return;
      const notes = [...indexOf(r.sim).notes];
      const elected = notes.filter((n) => n.what === 'leaderElected' && n.t <= t).at(-1);
      if (/The pause in commits was/.test(en)) {
        past++;
        expect(zh).toContain('提交中断的时间');
        expect(notes.some((n) => n.what === 'commit' && n.t >= elected!.t && n.t <= t), `${r.label} @${t}: nothing committed since the election`).toBe(true);
        const gap = /longest gap between commits so far: (\d+) ms/.exec(en);
        const eto = (r.sim.scenario.strategy as { electionTimeoutMs?: [number, number] }).electionTimeoutMs ?? [150, 300];
        if (gap) expect(Number(gap[1]), `${r.label} @${t}`).toBeGreaterThanOrEqual(eto[0]);
      }
      const none = /Nothing has committed in term (\d+) yet/.exec(en);
      if (none) {
        pending++;
        expect(zh).toContain(`任期 ${none[1]} 还没有提交任何条目`);
        expect(notes.some((n) => n.what === 'commit' && n.t >= elected!.t && n.t <= t), `${r.label} @${t}`).toBe(false);
      }
    });
    expect(past).toBeGreaterThan(0);
    expect(pending).toBeGreaterThan(0);
  });

  it('ASP: "no worker waits for another" beside an availability under 1 says who completed no step (pacelc\'s asp variant said 0.88 with no reason)', () => {
    let explained = 0;
    each((r, t, en, zh, st) => {
      const m = /no worker waits for another \(availability ([\d.]+)(: ([^)]*))?\)(; (\S+) (is|are) only waiting)?/.exec(en);
      if (!m || Number(m[1]) >= 1) return;
      expect(m[3] ?? m[5], `${r.label} @${t}: ${en}`).toBeDefined();
      if (m[3]) {
        explained++;
        const named = /^(.*) completed no step in the last/.exec(m[3])![1];
        for (const id of st.unavailableWorkers) if (!m[5]?.includes(id)) expect(named, `${r.label} @${t}`).toContain(id);
        expect(zh).toMatch(/这一指标把它(们)?算作不可用/);
      }
    });
    expect(explained).toBeGreaterThan(0);
  });

  it('whole-vector writes: "lost updates now N" below an earlier sample says it was higher and why it can fall (coordination-fencing went 4 → 1 → 2 with no word)', () => {
    let fell = 0;
    each((r, t, en, zh, st) => {
      const m = /lost updates now (\d+)(; it was (\d+) earlier in the run)?/.exec(en);
      if (!m) return;
      const shown = [...indexOf(r.sim).metrics].filter((x) => x.t <= (st.sampledAt ?? t)).map((x) => x.value.cluster.lostUpdates ?? 0);
      const peak = Math.max(0, ...shown);
      if (peak > Number(m[1])) {
        fell++;
        expect(Number(m[3]), `${r.label} @${t}: ${en}`).toBe(peak);
        expect(zh).toContain(`本次运行中曾达到 ${peak}`);
      } else expect(m[2], `${r.label} @${t}`).toBeUndefined();
    });
    expect(fell).toBeGreaterThan(0);
  });

  it('Paxos: under a partition the majority "keeps choosing" only under a leader on its side, and the workers said to wait are those off it (it said "its workers wait" of a side with none)', () => {
    let said = 0;
    each((r, t, en, zh, st) => {
      const m = /^(?:Run finished\. )?Network partition: \{([^}]*)\} hold a majority \(\d+ of \d+\) and (keep choosing values under leader (s\d+)|choose nothing until one of them leads)/.exec(en);
      if (!m || r.sim.scenario.strategy.kind !== 'paxos-ps') return;
      said++;
      const group = st.partition!.find((g) => g.includes(m[1].split(', ')[0].replace(/–.*/, '')))!;
      if (m[3]) {
        expect(group, `${r.label} @${t}`).toContain(m[3]);
        const f = st.servers.find((x) => x.id === m[3])!.facts;
        expect(f?.kind === 'paxos-server' && f.role, `${r.label} @${t}`).toBe('leader');
      }
      const waiting = /, so ((?:w\d+(?:, | and )?)+) there waits?|((?:w\d+(?:, | and )?)+) (?:is|are) cut off from every server/.exec(en);
      for (const id of (waiting?.[1] ?? waiting?.[2] ?? '').split(/, | and /).filter(Boolean)) expect(group, `${r.label} @${t}: ${en}`).not.toContain(id);
      expect(zh).toMatch(/^(运行结束。)?网络分区：/);
    });
    expect(said).toBeGreaterThan(0);
  });

  it('2PC: a coordinator cut off from participants is said to block every transaction, naming exactly those it cannot reach', () => {
    let said = 0;
    each((r, t, en, zh, st) => {
      if (st.cfg.kind !== '2pc-ps') return;
      const coord = st.cfg.coordinator;
      const apart = st.servers.filter((x) => x.id !== coord && st.brokenLinks.some((l) => (l.from === coord && l.to === x.id) || (l.from === x.id && l.to === coord))).map((x) => x.id);
      const m = /The network separates coordinator s\d+ from ([^:]*):/.exec(en);
      const allUp = st.servers.every((x) => x.up);
      if (allUp && apart.length > 0) expect(m, `${r.label} @${t}: ${en}`).not.toBeNull();
      if (!m) return;
      said++;
      expect(m[1].split(/, | and /).sort(), `${r.label} @${t}`).toEqual(apart.sort());
      expect(zh).toContain('网络把协调者');
    });
    expect(said).toBeGreaterThan(0);
  });

  it('Raft: "about one election timeout" is said only of a candidacy its own timer started; one a timeout action forced says so (Figure 8\'s script forces every election)', () => {
    let timer = 0;
    let forced = 0;
    each((r, t, en, zh) => {
      if (r.sim.scenario.strategy.kind !== 'raft-ps' || !/ won the election for term/.test(en)) return;
      const ix = indexOf(r.sim);
      const won = /(s\d+) won the election for term (\d+)/.exec(en)!;
      const started = [...ix.notes].filter((n) => n.what === 'electionStarted' && n.node === won[1] && n.t <= t && 'term' in n.data && n.data.term === Number(won[2])).at(-1)!;
      // At the action's own time, or at the resume of a server the action reached while paused.
      const resumed = [...ix.notes].find((n) => n.what === 'resumed' && n.node === won[1] && n.t === started.t);
      const from = resumed && resumed.what === 'resumed' ? started.t - resumed.data.pausedMs : started.t;
      const byAction = ix.actions.some((a) => a.t >= from && a.t <= started.t && a.action.do === 'timeout' && a.action.node === won[1]);
      if (/about one election timeout/.test(en)) {
        timer++;
        expect(byAction, `${r.label} @${t}: ${won[1]}'s candidacy was forced`).toBe(false);
      }
      if (/stood for election because the script forced a timeout on it/.test(en)) {
        forced++;
        expect(byAction, `${r.label} @${t}`).toBe(true);
        expect(zh).toContain('是因为脚本对它强制触发了超时');
      }
    });
    expect(timer).toBeGreaterThan(0);
    expect(forced).toBeGreaterThan(0);
  });

  it('Kafka: "healed" never stands beside lost updates without saying they stay lost (acks=1 lost 8 and the caption said only "Healed")', () => {
    let said = 0;
    each((r, t, en, zh, st) => {
      if (r.sim.scenario.strategy.kind !== 'kafka-ps' || !en.startsWith('Healed')) return;
      const lost = st.metrics.lostUpdates ?? 0;
      expect(en.includes('Lost updates'), `${r.label} @${t}: lost ${lost}`).toBe(lost > 0);
      expect(zh.includes('丢失的更新')).toBe(lost > 0);
      if (lost > 0) said++;
    });
    expect(said).toBeGreaterThan(0);
  });

  it('Kafka: a leader\'s failover quotes lost updates only from a sample taken after the election (one from before read "are gone (lost updates 0)" while 8 were)', () => {
    let quoted = 0;
    each((r, t, en, _zh, st) => {
      if (r.sim.scenario.strategy.kind !== 'kafka-ps' || !/^Leader \w+ crashed/.test(en)) return;
      const m = /lost updates (\d+)/.exec(en);
      if (!m) return;
      quoted++;
      expect(st.sampledAt! >= st.recent.leaderElected!.t, `${r.label} @${t}`).toBe(true);
      if (/are gone/.test(en)) expect(Number(m[1]), `${r.label} @${t}`).toBeGreaterThan(0);
    });
    expect(quoted).toBeGreaterThan(0);
  });

  it('no sentence bounds staleness below the staleness the strip shows beside it (SSP\'s bound is on clocks: "staleness stays ≤ 4" stood beside staleness 25, in versions)', () => {
    let ssp = 0;
    each((r, t, en, zh, st) => {
      const m = /staleness[^.;]*?≤ (\d+)/.exec(en);
      if (m && st.staleness !== null) expect(st.staleness, `${r.label} @${t}: ${en}`).toBeLessThanOrEqual(Number(m[1]));
      expect(zh).not.toMatch(/陈旧度(保持 )?≤/);
      if (/clock gap stays ≤/.test(en)) ssp++;
    });
    expect(ssp).toBeGreaterThan(0);
  });

  it('a loss is never claimed beside a 0 that says none happened yet ("C lost (divergence 0)" as degrade switches, "miss the others\' newest updates (staleness 0)" as an async PS starts, Kafka\'s "a replica that is behind (staleness 0)")', () => {
    let givenUp = 0;
    let notYet = 0;
    each((r, t, en, zh) => {
      expect(en, `${r.label} @${t}`).not.toMatch(/C lost \(divergence (0|—)\)/);
      expect(zh, `${r.label} @${t}`).not.toMatch(/放弃了 C（副本分歧 (0|—)）/);
      expect(en, `${r.label} @${t}`).not.toMatch(/miss the others' newest updates \(staleness (0|—),/);
      expect(zh, `${r.label} @${t}`).not.toMatch(/缺少其他节点最新的更新（陈旧度 (0|—)，/);
      // Kafka: "a replica that is behind (staleness 0)"; a heal's "catch up" beside a rising consumer lag.
      expect(en, `${r.label} @${t}`).not.toMatch(/a replica that is behind \(staleness (0|—)\)/);
      expect(en, `${r.label} @${t}`).not.toMatch(/catch up \(consumer lag/);
      expect(en, `${r.label} @${t}`).not.toMatch(/offset stops while the log grows \(consumer lag 0\)/);
      // One restarted Raft server is "it", not "they"; the run's overwritten entries are not credited to it.
      expect(en, `${r.label} @${t}`).not.toMatch(/restarted with its term[^]*(every entry they hold|Their uncommitted|Its uncommitted)/);
      if (/C given up: the replicas drift apart from here/.test(en)) givenUp++;
      if (/miss some \(staleness 0 so far/.test(en)) notYet++;
    });
    expect(givenUp).toBeGreaterThan(0);
    expect(notYet).toBeGreaterThan(0);
  });

  it('2PC: "the in-doubt participants are released" only once none is in doubt (they learn the decision one by one)', () => {
    let partial = 0;
    each((r, t, en, _zh, st) => {
      const inDoubt = st.servers.filter((n) => n.up && n.facts?.kind === '2pc-server' && n.facts.prepared !== null && n.facts.blocked).map((n) => n.id);
      if (/the in-doubt participants are released/.test(en)) expect(inDoubt, `${r.label} @${t}: ${en}`).toEqual([]);
      if (/it is released; .* still in doubt/.test(en)) partial++;
    });
    expect(partial).toBeGreaterThan(0);
  });

  it('degrade: a discard merge quotes the steps that merge threw away, not an older sample ("thrown away (lost work 0)" beside 112)', () => {
    let quoted = 0;
    each((r, t, en, _zh, st) => {
      const m = /thrown away \(lost work (\d+)\)/.exec(en);
      if (!m) return;
      quoted++;
      const note = st.recent.merge;
      expect(note?.what === 'merge' ? note.data.lostWork : null, `${r.label} @${t}: ${en}`).toBe(Number(m[1]));
      expect(Number(m[1]), `${r.label} @${t}`).toBeGreaterThan(0);
    });
    expect(quoted).toBeGreaterThan(0);
  });

  it('degrade without fencing: once the ring is whole again the split brain is told in the past ("Run finished. Split brain: …" 8 s after the heal)', () => {
    let past = 0;
    each((r, t, en, _zh, st) => {
      const whole = st.workers.every((w) => w.facts?.kind !== 'degrade-worker' || w.facts.mode === 'strong') && !st.partition && !st.networkFault;
      if (whole) expect(en, `${r.label} @${t}`).not.toMatch(/Split brain:/);
      if (/but during the split brain/.test(en)) past++;
    });
    expect(past).toBeGreaterThan(0);
  });

  it('Kafka: "the ISR shrank to …, fewer than min.insync.replicas" names an ISR that is fewer ({b0, b2, b1} was called fewer than 2), and a refusal quotes no count of 0', () => {
    let shrank = 0;
    each((r, t, en) => {
      const m = /The ISR shrank to \{([^}]*)\}, fewer than min\.insync\.replicas=(\d+)/.exec(en);
      if (!m) return;
      shrank++;
      expect(m[1].split(',').length, `${r.label} @${t}: ${en}`).toBeLessThan(Number(m[2]));
      expect(en, `${r.label} @${t}`).not.toMatch(/rejected writes 0\)/);
    });
    expect(shrank).toBeGreaterThan(0);
  });

  it('Raft: a term a server raised while cut off is told — climbing, rejoining above the leader, deposing it — and PreVote keeps it; a Paxos ballot alike (a lone follower\'s heal read "servers that were cut off see the higher term 1", the election after it "about one election timeout")', () => {
    const seen = new Map<string, number>();
    const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
    each((r, t, en, zh, st) => {
      const ix = indexOf(r.sim);
      if (r.sim.scenario.strategy.kind === 'paxos-ps') {
        const m = /starting phase 1 with ever higher ballots — (\d+) now, against leader (s\d+)'s (\d+)/.exec(en);
        if (m) {
          count('ballots');
          expect(Number(m[1])).toBeGreaterThan(Number(m[3]));
          expect(zh).toContain('用越来越高的提案编号开始第一阶段');
        }
        const why = /Why a new leader: (s\d+), cut off from leader (s\d+)(?: with (s\d+))?/.exec(en);
        if (why) {
          count('preempted');
          const [, by, leader, carrier] = why;
          if (carrier) count('promised');
          const down = [...ix.notes].filter((n) => n.what === 'leaderStepDown' && n.node === leader && n.t <= t).at(-1);
          expect(down && reunited(ix.net, carrier ?? by, leader, down.t), `${r.label} @${t}`).toBe(true);
          // The acceptor the caption says brought the ballot back is the one whose answer deposed the leader.
          expect(down && 'from' in down.data ? down.data.from : undefined, `${r.label} @${t}: ${en}`).toBe(carrier ?? by);
          expect(zh).toContain('为什么换了领导者');
        }
        return;
      }
      if (r.sim.scenario.strategy.kind !== 'raft-ps') return;
      // "see the higher term T": some server the partition cut off from the leader had a lower term when it ended.
      const higher = /servers that were cut off see the higher term (\d+) and follow leader (s\d+)/.exec(en);
      if (higher && st.lastPartition && st.lastRepair) {
        const at = explainAt(r.sim, st.lastRepair.t - 0.001).state;
        const home = st.lastPartition.groups.find((g) => g.includes(higher[2]));
        const lower = at.nodes.some((n) => n.facts?.kind === 'raft-server' && !home?.includes(n.id) && n.facts.term < Number(higher[1]));
        expect(lower, `${r.label} @${t}: ${en}`).toBe(true);
      }
      // "already in term T, the leader's own": every server the partition cut off from the leader, and up, holds T.
      const same = /Healed: (.+?) (?:is|are) back, already in term (\d+), the leader's own: there is no higher term to see, and (?:it follows|they follow) leader (s\d+)/.exec(en);
      if (same && st.lastPartition) {
        count('sameTerm');
        const at = explainAt(r.sim, st.lastPartition.end - 0.001).state;
        const home = st.lastPartition.groups.find((g) => g.includes(same[3]));
        const cut = at.nodes.filter((n) => n.up && n.facts?.kind === 'raft-server' && !home?.includes(n.id));
        expect(cut.length > 0 && cut.every((n) => n.facts?.kind === 'raft-server' && n.facts.term === Number(same[2])), `${r.label} @${t}: ${en}`).toBe(true);
        expect(zh).toContain('与领导者相同：没有更高的任期可看');
      }
      const preVote = r.sim.scenario.strategy.kind === 'raft-ps' && r.sim.scenario.strategy.preVote;
      if (/each try raises its term/.test(en)) {
        count('climbing');
        expect(preVote, r.label).toBe(false);
        const m = /each try raises its term — (\d+) now, against the majority's (\d+)/.exec(en)!;
        expect(Number(m[1])).toBeGreaterThan(Number(m[2]));
        expect(zh).toContain('每次尝试都让任期加一');
      }
      if (/rejoins with term (\d+), above leader (s\d+)'s term (\d+)/.test(en)) count('above');
      if (/Why an election at all: (s\d+), cut off from leader (s\d+)/.test(en)) {
        count('deposed');
        // "s2, cut off from leader s1 with s4, …; s4 took that term …": s4 rejoined, s2 need not have.
        const [, by, leader, carrier] = /Why an election at all: (s\d+), cut off from leader (s\d+)(?: with (s\d+))?/.exec(en)!;
        // The leader stepped down after a heal, and not because it crashed or a timeout was forced.
        const down = [...ix.notes].filter((n) => n.what === 'leaderStepDown' && n.node === leader && n.t <= t).at(-1)!;
        expect(down, `${r.label} @${t}`).toBeDefined();
        expect(reunited(ix.net, carrier ?? by, leader, down.t), `${r.label} @${t}: ${en}`).toBe(true);
        // The one the caption says brought the term back is the one whose message the leader saw it in.
        expect('from' in down.data ? down.data.from : undefined, `${r.label} @${t}: ${en}`).toBe(carrier ?? by);
        if (carrier) {
          count('carried');
          const stood = [...ix.notes].filter((n) => n.what === 'electionStarted' && n.node === by && n.t <= down.t).at(-1)!;
          expect(apartAt(ix.net, carrier, by, stood.t), `${r.label} @${t}: ${carrier} was not beside ${by}: ${en}`).toBe(false);
          expect(apartAt(ix.net, carrier, leader, stood.t), `${r.label} @${t}: ${en}`).toBe(true);
        }
        expect([...ix.notes].some((n) => n.what === 'electionStarted' && n.node === by && 'term' in n.data && 'term' in down.data && n.data.term === down.data.term)).toBe(true);
        expect(en).not.toMatch(/about one election timeout/);
        expect(zh).toContain('为什么要选举');
      }
      if (/PreVote kept it from raising it/.test(en) || /its term stays as it was/.test(en)) {
        count('preVote');
        expect(preVote, r.label).toBe(true);
      }
    });
    for (const k of ['climbing', 'above', 'deposed', 'carried', 'preVote', 'ballots', 'preempted', 'promised', 'sameTerm']) expect(seen.get(k) ?? 0, k).toBeGreaterThan(0);
    // With PreVote the lone follower deposes no one: one election in the whole run.
    const pv = runs.find((r) => r.label === 'raft, a follower cut off alone, PreVote')!;
    expect([...indexOf(pv.sim).notes].filter((n) => n.what === 'leaderElected')).toHaveLength(1);
  });

  it('Raft: a heal says servers "that were cut off see the higher term" only where a server was cut off; a cut of workers alone, or of a worker\'s link, is said as such', () => {
    let workersOnly = 0;
    let links = 0;
    let restarts = 0;
    each((r, t, en, zh, st) => {
      // What the repair ended, from the network's own record just before it: a partition with
      // servers on two sides, or a cut link between two servers.
      const ix = indexOf(r.sim);
      const r0 = st.lastRepair;
      const before = r0 ? ix.net.filter((x) => x.t < r0.t).at(-1)?.value : undefined;
      const after = r0 ? ix.net.filter((x) => x.t <= r0.t).at(-1)?.value : undefined;
      const isServer = (id: string) => st.servers.some((n) => n.id === id);
      const serversSplit = !!before?.groups && new Set(st.servers.map((n) => before.groups!.get(n.id) ?? 0)).size > 1;
      const serverLinkRepaired = !!before && [...before.cuts].some((k) => !after?.cuts.has(k) && k.split('>').every(isServer));
      if (/servers that were cut off see the higher term/.test(en)) expect(serversSplit || serverLinkRepaired, `${r.label} @${t}: ${en}`).toBe(true);
      if (/The servers were never split/.test(en)) workersOnly++;
      if (/restarted: it sends its updates to leader/.test(en)) {
        restarts++;
        expect(st.workers.some((w) => en.replace(/^Run finished\. /, '').startsWith(`${w.id} restarted`)), `${r.label} @${t}`).toBe(true);
      }
      if (/None joined two servers/.test(en)) {
        links++;
        expect(serverLinkRepaired, `${r.label} @${t}`).toBe(false);
        expect(zh).toContain('其中没有一条连接两台服务器');
      }
    });
    expect(workersOnly).toBeGreaterThan(0);
    expect(links).toBeGreaterThan(0);
    expect(restarts).toBeGreaterThan(0);
  });

  it('degrade: a detector that fires with no cut says so (also after an earlier partition healed), names no minority when every worker is one side, and merges afterwards without "Healed"', () => {
    let alarms = 0;
    let alarmsAfterHeal = 0;
    let merges = 0;
    let healedMerges = 0;
    each((r, t, en, _zh, st) => {
      if (st.cfg.kind !== 'degrade') return;
      const ix = indexOf(r.sim);
      const detectMs = st.cfg.detectTimeoutMs;
      // The switch to eventual mode that the run is in (or merging from), and whether a cut or a
      // partition was in force at any moment from the detector's window before it until now.
      const detected = [...ix.notes].filter((n) => n.what === 'partitionDetected' && n.t <= t).at(-1);
      if (!detected) return;
      const from = detected.t - detectMs;
      // Faults between workers only (a partition of the coordination servers leaves the ring whole).
      const faulty = (k: number) => splitsWorkers(ix.net[k].value, st);
      const fault = ix.net.some((x, k) => faulty(k) && x.t <= t && (ix.net[k + 1]?.t ?? Infinity) > from);
      const healedBefore = ix.net.some((_, k) => faulty(k) && (ix.net[k + 1]?.t ?? Infinity) <= from);
      const crashed = [...ix.downs.values()].some((downs) => downs.some((d) => d.start <= t && (d.end ?? Infinity) > from));
      const slowActions = ix.actions.filter((a) => a.action.do === 'slow' && a.t <= detected.t);
      const slowInWindow = slowActions.some((a, k) => a.action.do === 'slow' && a.action.factor > 1 && (slowActions.slice(k + 1).find((b) => b.action.do === 'slow' && b.action.node === (a.action as { node: string }).node)?.t ?? Infinity) >= from);
      if (/(are merging|merged) —/.test(en)) {
        merges++;
        if (fault) {
          healedMerges++;
          expect(en, `${r.label} @${t}`).toMatch(/^(Run finished\. )?Healed/);
        } else expect(en, `${r.label} @${t}: nothing healed`).not.toMatch(/Healed|by the other's/);
      }
      if (!/^Degraded:/.test(en)) return;
      if (fault) expect(en, `${r.label} @${t}`).not.toMatch(/No link between workers is cut/);
      else if (!crashed && slowInWindow) {
        alarms++;
        if (healedBefore) alarmsAfterHeal++;
        // "… took w3's slowness for a partition", or with a pause in the window too "took that and w3's slowness".
        expect(en, `${r.label} @${t}`).toMatch(/No link between workers is cut: .* took (?:that and )?w\d+.*'s slowness for a partition/);
      }
      const m = /Only the majority side \{([^}]*)\}/.exec(en);
      if (m) expect(m[1], `${r.label} @${t}: a majority side of every worker`).not.toMatch(new RegExp(`^w0–w${st.workers.length - 1}$`));
    });
    expect(alarms).toBeGreaterThan(0);
    expect(alarmsAfterHeal).toBeGreaterThan(0);
    expect(merges).toBeGreaterThan(healedMerges);
    expect(healedMerges).toBeGreaterThan(0);
  });

  it('degrade: a split coordination service beside a whole ring is named, with whether the workers still reach its majority (it said only "Strong mode …")', () => {
    let split = 0;
    each((r, t, en, zh, st) => {
      const m = /The coordination service is split: the workers reach (only \{[^}]*\}|none of its servers) \((\d+) of (\d+); its majority needs (\d+)\)/.exec(en);
      const kept = /cut off from the rest of the coordination service; its majority/.test(en);
      if (!m && !kept) return;
      expect(st.partition, `${r.label} @${t}`).not.toBeNull();
      const home = st.partition!.find((g) => g.includes(st.workers[0].id))!;
      const reach = st.coord!.servers.filter((c) => c.up && home.includes(c.id)).length;
      if (m) {
        split++;
        expect(Number(m[2])).toBe(reach);
        expect(reach).toBeLessThan(Number(m[4]));
        expect(zh).toContain('协调服务被隔开了');
      } else expect(reach * 2).toBeGreaterThan(st.coord!.servers.length);
    });
    expect(split).toBeGreaterThan(0);
  });

  it('degrade: a heal says "on one merged model" only after a merge, and "nothing to merge" only where none followed the repair; a one-way cut\'s side of every worker is explained as one; "the ring is cut" only by a fault between workers', () => {
    let merged = 0;
    let none = 0;
    let hearsAll = 0;
    each((r, t, en, zh, st) => {
      if (st.cfg.kind !== 'degrade') return;
      const r0 = st.lastRepair;
      const mergedSince = !!r0 && [...indexOf(r.sim).notes].some((n) => n.what === 'merge' && n.t >= r0.t && n.t <= t);
      if (/on one merged model/.test(en)) {
        merged++;
        expect(mergedSince, `${r.label} @${t}`).toBe(true);
      }
      if (/there is nothing to merge/.test(en)) {
        none++;
        expect(mergedSince, `${r.label} @${t}`).toBe(false);
        expect(zh).toContain('所以没有什么需要合并');
      }
      if (/^The ring is cut: in strong mode every worker waits/.test(en)) {
        // A cut between two workers, or a partition with workers on two sides, in force at t.
        expect(splitsWorkers(indexOf(r.sim).net.filter((x) => x.t <= t).at(-1)!.value, st), `${r.label} @${t}: no link between workers is cut`).toBe(true);
      }
      if (/, every worker, is the view of .*: (it hears|they hear) each of them, for the cut stops messages one way only/.test(en)) {
        hearsAll++;
        const groups = st.partition;
        expect(!groups || groups.every((g) => st.workers.every((w) => g.includes(w.id)) || st.workers.every((w) => !g.includes(w.id))), `${r.label} @${t}: a partition splits the workers`).toBe(true);
      }
    });
    expect(none).toBeGreaterThan(0);
    expect(hearsAll).toBeGreaterThan(0);
    expect(merged + none).toBeGreaterThan(0);
  });

  it('degrade: under a partition no side is called "every worker"; a side the network split when its holders counted it is named as their lagging view (and only such a side), one split since as the side they still keep, and a clean two-way cut is not blamed on one-way cuts', () => {
    let views = 0;
    let kept = 0;
    let crashed = 0;
    let crashAlarms = 0;
    let resumedViews = 0;
    let onlyHolders = 0;
    let pauseAlarms = 0;
    each((r, t, en, zh, st) => {
      if (st.cfg.kind !== 'degrade' || !/^Degraded:/.test(en)) return;
      const ix = indexOf(r.sim);
      // The network at `at`, read off the run's index (not the caption's own helpers).
      const groupsAt = (at: number) => ix.partitions.find((p) => p.start <= at && (p.end === null || p.end > at))?.groups ?? null;
      const cutAt = (at: number, from: string, to: string) => ix.net.filter((x) => x.t <= at).at(-1)?.value.cuts.has(`${from}>${to}`) ?? false;
      const splitAt = (ids: readonly string[], holders: readonly string[], at: number): boolean => {
        const groups = groupsAt(at);
        const groupOf = (id: string) => (groups ? Math.max(0, groups.findIndex((g) => g.includes(id))) : 0);
        return new Set(ids.map(groupOf)).size > 1 || holders.some((h) => ids.some((m) => m !== h && cutAt(at, m, h)));
      };
      const downAt = (id: string, at: number) => (ix.downs.get(id) ?? []).some((d) => d.start <= at && (d.end === null || d.end > at));
      const pausedAt = (id: string, at: number) => (ix.pauses.get(id) ?? []).some((p) => p.start <= at && p.until > at);
      // A view counted with a worker across the cut, or with one crashed or paused: it lagged then.
      const laggedAt = (ids: readonly string[], holders: readonly string[], at: number): boolean => splitAt(ids, holders, at) || ids.some((m) => !holders.includes(m) && (downAt(m, at) || pausedAt(m, at)));
      const switchedAt = (id: string) => [...ix.notes].filter((n) => n.what === 'partitionDetected' && n.node === id && n.t <= t).at(-1)?.t ?? t;
      const groups = st.partition;
      if (groups && !groups.some((g) => st.workers.every((w) => g.includes(w.id)))) expect(en, `${r.label} @${t}`).not.toMatch(/Every worker is on one side/);
      // Each side the workers in eventual mode keep, with its holders and when they counted it.
      const sides = new Map<string, { ids: string[]; holders: string[]; since: number }>();
      for (const w of st.workers) {
        if (w.facts?.kind !== 'degrade-worker' || w.facts.mode !== 'eventual' || !w.up) continue;
        const ids = w.facts.side ?? [w.id];
        const side = sides.get(ids.join(',')) ?? { ids, holders: [], since: -Infinity };
        side.holders.push(w.id);
        side.since = Math.max(side.since, switchedAt(w.id));
        sides.set(ids.join(','), side);
      }
      const lagging = [...sides.values()].filter((x) => laggedAt(x.ids, x.holders, x.since));
      const outdated = [...sides.values()].filter((x) => !lagging.includes(x) && groups && splitAt(x.ids, x.holders, t));
      // The lagging view named is one that lagged when counted, at the time its holders switched.
      const named = /\{([^}]*)\} is the view of ([^:]+): (?:its detector|their detectors|it|they) switched (?:at|by) ([\d.]+) s, (soon after the cut|still counting)/.exec(en);
      if (lagging.length > 0) {
        views++;
        expect(named, `${r.label} @${t}: ${en}`).not.toBeNull();
        expect(zh).toMatch(/故障检测器的视角(总是落后于网络|同样落后于(崩溃|暂停|崩溃或暂停))/);
      }
      if (named) {
        const side = sides.get(ids(named[1]).join(','));
        expect(side && lagging.includes(side), `${r.label} @${t}: {${named[1]}} did not lag when counted: ${en}`).toBe(true);
        expect(named[2]).toBe(list(side!.holders, 'en'));
        expect(named[3]).toBe((side!.since / 1000).toFixed(2));
        // "soon after the cut" only where the network split it; else a crashed worker was counted.
        expect(named[4] === 'soon after the cut', `${r.label} @${t}: ${en}`).toBe(splitAt(side!.ids, side!.holders, side!.since));
        if (named[4] !== 'soon after the cut') crashed++;
      }
      // "{w0, w1, w2, w3} is the side its workers counted when they switched by 3.65 s; the network has
      // split it since": a side right when counted, split by the network now, at its holders' switch time.
      const keptS = /\{([^}]*)\} is the side (its workers|.*?) counted when (?:it|they) switched (?:at|by) ([\d.]+) s; the network has split it since/.exec(en);
      if (lagging.length === 0 && outdated.length > 0) expect(keptS, `${r.label} @${t}: ${en}`).not.toBeNull();
      if (keptS) {
        kept++;
        const side = sides.get(ids(keptS[1]).join(','));
        expect(side && outdated.includes(side), `${r.label} @${t}: {${keptS[1]}} is not a side split only since it was counted: ${en}`).toBe(true);
        expect(splitAt(side!.ids, side!.holders, side!.since), `${r.label} @${t}: ${en}`).toBe(false);
        expect(keptS[2]).toBe(side!.holders.length === side!.ids.length ? 'its workers' : list(side!.holders, 'en'));
        expect(keptS[3]).toBe((side!.since / 1000).toFixed(2));
        expect(zh).toContain('此后网络又把它分开了');
      }
      // "Only {w0, w1, w2} believe they hold a majority and took epoch 2" names the side once when its
      // holders are the side; else "Only w0, w1 believe they hold a majority — the side {w0–w5} —".
      const only = /Only (\{[^}]*\}|[^{]*?) (?:believes it holds|believe they hold) a majority(?: — the side \{([^}]*)\} —)? and took epoch/.exec(en);
      if (only) {
        onlyHolders++;
        const holders = ids(only[1].replace(/[{}]/g, ''));
        const side = sides.get((only[2] ? ids(only[2]) : holders).join(','));
        expect(side, `${r.label} @${t}: ${en}`).toBeDefined();
        expect(side!.holders).toEqual(holders);
        expect(only[2] === undefined, `${r.label} @${t}: ${en}`).toBe(side!.holders.length === side!.ids.length);
        expect(only[1].startsWith('{')).toBe(only[2] === undefined);
      }
      const cuts = ix.net.some((x) => x.t <= t && x.value.cuts.size > 0);
      if (!cuts) expect(en, `${r.label} @${t}`).not.toMatch(/one-way or non-transitive cuts the detectors disagree/);
      // "… is the view of w4: paused until 2.97 s, it switched on resuming": paused just before its switch.
      // Without "paused until …" only where the pause sentence already named each holder's pause.
      const resumed = /\{[^}]*\} is the view of ([^:]+): (?:paused until ([\d.]+) s, )?(?:it|they) switched on resuming/.exec(en);
      if (resumed) {
        resumedViews++;
        for (const h of ids(resumed[1])) {
          expect(pausedAt(h, switchedAt(h) - 1), `${r.label} @${t}: ${h} was not paused: ${en}`).toBe(true);
          if (resumed[2]) expect((switchedAt(h) / 1000).toFixed(2)).toBe(resumed[2]);
          else expect(en, `${r.label} @${t}`).toMatch(new RegExp(`No link between workers is cut: [^;]*\\b${h} (?:was|has been) paused`));
        }
        expect(zh).toContain('一恢复就切换了');
      }
      // "No link between workers is cut: w2 crashed": it is down, crashed before the newest switch,
      // and no partition or cut split the workers from the detector's window on.
      const crash = /No link between workers is cut: (.*?) crashed at /.exec(en);
      if (crash) {
        crashAlarms++;
        const detected = [...ix.notes].filter((n) => n.what === 'partitionDetected' && n.t <= t).at(-1)!;
        for (const id of ids(crash[1])) expect(downAt(id, t) && downAt(id, detected.t), `${r.label} @${t}: ${id} is not down: ${en}`).toBe(true);
        expect(st.netFaultDuring(detected.t - (st.cfg.kind === 'degrade' ? st.cfg.detectTimeoutMs : 0), t, st.workers.map((w) => w.id)), `${r.label} @${t}: ${en}`).toBe(false);
        expect(zh).toContain('从内部看，崩溃和切断一模一样');
      }
      // "No link between workers is cut: w4 was paused from 1.48 s to 2.97 s; the ring stalled":
      // each pause named is in the run's record, overlaps the newest switch's window, and no cut split the workers.
      const pause = /No link between workers is cut: (.*?); the ring stalled without/.exec(en);
      if (pause) {
        pauseAlarms++;
        const detected = [...ix.notes].filter((n) => n.what === 'partitionDetected' && n.t <= t).at(-1)!;
        const windowFrom = detected.t - (st.cfg.kind === 'degrade' ? st.cfg.detectTimeoutMs : 0);
        for (const part of pause[1].split(', ')) {
          const m = /^(\w+) (?:was paused from ([\d.]+) s to ([\d.]+) s|has been paused since ([\d.]+) s)$/.exec(part);
          expect(m, `${r.label} @${t}: ${en}`).not.toBeNull();
          const p = (ix.pauses.get(m![1]) ?? []).find((x) => (x.start / 1000).toFixed(2) === (m![2] ?? m![4]));
          expect(p, `${r.label} @${t}: no such pause of ${m![1]}: ${en}`).toBeDefined();
          expect(p!.start <= detected.t && p!.until > windowFrom, `${r.label} @${t}: ${en}`).toBe(true);
          if (m![3]) expect(p!.until <= t && (p!.until / 1000).toFixed(2) === m![3], `${r.label} @${t}: ${en}`).toBe(true);
          else expect(p!.until > t, `${r.label} @${t}: ${en}`).toBe(true);
        }
        expect(st.netFaultDuring(windowFrom, t, st.workers.map((w) => w.id)), `${r.label} @${t}: ${en}`).toBe(false);
        expect(zh).toMatch(/从内部看，暂停的进程(?:、变慢的进程)?和切断一模一样/);
      }
    });
    expect(views).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
    expect(crashed).toBeGreaterThan(0);
    expect(crashAlarms).toBeGreaterThan(0);
    expect(resumedViews).toBeGreaterThan(0);
    expect(onlyHolders).toBeGreaterThan(0);
    expect(pauseAlarms).toBeGreaterThan(0);
  });

  it('SSP: no worker is named both waiting at the bound and among the slowest ("w0, w1, w4, w5 are … ahead of the slowest worker (w0, w2, …)"); s = 0 waits at a barrier, never "0 clocks ahead"', () => {
    let named = 0;
    each((r, t, en) => {
      expect(en, `${r.label} @${t}`).not.toMatch(/s = 0 clocks ahead/);
      const m = /^(.*?) (?:is|are|has|have) .*?the slowest(?: worker)? \((.*?) at clock/.exec(en);
      if (!m) return;
      named++;
      const waiting = new Set(ids(m[1]));
      for (const id of ids(m[2])) expect(waiting.has(id), `${r.label} @${t}: ${en}`).toBe(false);
    });
    expect(named).toBeGreaterThan(0);
  });

  it('no note gives a negative staleness (a Kafka replica applying after an unclean election read "staleness -32")', () => {
    let cutBack = 0;
    for (const r of runs)
      for (const n of indexOf(r.sim).notes) {
        const [en, zh] = [noteText(n, 'en', r.sim.scenario), noteText(n, 'zh', r.sim.scenario)];
        expect(en, r.label).not.toMatch(/staleness -/);
        expect(zh, r.label).not.toMatch(/陈旧度 -/);
        if (/offset went back with the truncated log/.test(en)) cutBack++;
      }
    expect(cutBack).toBeGreaterThan(0);
  });

  it('a count of one takes the singular in English, and no-op gaps are named only where there are some ("1 sessions", "re-proposes 1 values … fills 0 gaps", "w0 is cut off … on their side")', () => {
    const bad = new Set<string>();
    const check = (where: string, text: string): void => {
      for (const m of text.matchAll(/\b1 (?:sessions|leases|updates|values|gaps|entries|events|crashes|workers|steps|records|brokers|servers)\b|\b0 gaps\b|\b[wsbc]\d+ is cut off [^.]*\btheir side\b|\b[wsbc]\d+(?:, [wsbc]\d+)+ crashed: [^.]*\. After a restart it\b/g)) bad.add(`${where}: "${m[0]}" in ${text}`);
    };
    each((r, t, en) => check(`${r.label} @${t}`, en));
    eachPhrase((where, en) => check(where, en));
    expect([...bad].slice(0, 20)).toEqual([]);
  });

  it('no sentence lacks its subject (an empty list left ". on the minority side never commit"), and no text has an empty value\'s gap', () => {
    const bad = new Set<string>();
    // A sentence may start with a node id ("s0 restarted") or a setting ("acks=1 trades…"), never a
    // lower-case function word; an empty interpolation shows as a doubled or stray space.
    const gap = /(?:^|[.!?]\s+)(?:on|in|at|the|and|so|but|a|an|is|are|was|were|never|has|have|to|of|with|for|there|they|it)\b|\s{2}|\s[,.;:)]|\(\s|^\s|\s$/g;
    const gapZh = /\s{2}|\s[，。；：）,.;:)]|[（(]\s|^\s|\s$/g;
    // Node tooltips, panel rows and notes are phrases ("has not voted in term 0"): gaps only.
    const gapPhrase = /\s{2}|\s[,.;:)]|\(\s|^\s|\s$/g;
    const checkBoth = (where: string, en: string, zh: string, enGap = gapPhrase): void => {
      for (const m of en.matchAll(enGap)) bad.add(`${where}: "${m[0]}" in ${en}`);
      for (const m of zh.matchAll(gapZh)) bad.add(`${where}: "${m[0]}" in ${zh}`);
    };
    each((r, t, en, zh) => checkBoth(`${r.label} @${t}`, en, zh, gap));
    // The same in the node tooltips, the servers panel and the timeline's notes.
    eachPhrase((where, en, zh) => checkBoth(where, en, zh));
    expect([...bad].slice(0, 30)).toEqual([]);
    const alone = runs.find((r) => r.label === 'raft, workers cut off alone')!;
    const texts = alone.times.map((t) => explain(explainAt(alone.sim, t).st, 'en'));
    expect(texts.some((x) => x.includes('w0, w1 are cut off from every server, so they wait'))).toBe(true);
  });

  it('raft-partition: only committed prefixes never disagree (never "the replicas never disagree")', () => {
    each((_r, _t, en, zh) => {
      expect(en).not.toMatch(/replicas never disagree/);
      expect(zh).not.toMatch(/副本之间从不出现分歧/);
    });
    const p = runs.find((r) => r.label === 'raft-partition')!;
    expect(p.times.map((t) => explain(explainAt(p.sim, t).st, 'en')).join(' ')).toContain('only committed prefixes never disagree');
  });

  it('degrade: averaging is weighted by worker unless averageWeights is "equal", and it dilutes rather than loses work', () => {
    each((r, _t, en) => {
      const cfg = r.sim.scenario.strategy;
      if (cfg.kind !== 'degrade') return;
      expect(en).not.toMatch(/no work (is )?lost|EASGD/);
      if (/average,/.test(en)) expect(en).toContain(cfg.averageWeights === 'equal' ? 'each side weighted equally' : 'weighted by worker count');
      if (/average,/.test(en)) expect(en).toContain('diluted');
    });
  });

  it('coordination services: reads named for their configuration, a lock without fencing is not one writer, an epoch is a token only from one authority', () => {
    const said = new Map<string, string[]>();
    each((r, t, en, zh) => {
      (said.get(r.label) ?? said.set(r.label, []).get(r.label)!).push(en);
      const c = r.sim.scenario.coordination;
      const cfg = r.sim.scenario.strategy;
      if (c && r.sim.scenario.cluster.coord) {
        const reads = c.reads ?? (c.service === 'etcd' ? 'linearizable' : 'local');
        // ZooKeeper's reads are never linearizable; sync() narrows the gap and no more; etcd's serializable reads may be stale.
        if (c.service === 'zookeeper') {
          // A strategy beside it may promise linearizable reads of its own: "the parameters' reads".
          expect(en, `${r.label} @${t}`).not.toMatch(/(ZooKeeper's|its) reads are (strictly )?linearizable|(?<!parameters' )reads are linearizable/);
          expect(zh).not.toMatch(/(?<!写是)读(是|也是)线性一致/);
        }
        if (/sync\(\)/.test(en)) expect(en, `${r.label} @${t}`).toContain('not strictly linearizable');
        if (/sync\(\)/.test(zh)) expect(zh).toContain('仍不是严格线性一致');
        if (reads === 'serializable') expect(en, `${r.label} @${t}`).not.toMatch(/(?<!parameters' )reads are linearizable/);
      }
      // A count named beside the event it counts includes that event (a sampled metric would lag it).
      for (const re of [/refused it \(fenced writes (\d+)\)/, /a stale read \(stale reads (\d+)\)/, /Every update is refused.*\(rejected writes (\d+),/]) {
        const m = re.exec(en);
        if (m) expect(Number(m[1]), `${r.label} @${t}: ${en}`).toBeGreaterThan(0);
      }
      // With fencing, the store never lets two lock holders write.
      if (cfg.kind === 'ps-async' && cfg.writeLock === 'lease' && cfg.fencing) expect(en, `${r.label} @${t}`).not.toMatch(/two lock holders wrote|will accept it/);
    });
    const joined = (label: string) => said.get(label)!.join(' ');
    expect(joined('coordination-fencing')).toContain('A lock without a fencing token does not guarantee a single writer');
    expect(joined('coordination-fencing')).toContain('reads may be stale');
    expect(joined('coordination-fencing / zk-fenced')).toMatch(/refused it \(fenced writes [1-9]/);
    expect(joined('coordination-fencing / etcd-fenced')).toContain('linearizable by default');
    expect(joined('coordination-fencing / etcd-fenced')).toContain("PACELC's L");
    expect(joined('coordination-fencing / etcd-params')).toContain('"request is too large"');
    expect(joined('etcd, serializable reads')).toContain('possibly stale');
    expect(joined('zookeeper, sync then local reads')).toContain('not strictly linearizable');
    // Epochs: from the service, granted once to one side; from a detector, what they cannot promise.
    expect(joined('degrade-merge-fencing')).toContain('The service grants each epoch once, to one side');
    expect(joined('degrade-merge-fencing')).not.toMatch(/failure detector, not from one authority/);
    for (const id of ['degrade-average', 'degrade, detector epochs, no fencing']) expect(joined(id), id).toMatch(/cannot promise a single writer|can collide/);
    // L12's no-fencing variant: the service still grants each epoch once, but the store does not check it.
    expect(joined('degrade-merge-fencing / no-fencing')).toContain('The service grants each epoch once, to one side');
    expect(joined('degrade-merge-fencing / no-fencing')).toMatch(/Split brain: fencing is off, so a checkpoint write carrying an old epoch was accepted \(stale writes accepted [1-9]/);
    expect(joined('degrade-merge-fencing / no-fencing')).toContain('without fencing the store accepts them');
    expect(joined('degrade-merge-fencing')).not.toMatch(/Split brain/);
  });

  it('SSP: s = ∞ never blocks on the bound, s = 0 is lockstep; a finite s is bounded staleness, not C', () => {
    each((r, t, en) => {
      const cfg = r.sim.scenario.strategy;
      if (cfg.kind !== 'ssp' || t === 0) return;
      if (cfg.staleness === 'inf') expect(en, `@${t}`).not.toMatch(/wait at the bound|block at the bound/);
      if (cfg.staleness === 0) expect(en).not.toMatch(/Bounded staleness, s = 0/);
    });
  });

  it('Chinese: 网络分区 for a network partition and 主题分区 for a Kafka topic partition, glossary terms only', () => {
    each((r, t, _en, zh) => {
      for (const m of zh.matchAll(/分区/g)) {
        const before = zh.slice(Math.max(0, m.index! - 2), m.index);
        expect(['网络', '主题'], `${r.label} @${t}: ${zh}`).toContain(before);
      }
      expect(zh).not.toMatch(/可线性化|非干净|发散/);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// No English word on a Chinese screen.

/** Latin-script names that stay as they are in Chinese technical text. */
const namesKept = new Set([
  // protocols, systems and their own terms (CURRICULUM §2 keeps them)
  'Raft', 'Kafka', 'ReadIndex', 'PreVote', 'InstallSnapshot', 'NotEnoughReplicas', 'ISR', 'HW', 'LEO', 'SGD', 'EASGD', 'SSP', 'BSP', 'ASP', 'PACELC', 'CAP', 'CA', 'AP',
  'PC', 'PA', 'EC', 'EL', 'broker', 'Broker', 'unclean', 'fencing', 'token', 'All', 'Reduce', 'Scatter', 'Gather',
  'Paxos', 'Multi', 'PREPARE', 'COMMIT', 'ABORT', 'Krum',
  // coordination services and their own terms (etcd's revision, ZooKeeper's zxid and sync(), GC pause)
  'etcd', 'ZooKeeper', 'Zab', 'zxid', 'revision', 'sync', 'serializable', 'GC', 'TTL', 'Jepsen',
  // security (glossary: 消息认证码（MAC）)
  'SHA', 'HMAC', 'TLS', 'MAC',
  // units
  'ms', 'KiB', 'MiB', 'GiB', 'Mbps', 'json',
  // people (a cited algorithm)
  'Wing', 'Gong',
  // values as the reader types them (speed=max, staleness inf), and the formats they are in
  'max', 'inf', 'ID', 'UTF', 'JSON',
  // keys as printed on the keyboard (keyboard help of the topology and the timeline)
  'Shift', 'Home', 'End', 'PgUp', 'PgDn',
]);

function allowedFor(sim: Simulation): Set<string> {
  const allowed = new Set(namesKept);
  for (const m of metricNames) allowed.add(m);
  for (const [k, v] of Object.entries(sim.scenario.strategy)) {
    for (const part of k.split('.')) allowed.add(part);
    // Knob values quoted with their knob: readMode "local", acks=all, …enable=false.
    if (typeof v === 'string') allowed.add(v);
    if (typeof v === 'boolean') allowed.add(String(v));
  }
  return allowed;
}

/**
 * Latin words (2+ letters) that are not node ids, keys (/ckpt/latest) and the values written to
 * them, zxids, knob names or values, metric ids or kept names. etcd's error message is quoted as
 * etcd writes it (CURRICULUM L11 does so in Chinese too).
 */
function englishWords(text: string, allowed: Set<string>): string[] {
  const words = text.replace(/@(?:leader|crashed)\b|\b[wsbc]\d+\b|\/[\w./-]+|\b0x[0-9a-f]+\b|= “[^”]*”|“request is too large”/g, ' ').match(/[A-Za-z][A-Za-z-]*[A-Za-z]/g) ?? [];
  return words.flatMap((w) => w.split('-')).filter((w) => w.length > 1 && !allowed.has(w));
}

describe('no English word reaches a Chinese screen (real runs)', () => {
  it('explanation, node tooltips and panel, servers panel, timeline notes', () => {
    const problems: string[] = [];
    for (const r of runs) {
      const allowed = allowedFor(r.sim);
      const check = (where: string, text: string) => {
        const bad = englishWords(text, allowed);
        if (bad.length) problems.push(`${r.label} ${where}: [${bad.join(', ')}] in “${text}”`);
      };
      const ctx = wordsContext(r.sim.scenario, staticOf(r.sim));
      for (const t of r.times) {
        const { st, state } = explainAt(r.sim, t);
        check(`explain@${t}`, explain(st, 'zh'));
        for (const n of state.nodes) for (const line of nodeLines(n, ctx, 'zh')) check(`${n.id}@${t}`, line);
        const panel = serverPanelModel(state, indexOf(r.sim), 30, ctx, 'zh');
        for (const row of panel.rows) {
          check(`panel ${row.id}@${t}`, row.facts);
          for (const line of row.lines) check(`panel ${row.id}@${t}`, line);
          for (const b of row.log) check(`log ${row.id}#${b.index}@${t}`, b.label);
        }
      }
      for (const n of indexOf(r.sim).notes) check(`note ${n.what}@${n.t}`, noteText(n, 'zh', r.sim.scenario));
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('labels: metrics, views, message kinds, roles', () => {
    const allowed = new Set([...namesKept, ...metricNames]);
    const bad: string[] = [];
    for (const k of keysOf('zh') as StringKey[]) {
      // The language switch names the other language in it; the app title is a product name.
      if (k === 'langToggle' || k === 'langToggleTitle' || k === 'appTitle') continue;
      const w = englishWords(s('zh', k, {}).replace(/\{\w+(?:,[^}]*)?\}/g, ' '), allowed);
      if (w.length) bad.push(`${k}: ${w.join(', ')}`);
    }
    for (const k of Object.keys(catalogOf('zh').views ?? {}) as ViewStringKey[]) {
      const w = englishWords(vs('zh', k), allowed);
      if (w.length) bad.push(`view ${k}: ${w.join(', ')}`);
    }
    for (const r of runs) for (const k of indexOf(r.sim).kinds) if (englishWords(kindName(k, 'zh'), allowed).length) bad.push(`kind ${k}`);
    for (const [k, v] of Object.entries(catalogOf('zh').lin ?? {})) if (englishWords(v.replace(/\{\w+(?:,[^}]*)?\}/g, ' '), allowed).length) bad.push(`linearizability panel ${k}`);
    for (const r of runs) if (englishWords(checkWhatText(checkModel(r.sim.scenario.strategy).what, 'zh'), allowed).length) bad.push(`check model ${r.label}`);
    // 网络分区 vs 主题分区 in the labels too.
    const labels = [...(keysOf('zh') as StringKey[]).map((k) => s('zh', k, {})), ...Object.values(catalogOf('zh').views ?? {})];
    for (const text of labels) for (const m of text.matchAll(/分区/g)) if (!['网络', '主题'].includes(text.slice(Math.max(0, m.index! - 2), m.index))) bad.push(`分区 without 网络/主题: ${text}`);
    expect(bad).toEqual([]);
  });

  it('every metric has a label in both languages (the strip shows it)', () => {
    const keys = new Set(keysOf('en'));
    expect(metricNames.filter((m) => !keys.has(`m_${m}`))).toEqual([]);
  });

  it('the checker itself finds English (so the tests above can fail)', () => {
    expect(englishWords('领导者 s0 is down（任期 2）', new Set(namesKept))).toEqual(['is', 'down']);
    expect(englishWords('acks=all：w0 · ISR {b0, b1}', new Set([...namesKept, 'acks', 'all']))).toEqual([]);
  });
});
