import { useEffect, useState, type JSX } from 'react';
import type { StrategyConfig } from '../../protocols';
import { strategyInfo, type StrategyInfo } from '../../protocols/registry';
import type { Lang } from '../i18n/lang';
import { datasetKinds } from '../../scenario/datasetKinds';
import type { Scenario } from '../../scenario/schema';
import { backends } from '../../scenario/url';
import type { BackendChoice } from '../../train/types';
import { tr } from '../i18n/lang';
import { s } from '../i18n/strings';
import { check } from '../engine';
import type { KnobControl } from '../knobs';
import { formatKnobText } from '../knobText';
import { problemTextOr } from '../problemTextLoad';
import { applyEdit, setBackend } from '../load';
import { maxWorkers, minWorkers, withDataset } from '../plainEdits';
import { get, reportError, useApp } from '../store';
import type { EditLeft } from '../editNotes';
import type { Edit } from '../scenarioEdit';
import { useIsStudent } from '../room/roomStore';
import { useKnobHelp, type KnobHelp } from './knobHelp';
import { controlsOf, defaultsOf, strategyKinds, useStrategyForms } from './strategyForms';

/**
 * Strategy picker and its knobs (built from the zod schema, in the engine's worker), cluster size,
 * dataset and backend. Each change has the worker build and check the new scenario (app/checks),
 * then rebuilds the run; a bad value shows an error naming the knob and the old value stays. On a
 * student's page in a live room the run is the room's: those are shown, disabled (a change was
 * silently put back); the backend stays hers, as her device trains her node.
 */
