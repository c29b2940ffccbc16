import type { Action } from '../sim/types';
import { branching } from './components/branchBarLoad';
import { check } from './engine';
import { contextMenu } from './components/contextMenuOpen';
import { s } from './i18n/strings';
import { problemTextOr } from './problemTextLoad';
import type { Choice } from './actionMenu';
import { bumpFrame, get, reportError, set, useApp } from './store';

/**
 * Every user action — menus, keys, the topology's clicks and drags — goes through here: checked
 * with the action table's schema and node rules, then applied at the current simulated time (both
 * in the engine's worker: the answers say whether it was well formed, and whether it was taken).
 * With the cursor scrubbed into the past, the run forks there instead (branches.ts): the action
 * applies at the cursor's time on a new branch. A refusal is shown in the error panel; nothing
 * else changes.
 */
/**
 * Guided mode looks at every action first (lesson/waits.ts): the one an `interactive`
 * timeline entry scripts is taken as that entry, at its own time, instead of applying now.
 */
export const actionHooks: { intercept?: (actions: readonly Action[]) => boolean } = {};

export function act(input: Action): Promise<boolean> {
  return actAll([input]);
}

/**
 * Several actions at one instant (the link form applied to every link): all are checked first;
 * live, they apply in order; scrubbed back, one fork at the cursor applies them all.
 */
export async function actAll(inputs: readonly Action[]): Promise<boolean> {
  const { sim, lang, cursor, forking } = get();
  if (!sim || forking || inputs.length === 0) return false;
  const ids = sim.nodes().map((n) => n.id);
  // Checked in the engine's worker, which has the action table's schemas (app/checks).
  let parsed;
  try {
    parsed = await check('actions', inputs, ids);
  } catch (e) {
    reportError(s(lang, 'actionFailed', { cause: e instanceof Error ? e.message : String(e) }));
    return false;
  }
  if (!parsed.ok) {
    const refused = parsed;
    reportError(s(lang, 'actionFailed', { cause: await problemTextOr((w) => w.actionProblemText(lang, refused.problems), refused.error) }));
    return false;
  }
  // Another run came on screen meanwhile: the action was meant for the one that left.
  if (get().sim !== sim) return false;
  const actions = parsed.actions;
  // Live room: the room orders every action at its own time (src/app/room/roomApp.ts); a room's
  // run never forks, whatever the cursor.
  if (router) return actions.every((a) => router!(a));
  if (actionHooks.intercept?.(actions)) {
    bumpFrame(true);
    return true;
  }
  if (cursor !== null && cursor < sim.now()) {
    const at = cursor;
    void branching().then(
      (b) => b.fork(actions, at),
      (e: unknown) => reportError(s(get().lang, 'actionFailed', { cause: e instanceof Error ? e.message : String(e) })),
    );
    return true;
  }
  for (const action of actions) {
    let r;
    try {
      r = await sim.apply(action);
    } catch (e) {
      // The engine's worker could not answer (it stopped): nothing was applied.
      reportError(s(get().lang, 'actionFailed', { cause: e instanceof Error ? e.message : String(e) }));
      return false;
    }
    if (!r.ok) {
      const refused = r;
      reportError(s(get().lang, 'actionFailed', { cause: await problemTextOr((w) => w.actionRefusalText(get().lang, refused), refused.error) }));
      bumpFrame(true);
      return false;
    }
  }
  bumpFrame(true);
  return true;
}

let router: ((action: Action) => boolean) | null = null;

// A selected node or link has its menu (the menu key), whose code loads on demand: start fetching
// it at the first selection, so using it seldom waits. A failure is reported where it is used.
useApp.subscribe((st, prev) => {
  if (st.selected === null || prev.selected !== null) return;
  contextMenu.preload().catch(() => undefined);
});

/** Live room: hand every validated action to the room instead of applying it here. */
export function setActionRouter(fn: ((action: Action) => boolean) | null): void {
  router = fn;
}

/** Selection ids: a node (`w2`) or a link (`w1-w2`, as in the `link-<a>-<b>` test ids). */
export function parseSelection(sel: string | null): { node: string } | { from: string; to: string } | null {
  if (!sel) return null;
  const m = /^([a-z]\d+)-([a-z]\d+)$/.exec(sel);
  if (m) return { from: m[1], to: m[2] };
  return { node: sel };
}

/** Runs a menu item or key: applies its action, or opens its form in the tools panel. */
export function choose(c: Choice): void {
  set({ menu: null });
  if ('action' in c) return void act(c.action);
  if (c.spec.target === 'groups') set({ toolTab: 'partition' });
  else if (c.spec.do === 'putMeta') set({ toolTab: 'meta' });
  // The whole network's settings: the link form with no link selected (its target is every link).
  else if (c.spec.do === 'network') set({ toolTab: 'links', selected: null });
  else if (c.target.kind === 'link') set({ toolTab: 'links', selected: `${c.target.from}-${c.target.to}` });
  else if (c.target.kind === 'node') set({ toolTab: 'node', selected: c.target.id });
}
