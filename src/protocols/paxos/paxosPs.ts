import type { Action, Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import { RsmClients, type ClientMsg } from '../rsmClient';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import { replicatedClientWire } from '../wire';
import { UnconfirmedAcks } from '../unconfirmedAcks';
import { PaxosGroup } from './group';
import type { Msg, Server } from './server';
import type { Accepted, PaxosCore } from './state';
import { chosenItem, serverFacts, serverMetric } from './views';
import type { PaxosPsConfig } from './knobs';

/**
 * A parameter server replicated with Multi-Paxos and a distinguished proposer (Lamport, "Paxos
 * Made Simple", 2001, §3). The replicated state machine is the parameter vector; slot i of the
 * sequence holds one command — a worker's update, or a no-op — and applying an update is one SGD
 * step.
 *
 * Every server is acceptor, learner and proposer. A server that hears no leader for a randomised
 * election timeout (seeded, like raft-ps) becomes a candidate: it takes a ballot above every one it
 * knows and runs phase 1 once, for all slots from the first it does not know chosen (prepare →
 * promise). With promises from a majority it leads: for each slot some promise reports it
 * re-proposes the value accepted in the highest ballot, fills the gaps with no-ops, and then
 * proposes each new update in the next slot (phase 2: accept → accepted). A value is chosen when a
 * majority accepted it in one ballot; the leader learns that from the replies and announces the
 * chosen prefix on its next accept or heartbeat — a follower that accepted a slot in the leader's
 * ballot then knows its value, and asks the leader for the chosen values it lacks. Learners apply
 * chosen slots in order. A refusal naming a higher ballot makes a proposer step down.
 *
 * Workers are clients as in raft-ps (rsmClient.ts). Reads are linearizable the ReadIndex way: the
 * leader notes the highest slot it has assigned, confirms with a heartbeat round that a majority
 * still follows its ballot (so no later ballot can have chosen anything), and answers once every
 * slot up to the noted one is chosen and applied.
 *
 * The servers' side is PaxosGroup (group.ts) with its learners (learner.ts); the decisions are pure
 * rules (rules.ts). This class wires the servers to the workers and says what a node shows.
 */
export class PaxosPsStrategy implements Strategy {
  readonly kind = 'paxos-ps';
  readonly wire = replicatedClientWire;
  private readonly group: PaxosGroup;
  private readonly srv: ReadonlyMap<NodeId, Server>;
  private readonly clients: RsmClients;

  constructor(
    private readonly ctx: StrategyContext,
    cfg: PaxosPsConfig,
  ) {
    if (ctx.servers.length < 1) throw new Error('paxos-ps needs servers (cluster.servers ≥ 3)');
    this.group = new PaxosGroup(ctx, cfg);
    this.srv = this.group.srv;
    this.clients = new RsmClients(ctx, cfg, null, () => this.authoritativeVersion());
  }

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    for (const w of this.ctx.workers) for (const s of this.ctx.servers) edges.push([w, s]);
    const ss = this.ctx.servers;
    for (let i = 0; i < ss.length; i++) for (let j = i + 1; j < ss.length; j++) edges.push([ss[i], ss[j]]);
    return edges;
  }

  start(): void {
    this.group.start();
    this.clients.start();
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    this.clients.onStepDone(worker, r);
  }

  // ================================================================ dispatch

  onMessage(msg: Message): void {
    const m = msg.payload as Msg;
    if (this.clients.has(msg.to)) return this.clients.onMessage(msg.to, msg.from, m as ClientMsg);
    this.group.onMessage(msg.to, msg.from, m);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.clients.has(node)) {
      this.clients.onTimer(node, tag, data);
      return;
    }
    this.group.onTimer(node, tag, data);
  }

  onCrash(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onCrash(node);
    this.group.crashed(node);
  }

  onRestart(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onRestart(node);
    this.group.restarted(node);
  }

  onAction(a: Action): boolean {
    if (a.do !== 'timeout') return false;
    return this.group.timeout(a.node);
  }

  // ================================================================ views and metrics

  authoritativeVersion(): number {
    let v = 0;
    for (const s of this.srv.values()) v = Math.max(v, s.v.sm.version);
    return v;
  }

  nodeVersion(node: NodeId): number {
    const s = this.srv.get(node);
    return s ? s.v.sm.version : this.ctx.replica(node).version;
  }

  facts(node: NodeId): NodeFacts | null {
    if (this.clients.has(node)) {
      const v = this.clients.view(node);
      return { kind: 'paxos-client', phase: v.phase, asking: v.asking, seq: v.seq };
    }
    const s = this.srv.get(node);
    return s ? serverFacts(s, this.group.quorum) : null;
  }

  /**
   * The learner's chosen values (append-only, as a Raft log's committed prefix). An acceptor's
   * accepted slots are not a log in that sense — a later ballot replaces a value in the middle — so
   * they appear as the facts' `accepted` and the messages, not here.
   */
  logOf(node: NodeId): NodeLog<Accepted> | null {
    const s = this.srv.get(node);
    return s ? { base: 1, entries: s.d.chosen, item: chosenItem } : null;
  }

  resolveSelector(selector: string): NodeId | null {
    if (selector !== '@leader') return null;
    let best: Server | null = null;
    for (const s of this.srv.values()) {
      if (s.v.role === 'leader' && this.ctx.isUp(s.id) && (!best || s.v.ballot > best.v.ballot)) best = s;
    }
    return best?.id ?? null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    if (name === 'maxCommitGapMs') return this.group.books.maxCommitGapMs;
    if (name === 'staleReads') return this.clients.staleReads(node);
    return serverMetric(name, node, [...this.srv.values()], (n) => this.ctx.isUp(n));
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.group.checker.drain();
  }

  /** Acknowledged updates not chosen in any slot (an acknowledgement must mean chosen; chosen is forever). */
  lostUpdates(): number {
    // Only the acknowledgements since the last count and those not yet chosen are looked at.
    this.unchosen ??= new UnconfirmedAcks(this.clients.acked, (k) => this.group.checker.isChosen(k));
    return this.unchosen.count();
  }
  private unchosen: UnconfirmedAcks | null = null;

  /** Updates that changed one replica twice (a retry chosen in two slots and applied twice). */
  duplicateUpdates(): number {
    return this.group.books.duplicateUpdates;
  }

  /** For tests: a server's Paxos state (read-only use). */
  server(node: NodeId): Readonly<PaxosCore> {
    return this.srv.get(node)!;
  }

  acknowledged(): ReadonlySet<string> {
    return this.clients.acked;
  }
}
