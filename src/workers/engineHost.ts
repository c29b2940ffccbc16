/**
 * The engine worker's host: trainers are pools of training workers (spares started by
 * engineWorker.ts first), and each run hashes its history on a hash worker of its own, started
 * from here, as the page's runs did. It also answers the page's checks (app/checks): the schemas
 * are here, not on the page.
 */
import '../scenario/zodConfig';
import { checks } from '../app/checks/table';
import { EngineHost } from '../engine/remote/host';
import type { EnginePort, FromHost, ToHost } from '../engine/remote/protocol';
import { WorkerPool } from './pool';
import { pageSha256 } from './workerSha256';

/** Starts the host and hands it the messages that came before it. */
export function startHost(early: readonly MessageEvent[]): void {
  const port = self as unknown as EnginePort<ToHost, FromHost>;
  new EngineHost(port, { trainer: (spec, pool) => WorkerPool.create(spec, pool), sha256: pageSha256, checks });
  for (const e of early) port.onmessage?.(e as MessageEvent<ToHost>);
}
