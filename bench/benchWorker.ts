/**
 * The cluster bench (clusterBench.ts) in a dedicated worker of its own: the engine runs here and
 * its training workers are this worker's, so the page's main thread takes no part (bench/page.ts's
 * `engineInWorker`).
 */
import { benchCluster, type ClusterBenchOptions } from './clusterBench';

self.onmessage = async (e: MessageEvent<ClusterBenchOptions>) => {
  try {
    self.postMessage({ ok: true, result: await benchCluster(e.data) });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
