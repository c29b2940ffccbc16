import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { choiceLabel, choicesFor } from '../actionMenu';
import { choose } from '../act';
import { rs } from '../i18n/runStrings';
import { actionHint } from '../words/actionWords';
import { set, useApp } from '../store';
import { selectionTarget } from '../targets';

/**
 * The node and link context menus: right-click a node or a link in the topology (or press the
 * menu key / Shift+F10 on the selection). Items are generated from the action table for the
 * target's state at the cursor time; each shows its key. Arrow keys move, Enter chooses, Escape
 * closes. It loads on demand (contextMenuOpen.ts); opening it does not need it.
 */

export function ContextMenu() {
  const menu = useApp((st) => st.menu);
  const sim = useApp((st) => st.sim);
  const lang = useApp((st) => st.lang);
  const cursor = useApp((st) => st.cursor);
  // Follows the run only while open (its choices depend on the state at t).
  useApp((st) => (st.menu ? st.frame : -1));
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);

  const target = menu && sim ? selectionTarget(sim, menu.sel, cursor ?? sim.now()) : null;
  // A value the target already holds (slow ×1 on a node at normal speed) is no choice.
  const choices = target
    ? choicesFor(target).filter((c) => {
        if (!('action' in c) || target.kind !== 'node') return true;
        const f = c.spec.fields.find((x) => x.choices);
        return !f || (c.action as unknown as Record<string, unknown>)[f.name] !== target.values[f.name];
      })
    : [];

  // Where the focus was when the menu opened (the node or link, for the keyboard): it goes back
  // there when the menu closes, unless the user has put it somewhere else meanwhile.
  const openerRef = useRef<Element | null>(null);
  useEffect(() => {
    if (menu) {
      openerRef.current ??= document.activeElement;
      return;
    }
    const opener = openerRef.current;
    openerRef.current = null;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && opener?.isConnected && (opener instanceof HTMLElement || opener instanceof SVGElement)) opener.focus();
  }, [menu]);

  // Keep the menu on screen, and focus its first item so the keyboard can drive it.
  useLayoutEffect(() => {
    if (!menu || !ref.current) return setPos(null);
    const r = ref.current.getBoundingClientRect();
    setPos({ left: Math.max(4, Math.min(menu.x, innerWidth - r.width - 4)), top: Math.max(4, Math.min(menu.y, innerHeight - r.height - 4)) });
  }, [menu]);
  // Once placed (and visible: a hidden element cannot take focus), focus the first item — before
  // the paint that shows it, not in an effect after it: an Enter pressed as the menu appeared went
  // to the node under it and opened the menu again instead of choosing (a flaky e2e run, 1 in ~160).
  useLayoutEffect(() => {
    if (pos) ref.current?.querySelector<HTMLButtonElement>('button[role="menuitem"]')?.focus();
  }, [pos]);

  useEffect(() => {
    if (!menu) return;
    const close = (e: Event): void => {
      if (ref.current && e.target instanceof Node && ref.current.contains(e.target)) return;
      set({ menu: null });
    };
    window.addEventListener('pointerdown', close, true);
    window.addEventListener('resize', close);
    return () => {
      window.removeEventListener('pointerdown', close, true);
      window.removeEventListener('resize', close);
    };
  }, [menu]);

  if (!menu || !target) return null;
  const name = target.kind === 'link' ? `${target.from}↔${target.to}` : target.kind === 'node' ? target.id : '';

  const onKeyDown = (e: React.KeyboardEvent): void => {
    const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = (i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items[next]?.focus();
    } else if (e.key === 'Tab') {
      e.preventDefault();
      set({ menu: null });
    }
    // Escape is handled by the page's key handler (keys.ts): it closes the menu and keeps the selection.
  };

  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      aria-label={rs(lang, 'menuFor', { target: name })}
      data-testid="context-menu"
      style={{ left: pos?.left ?? menu.x, top: pos?.top ?? menu.y, visibility: pos ? 'visible' : 'hidden' }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      <div className="context-menu-title num">{name}</div>
      {choices.map((c, i) => {
        // The listed value (slow's factor, an attack) tells items of one entry apart.
        const value = 'action' in c ? c.spec.fields.find((f) => f.choices || f.kind === 'choice') : undefined;
        const v = value && 'action' in c ? (c.action as unknown as Record<string, number>)[value.name] : undefined;
        return (
          <button
            key={i}
            type="button"
            role="menuitem"
            title={actionHint(c.spec, lang)}
            data-testid={`menu-${c.spec.do}${v !== undefined ? `-${v}` : ''}`}
            onClick={() => choose(c)}
          >
            <span>{choiceLabel(c, lang)}</span>
            {c.spec.key && <kbd>{c.spec.key.toUpperCase()}</kbd>}
          </button>
        );
      })}
    </div>
  );
}
