import type { StrategyConfig, StrategyKind } from '../../protocols';
import { checkBuiltinText, parseScenarioText } from '../../scenario/loader';
import { parseAction } from '../../scenario/parseAction';
import type { ScenarioProblem } from '../../scenario/problems';
import { resolveVariant, validateScenario } from '../../scenario/validate';
import type { Action } from '../../sim/types';
import { applyKnob, defaultStrategy, knobControls, strategyKindsFromSchema, type KnobControl } from '../knobs';
import { withStrategyConfig, withWorkers } from '../scenarioEdit';
import { withStrategy } from '../strategySwitch';

/**
 * What the page asks the engine's worker to check (issue 9: the page's first load carries no
 * schema). The scenario schema, the action table's schemas and the strategies' knobs are zod
 * schemas; the worker, which runs the engine, has them loaded anyway. The page sends the candidate
 * — a file's text, an edited scenario, a form's raw value — and gets typed facts back: the checked
 * scenario, an edit and what it left out, or the problems, which the page words in its language.
 * Each entry is a pure function; what it answers must survive a structured clone.
 */
export const checks = {
  /** A file's or a link's JSON text → the validated scenario or its problems. */
  scenarioText: parseScenarioText,
  /** A built-in's text, fetched by the page: as `scenarioText`, and it must carry its own id. */
  builtinText: checkBuiltinText,
  /** An edited scenario (the forms' edits). */
  scenario: validateScenario,
  variant: resolveVariant,
  /** Actions from menus, keys and forms against the run's nodes: each checked, all or none. */
  actions: parseActions,
  /** Every strategy's knob controls and defaults, for the settings row (asked once). */
  strategyForms,
  /** A knob's raw form value applied to the running strategy. */
  knob: applyKnob,
  /** The form edits (scenarioEdit.ts, strategySwitch.ts): each fits the scenario to the change. */
  strategyConfig: withStrategyConfig,
  workers: withWorkers,
  strategy: withStrategy,
};
export type Checks = typeof checks;
export type CheckName = keyof Checks;

/** The actions, or the first refused one's problems (and its English line, `error`). */
export type ParsedActions = { ok: true; actions: Action[] } | { ok: false; error: string; problems: ScenarioProblem[] };

function parseActions(inputs: readonly unknown[], nodeIds: readonly string[]): ParsedActions {
  const actions: Action[] = [];
  for (const input of inputs) {
    const r = parseAction(input, nodeIds);
    if (!r.ok) return { ok: false, error: r.error, problems: r.problems };
    actions.push(r.action);
  }
  return { ok: true, actions };
}

/** The settings row's controls: each strategy's knobs (read from its schema) and its defaults, in the schema's order. */
export interface StrategyForms {
  kinds: StrategyKind[];
  controls: Partial<Record<StrategyKind, KnobControl[]>>;
  defaults: Partial<Record<StrategyKind, StrategyConfig>>;
}

function strategyForms(): StrategyForms {
  const kinds = strategyKindsFromSchema() as StrategyKind[];
  const out: StrategyForms = { kinds, controls: {}, defaults: {} };
  for (const k of kinds) {
    out.controls[k] = knobControls(k);
    const d = defaultStrategy(k);
    if (d) out.defaults[k] = d;
  }
  return out;
}
