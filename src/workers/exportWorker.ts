/// <reference lib="webworker" />
import { RunZip, type ZipEntry } from '../engine/runZip';

/**
 * The page's run export, off the main thread (app/exportRun.ts): entries come in one or more
 * messages, in order — the log first, while the page draws the views — and the last message's
 * reply is the zip. One zip per worker, then it is closed.
 */
export type ExportRequest = { entries: ZipEntry[]; last: boolean };
export type ExportReply = { zip: Blob } | { error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
const zip = new RunZip();
let failed: string | null = null;
scope.onmessage = (e: MessageEvent<ExportRequest>) => {
  try {
    if (!failed) zip.add(e.data.entries);
  } catch (err) {
    failed = err instanceof Error ? err.message : String(err);
  }
  if (!e.data.last) return;
  let reply: ExportReply;
  try {
    reply = failed ? { error: failed } : { zip: zip.endBlob() };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  scope.postMessage(reply);
};
