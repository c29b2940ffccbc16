import type { NodeState } from '../../engine/index/runState';
import type { StrategyConfig } from '../../protocols';
import type { NodeFacts } from '../../protocols/facts';
import type { Lang } from '../i18n/lang';
import { sentencesEn as en } from './nodeWords.en';
import { wordsIn } from './tables';

/**
 * A node's typed facts (protocols/facts.ts) in words, for the topology's tooltips, the node panel
 * and the servers panel — in English and Chinese, never parsed back. Every function takes the
 * node's state at the cursor time, so a scrubbed screen reads like the live one did. The sentences
 * are per language (NodeTable): English's in the first load, the others' in their language's
 * chunk (tables.ts).
 */

/** The run-wide context some facts need to be read (ring length, majority size, knobs). */
export interface WordsContext {
  workers: number;
  /** Consensus servers (Raft) — the majority is counted over these. */
  servers: number;
  cfg: StrategyConfig;
  /** The coordination service beside the strategy (cluster.coord nodes c0…), if any. */
  coord?: 'etcd' | 'zookeeper';
}

/** The stable `data-role` hook of a node (CONTRACTS §5), at the cursor time. */
export type DataRole = 'leader' | 'follower' | 'candidate' | 'crashed' | 'paused' | 'worker' | 'server' | 'broker' | 'consumer' | 'coord';

/**
 * Raft servers and Paxos proposers: their role. Kafka brokers: their role for topic partition 0
 * (the partition the servers panel draws and `@leader` names), `broker` when they hold no replica
 * of it. Kafka's PS replicas: `consumer`. Everything else (2PC servers included: the coordinator
 * is named in the panel; coordination-service servers: `coord`, their role is in the panel and
 * the ring): its cluster role. Down: `crashed`; frozen by a `pause`: `paused`.
 */
export function roleOf(n: NodeState): DataRole {
  if (!n.up) return 'crashed';
  if (n.paused) return 'paused';
  const f = n.facts;
  if (f?.kind === 'raft-server' || f?.kind === 'paxos-server') return f.role;
  if (f?.kind === 'kafka-broker') return p0(f)?.role ?? 'broker';
  if (f?.kind === 'kafka-consumer') return 'consumer';
  return n.role;
}

/** Raft: the server's current term; Kafka: the leader epoch of topic partition 0 it knows; Paxos: the ballot it promised. */
export function termOf(n: NodeState): number | null {
  const f = n.facts;
  if (f?.kind === 'raft-server') return f.term;
  if (f?.kind === 'kafka-broker') return p0(f)?.epoch ?? null;
  if (f?.kind === 'paxos-server') return f.promised;
  if (f?.kind === 'coord-server') return f.term;
  return null;
}

/**
 * The consensus role drawn on a server glyph (the leader's crown, a candidate's dashed ring),
 * whatever its data-role hook says: coordination servers are `coord` there, but lead or follow too.
 * ZooKeeper's LOOKING (electing) and an elected leader still synchronising count as candidates.
 */
export function consensusRoleOf(n: NodeState): 'leader' | 'follower' | 'candidate' | null {
  if (!n.up) return null;
  const f = n.facts;
  if (f?.kind === 'coord-server') return f.role === 'looking' ? 'candidate' : f.role;
  const r = roleOf(n);
  return r === 'leader' || r === 'follower' || r === 'candidate' ? r : null;
}

/** What termOf counts, in words: term (Raft, etcd), epoch (Kafka, ZooKeeper's Zab), ballot (Paxos). */
export function termWord(n: NodeState, lang: Lang): string {
  const k = n.facts?.kind;
  const counted = k === 'kafka-broker' || (n.facts?.kind === 'coord-server' && n.facts.service === 'zookeeper') ? 'epoch' : k === 'paxos-server' ? 'ballot' : 'term';
  return tableIn(lang).termWord[counted];
}

/**
 * The version a node holds at t: a worker's replica; a server's state from its facts (a PS
 * server's or Raft state machine's version, a Kafka PS replica's applied offset, a broker's log
 * length). A node without facts at t (a crashed PS server) falls back to the engine's sample.
 */
export function versionOf(n: NodeState, sampled?: number | null): number {
  if (n.role === 'worker') return n.version;
  const f = n.facts;
  if (f?.kind === 'ps-server' || f?.kind === 'raft-server' || f?.kind === 'paxos-server' || f?.kind === '2pc-server') return f.version;
  if (f?.kind === 'kafka-consumer') return f.offset;
  if (f?.kind === 'kafka-broker') return f.parts.reduce((a, p) => a + p.leo, 0);
  // A coordination server holds no parameters: its store's revision (ZooKeeper: last applied zxid).
  if (f?.kind === 'coord-server') return f.revision;
  return sampled ?? n.version;
}

type BrokerFacts = Extract<NodeFacts, { kind: 'kafka-broker' }>;
export type Part = BrokerFacts['parts'][number];
export type CoordFacts = Extract<NodeFacts, { kind: 'coord-server' }>;
export type PsWorkerFacts = Extract<NodeFacts, { kind: 'ps-worker' }>;
export type LockFacts = NonNullable<PsWorkerFacts['lock']>;

