import type { Scenario } from '../../scenario/schema';
import { onDemand } from '../onDemand';
import type { ServerStatesProps } from './ServerStates';

/**
 * The servers panel (ServerStates.tsx) loads on demand (issue 9): only runs with consensus
 * servers, brokers or a coordination service show it (serverModel.ts `showServers`, from the
 * run's facts). Its load starts with the scenario's code where the scenario says it will likely
 * be shown (load.ts), else when it first is; a failed load shows in the panel's ViewBoundary.
 */
export const serverStates = onDemand<ServerStatesProps, typeof import('./ServerStates')>(
  () => import('./ServerStates'),
  (m) => m.ServerStates,
);

/**
 * A hint only (a wrong guess costs a fetch, or a moment's wait): the strategies whose servers
 * keep a log the panel draws, and any cluster with brokers or coordination-service nodes.
 */
export function mayShowServers(sc: Scenario): boolean {
  return sc.cluster.coord > 0 || sc.cluster.brokers > 0 || sc.strategy.kind === 'raft-ps' || sc.strategy.kind === 'paxos-ps' || sc.strategy.kind === '2pc-ps';
}
