import { parentPort } from 'node:worker_threads';
import { HashService, type HashRequest } from '../workers/hashService';
import { nodeSha256 } from './nodeSha256';

/** The thread behind threadSha256.ts: the page's hash service, with node:crypto's SHA-256. */
const service = new HashService(nodeSha256);
parentPort?.on('message', (m: HashRequest) => {
  const reply = service.handle(m);
  if (reply) void Promise.resolve(reply).then((r) => parentPort?.postMessage(r));
});
