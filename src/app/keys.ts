import { useEffect } from 'react';
import { actionsForKey, defaultAction, type ActionSpec } from '../scenario/actions';
import type { Action } from '../sim/types';
import { act, parseSelection } from './act';
import { driver } from './driver';
import { partitionFromDraft } from './partition';
import { get, set } from './store';

/**
 * Keyboard shortcuts. Action keys come from the one action table (DESIGN rule 5) and act on the
 * selected node or link; keys shared by an action and its inverse (x: crash/restart, c:
 * cut/restore) pick by the current state. Space plays/pauses, → steps one event.
 */

function typingInForm(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

/** Chooses the table entry and fills it in for the current selection; null if it does not apply. */
export function actionForKey(specs: readonly ActionSpec[]): Action | 'openPartition' | null {
  const { sim, selected, partitionDraft } = get();
  if (!sim || specs.length === 0) return null;
  const sel = parseSelection(selected);
  const kinds = new Set(specs.map((a) => a.do));
  const target = specs[0].target;
  if (target === 'cluster') return kinds.has('heal') ? { do: 'heal' } : null;
  if (target === 'groups') {
    const ids = sim.nodes().map((n) => n.id);
    return partitionFromDraft(partitionDraft, ids) ?? 'openPartition';
  }
  if (target === 'node' && sel && 'node' in sel) {
    const node = sim.nodes().find((n) => n.id === sel.node);
    if (!node) return null;
    if (kinds.has('crash') || kinds.has('restart')) return node.up ? { do: 'crash', node: node.id } : { do: 'restart', node: node.id };
    if (kinds.has('byzantine') || kinds.has('honest')) {
      if (node.role !== 'worker') return null;
      return node.byzantine ? { do: 'honest', node: node.id } : defaultAction('byzantine', { node: node.id });
    }
    if (kinds.has('slow')) {
      const spec = specs.find((a) => a.do === 'slow');
      const field = spec?.fields.find((f) => f.name === 'factor');
      const factor = typeof field?.default === 'number' ? field.default : 4;
      return { do: 'slow', node: node.id, factor: node.slowFactor > 1 ? 1 : factor };
    }
  }
  if (target === 'link' && sel && 'from' in sel && (kinds.has('tamper') || kinds.has('untamper'))) {
    // The selected direction, from → to (the topology's link ids name it).
    const link = sim.links().find((l) => l.from === sel.from && l.to === sel.to);
    return link?.tamper ? { do: 'untamper', from: sel.from, to: sel.to } : defaultAction('tamper', { from: sel.from, to: sel.to });
  }
  if (target === 'link' && sel && 'from' in sel && (kinds.has('cut') || kinds.has('restore'))) {
    const link = sim.links().find((l) => l.from === sel.from && l.to === sel.to);
    return link?.cut ? { do: 'restore', from: sel.from, to: sel.to } : { do: 'cut', from: sel.from, to: sel.to };
  }
  return null;
}

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.ctrlKey || e.metaKey || e.altKey || typingInForm(e.target)) return;
      if (e.key === ' ') {
        // Space on a focused button would also click it: handle it once, here.
        e.preventDefault();
        driver.toggle();
        return;
      }
      if (e.key === 'ArrowRight') {
        e.preventDefault();
        void driver.step();
        return;
      }
      if (e.key === 'Escape') {
        set({ selected: null });
        return;
      }
      const chosen = actionForKey(actionsForKey(e.key));
      if (chosen === null) return;
      e.preventDefault();
      if (chosen === 'openPartition') set({ toolTab: 'partition' });
      else act(chosen);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
