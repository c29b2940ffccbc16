import type { Act } from '../../scenario/lesson';
import type { ChartId } from '../views/LossCharts';

/**
 * A step's `focus` (CURRICULUM §C.7) as what the screen highlights: `topology`, `timeline`,
 * `node:<id>`, `link:<a>-<b>`, `chart:<name>`, `panel:<name>`, each optionally for one variant
 * (`async/chart:divergence`). The highlight is a stylesheet — a laser-pointer ring on the named
 * view, in every shown variant unless one is named — so nothing measures the page to draw it.
 */

export interface FocusTarget {
  variant: string | null;
  kind: 'topology' | 'timeline' | 'node' | 'link' | 'chart' | 'panel';
  /** Node id, `a-b` for a link, the chart or panel name. */
  name: string;
}

export function parseFocus(f: string): FocusTarget {
  const slash = f.indexOf('/');
  const variant = slash >= 0 ? f.slice(0, slash) : null;
  const rest = slash >= 0 ? f.slice(slash + 1) : f;
  const colon = rest.indexOf(':');
  const kind = (colon >= 0 ? rest.slice(0, colon) : rest) as FocusTarget['kind'];
  return { variant, kind, name: colon >= 0 ? rest.slice(colon + 1) : '' };
}

export function focusList(focus: string | readonly string[] | undefined): FocusTarget[] {
  if (focus === undefined) return [];
  return (typeof focus === 'string' ? [focus] : focus).map(parseFocus);
}

/** A lesson's chart name (as a step focuses it) as one of the views' charts, if it is one. */
export function chartIdOf(name: string): ChartId | null {
  const n = name.toLowerCase();
  if (n === 'divergence' || n === 'reldivergence') return 'divergence';
  if (n === 'staleness' || n === 'meangradstaleness') return 'staleness';
  if (n === 'loss' || n === 'lossvstime' || n === 'losstime' || n === 'time') return 'loss-time';
  if (n === 'lossvssteps' || n === 'losssteps' || n === 'steps') return 'loss-steps';
  return null;
}

/**
 * The charts a variant panel shows at a step: loss vs time and divergence, with the chart the act
 * focused last (up to this step) in the second place when it is another — two, so each stays
 * tall enough to read, and in the same places from step to step.
 */
export function panelCharts(act: Act | undefined, step: number): ChartId[] {
  let focused: ChartId | null = null;
  for (let i = Math.min(step, (act?.steps.length ?? 0) - 1); i >= 0 && !focused; i--) {
    for (const f of focusList(act!.steps[i].focus)) {
      const id = f.kind === 'chart' ? chartIdOf(f.name) : null;
      if (id) {
        focused = id;
        break;
      }
    }
  }
  const defaults: ChartId[] = ['loss-time', 'divergence'];
  return focused && !defaults.includes(focused) ? ['loss-time', focused] : defaults;
}

/**
 * The metrics a step points at that have no chart of their own in the panels (`chart:availability`,
 * `chart:accuracy` …): each panel shows them as a readout at the play-head, so the ring has a target.
 */
export function focusedMetrics(targets: readonly FocusTarget[], known: readonly string[]): string[] {
  return targets.filter((f) => f.kind === 'chart' && chartIdOf(f.name) === null && known.includes(f.name)).map((f) => f.name);
}

const panelSelectors: Record<string, string> = {
  expectations: '.checks, .vp-checks',
  checks: '.checks, .vp-checks',
  linearizability: '.checks',
  metrics: '.metrics-strip',
  explain: '.explain',
  servers: '.view-replicas',
  replicas: '.view-replicas',
  tools: '.tools',
  lesson: '.lesson-step',
  chart: '.lesson-chart',
};

const cssId = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '');

