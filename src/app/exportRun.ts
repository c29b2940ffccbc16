import { nextTask } from '../check/nextTask';
import { runScenario } from '../engine/runExport';
import type { ZipEntry } from '../engine/runZip';
import type { Run } from './engine';
import { batchTransfers } from '../sim/historyRows';
import { holdPacking } from '../sim/packer';
import type { ExportReply, ExportRequest } from '../workers/exportWorker';
import { svgToPng, viewsOnScreen, viewToSvg } from './viewImages';

/**
 * "Export run": one zip (one download — Chromium under Playwright never fires an 11th download
 * from one page) holding
 *   <id>.scenario.json  the run as a schema-1 scenario, user actions marked "by": "user"
 *   <id>.events.jsonl   the event log; its SHA-256 is the run's eventLogHash (as `sim --log`)
 *   <id>.samples.csv    the engine's samples, as `sim --samples`
 *   views/<view>.svg, views/<view>.png   every view on screen
 * The log is written and the zip compressed in a worker, from the history's rows (engine/runZip.ts):
 * the main thread only copies the rows, a slice per task, and draws the views. The run may go on
 * meanwhile: the zip holds it as it was at the click; nothing new is packed until it is built
 * (sim/packer.ts holdPacking).
 */
export function buildRunZip(sim: Run): Promise<{ name: string; zip: Blob; files: string[] }> {
  return holdPacking(zipRun(sim));
}

async function zipRun(sim: Run): Promise<{ name: string; zip: Blob; files: string[] }> {
  const enc = new TextEncoder();
  const id = sim.scenario.id;
  const t = Math.round(sim.now());
  const slices = sim.history.rowSlices();
  const scenario = runScenario(sim.scenario, sim.userActions());
  const zip = zipOffThread();
  const [scenarioFile, log, samples] = [`${id}.scenario.json`, `${id}.events.jsonl`, `${id}.samples.csv`];
  const views: ZipEntry[] = [];
  try {
    zip.add([{ name: scenarioFile, bytes: enc.encode(`${JSON.stringify(scenario, null, 2)}\n`) }]);
    // The worker writes each slice while the next is copied here. All at once, the copies were one
    // task that grew with the run (240 ms at 10 simulated minutes of 8-worker raft-ps, 1.5 M events).
    for (const [k, slice] of slices.entries()) {
      if (k > 0) await nextTask();
      zip.add([{ name: log, log: slice(), more: k < slices.length - 1 }]);
    }
    zip.add([{ name: samples, samplesOf: log }]);
    for (const { name, el } of viewsOnScreen()) {
      const svg = viewToSvg(el, name);
      views.push({ name: `views/${name}.svg`, bytes: enc.encode(svg.svg) });
      // PNG is compressed already: store it.
      views.push({ name: `views/${name}.png`, bytes: await svgToPng(svg), store: true });
    }
  } catch (e) {
    zip.cancel();
    throw e;
  }
  return { name: `${id}-run-t${t}.zip`, zip: await zip.end(views), files: [scenarioFile, log, samples, ...views.map((e) => e.name)] };
}

interface ZipWriter {
  add(entries: ZipEntry[]): void;
  /** The last entries; the zip. */
  end(entries: ZipEntry[]): Promise<Blob>;
  cancel(): void;
}

/**
 * A zip built in a worker of its own, entries sent as they are ready (the app runs where workers
 * are: its engine is one). The zip library stays off the page, which loads fflate's inflate alone
 * (sim/packer.ts).
 */
function zipOffThread(): ZipWriter {
  const worker = new Worker(new URL('../workers/exportWorker.ts', import.meta.url), { type: 'module' });
  const reply = new Promise<Blob>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<ExportReply>) => {
      worker.terminate();
      if ('zip' in e.data) resolve(e.data.zip);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(e.message || 'the export worker failed to start'));
    };
  });
  const post = (entries: ZipEntry[], last: boolean): void => {
    // Every array here is this export's own: its memory moves to the worker.
    const transfer = entries.flatMap((e) => ('log' in e ? batchTransfers(e.log) : 'bytes' in e && e.bytes.buffer instanceof ArrayBuffer ? [e.bytes.buffer] : []));
    const request: ExportRequest = { entries, last };
    worker.postMessage(request, [...new Set(transfer)]);
  };
  return {
    add: (entries) => post(entries, false),
    end: (entries) => {
      post(entries, true);
      return reply;
    },
    cancel: () => worker.terminate(),
  };
}

/** Saves a file through a temporary link. */
export function download(name: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
