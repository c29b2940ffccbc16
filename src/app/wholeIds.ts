/**
 * A sentence cut where an id with hyphens in it (a variant's `local-reads`, a scenario's
 * `raft-ps-majority`) stands: the line breaker may break after a hyphen, and in 中文 text, where
 * any character may end a line, it did ("（local-" / "reads）"). The parts that are such ids are
 * shown unbroken (ErrorPanel); the text is unchanged, so it still copies as written.
 */
export interface TextPart {
  text: string;
  /** An id with a hyphen: keep it on one line. */
  id: boolean;
}

const ID = /[A-Za-z0-9_.[\]]+(?:-[A-Za-z0-9_.[\]]+)+/g;

export function wholeIds(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(ID)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), id: false });
    parts.push({ text: m[0], id: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), id: false });
  return parts;
}