/** Selectors of the boxes (views, panels) and of the SVG marks (nodes, links) a focus names. */
export function focusSelectors(targets: readonly FocusTarget[]): { boxes: string[]; nodes: string[]; links: string[] } {
  const boxes: string[] = [];
  const nodes: string[] = [];
  const links: string[] = [];
  for (const f of targets) {
    const scope = f.variant ? `[data-testid="variant-${cssId(f.variant)}"] ` : '.lesson-stage ';
    const name = cssId(f.name);
    switch (f.kind) {
      case 'topology':
        boxes.push(`${scope}.view-topology`);
        break;
      case 'timeline':
        boxes.push(`${scope}.view-timeline`);
        break;
      case 'chart': {
        const id = chartIdOf(f.name);
        if (id) boxes.push(`${scope}.cv-chart[data-chart="${id}"]`);
        else if (f.name === 'sweep' || f.name === 'table') boxes.push('.lesson-chart');
        // A metric without a chart of its own (availability, accuracy, isrSize …): its readout in
        // each panel, or its cell of the metrics strip when one variant fills the stage.
        else boxes.push(`${scope}.vp-metric[data-metric="${name}"]`, `.metrics-strip .metric:has([data-testid="metric-${name}"])`);
        break;
      }
      case 'panel':
        for (const sel of (panelSelectors[f.name] ?? `[data-lesson-panel="${name}"]`).split(', ')) boxes.push(sel.startsWith('.lesson-') ? sel : `${scope}${sel}`);
        break;
      case 'node':
        nodes.push(`${scope}[data-testid="node-${name}"]`);
        break;
      case 'link': {
        const [a, b] = name.split('-');
        links.push(`${scope}[data-testid="link-${a}-${b}"]`, `${scope}[data-testid="link-${b}-${a}"]`);
        break;
      }
    }
  }
  return { boxes, nodes, links };
}

/**
 * How often the laser pulses when a step points somewhere, then it holds still: a box-shadow or a
 * stroke animation repaints on the main thread every frame, and one left pulsing on a paused step
 * kept a two-panel lesson's main thread 10.6 % busy for as long as the teacher talked (0 % still).
 */
export const LASER_PULSES = 3;
/** One pulse, in seconds. */
const PULSE_S = 1.6;

/** The stylesheet of one step's highlight (empty: nothing focused). `label` is "look here". */
export function focusCss(targets: readonly FocusTarget[], label: string): string {
  const { boxes, nodes, links } = focusSelectors(targets);
  const rules: string[] = [];
  if (boxes.length) {
    rules.push(`${boxes.join(',\n')} { outline: var(--laser-width) solid var(--laser); outline-offset: calc(var(--laser-width) * -1); box-shadow: 0 0 0 calc(var(--laser-width) * 1.6) var(--laser-glow), 0 0 2.2rem 0.4rem var(--laser-glow); animation: laser-pulse ${PULSE_S}s ease-in-out ${LASER_PULSES}; z-index: 3; }`);
    // The tag names the big views; a chart or a metric's readout is too small to carry it (over a
    // readout it hid the very number the step points at), and a step's own table or sweep sits
    // right under the sentence that points at it (the tag covered its last column's heading).
    const tagged = boxes.filter((b) => !b.includes('.cv-chart') && !b.includes('.vp-metric') && !b.includes('.metrics-strip') && !b.includes('.lesson-chart'));
    // The tag fades once the ring has pulsed: in a corner of a view it covers what is there (a
    // topology's top-right worker and its version, in every lesson panel); the ring stays.
    if (tagged.length) rules.push(`${tagged.map((b) => `${b}::after`).join(',\n')} { content: ${JSON.stringify(`◉ ${label}`)}; position: absolute; top: 0.25rem; right: 0.4rem; z-index: 4; background: var(--laser); color: var(--laser-fg); font-weight: 700; font-size: 0.9rem; padding: 0.05rem 0.5rem; border-radius: 999px; pointer-events: none; animation: laser-tag ${(PULSE_S * LASER_PULSES).toFixed(1)}s linear forwards; }`);
  }
  if (nodes.length) rules.push(`${nodes.map((n) => `${n} .cv-focus`).join(',\n')} { stroke: var(--laser) !important; stroke-width: 6 !important; stroke-dasharray: none !important; animation: laser-stroke ${PULSE_S}s ease-in-out ${LASER_PULSES}; }`);
  if (links.length) rules.push(`${links.map((l) => `${l} .cv-link-vis`).join(',\n')} { stroke: var(--laser) !important; stroke-width: 6 !important; animation: laser-stroke ${PULSE_S}s ease-in-out ${LASER_PULSES}; }`);
  return rules.join('\n');
}
