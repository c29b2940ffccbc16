/**
 * A worker that runs simulations for the page (engine/remote; issue 9: the engine off the main
 * thread): the trainers the page asks for are pools of training workers started from here, and
 * each run hashes its history on a hash worker of its own as the page's runs did.
 */
import '../scenario/zodConfig';
import { EngineHost } from '../engine/remote/host';
import type { EnginePort, FromHost, ToHost } from '../engine/remote/protocol';
import { WorkerPool } from './pool';
import { pageSha256 } from './workerSha256';

new EngineHost(self as unknown as EnginePort<ToHost, FromHost>, {
  trainer: (spec, nodes) => WorkerPool.create(spec, { nodes }),
  sha256: pageSha256,
});
