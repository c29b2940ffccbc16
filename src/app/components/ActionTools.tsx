import { useEffect, useRef, useState } from 'react';
import type { LinkState } from '../../engine/index/runState';
import { actionSpec } from '../../scenario/actions';
import type { Action } from '../../sim/types';
import { choiceLabel, choicesFor, type Choice } from '../actionMenu';
import { act, actAll, choose, parseSelection } from '../act';
import type { Lang } from '../i18n/lang';
import { actionHint, actionLabel, fieldLabel, optionLabel } from '../words/actionWords';
import { clusterTarget, linkTarget, nodeTarget } from '../targets';
import { s } from '../i18n/strings';
import { partitionFromDraft } from '../partition';
import { stateAt } from '../views/runView';
import { useScrollEdges } from '../views/hooks';
import { versionOf } from '../words/nodeWords';
import { NodeFactsLine } from './NodeFactsLine';
import { get, reportError, set, useApp, type Side, type ToolTab } from '../store';

/**
 * The action panel under the topology: a node's context panel, the partition tool and the link
 * settings form. Its buttons are generated from the action table (actionMenu.choicesFor) for the
 * selection's state at the cursor time; every button goes through `act` (→ sim.apply, or a fork
 * when scrubbed back).
 */
export function ActionTools() {
  const lang = useApp((st) => st.lang);
  const tab = useApp((st) => st.toolTab);
  const sim = useApp((st) => st.sim);
  const draft = useApp((st) => st.partitionDraft);
  const selected = useApp((st) => st.selected);
  useApp((st) => st.panelFrame);
  // A body with more below or above fades at that edge (a row cut in half at 1920 presenter read as
  // the last row): measured when the tab, the selection or the language changes, on scroll and resize.
  const body = useRef<HTMLDivElement>(null);
  useScrollEdges(body, [tab, selected, lang, draft], 'y');
  // The metadata tab only where a coordination service runs (c0…): putMeta writes through it.
  const tabs: ToolTab[] = sim && sim.scenario.cluster.coord > 0 ? ['node', 'partition', 'links', 'meta'] : ['node', 'partition', 'links'];
  const key = { node: 'nodeTab', partition: 'partitionTab', links: 'linksTab', meta: 'metaTab' } as const;
  // Cluster-wide entries that need no form (heal) sit in the tab row, from the table.
  const clusterItems = sim ? choicesFor(clusterTarget(sim, draft)).filter((c) => 'action' in c && c.spec.target === 'cluster') : [];
  return (
    <section className="tools panel" aria-label={s(lang, 'tools')}>
      <div className="tabs">
        {/* The tablist holds the tabs alone; the cluster buttons (heal) sit beside it. */}
        <div className="tablist" role="tablist">
          {tabs.map((t) => (
            <button key={t} type="button" role="tab" aria-selected={tab === t} className={tab === t ? 'tab active' : 'tab'} onClick={() => set({ toolTab: t })}>
              {s(lang, key[t])}
            </button>
          ))}
        </div>
        <span className="spacer" />
        {clusterItems.map((c) => (
          <ChoiceButton key={c.spec.do} choice={c} lang={lang} label={actionLabel(c.spec, lang)} testId={c.spec.do} />
        ))}
      </div>
      <div className="tab-body" role="tabpanel" ref={body}>
        {tab === 'node' && <NodePanel />}
        {tab === 'partition' && <PartitionTool />}
        {tab === 'links' && <LinkForm />}
        {tab === 'meta' && tabs.includes('meta') && <MetaForm />}
      </div>
    </section>
  );
}

/** One table entry as a button: its label (or the action in words), hint and key. */
function ChoiceButton({ choice, lang, label, testId, pressed, disabled }: { choice: Choice; lang: Lang; label?: string; testId?: string; pressed?: boolean; disabled?: boolean }) {
  return (
    <button
      type="button"
      onClick={() => choose(choice)}
      title={actionHint(choice.spec, lang)}
      data-testid={testId ?? `action-${choice.spec.do}`}
      aria-pressed={pressed}
      disabled={disabled}
    >
      {label ?? choiceLabel(choice, lang)}
      {/* A space, as beside the other key badges: "Heal H", not "HealH" (drawn and read aloud). */}
      {choice.spec.key && pressed === undefined && <> <kbd>{choice.spec.key.toUpperCase()}</kbd></>}
    </button>
  );
}

/**
 * The selected node's actions, generated from the table for its state at the cursor time: one
 * button per entry, or a segmented group where a field offers choices (slow ×1 ×2 ×4 ×8).
 */
