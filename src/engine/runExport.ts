import type { Scenario } from '../scenario/schema';
import type { Action, HistoryEvent, SimTime } from '../sim/types';

/**
 * What a run exports, as pure functions of its scenario and history — shared by the CLI
 * (`--log`, `--samples`) and the app (Share, "Export run"), so both write byte-identical files
 * (CONTRACTS §2 and §5).
 */

/** A timeline entry as a scenario file holds it. */
type TimelineEntry = Scenario['timeline'][number];

/**
 * The run as a schema-1 scenario: the scripted timeline plus the user's actions, each marked
 * `"by": "user"` at the simulated time it applied. The engine queues such entries after every
 * other event of their instant, exactly as the live click was, so the file replays to the same
 * schedule hash. Entries stay in time order (a stable sort keeps same-instant order).
 */
export function runScenario(scenario: Scenario, userActions: ReadonlyArray<{ t: SimTime; action: Action }>): Scenario {
  const scripted = scenario.timeline.filter((e) => e.by !== 'user');
  const user: TimelineEntry[] = userActions.map(({ t, action }) => ({ at: t, by: 'user', ...action }) as TimelineEntry);
  // Entries fired `on` an event have no time: they keep their place before the timed ones.
  const timeline = [...scripted, ...user].sort((a, b) => (a.at ?? -1) - (b.at ?? -1));
  return { ...scenario, timeline };
}

/**
 * The user's actions of a scenario's timeline up to and including `t` (a fork keeps these and
 * drops the later ones: they belong to the branch it leaves).
 */
export function userEntriesUpTo(scenario: Scenario, t: SimTime): Scenario {
  return { ...scenario, timeline: scenario.timeline.filter((e) => e.by !== 'user' || (e.at ?? 0) <= t) };
}

/** The event log as JSON Lines: one event per line, each line ending in "\n". Its SHA-256 is the run's eventLogHash. */
export function* eventLogLines(events: readonly HistoryEvent[]): Generator<string> {
  for (const e of events) yield `${JSON.stringify(e)}\n`;
}

export const samplesHeader = 't_ms,metric,node,value';

/**
 * The engine's metric samples (`metrics` history events) as CSV lines: `t_ms,metric,node,value`,
 * an empty node for a cluster-wide value, one row per sampled value, nulls left out. The charts
 * plot the same samples.
 */
export function* samplesCsvLines(events: readonly HistoryEvent[]): Generator<string> {
  yield `${samplesHeader}\n`;
  for (const e of events) {
    if (e.type !== 'metrics') continue;
    const t = String(e.t);
    let rows = '';
    for (const [metric, value] of Object.entries(e.v.cluster)) if (value !== null) rows += `${t},${metric},,${value}\n`;
    for (const [node, values] of Object.entries(e.v.nodes)) {
      for (const [metric, value] of Object.entries(values)) if (value !== null) rows += `${t},${metric},${node},${value}\n`;
    }
    yield rows;
  }
}

/** Joins a line generator (fine for the sizes an export holds; the CLI streams instead). */
export function joinLines(lines: Iterable<string>): string {
  let out = '';
  for (const l of lines) out += l;
  return out;
}

/** One parsed CSV row, for tests and tools that read `--samples` back. */
export interface SampleRow {
  t: number;
  metric: string;
  node: string | null;
  value: number;
}

export function parseSamplesCsv(text: string): SampleRow[] {
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines[0] !== samplesHeader) throw new Error(`samples CSV: expected the header "${samplesHeader}", got "${lines[0] ?? ''}"`);
  return lines.slice(1).map((l, i) => {
    const [t, metric, node, value] = l.split(',');
    if (value === undefined) throw new Error(`samples CSV: line ${i + 2} has fewer than 4 fields`);
    return { t: Number(t), metric, node: node === '' ? null : node, value: Number(value) };
  });
}
