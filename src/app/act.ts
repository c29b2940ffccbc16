import { parseAction } from '../scenario/actions';
import type { Action } from '../sim/types';
import { s } from './i18n/strings';
import { bumpFrame, get, reportError } from './store';

/**
 * Every user action — menus, keys, the topology's clicks and drags — goes through here: checked
 * with the action table's schema and node rules, then `sim.apply` at the current simulated time.
 * A refusal is shown in the error panel; nothing else changes.
 */
export function act(input: Action): boolean {
  const { sim, lang } = get();
  if (!sim) return false;
  const parsed = parseAction(input, sim.nodes().map((n) => n.id));
  if (!parsed.ok) {
    reportError(s(lang, 'actionFailed', { cause: parsed.error }));
    return false;
  }
  // Live room: the room orders every action (src/app/room/roomApp.ts).
  if (router) return router(parsed.action);
  const r = sim.apply(parsed.action, 'user');
  if (!r.ok) {
    reportError(s(lang, 'actionFailed', { cause: r.error }));
    return false;
  }
  bumpFrame();
  return true;
}

let router: ((action: Action) => boolean) | null = null;

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
