/**
 * A worker that runs simulations for the page (engine/remote; issue 9: the engine off the main
 * thread): each run gets a pool of training workers of its own, started from here, and hashes its
 * history on a hash worker of its own as the page's runs do.
 */
import '../scenario/zodConfig';
import { EngineHost } from '../engine/remote/host';
import type { EnginePort, FromHost, ToHost } from '../engine/remote/protocol';
import { WorkerPool } from './pool';
import { pageSha256 } from './workerSha256';

new EngineHost(self as unknown as EnginePort<ToHost, FromHost>, async (scenario, backend) => {
  const pool = await WorkerPool.create({ model: scenario.model, seed: scenario.seed, backend: backend ?? 'auto' }, { nodes: scenario.cluster.workers });
  return { trainer: pool, sha256: pageSha256(), release: () => pool.dispose() };
});