export function p0(f: BrokerFacts): Part | undefined {
  return f.parts.find((x) => x.p === 0);
}

type FactsOf<K extends NodeFacts['kind']> = Extract<NodeFacts, { kind: K }>;

/**
 * A node's facts in one language's words (nodeWords.en.ts, nodeWords.zh.ts): one entry per kind
 * of facts, so a kind added to facts.ts does not compile until each language can say it.
 */
export interface NodeTable {
  /** One line per fact worth saying, most important first. */
  facts: { [K in NodeFacts['kind']]: (f: FactsOf<K>, n: NodeState, ctx: WordsContext) => string[] };
  /** A paused process handles nothing (CURRICULUM §C.2 `pause`): it cannot notice what happened meanwhile. `at`: seconds. */
  paused: (at: string) => string;
  termWord: Record<'term' | 'epoch' | 'ballot', string>;
}

type RsmPhase = FactsOf<'paxos-client'>['phase'];

/**
 * One language's sentences for node facts (sentencesEn in nodeWords.en.ts, sentencesZh in
 * nodeWords.zh.ts). The table that picks a sentence for each kind of facts is built once from
 * them (`nodeTable`), so the languages do not each repeat the dispatch.
 */
export interface NodeSentences extends Omit<NodeTable, 'facts'> {
  ringLine(f: FactsOf<'ring-worker'>, ctx: WordsContext): string;
  psServerLines(f: FactsOf<'ps-server'>): string[];
  psWorkerLine(f: PsWorkerFacts): string;
  lockWorkerLines(f: PsWorkerFacts, lock: LockFacts, paused: boolean, ctx: WordsContext): string[];
  coordServerLines(f: CoordFacts): string[];
  raftServerLines(f: FactsOf<'raft-server'>, ctx: WordsContext): string[];
  raftClientLine(f: FactsOf<'raft-client'>, ctx: WordsContext): string;
  partLine(p: Part): string;
  consumerLine(f: FactsOf<'kafka-consumer'>): string;
  producerLine(f: FactsOf<'kafka-producer'>): string;
  degradeLines(f: FactsOf<'degrade-worker'>, ctx: WordsContext): string[];
  paxosServerLines(f: FactsOf<'paxos-server'>): string[];
  twoPcServerLines(f: FactsOf<'2pc-server'>): string[];
  rsmClientLine(phase: RsmPhase, seq: number, asking: string | null): string;
  /** Appended to a 2PC client's line: how many of its updates were aborted so far (n > 0). */
  abortedSoFar(n: number): string;
}

/** A language's NodeTable from its sentences. */
export function nodeTable(w: NodeSentences): NodeTable {
  return {
    facts: {
      'ring-worker': (f, _n, ctx) => [w.ringLine(f, ctx)],
      'ps-server': (f) => w.psServerLines(f),
      'ps-worker': (f, n, ctx) => (f.lock ? w.lockWorkerLines(f, f.lock, n.paused !== undefined, ctx) : [w.psWorkerLine(f)]),
      'coord-server': (f) => w.coordServerLines(f),
      'raft-server': (f, _n, ctx) => w.raftServerLines(f, ctx),
      'raft-client': (f, _n, ctx) => [w.raftClientLine(f, ctx)],
      'kafka-broker': (f) => f.parts.map((p) => w.partLine(p)),
      'kafka-consumer': (f) => [w.consumerLine(f)],
      'kafka-producer': (f) => [w.producerLine(f)],
      'degrade-worker': (f, _n, ctx) => w.degradeLines(f, ctx),
      'paxos-server': (f) => w.paxosServerLines(f),
      'paxos-client': (f) => [w.rsmClientLine(f.phase, f.seq, f.asking)],
      '2pc-server': (f) => w.twoPcServerLines(f),
      '2pc-client': (f) => [w.rsmClientLine(f.phase, f.seq, null) + (f.aborted > 0 ? w.abortedSoFar(f.aborted) : '')],
    },
    paused: w.paused,
    termWord: w.termWord,
  };
}

/** Each language's table, built once from its sentences. */
const tables = new WeakMap<NodeSentences, NodeTable>();

function tableIn(lang: Lang): NodeTable {
  const w = wordsIn<NodeSentences>(lang, en, (t) => t.nodes);
  let table = tables.get(w);
  if (!table) tables.set(w, (table = nodeTable(w)));
  return table;
}

/** One line per fact worth saying, most important first. Empty when the node has no facts. */
export function nodeLines(n: NodeState, ctx: WordsContext, lang: Lang): string[] {
  const t = tableIn(lang);
  const f = n.facts;
  const lines = f ? (t.facts[f.kind] as (f: NodeFacts, n: NodeState, ctx: WordsContext) => string[])(f, n, ctx) : [];
  return n.paused ? [t.paused((n.paused.since / 1000).toFixed(2)), ...lines] : lines;
}
