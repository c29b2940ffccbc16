import fc from 'fast-check';
import type { HistoryEvent } from '../types';

/**
 * Events for property tests of the history's stores: sends and deliveries (the message columns,
 * some with a field that keeps them out), values of many shapes (the words), facts, notes, and
 * events that are not plain data (kept as objects).
 */
const node = fc.constantFrom('w0', 'w1', 's0', 'leader-of-a-long-name', 'ünïcode');
const kind = fc.constantFrom('chunk', 'append', 'vote');
const time = fc.oneof(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.integer({ min: 0, max: 1e9 }).map((k) => k / 1000));
// Fields in the engine's order (the message columns rebuild that order; sim/compactMessages.ts).
const send = fc.record({ t: time, id: fc.integer({ min: -2, max: 2 ** 31 + 10 }), from: node, to: node, kind, bytes: fc.nat(), due: time, dupOf: fc.option(fc.nat(), { nil: undefined }) }).map(({ t, id, from, to, kind, bytes, due, dupOf }) => ({ t, type: 'send', id, from, to, kind, bytes, due, ...(dupOf === undefined ? {} : { dupOf }) }));
const deliver = fc.record({ t: time, id: fc.nat(), from: node, to: node, kind, sentAt: time }).map(({ t, id, from, to, kind, sentAt }) => ({ t, type: 'deliver', id, from, to, kind, sentAt }));
const plain = fc.oneof(fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.double(), { maxLength: 5 }));
const version = fc.record({ t: time, node, version: fc.nat(), v: fc.record({ loss: fc.double(), w: fc.array(fc.double(), { maxLength: 4 }) }) }).map((e) => ({ ...e, type: 'version' }));
const facts = fc.record({ t: time, node, facts: fc.dictionary(fc.string({ maxLength: 4 }), plain, { maxKeys: 4 }) }).map((e) => ({ ...e, type: 'facts' }));
const note = fc.record({ t: time, node, text: fc.string() }).map((e) => ({ ...e, type: 'note' }));
const typed = fc.record({ t: time, node, data: fc.array(fc.float({ noNaN: true }), { maxLength: 3 }) }).map(({ data, ...e }) => ({ ...e, type: 'log', data: Float32Array.from(data) }));
/** Any event a history may be given, of every kind its stores treat differently. */
export const anyEvent = fc.oneof(send, deliver, version, facts, note, typed) as fc.Arbitrary<HistoryEvent>;
