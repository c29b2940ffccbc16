import { zipSync, type Zippable } from 'fflate';
import { eventLogLines, joinLines, runScenario, samplesCsvLines } from '../engine/runExport';
import type { Simulation } from '../engine/simulation';
import { svgToPng, viewsOnScreen, viewToSvg } from './viewImages';

/**
 * "Export run": one zip (one download — Chromium under Playwright never fires an 11th download
 * from one page) holding
 *   <id>.scenario.json  the run as a schema-1 scenario, user actions marked "by": "user"
 *   <id>.events.jsonl   the event log; its SHA-256 is the run's eventLogHash (as `sim --log`)
 *   <id>.samples.csv    the engine's samples, as `sim --samples`
 *   views/<view>.svg, views/<view>.png   every view on screen
 */
export async function buildRunZip(sim: Simulation): Promise<{ name: string; bytes: Uint8Array; files: string[] }> {
  const enc = new TextEncoder();
  const id = sim.scenario.id;
  const files: Zippable = {
    [`${id}.scenario.json`]: enc.encode(`${JSON.stringify(runScenario(sim.scenario, sim.userActions()), null, 2)}\n`),
    [`${id}.events.jsonl`]: enc.encode(joinLines(eventLogLines(sim.history.events))),
    [`${id}.samples.csv`]: enc.encode(joinLines(samplesCsvLines(sim.history.events))),
  };
  for (const { name, el } of viewsOnScreen()) {
    const svg = viewToSvg(el, name);
    files[`views/${name}.svg`] = enc.encode(svg.svg);
    // PNG is compressed already: store it.
    files[`views/${name}.png`] = [await svgToPng(svg), { level: 0 }];
  }
  const t = Math.round(sim.now());
  return { name: `${id}-run-t${t}.zip`, bytes: zipSync(files, { level: 6 }), files: Object.keys(files) };
}

/** Saves bytes as a file through a temporary link. */
export function download(name: string, bytes: Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
