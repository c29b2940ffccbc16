import { sampleAt } from '../../engine/index/metricSamples';
import type { RunReader } from '../../engine/runReader';
import { secondsNumber as secs } from '../format';
import { ls } from '../i18n/lessonStrings';
import { metricLabel } from '../i18n/strings';
import type { Lang } from '../i18n/lang';
import { playhead, simOf } from './playhead';
import type { PlaceholderRef } from './placeholders';
import { variantTitle } from './script';
import { getLesson, useLesson } from './store';
import { sampleValue } from './when';

/**
 * A placeholder's value (CURRICULUM §C.7), and when it is not defined yet, why: the time the
 * variant's run must reach first. Narration and step tables show "—" until then; this is what
 * lets them say what the "—" waits for instead of leaving a learner to guess.
 */
export interface LiveValue {
  value: number | null;
  /** Set while the run has not reached the value's time: that time (ms, or the run's end) … */
  waitsFor?: { at: number; end: boolean };
  /** … and where the run is now (simulated ms). */
  now?: number;
  /** No run of the variant on this page (neither on screen nor a copy). */
  noRun?: true;
  /** The runs that could give it stopped short (a simulation error): where, and why (engine words). */
  stopped?: { now: number; why: string };
}

export function liveValue(ref: PlaceholderRef): LiveValue {
  const shown = simOf(ref.variant);
  if (ref.at === 'now') {
    if (!shown) return { value: null, noRun: true };
    return read(shown, playhead(), ref) ?? { value: null, waitsFor: { at: playhead(), end: false }, now: shown.now() };
  }
  // A time or the end: the run on screen once it got there, else its copy running ahead — unless
  // the learner acted off the script, when only the run on screen says what happens in it.
  const st = getLesson();
  const ahead = st.offScript && shown ? undefined : st.ahead.find((r) => r.id === ref.variant);
  const copy = ahead?.sim;
  let furthest: RunReader | null = null;
  let stopped: LiveValue['stopped'];
  for (const sim of [shown, copy]) {
    if (!sim) continue;
    const t = ref.at === 'end' ? (sim.done ? sim.durationMs : null) : ref.at;
    // A copy read between its slices only: at its `until` the instant may still be running.
    const settled = sim !== copy || ahead?.reached === true || (t !== null && t < sim.now());
    const v = t === null || !settled ? null : read(sim, t, ref);
    if (v) return v;
    // A run that stopped short will not get there: wait for the other, or say it stopped.
    const why = sim.failure ?? (sim === copy ? ahead?.stopped : undefined);
    if (why !== undefined) stopped ??= { now: sim.now(), why };
    else if (!furthest || sim.now() > furthest.now()) furthest = sim;
  }
  if (!furthest) return stopped ? { value: null, stopped } : { value: null, noRun: true };
  return { value: null, waitsFor: { at: ref.at === 'end' ? furthest.durationMs : ref.at, end: ref.at === 'end' }, now: furthest.now() };
}

/** The metric's sample at `t` in `sim`, or null while the run has not got there. */
function read(sim: RunReader, t: number, ref: PlaceholderRef): LiveValue | null {
  if (t > sim.now()) return null;
  const m = sampleAt(sim.index().metrics, t);
  return { value: m ? sampleValue(m.value, ref.metric, ref.node) : null };
}

export function lookupValue(ref: PlaceholderRef): number | null {
  return liveValue(ref).value;
}

/** When a value is read, in words: "at 7.9 s", "at the end", "now" (captions and tooltips). */
export function atWords(at: number | 'now' | 'end', lang: Lang): string {
  return at === 'end' ? ls(lang, 'tableEnd') : at === 'now' ? ls(lang, 'valueNow') : ls(lang, 'tableAt', { t: secs(at) });
}

/** What a live value reads, in words: "acks=1 · lost updates · at the end" (its tooltip). */
export function describeRef(ref: PlaceholderRef, lang: Lang): string {
  const variant = ownRunTitle(ref.variant, lang);
  const metric = metricLabel(lang, ref.metric) + (ref.node ? ` (${ref.node})` : '');
  return `${variant} · ${metric} · ${atWords(ref.at, lang)}`;
}

/** Why a value is "—" for now, or null when it is not waiting for its run. */
export function pendingWords(v: LiveValue, lang: Lang): string | null {
  if (v.stopped) return ls(lang, 'valueStopped', { now: secs(v.stopped.now) });
  if (!v.waitsFor || v.now === undefined) return null;
  const now = secs(v.now);
  const t = secs(v.waitsFor.at);
  return v.waitsFor.end ? ls(lang, 'valuePendingEnd', { now, t }) : ls(lang, 'valuePending', { now, t });
}

/**
 * A table's or sweep's caption line while some of its values wait for their runs: the least
 * advanced of those runs (all run together; the slowest decides when the table is whole).
 */
export function chartPending(variants: readonly string[], metric: string, at: number | 'end', lang: Lang): string | null {
  let slowest: LiveValue | null = null;
  const stopped: string[] = [];
  for (const id of variants) {
    const v = liveValue({ variant: id, metric, at });
    if (v.stopped) stopped.push(id);
    else if (v.waitsFor && v.now !== undefined && (slowest === null || v.now < slowest.now!)) slowest = v;
  }
  const parts: string[] = [];
  if (slowest) parts.push(ls(lang, 'tablePending', { now: secs(slowest.now!) }));
  // A stopped run's "—" is for good: name it, so the gap is not read as a value.
  if (stopped.length > 0) parts.push(ls(lang, 'tableStopped', { runs: stopped.map((id) => ownRunTitle(id, lang)).join(lang === 'zh' ? '、' : ', ') }));
  return parts.length > 0 ? parts.join(' · ') : null;
}

function ownRunTitle(id: string, lang: Lang): string {
  const lesson = useLesson.getState().lesson;
  return lesson ? variantTitle(lesson, id)[lang] : id;
}
