import type { RunSummary, VariantSummary } from '../engine/api';
import type { ShapeResult } from '../engine/lessonVerdict';
import { formatExpectation } from '../scenario/expectations';

/**
 * The CLI's human-readable summary (the default output; `--json` prints RunSummary as is).
 * Plain text, no colour codes, so it reads the same in a terminal, a CI log and a file.
 */

/** Integers as they are, other numbers to 4 significant digits, missing as "—". */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(4)));
}

/** Left-aligned columns; `right` lists the column indexes to right-align (numbers). */
export function table(rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          const pad = ' '.repeat(widths[i] - [...cell].length);
          return right.includes(i) ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

type SummaryExpectation = RunSummary['expectations'][number];

/** An expectation whose time lies after where the run stopped (only with `--until`). */
export function notReached(e: SummaryExpectation, s: Pick<RunSummary, 'simTimeMs'>, durationMs: number): boolean {
  const t = (at: number | 'end' | undefined) => (at === undefined ? 0 : at === 'end' ? durationMs : at);
  return Math.max(t(e.at), t(e.thanAt)) > s.simTimeMs;
}

/** `actual 12`, and for a comparison the value it compared with: `actual 12 vs 5`. */
function actualText(e: SummaryExpectation): string {
  return `actual ${formatNumber(e.actual)}${e.other !== undefined ? ` vs ${formatNumber(e.other)}` : ''}`;
}

/** The shape expectations' block: `PASS timeToTarget at 29.9 s is u over ssp-0, …: 9000, 6000, …`. */
export function formatShapes(shapes: readonly ShapeResult[]): string {
  const rows = shapes.map((sh) => [
    sh.pass === null ? 'SKIP' : sh.pass ? 'PASS' : 'FAIL',
    `${sh.metric}${sh.node ? `[${sh.node}]` : ''} at ${sh.at === 'end' ? 'end' : `${sh.at} ms`} is ${sh.shape}${sh.tolerance ? ` ± ${formatNumber(sh.tolerance)}` : ''} over ${sh.variants.join(', ')}`,
    sh.pass === null ? 'not reached' : sh.values.map((v) => (v === null ? '∞' : formatNumber(v))).join(', '),
  ]);
  return ['shapes', table(rows)].join('\n');
}

/**
 * The CLI's verdict: every expectation the run reached holds. Without `--until` every time is
 * reached (validation keeps them ≤ durationMs), so this equals the engine's `pass`.
 */
export function verdict(s: RunSummary, durationMs: number): boolean {
  return s.expectations.every((e) => e.pass || notReached(e, s, durationMs));
}

/** A variant's block in the readable output: its expectations and verdict (the JSON has its metrics too). */
export function formatVariant(v: VariantSummary, durationMs: number, simTimeMs: number): string {
  const asRun = { simTimeMs };
  const rows = v.expectations.map((e) =>
    !e.pass && notReached(e, asRun, durationMs)
      ? ['SKIP', formatExpectation(e, 'en'), `not reached (run stopped at ${formatNumber(simTimeMs)} ms)`]
      : [e.pass ? 'PASS' : 'FAIL', formatExpectation(e, 'en'), actualText(e)],
  );
  const held = v.expectations.filter((e) => e.pass).length;
  const skipped = rows.filter((r) => r[0] === 'SKIP').length;
  const total = v.expectations.length - skipped;
  // As the base run's line says it: "0/0 hold" alone read as a pass that checked something.
  const skipNote = skipped > 0 ? `; ${skipped} not reached` : '';
  return [`variant ${v.id}`, ...(rows.length ? [table(rows)] : []), `result: ${v.pass ? 'PASS' : 'FAIL'} (${held}/${total} expectations hold${skipNote})`].join('\n');
}

/** `durationMs` defaults to the simulated time, i.e. the run went to its end. */
export function formatSummary(s: RunSummary, durationMs = s.simTimeMs): string {
  const out: string[] = [];
  out.push(
    table([
      ['scenario', s.scenario],
      ['seed', String(s.seed)],
      ['strategy', s.strategy],
      ['sim time', `${formatNumber(s.simTimeMs)} ms`],
      ['events', String(s.events)],
      ['params', `${s.params} per replica`],
      ['schedule hash', s.scheduleHash],
      ['event log hash', s.eventLogHash],
    ]),
  );

  const metricRows = Object.entries(s.metrics).map(([name, v]) => [name, formatNumber(v)]);
  if (metricRows.length > 0) out.push('', table([['metric', 'value'], ...metricRows], [1]));

  if (s.nodes.length > 0) {
    const nodeRows = s.nodes.map((n) => [
      n.id,
      n.role,
      n.up ? 'up' : 'down',
      String(n.version),
      String(n.steps),
      formatNumber(n.loss),
      formatNumber(n.accuracy),
    ]);
    out.push('', table([['node', 'role', 'state', 'version', 'steps', 'loss', 'accuracy'], ...nodeRows], [3, 4, 5, 6]));
  }

  const skipped = s.expectations.filter((e) => !e.pass && notReached(e, s, durationMs));
  if (s.expectations.length > 0) {
    const rows = s.expectations.map((e) =>
      skipped.includes(e)
        ? ['SKIP', formatExpectation(e, 'en'), `not reached (run stopped at ${formatNumber(s.simTimeMs)} ms)`]
        : [e.pass ? 'PASS' : 'FAIL', formatExpectation(e, 'en'), actualText(e)],
    );
    out.push('', 'expectations', table(rows));
  }

  const held = s.expectations.filter((e) => e.pass).length;
  const total = s.expectations.length - skipped.length;
  const verdictWord = verdict(s, durationMs) ? 'PASS' : 'FAIL';
  const skipNote = skipped.length > 0 ? `; ${skipped.length} not reached` : '';
  out.push('', s.expectations.length === 0 ? 'result: PASS (no expectations)' : `result: ${verdictWord} (${held}/${total} expectations hold${skipNote})`);
  return out.join('\n');
}
