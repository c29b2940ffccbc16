import type { CheckWhat } from '../../check/models';

/**
 * What the checkers hold a strategy to (check/models.ts), in English (bundled, the first load).
 * One entry per CheckWhat in every language's table: a new one does not compile until each says it.
 */
export const checksEn: Record<CheckWhat, string> = {
  rounds: 'Lockstep rounds, not linearizability: each synchronous round is one collective update; rounds must apply in order with one parameter set per version, and a worker adopting a replica reads the lineage — it may lag (a stale read is allowed), but never fork.',
  raft: 'The replicated parameter server as one register: committed updates and reads must fit a single order that respects real time.',
  paxos: 'The Paxos-replicated parameter server as one register: chosen updates and reads must fit a single order that respects real time.',
  '2pc': 'The 2PC-replicated parameter server as one register: committed transactions and reads must fit a single order that respects real time; aborted updates never take effect.',
  'ps-async': 'The server’s parameters as one register: pushes are updates, adopted replies and steps on a local copy are reads — an asynchronous worker reads parameters the server may never have held.',
  register: 'The reads and updates this strategy records, against one versioned register (Wing & Gong search).',
};
