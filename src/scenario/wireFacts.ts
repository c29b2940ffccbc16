import { strategiesWithWire } from '../protocols/wire';
import type { ProblemFact } from './problems';

/** Strategies without parameter-server updates on the wire (protocols/wire.ts). */
export function noWire(kind: string, purpose: 'protect' | 'alter'): ProblemFact {
  return { kind: 'noWire', strategy: kind, purpose, withWire: strategiesWithWire };
}

/**
 * Why a `tamper` on from → to would have nothing to alter, as [field, fact], or null: the
 * strategy sends no parameter-server updates, or the link is the coordination service's (its
 * locks, leases and metadata are not updates; TLS covers them, and nothing else does).
 */
export function tamperFact(kind: string, from: string, to: string): ['do' | 'from' | 'to', ProblemFact] | null {
  if (!strategiesWithWire.includes(kind)) return ['do', noWire(kind, 'alter')];
  for (const [field, id] of [['from', from], ['to', to]] as const) {
    if (/^c\d+$/.test(id)) return [field, { kind: 'coordLink', id }];
  }
  return null;
}