function NodePanel() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const selected = useApp((st) => st.selected);
  const cursor = useApp((st) => st.cursor);
  useApp((st) => st.panelFrame);
  const sel = parseSelection(selected);
  const t = cursor ?? sim?.now() ?? 0;
  const target = sim && sel && 'node' in sel ? nodeTarget(sim, sel.node, t) : null;
  const live = sim && target ? sim.nodes().find((n) => n.id === target.id) : undefined;
  if (!sim || !target || !live) return <p className="muted">{s(lang, 'selectNodeHint')}</p>;
  const state = stateAt(sim, t);
  const node = state.nodes.find((n) => n.id === target.id);
  const version = node ? versionOf(node, state.metrics?.nodes[node.id]?.version) : live.version;
  const choices = choicesFor(target);
  const specs = [...new Set(choices.map((c) => c.spec))];
  return (
    <div className="node-panel row wrap">
      <strong className="num">{target.id}</strong>
      <span className="num">v{version}</span>
      {specs.map((spec) => {
        const mine = choices.filter((c) => c.spec === spec);
        // A listed field (slow's factor, an attack) becomes a segmented group, one button per value.
        const chooser = spec.fields.find((f) => f.choices || f.kind === 'choice');
        if (!chooser || mine.length < 2) return <ChoiceButton key={spec.do} choice={mine[0]} lang={lang} label={actionLabel(spec, lang)} testId={spec.do === 'crash' || spec.do === 'restart' ? 'node-crash' : undefined} />;
        return (
          <span key={spec.do} className="row chooser">
            <span className="field-label" title={actionHint(spec, lang)}>
              {actionLabel(spec, lang)} <kbd>{spec.key?.toUpperCase()}</kbd>
            </span>
            <span className="segmented" role="group" aria-label={actionLabel(spec, lang)}>
              {mine.map((c) => {
                const v = 'action' in c ? (c.action as unknown as Record<string, number | string>)[chooser.name] : undefined;
                const option = chooser.options?.find((o) => o.value === v);
                return (
                  <ChoiceButton
                    key={String(v)}
                    choice={c}
                    lang={lang}
                    label={option ? optionLabel(spec, chooser, option, lang) : `${chooser.unit ?? ''}${v}`}
                    testId={`action-${spec.do}-${v}`}
                    pressed={option ? undefined : target.values[chooser.name] === v}
                  />
                );
              })}
            </span>
          </span>
        );
      })}
      {/* The node's facts in words (long): one line, the rest in the tooltip. */}
      <NodeFactsLine id={target.id} />
    </div>
  );
}

function PartitionTool() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const draft = useApp((st) => st.partitionDraft);
  useApp((st) => st.panelFrame);
  if (!sim) return null;
  const ids = sim.nodes().map((n) => n.id);
  const spec = actionSpec('partition');
  const setSide = (id: string, side: Side) => set({ partitionDraft: { ...get().partitionDraft, [id]: side } });
  return (
    <div className="partition-tool">
      <div className="partition-grid">
        {ids.map((id) => (
          <div key={id} className="partition-node">
            <span className="num">{id}</span>
            <div className="segmented" role="group" aria-label={id}>
              {(['A', 'B'] as const).map((side) => (
                <button key={side} type="button" aria-pressed={(draft[id] ?? 'A') === side} onClick={() => setSide(id, side)} data-testid={`group-${side}-${id}`}>
                  {side}
                </button>
              ))}
            </div>
          </div>
        ))}
      </div>
      <div className="row">
        <button
          type="button"
          className="primary"
          title={actionHint(spec, lang)}
          data-testid="apply-partition"
          onClick={() => {
            const action = partitionFromDraft(draft, ids);
            if (!action) reportError(s(lang, 'partitionNeedsBoth'));
            else act(action);
          }}
        >
          {s(lang, 'applyPartition')} <kbd>{spec.key?.toUpperCase()}</kbd>
        </button>
        <span className="muted small">{s(lang, 'partitionHint')}</span>
      </div>
    </div>
  );
}

/** putMeta: a metadata key and value written through the coordination service's leader (fields from the table). */
function MetaForm() {
  const lang = useApp((st) => st.lang);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const spec = actionSpec('putMeta');
  const apply = (): void => {
    const values: Record<string, string> = {};
    for (const f of spec.fields) values[f.name] = (draft[f.name] ?? '').trim() || (f.placeholder ?? '');
    if (!values.key) return reportError(s(lang, 'metaNeedsKey'));
    act({ do: 'putMeta', key: values.key, value: values.value } as Action);
  };
  return (
    <div className="meta-form row wrap">
      {spec.fields.map((f) => (
        <label className="field" key={f.name} title={actionHint(spec, lang)}>
          <span className="field-label">{fieldLabel(spec, f, lang)}</span>
          <input type="text" value={draft[f.name] ?? ''} placeholder={f.placeholder} onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })} data-testid={`meta-${f.name}`} />
        </label>
      ))}
      <button type="button" className="primary" onClick={apply} title={actionHint(spec, lang)} data-testid="apply-meta">
        {s(lang, 'applyMeta')} <kbd>{spec.key?.toUpperCase()}</kbd>
      </button>
    </div>
  );
}