export function StrategyControls() {
  const lang = useApp((st) => st.lang);
  const scenario = useApp((st) => st.scenario);
  const backend = useApp((st) => st.backend);
  const loading = useApp((st) => st.loading);
  const student = useIsStudent();
  const help = useKnobHelp();
  const forms = useStrategyForms();
  if (!scenario) return <div className="strategy-controls" />;
  const kinds = strategyKinds(forms);
  const fixed = loading || student;
  const why = student ? s(lang, 'roomRunChosen') : undefined;

  return (
    <div className="strategy-controls" role="group" aria-label={s(lang, 'strategy')} onPointerEnter={help.load} onFocusCapture={help.load}>
      <label className="field" title={why}>
        <span className="field-label">{s(lang, 'strategy')}</span>
        <select
          value={scenario.strategy.kind}
          title={why ?? tr(strategyInfo(scenario.strategy.kind)?.name ?? { en: scenario.strategy.kind, zh: scenario.strategy.kind }, lang)}
          disabled={fixed}
          data-testid="strategy"
          className="strategy-select"
          onChange={(e) => void edited(check('strategy', scenario, e.target.value), 'strategy')}
        >
          {/* Registry name and CAP/PACELC class: what a class is choosing between; the kind is the tooltip. */}
          {kinds.map((k) => {
            const info = strategyInfo(k);
            return (
              <option key={k} value={k} title={k}>
                {info ? strategyLabel(info, lang, k === scenario.strategy.kind ? scenario.strategy : defaultsOf(forms, k)) : k}
              </option>
            );
          })}
        </select>
      </label>
      <Knobs scenario={scenario} controls={controlsOf(forms, scenario.strategy.kind)} disabled={fixed} help={help} />
      <NumberField
        label={s(lang, 'workers')}
        value={scenario.cluster.workers}
        min={minWorkers}
        max={maxWorkers}
        disabled={fixed}
        title={why}
        testId="workers"
        className="workers-field"
        onCommit={(raw) => {
          const n = Number(raw);
          if (!Number.isInteger(n) || n < minWorkers || n > maxWorkers) {
            reportError(s(get().lang, 'invalidField', { field: 'workers', message: `${minWorkers}–${maxWorkers}` }));
            return false;
          }
          void edited(check('workers', scenario, n), 'cluster');
          return true;
        }}
      />
      <label className="field" title={why}>
        <span className="field-label">{s(lang, 'dataset')}</span>
        <select className="dataset-select" value={scenario.model.dataset} disabled={fixed} onChange={(e) => void applyEdit(withDataset(scenario, e.target.value as Scenario['model']['dataset']))}>
          {datasetKinds.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">{s(lang, 'backend')}</span>
        <select value={backend} disabled={loading} onChange={(e) => void setBackend(e.target.value as BackendChoice)}>
          {backends.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/**
 * An edit the engine's worker made (app/checks): applied, with what it left out; null (an unknown
 * strategy) changes nothing; a worker that could not answer says why.
 */
async function edited(asked: Promise<Edit | null>, cause: EditLeft['cause']): Promise<void> {
  let edit: Edit | null;
  try {
    edit = await asked;
  } catch (e) {
    reportError(s(get().lang, 'invalidScenario'), [e instanceof Error ? e.message : String(e), s(get().lang, 'keptPrevious')]);
    return;
  }
  if (edit) await applyEdit(edit.scenario, { ...edit, cause });
}

/**
 * "Raft-replicated parameter server — PC/EC": the class of the running configuration for the
 * chosen strategy, of the defaults for the others (what switching to it would give; the name alone
 * until the worker has said what they are).
 */
export function strategyLabel(info: StrategyInfo, lang: Lang, cfg?: StrategyConfig): string {
  return cfg ? `${tr(info.name, lang)} — ${info.capOf(cfg).pacelc}` : tr(info.name, lang);
}

/** Up to this many knobs sit in the row; more fold into a panel (Kafka has 14: they took four rows at 1280 px). */
const INLINE_KNOBS = 3;

/** A refused knob value, said where the knob is. */
type KnobRefusal = { key: string; text: string };

function Knobs({ scenario, controls, disabled, help }: { scenario: Scenario; controls: KnobControl[]; disabled: boolean; help: KnobHelp }) {
  const lang = useApp((st) => st.lang);
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<KnobRefusal | null>(null);
  // The knob in focus in the panel: its description is said under the knobs (a touch screen shows no tooltip).
  const [focused, setFocused] = useState<string | null>(null);
  // Another strategy has other knobs: a refusal of the last one's is no longer about anything here.
  useEffect(() => {
    setRefusal(null);
    setFocused(null);
  }, [scenario.strategy.kind]);
  const folded = controls.length > INLINE_KNOBS;
  // In the panel, a refusal is said inside it, under the knobs: the page's error banner would sit behind the panel.
  const onRefusal = folded ? setRefusal : undefined;
  const items = controls.map((c) => (
    <Knob
      key={`${scenario.strategy.kind}.${c.key}`}
      control={c}
      scenario={scenario}
      disabled={disabled}
      onRefusal={onRefusal}
      invalid={refusal?.key === c.key}
      help={help.text(scenario.strategy.kind, c.key, lang)}
      inline={!folded}
      onFocusIn={folded ? () => setFocused(c.key) : undefined}
    />
  ));
  if (!folded) return <>{items}</>;
  const toggle = (): void => {
    setOpen(!open);
    setRefusal(null);
  };
  return (
    <span className="knobs-fold">
      <button type="button" aria-expanded={open} onClick={toggle} data-testid="knobs-toggle" title={s(lang, 'knobsTitle', { kind: scenario.strategy.kind })}>
        {s(lang, 'knobs')} ({controls.length}) {open ? '▴' : '▾'}
      </button>
      {open && (
        <div className="knobs-panel" role="group" aria-label={s(lang, 'knobsTitle', { kind: scenario.strategy.kind })}>
          {items}
          {focused && help.text(scenario.strategy.kind, focused, lang) && (
            <p className="knob-help muted" aria-live="polite" data-testid="knob-help">
              <code>{focused}</code> {help.text(scenario.strategy.kind, focused, lang)}
            </p>
          )}
          {refusal && (
            <p className="knob-problem" role="alert" id="knob-problem" data-testid="knob-problem">
              {refusal.text}
            </p>
          )}
        </div>
      )}
    </span>
  );
}

function Knob(p: {
  control: KnobControl;
  scenario: Scenario;
  disabled: boolean;
  onRefusal?: (r: KnobRefusal | null) => void;
  invalid: boolean;
  help?: string;
  /** In the row (not the panel): the description shows under the knob while it has focus. */
  inline: boolean;
  onFocusIn?: () => void;
}) {
  const { control, scenario, disabled, onRefusal, invalid, help, onFocusIn } = p;
  const tip = p.inline ? <KnobTip text={help} /> : null;
  const current = (scenario.strategy as Record<string, unknown>)[control.key];
  // The worker applies the raw value to the strategy (its schema checks it), then fits the scenario to it.
  const commit = async (raw: string | boolean): Promise<boolean> => {
    let r;
    try {
      r = await check('knob', scenario.strategy, control.key, raw);
    } catch (e) {
      reportError(s(get().lang, 'invalidKnob', { knob: control.key, message: e instanceof Error ? e.message : String(e) }));
      return false;
    }
    if (!r.ok) {
      const refused = r;
      const message = await problemTextOr((w) => w.knobProblemText(get().lang, refused.problem), refused.problem.problem);
      const text = s(get().lang, 'invalidKnob', { knob: r.knob, message });
      if (onRefusal) onRefusal({ key: control.key, text });
      else reportError(text);
      return false;
    }
    onRefusal?.(null);
    await edited(check('strategyConfig', scenario, r.strategy), 'settings');
    return true;
  };
  if (control.type === 'boolean')
    return (
      <label className="field knob" title={help} onFocusCapture={onFocusIn}>
        <input type="checkbox" checked={current === true} disabled={disabled} onChange={(e) => void commit(e.target.checked)} data-testid={`knob-${control.key}`} aria-invalid={invalid || undefined} />
        <span className="field-label">{control.key}</span>
        {tip}
      </label>
    );
  if (control.type === 'enum')
    return (
      <label className="field knob" title={help} onFocusCapture={onFocusIn}>
        <span className="field-label">{control.key}</span>
        <select value={String(current)} disabled={disabled} onChange={(e) => void commit(e.target.value)} data-testid={`knob-${control.key}`} aria-invalid={invalid || undefined}>
          {control.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        {tip}
      </label>
    );
  return (
    <NumberField
      label={control.key}
      title={help}
      tip={tip}
      onFocusIn={onFocusIn}
      value={control.type === 'number' ? (current as number) : formatKnobText(current)}
      min={control.type === 'number' ? control.min : undefined}
      max={control.type === 'number' ? control.max : undefined}
      text={control.type === 'json'}
      disabled={disabled}
      testId={`knob-${control.key}`}
      invalid={invalid}
      onCommit={commit}
    />
  );
}

/**
 * A text/number input that commits on Enter or blur, not on every keystroke (each commit
 * rebuilds the run). A rejected value snaps back to the current one.
 */
function NumberField(p: {
  label: string;
  value: number | string;
  min?: number;
  max?: number;
  text?: boolean;
  disabled: boolean;
  testId: string;
  className?: string;
  title?: string;
  /** The last value typed here was refused: the reason is in the knobs panel (#knob-problem). */
  invalid?: boolean;
  /** Focus came into the field (the knobs panel says what the knob does). */
  onFocusIn?: () => void;
  /** What shows under the field while it has focus (KnobTip). */
  tip?: JSX.Element | null;
  /** Whether the value was taken (a refused one snaps back), at once or once the worker has checked it. */
  onCommit(raw: string): boolean | Promise<boolean>;
}) {
  const [draft, setDraft] = useState(String(p.value));
  useEffect(() => setDraft(String(p.value)), [p.value]);
  const commit = (): void => {
    if (draft === String(p.value)) return;
    void Promise.resolve(p.onCommit(draft)).then((ok) => {
      if (!ok) setDraft(String(p.value));
    });
  };
  return (
    <label className={`field knob ${p.className ?? ''}`} title={p.title} onFocusCapture={p.onFocusIn}>
      <span className="field-label">{p.label}</span>
      <input
        type={p.text ? 'text' : 'number'}
        className="num"
        value={draft}
        min={p.min}
        max={p.max}
        disabled={p.disabled}
        data-testid={p.testId}
        aria-invalid={p.invalid || undefined}
        aria-describedby={p.invalid ? 'knob-problem' : undefined}
        size={p.text ? 10 : 5}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(String(p.value));
        }}
      />
      {p.tip}
    </label>
  );
}

/**
 * A knob's description under it while it has focus (CSS :focus-within): a touch screen shows no
 * tooltip, and neither does a keyboard's focus. Hidden from assistive technology, which has it
 * as the label's title; inside the label, it would otherwise join the field's name.
 */
function KnobTip({ text }: { text?: string }): JSX.Element | null {
  if (!text) return null;
  return (
    <span className="knob-tip" aria-hidden="true" data-testid="knob-tip">
      {text}
    </span>
  );
}
