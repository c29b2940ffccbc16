/// <reference lib="webworker" />
import { nobleSha256 } from '../sim/nobleSha256';
import { HashService, type HashRequest, type HashReply } from './hashService';

/** The page's hash worker: the history's SHA-256 digests, off the main thread (workerSha256.ts). */
const service = new HashService(nobleSha256);
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<HashRequest>) => {
  const reply = service.handle(e.data);
  if (reply) void Promise.resolve(reply).then((r: HashReply) => scope.postMessage(r));
};
