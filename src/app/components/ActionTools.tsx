import { useEffect, useState } from 'react';
import type { LinkView } from '../../engine/api';
import { actionSpec, actionTable, defaultAction } from '../../scenario/actions';
import { strategiesWithWire } from '../../protocols/wire';
import type { Action } from '../../sim/types';
import { act, parseSelection } from '../act';
import { tr } from '../i18n/lang';
import { s } from '../i18n/strings';
import { partitionFromDraft } from '../partition';
import { get, reportError, set, useApp, type Side, type ToolTab } from '../store';

/**
 * The action panel under the topology: a node's context panel, the partition tool and the link
 * settings form. Labels, hints and fields come from the action table; every button goes
 * through `act` (→ sim.apply).
 */
export function ActionTools() {
  const lang = useApp((st) => st.lang);
  const tab = useApp((st) => st.toolTab);
  const tabs: ToolTab[] = ['node', 'partition', 'links'];
  const key = { node: 'nodeTab', partition: 'partitionTab', links: 'linksTab' } as const;
  return (
    <section className="tools panel" aria-label={s(lang, 'tools')}>
      <div className="tabs" role="tablist">
        {tabs.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className={tab === t ? 'tab active' : 'tab'} onClick={() => set({ toolTab: t })}>
            {s(lang, key[t])}
          </button>
        ))}
        <span className="spacer" />
        <button type="button" onClick={() => act({ do: 'heal' })} title={tr(actionSpec('heal').hint, lang)} data-testid="heal">
          {tr(actionSpec('heal').label, lang)} <kbd>{actionSpec('heal').key?.toUpperCase()}</kbd>
        </button>
      </div>
      <div className="tab-body" role="tabpanel">
        {tab === 'node' && <NodePanel />}
        {tab === 'partition' && <PartitionTool />}
        {tab === 'links' && <LinkForm />}
      </div>
    </section>
  );
}

function NodePanel() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const selected = useApp((st) => st.selected);
  useApp((st) => st.frame);
  const sel = parseSelection(selected);
  const node = sim && sel && 'node' in sel ? sim.nodes().find((n) => n.id === sel.node) : undefined;
  if (!node) return <p className="muted">{s(lang, 'selectNodeHint')}</p>;
  const crash = actionSpec(node.up ? 'crash' : 'restart');
  const slow = actionSpec('slow');
  return (
    <div className="node-panel row wrap">
      <strong className="num">{node.id}</strong>
      <span className="num">v{node.version}</span>
      <button type="button" onClick={() => act({ do: crash.do, node: node.id } as Action)} title={tr(crash.hint, lang)} data-testid="node-crash">
        {tr(crash.label, lang)} <kbd>{crash.key?.toUpperCase()}</kbd>
      </button>
      <span className="field-label" title={tr(slow.hint, lang)}>
        {s(lang, 'slowLabel')}
      </span>
      <div className="segmented" role="group" aria-label={tr(slow.label, lang)}>
        {[1, 2, 4, 8].map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={node.slowFactor === f}
            disabled={!node.up}
            onClick={() => act({ do: 'slow', node: node.id, factor: f })}
            title={tr(slow.hint, lang)}
          >
            ×{f}
          </button>
        ))}
      </div>
      {node.role === 'worker' && node.up && <AttackToggle kind="byzantine" active={!!node.byzantine} target={{ node: node.id }} testId="node-byzantine" />}
      {/* The status is long (a whole sentence): one line, the rest in the tooltip. */}
      <span className="muted status-text" title={node.status}>
        {node.status}
      </span>
    </div>
  );
}

function PartitionTool() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const draft = useApp((st) => st.partitionDraft);
  useApp((st) => st.frame);
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
          title={tr(spec.hint, lang)}
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

type LinkDraft = Record<string, string>;

