/// <reference lib="webworker" />
import { runZip, type ZipEntry } from '../engine/runZip';

/** The page's run export, off the main thread (app/exportRun.ts): one zip per worker, then it is closed. */
export type ExportReply = { zip: Blob } | { error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<{ entries: ZipEntry[] }>) => {
  let reply: ExportReply;
  try {
    reply = { zip: new Blob(runZip(e.data.entries) as Uint8Array<ArrayBuffer>[], { type: 'application/zip' }) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  scope.postMessage(reply);
};