type LinkDraft = Record<string, string>;

function LinkForm() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const selected = useApp((st) => st.selected);
  const cursor = useApp((st) => st.cursor);
  useApp((st) => st.panelFrame);
  const [draft, setDraft] = useState<LinkDraft>({});
  const [target, setTarget] = useState<string>('all');
  const sel = parseSelection(selected);
  const selectedPair = sel && 'from' in sel ? [sel.from, sel.to].sort().join('-') : null;
  // Selecting a link in the topology points the form at it; clearing the selection (the whole
  // network's key or menu item, Escape) points it back at every link.
  useEffect(() => {
    setTarget(selectedPair ?? 'all');
  }, [selectedPair]);
  if (!sim) return null;
  // One entry per undirected pair: the form changes both directions of a link.
  const pairs = [...new Set(sim.runStatic().edges.map((e) => [...e].sort().join('-')))];
  const chosen = target === 'all' || pairs.includes(target) ? target : 'all';
  const spec = actionSpec('link');
  const numberFields = spec.fields.filter((f) => f.kind === 'number');

  const apply = (): void => {
    const values: Record<string, number> = {};
    for (const f of numberFields) {
      const raw = (draft[f.name] ?? '').trim();
      if (raw === '') continue;
      const n = Number(raw);
      if (!Number.isFinite(n)) {
        reportError(s(lang, 'invalidField', { field: f.name, message: s(lang, 'invalidNumber') }));
        return;
      }
      values[f.name] = n;
    }
    if (chosen === 'all') {
      // One `network` action (every link at once) rather than one `link` per pair: one line in the timeline.
      actAll([{ do: 'network', ...values } as Action]);
      return;
    }
    const [from, to] = chosen.split('-');
    actAll([{ do: 'link', from, to, ...values } as Action]);
  };
  // Cut or restore the selected link, from the table (state at the cursor time).
  const t = cursor ?? sim.now();
  const selTarget = sel && 'from' in sel ? linkTarget(sim, sel.from, sel.to, t) : null;
  // Each link's settings then, from the history (what "unchanged" means in the form).
  const links = stateAt(sim, t).links;
  const linkChoices = selTarget ? choicesFor(selTarget).filter((c) => 'action' in c) : [];

  return (
    <div className="link-form">
      {/* wrap: the link's choices go under its select in a narrow column (a presenter's lesson cut "tamper…"). */}
      <div className="row wrap">
        <label className="field">
          <span className="field-label">{s(lang, 'linkTarget')}</span>
          <select value={chosen} onChange={(e) => setTarget(e.target.value)}>
            <option value="all">{s(lang, 'allLinks')}</option>
            {pairs.map((p) => (
              <option key={p} value={p}>
                {p.replace('-', '↔')}
              </option>
            ))}
          </select>
        </label>
        {linkChoices.map((c) => (
          <ChoiceButton key={c.spec.do} choice={c} lang={lang} />
        ))}
      </div>
      <div className="row wrap">
        {numberFields.map((f) => (
          <label className="field knob" key={f.name} title={actionHint(spec, lang)}>
            <span className="field-label">
              {fieldLabel(spec, f, lang)}
              {f.unit ? ` ${f.unit}` : null}
            </span>
            <input
              type="number"
              className="num"
              size={5}
              min={f.min}
              max={f.max}
              step={f.step}
              value={draft[f.name] ?? ''}
              placeholder={chosen !== 'all' ? placeholderFor(links, chosen, f.name) : ''}
              onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
            />
          </label>
        ))}
        <button type="button" className="primary" onClick={apply} data-testid="apply-link">
          {s(lang, 'applyLink')}
        </button>
      </div>
    </div>
  );
}

/** The link's value at the form's time, shown as the placeholder so the form says what "unchanged" means. */
function placeholderFor(links: readonly LinkState[], pair: string, field: string): string {
  const [a, b] = pair.split('-');
  const l = links.find((x) => x.from === a && x.to === b);
  const v = l ? (l.props as unknown as Record<string, number>)[field] : undefined;
  return v === undefined ? '' : String(v);
}