function LinkForm() {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const selected = useApp((st) => st.selected);
  useApp((st) => st.frame);
  const [draft, setDraft] = useState<LinkDraft>({});
  const [target, setTarget] = useState<string>('all');
  const sel = parseSelection(selected);
  const selectedPair = sel && 'from' in sel ? [sel.from, sel.to].sort().join('-') : null;
  // Selecting a link in the topology points the form at it.
  useEffect(() => {
    if (selectedPair) setTarget(selectedPair);
  }, [selectedPair]);
  if (!sim) return null;
  const links = sim.links();
  // One entry per undirected pair: the form changes both directions of a link.
  const pairs = [...new Set(links.map((l) => [l.from, l.to].sort().join('-')))];
  const chosen = target === 'all' || pairs.includes(target) ? target : 'all';
  const spec = actionSpec('link');
  const numberFields = spec.fields.filter((f) => f.kind === 'number');
  const cutSpec = actionTable.find((a) => a.do === 'cut');

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
    const targets = chosen === 'all' ? pairs : [chosen];
    for (const pair of targets) {
      const [from, to] = pair.split('-');
      if (!act({ do: 'link', from, to, ...values } as Action)) return;
    }
  };
  const selectedLink = sel && 'from' in sel ? links.find((l) => l.from === sel.from && l.to === sel.to) : undefined;

  return (
    <div className="link-form">
      <div className="row">
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
        {selectedLink && cutSpec && (
          <button
            type="button"
            onClick={() => act(selectedLink.cut ? { do: 'restore', from: selectedLink.from, to: selectedLink.to } : { do: 'cut', from: selectedLink.from, to: selectedLink.to })}
            title={tr(cutSpec.hint, lang)}
          >
            {selectedLink.cut ? s(lang, 'restoreLink') : s(lang, 'cutLink')} {selectedLink.from}↔{selectedLink.to} <kbd>{cutSpec.key?.toUpperCase()}</kbd>
          </button>
        )}
      </div>
      {chosen !== 'all' && strategiesWithWire.includes(sim.strategyKind) && (
        // A man-in-the-middle sits on one direction: one toggle per direction of the chosen link.
        <div className="row wrap">
          {links
            .filter((l) => [l.from, l.to].sort().join('-') === chosen)
            .map((l) => (
              <AttackToggle key={`${l.from}>${l.to}`} kind="tamper" active={!!l.tamper} target={{ from: l.from, to: l.to }} testId={`tamper-${l.from}-${l.to}`} />
            ))}
        </div>
      )}
      <div className="row wrap">
        {numberFields.map((f) => (
          <label className="field knob" key={f.name} title={tr(spec.hint, lang)}>
            <span className="field-label">
              {tr(f.label, lang)}
              {f.unit ? ` ${f.unit}` : ''}
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

/**
 * Starts or ends an attack from the action table: `byzantine`/`honest` on a worker, `tamper`/
 * `untamper` on one direction of a link. The attack menu lists the table's options; the other
 * fields take their defaults (scale ×10; a tamper runs until removed).
 */
function AttackToggle({ kind, active, target, testId }: { kind: 'byzantine' | 'tamper'; active: boolean; target: { node: string } | { from: string; to: string }; testId: string }) {
  const lang = useApp((st) => st.lang);
  const start = actionSpec(kind);
  const stop = actionSpec(kind === 'byzantine' ? 'honest' : 'untamper');
  const options = start.fields.find((f) => f.name === 'attack')?.options ?? [];
  const [attack, setAttack] = useState(options[0]?.value ?? '');
  const where = 'node' in target ? target.node : `${target.from}→${target.to}`;
  return (
    <span className="row">
      {!active && (
        <select aria-label={`${tr(start.label, lang)}: ${where}`} value={attack} onChange={(e) => setAttack(e.target.value)} data-testid={`${testId}-attack`}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {tr(o.label, lang)}
            </option>
          ))}
        </select>
      )}
      <button
        type="button"
        aria-pressed={active}
        data-testid={testId}
        title={tr((active ? stop : start).hint, lang)}
        onClick={() => act(active ? ({ do: stop.do, ...target } as Action) : defaultAction(kind, target, { attack }))}
      >
        {tr((active ? stop : start).label, lang)} {where} <kbd>{start.key?.toUpperCase()}</kbd>
      </button>
    </span>
  );
}

/** The link's current value, shown as the placeholder so the form says what "unchanged" means. */
function placeholderFor(links: readonly LinkView[], pair: string, field: string): string {
  const [a, b] = pair.split('-');
  const l = links.find((x) => x.from === a && x.to === b);
  const v = l ? (l.props as unknown as Record<string, number>)[field] : undefined;
  return v === undefined ? '' : String(v);
}
