import type { Message, NodeId } from '../../sim/types';
import type { NodeFacts, NodeLog } from '../facts';
import { RsmClients, type ClientMsg } from '../rsmClient';
import type { StepResult, Strategy, StrategyContext } from '../strategy';
import { TwoPcServers, type Msg, type ServerX } from './servers';
import type { Coordinator, Participant, PartRecord } from './state';
import { partItem, serverFacts, type ServerView } from './views';
import { replicatedClientWire } from '../wire';
import type { TwoPcPsConfig } from './knobs';

/**
 * A parameter server replicated by two-phase commit across the servers (Gray 1978; Bernstein,
 * Hadzilacos & Goodman 1987, ch. 7). Every server holds a replica of the parameters and is a
 * participant; the `coordinator` (s0 by default) also runs the coordinator. Each worker update is
 * one transaction: the coordinator logs `begin`, sends PREPARE (with the gradient) to every
 * participant, commits only if every participant votes yes, and aborts on a no or when
 * `voteTimeoutMs` passes without every vote. It forces the decision to its stable log before
 * sending it, so after a restart it re-sends the last decision — or, for a transaction it had begun
 * but not decided, aborts it (presumed abort). Transactions run one at a time (the parameters are
 * one object: a prepared participant holds its lock until it learns the decision).
 *
 * A participant that voted yes is prepared: it can neither commit (another may have voted no) nor
 * abort (the coordinator may have committed). If the decision does not come within 2 × voteTimeoutMs
 * it is in doubt: it asks the coordinator and the other participants at that interval (cooperative
 * termination) and blocks until one of them knows. Prepared records, votes and decisions are on
 * stable storage; a restarted participant rebuilds its replica by replaying its committed updates.
 *
 * Reads: a worker reads the parameters from the coordinator, which answers from its own replica.
 * Every transaction the coordinator decided to commit is applied there before anyone is told, so a
 * read sees every update acknowledged before it began: reads and committed updates are
 * linearizable. A coordinator that is down answers nothing, so reads wait with writes — CP, and it
 * needs every replica for writes.
 *
 * The servers' side is TwoPcServers (servers.ts); the decisions are pure rules (rules.ts). This
 * class wires the servers to the workers and says what a node shows.
 */
export class TwoPcPsStrategy implements Strategy {
  readonly kind = '2pc-ps';
  readonly wire = replicatedClientWire;
  private readonly coordId: NodeId;
  private readonly servers: TwoPcServers;
  private readonly srv: ReadonlyMap<NodeId, ServerX>;
  private readonly clients: RsmClients;

  constructor(
    private readonly ctx: StrategyContext,
    cfg: TwoPcPsConfig,
  ) {
    if (!ctx.servers.includes(cfg.coordinator)) throw new Error(`2pc-ps: coordinator "${cfg.coordinator}" is not a server (cluster has ${ctx.servers.join(', ') || 'no servers'})`);
    this.coordId = cfg.coordinator;
    this.servers = new TwoPcServers(ctx, cfg, this.coordId);
    this.srv = this.servers.srv;
    this.clients = new RsmClients(ctx, cfg, this.coordId, () => this.authoritativeVersion());
  }

  topology(): Array<[NodeId, NodeId]> {
    const edges: Array<[NodeId, NodeId]> = [];
    for (const w of this.ctx.workers) edges.push([w, this.coordId]);
    const ss = this.ctx.servers;
    for (let i = 0; i < ss.length; i++) for (let j = i + 1; j < ss.length; j++) edges.push([ss[i], ss[j]]);
    return edges;
  }

  start(): void {
    this.clients.start();
  }

  onStepDone(worker: NodeId, r: StepResult): void {
    this.clients.onStepDone(worker, r);
  }

  // ================================================================ dispatch

  onMessage(msg: Message): void {
    const m = msg.payload as Msg;
    if (this.clients.has(msg.to)) return this.clients.onMessage(msg.to, msg.from, m as ClientMsg);
    this.servers.onMessage(msg.to, msg.from, m);
  }

  onTimer(node: NodeId, tag: string, data: unknown): void {
    if (this.clients.has(node)) {
      this.clients.onTimer(node, tag, data);
      return;
    }
    this.servers.onTimer(node, tag, data);
  }

  onCrash(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onCrash(node);
    this.servers.crashed(node);
  }

  onRestart(node: NodeId): void {
    if (this.clients.has(node)) return this.clients.onRestart(node);
    this.servers.restarted(node);
  }

  // ================================================================ views and metrics

  authoritativeVersion(): number {
    return this.servers.authoritativeVersion();
  }

  nodeVersion(node: NodeId): number {
    const x = this.srv.get(node);
    return x ? x.part.sm.version : this.ctx.replica(node).version;
  }

  private view(node: NodeId, x: ServerX): ServerView {
    return { part: x.part, blocked: x.blocked, coord: node === this.coordId ? this.servers.coord : null, participants: this.servers.participants.length };
  }

  facts(node: NodeId): NodeFacts | null {
    if (this.clients.has(node)) {
      const v = this.clients.view(node);
      return { kind: '2pc-client', phase: v.phase, seq: v.seq, aborted: v.aborted };
    }
    const x = this.srv.get(node);
    return x ? serverFacts(this.view(node, x)) : null;
  }

  logOf(node: NodeId): NodeLog<PartRecord> | null {
    const x = this.srv.get(node);
    return x ? { base: 1, entries: x.part.log, item: partItem } : null;
  }

  metric(name: string, node?: NodeId): number | null | undefined {
    switch (name) {
      case 'inDoubt': {
        // CURRICULUM §C.4: participants (up) prepared without a decision.
        let n = 0;
        for (const [id, x] of this.srv) if (this.ctx.isUp(id) && x.part.prepared) n++;
        return node === undefined ? n : null;
      }
      case 'maxCommitGapMs':
        return this.servers.books.maxCommitGapMs;
      case 'staleReads':
        return this.clients.staleReads(node);
      case 'rejectedWrites':
        return node === undefined ? this.servers.aborts : null;
      default:
        return undefined;
    }
  }

  checkInvariants(): Array<{ invariant: string; detail: string }> {
    return this.servers.checker.drain();
  }

  /**
   * Acknowledged updates whose commit is not durable: the coordinator's log lacks the commit, or a
   * participant's log lacks the prepared update. 2PC forces both before acknowledging, so this
   * stays 0 unless the protocol broke.
   */
  lostUpdates(): number {
    let lost = 0;
    const { coord, participants, preparedOn } = this.servers;
    for (const key of this.clients.acked) {
      const tx = coord.byKey.get(key);
      if (tx === undefined || coord.decisions.get(tx) !== 'commit') {
        lost++;
        continue;
      }
      for (const p of participants) {
        if (!preparedOn.get(p)!.has(tx)) {
          lost++;
          break;
        }
      }
    }
    return lost;
  }

  /** Updates that changed one replica twice (a retry committed in two transactions, applied twice). */
  duplicateUpdates(): number {
    return this.servers.books.duplicateUpdates;
  }

  /** For tests: a server's participant state and, on the coordinator, the coordinator's (read-only use). */
  server(node: NodeId): { readonly part: Readonly<Participant>; readonly blocked: boolean } {
    const x = this.srv.get(node)!;
    return { part: x.part, blocked: x.blocked };
  }

  coordinatorState(): Readonly<Coordinator> {
    return this.servers.coord;
  }

  acknowledged(): ReadonlySet<string> {
    return this.clients.acked;
  }
}
