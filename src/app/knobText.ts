/** A knob's value as its form field reads and writes it: pure text rules, no schema (the page's first load carries them). */

/**
 * The text shown for a knob that is not a plain number/boolean/enum: SSP's `staleness` reads
 * "inf" (not "\"inf\""), Raft's `electionTimeoutMs` reads "150–300" (not "[150,300]").
 */
export function formatKnobText(value: unknown): string {
  // An optional knob left unset (Kafka's readFrom, etcd's maxRequestBytes): an empty field, not "undefined".
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number')) return `${value[0]}–${value[1]}`;
  return JSON.stringify(value);
}

/** Reads what formatKnobText writes (and plain JSON); undefined when it is none of them. */
export function parseLenient(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  if (/^(inf|∞|infinity)$/i.test(t)) return 'inf';
  const range = /^\[?\s*(-?\d+(?:\.\d+)?)\s*(?:–|-|,|\.\.)\s*(-?\d+(?:\.\d+)?)\s*\]?$/.exec(t);
  if (range) return [Number(range[1]), Number(range[2])];
  try {
    return JSON.parse(t);
  } catch {
    return /^[a-z][\w.-]*$/i.test(t) ? t : undefined;
  }
}
