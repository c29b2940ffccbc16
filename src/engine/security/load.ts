import { loadOnce } from '../../protocols/loadOnce';
import type { Scenario } from '../../scenario/schema';

/**
 * The security code — the channel's integrity and replay checks (with @noble/hashes' HMAC and
 * HKDF), the man-in-the-middle and the Byzantine gradients — loads on demand (issue 9), like a
 * strategy: `Simulation.create` awaits it for a scenario that has a `security` block or a tamper or
 * Byzantine entry, and the app before it applies such an action live (act.ts). Until then the
 * engine's SecurityPort passes every message through untouched, as the layer itself does without
 * protection or attackers.
 */
export type SecurityCode = typeof import('./securityCode');

const code = loadOnce<'security', SecurityCode>(() => import('./securityCode'));

export function loadSecurity(): Promise<void> {
  return code.load('security');
}

/** The security code if it has arrived. */
export function securityCode(): SecurityCode | undefined {
  return code.get('security');
}

export function requireSecurity(): SecurityCode {
  const c = code.get('security');
  if (!c) throw new Error('the security code is not loaded: await loadSecurity() before a security block, a tamper or a Byzantine worker (Simulation.create does)');
  return c;
}

/** Actions that run the security code: a man-in-the-middle on a link, a worker turning Byzantine. */
export function needsSecurity(action: { do: string }): boolean {
  return action.do === 'tamper' || action.do === 'byzantine';
}

/** Whether a run of the scenario needs the security code from its start (its timeline's triggers included). */
export function scenarioNeedsSecurity(s: Scenario): boolean {
  return s.security !== undefined || s.timeline.some(needsSecurity);
}
