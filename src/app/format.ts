import type { MetricName } from '../scenario/schema';
import type { Lang } from './i18n/lang';
import { s } from './i18n/strings';

/**
 * Number formatting for what a teacher points at: short, stable width, the same in every view.
 * Pure functions, unit-tested.
 */

/** Metrics shown in the strip, in order (each gets `data-testid="metric-<name>"`). */
export const stripMetrics = [
  'divergence',
  'versionConflicts',
  'staleness',
  'availability',
  'steps',
  'loss',
  'accuracy',
  'bytes',
  'messages',
  'dropped',
  'lostUpdates',
] as const;
export type StripMetric = (typeof stripMetrics)[number];

/** Metrics every strategy shows: the C/A story and what training costs. */
const coreStrip: readonly MetricName[] = ['divergence', 'versionConflicts', 'staleness', 'availability', 'steps', 'loss', 'accuracy', 'lostUpdates'];
/** Traffic counters: shown only when the strategy has no metrics of its own to show instead. */
const trafficStrip: readonly MetricName[] = ['bytes', 'messages', 'dropped'];

/**
 * The strategy-defined metrics worth a cell, most telling first (the ones a lesson points at).
 * Strategies not listed show whatever they define, in `metricNames` order.
 */
export const strategyStrip: Readonly<Record<string, readonly MetricName[]>> = {
  'raft-ps': ['leaders', 'term', 'commitIndex', 'maxCommitGapMs', 'staleReads', 'overwrittenEntries'],
  'kafka-ps': ['consumerLag', 'isrSize', 'rejectedWrites', 'uncleanElections', 'serverConflicts'],
  ssp: ['maxClockGap', 'waitFraction'],
  'ps-sync': ['waitFraction', 'delayedRounds'],
  degrade: ['degradedWorkers', 'lostWork', 'fencedWrites', 'staleWritesAccepted', 'mergeLossSpike'],
};

/**
 * The security layer's counters read 0 on every run (nothing tampered, nothing rejected): they get
 * a cell where the scenario protects its messages or once one is non-zero, not on every run, where
 * they crowded out the traffic counters and the strategy's own metrics.
 */
const securityMetrics: ReadonlySet<MetricName> = new Set(['tamperedAccepted', 'tamperedRejected', 'replayRejected']);

/** Whether a metric with this value is worth a strip cell on this run (`stripLayout`'s `defined`). */
export function worthACell(name: MetricName, value: number | null, secured: boolean): boolean {
  return value !== null && (secured || value !== 0 || !securityMetrics.has(name));
}

/** At most this many cells: more would shrink the numbers below what reads from the back row. */
export const maxStripCells = 12;
const maxStrategyCells = 4;

/**
 * Which metrics get a visible cell and which only a hidden test hook (`metric-<name>` must stay
 * readable by scripts for every core metric). `defined(name)` says whether the running strategy
 * has a value for it (non-null). `violations` always shows, last, so its ⚠ sits at the edge.
 */
export function stripLayout(kind: string, defined: (name: MetricName) => boolean, all: readonly MetricName[]): { visible: MetricName[]; hidden: MetricName[] } {
  const taken = new Set<MetricName>([...coreStrip, ...trafficStrip, 'violations']);
  const preferred = strategyStrip[kind] ?? [];
  const rest = all.filter((m) => !taken.has(m) && !preferred.includes(m) && !generalMetrics.has(m));
  const extras = [...preferred, ...rest].filter((m) => defined(m));
  const shownExtras = extras.slice(0, maxStrategyCells);
  let visible: MetricName[] = [...coreStrip, ...(shownExtras.length === 0 ? trafficStrip : []), ...shownExtras];
  // Room for violations: accuracy goes first (loss says the same, the replica tiles show accuracy).
  if (visible.length + 1 > maxStripCells) visible = visible.filter((m) => m !== 'accuracy');
  visible = visible.slice(0, maxStripCells - 1);
  visible.push('violations');
  const hidden = [...coreStrip, ...trafficStrip, ...extras].filter((m) => !visible.includes(m));
  return { visible, hidden };
}

/** Derived for every strategy (engine-side); never worth a strategy cell. */
const generalMetrics = new Set<MetricName>(['leaders', 'relDivergence', 'version', 'duplicateUpdates', 'meanGradStaleness', 'timeToTarget', 'stepsToTarget', 'delayedRounds', 'logLength']);

/** `12400` → `12.4 s` (simulated time as the top bar shows it). */
export function formatSeconds(ms: number): string {
  return `${secondsNumber(ms)} s`;
}

/** `12400` → `12.4`: the number alone, for texts that place their own unit ("{t} s", "{t} 秒时"). */
export function secondsNumber(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function bytesText(b: number): string {
  if (b < 1024) return `${Math.round(b)} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 * 1024 * 1024) return `${(b / 1024 / 1024).toFixed(1)} MiB`;
  return `${(b / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** Significant-digit rendering for continuous quantities, without exponent noise for small values. */
function continuous(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 0.001) return v.toFixed(3);
  return v.toExponential(1);
}

/**
 * Rendering of a metric value for the strip. Always a plain number (tests and scripts read
 * `metric-<name>` as a number; units live in the label), `—` when the engine has no value yet.
 */
export function formatMetric(name: string, v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  switch (name) {
    case 'bytes':
    case 'messages':
    case 'dropped':
    case 'steps':
      return String(Math.round(v));
    case 'accuracy':
    case 'loss':
      return v.toFixed(3);
    case 'availability':
      return v === 0 || v === 1 ? String(v) : v.toFixed(2);
    default:
      return Number.isInteger(v) ? String(v) : continuous(v);
  }
}

/** Short human size for tooltips (`12.1 KiB`). */
export function formatBytes(b: number): string {
  return bytesText(b);
}

/** Plain value for expectations: exact enough to judge the comparison by eye. */
function rawValue(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(4)));
}

export interface ExpectationLike {
  time: number;
  metric: string;
  node?: string;
  op: string;
  value: number;
  tolerance?: number;
  actual: number | null;
  pass: boolean | null;
}

/** `t=12.9 s availability == 0 — actual 0 ✓`; before its time: `… — pending`. */
export function expectationText(e: ExpectationLike, lang: Lang): string {
  const target = `${e.metric}${e.node ? `[${e.node}]` : ''} ${e.op} ${rawValue(e.value)}${e.tolerance ? ` ±${rawValue(e.tolerance)}` : ''}`;
  const head = `t=${formatSeconds(e.time)} ${target}`;
  if (e.pass === null) return `${head} — ${s(lang, 'pending')}`;
  const actual = e.actual === null ? '—' : rawValue(e.actual);
  return `${head} — ${s(lang, 'actual')} ${actual} ${e.pass ? '✓' : '✗'}`;
}

/** "a, b, or c" / "a、b或c": the choices a value may take, in the reader's language. */
export function orList(lang: Lang, items: readonly string[]): string {
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(items);
}
