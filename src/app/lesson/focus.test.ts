import { describe, expect, it } from 'vitest';
import type { Act } from '../../scenario/lesson';
import { chartIdOf, focusCss, focusList, focusSelectors, panelCharts, parseFocus, LASER_PULSES } from './focus';

const text = { en: 'x', zh: 'x' };

describe('focus', () => {
  it('parses the forms of CURRICULUM §C.7, with an optional variant', () => {
    expect(parseFocus('topology')).toEqual({ variant: null, kind: 'topology', name: '' });
    expect(parseFocus('async/chart:divergence')).toEqual({ variant: 'async', kind: 'chart', name: 'divergence' });
    expect(parseFocus('link:w1-w2')).toEqual({ variant: null, kind: 'link', name: 'w1-w2' });
    expect(focusList(['node:w2', 'ring/timeline']).map((f) => f.kind)).toEqual(['node', 'timeline']);
    expect(focusList(undefined)).toEqual([]);
  });

  it('names the views to ring: every shown variant, or the named one; links in both directions', () => {
    expect(focusSelectors(focusList(['topology', 'async/chart:divergence', 'link:w1-w2', 'node:w3']))).toEqual({
      boxes: ['.lesson-stage .view-topology', '[data-testid="variant-async"] .cv-chart[data-chart="divergence"]'],
      nodes: ['.lesson-stage [data-testid="node-w3"]'],
      links: ['.lesson-stage [data-testid="link-w1-w2"]', '.lesson-stage [data-testid="link-w2-w1"]'],
    });
    expect(focusSelectors(focusList('panel:expectations')).boxes).toEqual(['.lesson-stage .checks', '.lesson-stage .vp-checks']);
    // A metric with no chart of its own rings its readout in the panels, or its cell of the strip.
    expect(focusSelectors(focusList('async/chart:availability')).boxes).toEqual(['[data-testid="variant-async"] .vp-metric[data-metric="availability"]', '.metrics-strip .metric:has([data-testid="metric-availability"])']);
    expect(focusSelectors(focusList('chart:sweep')).boxes).toEqual(['.lesson-chart']);
    // A step's own table is ringed, not tagged: the tag covered its last column's heading.
    expect(focusCss(focusList('chart:table'), 'look here')).not.toContain('look here');
    expect(focusCss(focusList('chart:table'), 'look here')).toContain('.lesson-chart { outline');
    // A name cannot break out of its selector.
    expect(focusSelectors([{ variant: 'a"]{}', kind: 'node', name: 'w1"]' }]).nodes).toEqual(['[data-testid="variant-a"] [data-testid="node-w1"]']);
  });

  it('writes one rule per kind, with the label', () => {
    const css = focusCss(focusList(['timeline', 'node:w2']), 'look here');
    expect(css).toContain('.lesson-stage .view-timeline { outline');
    expect(css).toContain('content: "◉ look here"');
    expect(css).toContain('[data-testid="node-w2"] .cv-focus { stroke: var(--laser)');
    expect(focusCss([], 'x')).toBe('');
  });

  it('pulses a few times, then holds: no animation left running on a paused step', () => {
    const css = focusCss(focusList(['timeline', 'node:w2', 'link:w0-w1']), 'look here');
    expect(css).not.toContain('infinite');
    expect(css.match(new RegExp(`ease-in-out ${LASER_PULSES};`, 'g'))).toHaveLength(3);
  });

  it("the tag fades when the pulses end and stays gone: it would cover a corner of the view's content", () => {
    const css = focusCss(focusList(['topology']), 'look here');
    expect(css).toContain(`animation: laser-tag ${(1.6 * LASER_PULSES).toFixed(1)}s linear forwards`);
  });

  it('rings a metric readout without the tag, which would cover the number it points at', () => {
    const css = focusCss(focusList(['zk-lock/chart:staleWritesAccepted']), 'look here');
    expect(css).toContain('[data-testid="variant-zk-lock"] .vp-metric[data-metric="staleWritesAccepted"]');
    expect(css).toContain('outline: var(--laser-width) solid var(--laser)');
    expect(css).not.toContain('look here');
    // A view keeps its tag.
    expect(focusCss(focusList(['zk-lock/chart:staleWritesAccepted', 'topology']), 'look here')).toContain('.lesson-stage .view-topology::after { content: "◉ look here"');
  });

  it('panels show loss vs time and divergence, or in second place the chart the act focused last', () => {
    const act: Act = {
      id: 'a',
      title: text,
      show: ['base'],
      steps: [
        { id: '1', when: { at: 0 }, text },
        { id: '2', when: { at: 1 }, text, focus: ['topology', 'chart:staleness'] },
        { id: '3', when: { at: 2 }, text, focus: 'chart:lossVsSteps' },
      ],
    };
    expect(panelCharts(act, 0)).toEqual(['loss-time', 'divergence']);
    expect(panelCharts(act, 1)).toEqual(['loss-time', 'staleness']);
    expect(panelCharts(act, 2)).toEqual(['loss-time', 'loss-steps']);
    expect(chartIdOf('relDivergence')).toBe('divergence');
    expect(chartIdOf('sweep')).toBeNull();
  });
});
