/**
 * JSON parsing with an error position a person can find in an editor: `line L, column C: …`.
 *
 * JSON.parse does the parsing. Its SyntaxError does not always carry a position (V8 in Node 20
 * says `Unexpected token '}', "…" is not valid JSON` for many errors), so on failure a small
 * scanner re-reads the text to find where and why it first goes wrong.
 */

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Deepest nesting the error scanner follows. A scenario is about six levels deep; a file nested
 * thousands of levels deep is hostile or broken, and following it would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 256;

export function parseJson(text: string): JsonResult {
  // A byte-order mark is invisible in editors and harmless; JSON.parse rejects it.
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(src) };
  } catch (e) {
    // A parser that recurses (some engines do) runs out of stack on hostile nesting: say so.
    if (e instanceof RangeError) return { ok: false, error: `the JSON is nested too deeply to read (${e.message})` };
    const found = findJsonError(src);
    if (found) return { ok: false, error: `${lineColumn(src, found.pos)}: ${found.message}` };
    // The scanner and V8 disagree (should not happen): fall back to V8's position, if any.
    const msg = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(msg);
    return { ok: false, error: `${lineColumn(src, m ? Number(m[1]) : 0)}: ${msg.split('\n')[0]}` };
  }
}

/** 1-based line and column of a string offset. */
export function lineColumn(text: string, pos: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

class JsonError {
  constructor(
    readonly pos: number,
    readonly message: string,
  ) {}
}

function show(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const ch = text[i];
  if (ch === '\n') return 'a line break';
  return `"${ch}"`;
}

/** The first syntax error in `text`, or undefined if it is valid JSON. */
export function findJsonError(text: string): { pos: number; message: string } | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (message: string): never => {
    throw new JsonError(i, message);
  };
  const unexpected = (what: string): never => fail(`unexpected ${show(text, i)}, expected ${what}`);

  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            fail('invalid \\u escape: expected 4 hex digits');
          }
          i += 6;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else {
          i++;
          fail(`invalid escape "\\${esc ?? ''}" in string`);
        }
      } else if (ch.charCodeAt(0) < 0x20) fail('unescaped control character or line break in string (missing closing quote?)');
      else i++;
    }
    fail('unterminated string (missing closing quote)');
  };

  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) unexpected('a value');
    i += m![0].length;
    if (i < text.length && /[\d.eE]/.test(text[i])) fail(`invalid number`);
  };

  const literal = () => {
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    const m = /^[A-Za-z_]\w*/.exec(text.slice(i));
    if (m) fail(`unexpected word "${m[0]}"; strings need double quotes, literals are true, false and null`);
    unexpected('a value');
  };

  let depth = 0;
  const nested = (read: () => void) => {
    if (++depth > MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels (a scenario needs about 6)`);
    read();
    depth--;
  };

  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return nested(object);
    if (ch === '[') return nested(array);
    if (ch === '"') return string();
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    if (ch === "'") fail('strings need double quotes, not single quotes');
    if (ch === undefined) fail('unexpected end of input, expected a value');
    literal();
  };

  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === '}') fail('trailing comma before "}"');
      if (text[i] !== '"') {
        if (text[i] === "'") fail('property names need double quotes, not single quotes');
        unexpected('a property name in double quotes');
      }
      string();
      ws();
      if (text[i] !== ':') unexpected('":" after the property name');
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      unexpected('"," or "}"');
    }
  };

  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail('trailing comma before "]"');
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      unexpected('"," or "]"');
    }
  };

  try {
    ws();
    if (i >= text.length) return { pos: i, message: 'the file is empty' };
    value();
    ws();
    if (i < text.length) unexpected('end of input after the JSON value');
    return undefined;
  } catch (e) {
    if (e instanceof JsonError) return { pos: e.pos, message: e.message };
    throw e;
  }
}
