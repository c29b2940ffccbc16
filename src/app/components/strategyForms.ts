import { useEffect, useState } from 'react';
import type { StrategyConfig, StrategyKind } from '../../protocols';
import { strategies } from '../../protocols/registry';
import type { StrategyForms } from '../checks/table';
import { check } from '../engine';
import type { KnobControl } from '../knobs';

/**
 * The settings row's knob controls and each strategy's defaults, read from the strategies' schemas
 * by the engine's worker (app/checks) once per page: the page carries no schema.
 */
let forms: StrategyForms | null = null;
let asked: Promise<StrategyForms> | null = null;

/** The forms, once the worker has answered (null until then: the row shows the strategy and cluster, its knobs follow). */
export function useStrategyForms(): StrategyForms | null {
  const [got, setGot] = useState(forms);
  useEffect(() => {
    if (got) return;
    let live = true;
    (asked ??= check('strategyForms')).then(
      (f) => {
        forms = f;
        if (live) setGot(f);
      },
      () => void (asked = null), // the worker was lost: the next mount asks the new one
    );
    return () => void (live = false);
  }, [got]);
  return got;
}

/** The strategies the menu lists: the schema's, or the registry's (the same order) until the forms came. */
export function strategyKinds(f: StrategyForms | null): readonly StrategyKind[] {
  return f?.kinds ?? strategies.map((s) => s.kind);
}

export function controlsOf(f: StrategyForms | null, kind: string): KnobControl[] {
  return f?.controls[kind as StrategyKind] ?? [];
}

export function defaultsOf(f: StrategyForms | null, kind: string): StrategyConfig | undefined {
  return f?.defaults[kind as StrategyKind];
}
