/**
 * JSON parsing with an error position a person can find in an editor: `line L, column C: …`.
 *
 * JSON.parse does the parsing. Its SyntaxError does not always carry a position (V8 in Node 20
 * says `Unexpected token '}', "…" is not valid JSON` for many errors), so on failure a small
 * scanner re-reads the text to find where and why it first goes wrong.
 */

/**
 * Why a text is not JSON, as a fact (the app words it in the reader's language; `jsonSyntaxText`
 * is the English). `found` is what stands where the text goes wrong.
 */
export type JsonSyntax =
  | { kind: 'unexpected'; found: JsonFound; expected: 'value' | 'property-name' | 'colon' | 'comma-or-brace' | 'comma-or-bracket' | 'end' }
  | { kind: 'bad-unicode-escape' }
  | { kind: 'bad-escape'; escape: string }
  | { kind: 'control-in-string' }
  | { kind: 'unterminated-string' }
  | { kind: 'bad-number' }
  | { kind: 'bare-word'; word: string }
  | { kind: 'too-deep'; max: number }
  | { kind: 'single-quotes' }
  | { kind: 'single-quoted-name' }
  | { kind: 'trailing-comma'; close: '}' | ']' }
  | { kind: 'empty' }
  /** The engine's own message, where the scanner finds nothing (should not happen). */
  | { kind: 'engine'; message: string };
export type JsonFound = { t: 'char'; c: string } | { t: 'line-break' } | { t: 'end' };

/** Where a JSON text goes wrong (1-based line and column) and why; `line` 0: nesting too deep for the engine to say where. */
export interface JsonProblem {
  line: number;
  column: number;
  syntax: JsonSyntax;
}

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string; problem: JsonProblem };

const expectedWords: Record<Extract<JsonSyntax, { kind: 'unexpected' }>['expected'], string> = {
  value: 'a value',
  'property-name': 'a property name in double quotes',
  colon: '":" after the property name',
  'comma-or-brace': '"," or "}"',
  'comma-or-bracket': '"," or "]"',
  end: 'end of input after the JSON value',
};

function foundWord(f: JsonFound): string {
  return f.t === 'end' ? 'end of input' : f.t === 'line-break' ? 'a line break' : `"${f.c}"`;
}

/** The English for a syntax fact. */
export function jsonSyntaxText(x: JsonSyntax): string {
  switch (x.kind) {
    case 'unexpected':
      return `unexpected ${foundWord(x.found)}, expected ${expectedWords[x.expected]}`;
    case 'bad-unicode-escape':
      return 'invalid \\u escape: expected 4 hex digits';
    case 'bad-escape':
      return `invalid escape "\\${x.escape}" in string`;
    case 'control-in-string':
      return 'unescaped control character or line break in string (missing closing quote?)';
    case 'unterminated-string':
      return 'unterminated string (missing closing quote)';
    case 'bad-number':
      return 'invalid number';
    case 'bare-word':
      return `unexpected word "${x.word}"; strings need double quotes, literals are true, false and null`;
    case 'too-deep':
      return `nesting deeper than ${x.max} levels (a scenario needs about 6)`;
    case 'single-quotes':
      return 'strings need double quotes, not single quotes';
    case 'single-quoted-name':
      return 'property names need double quotes, not single quotes';
    case 'trailing-comma':
      return `trailing comma before "${x.close}"`;
    case 'empty':
      return 'the file is empty';
    case 'engine':
      return x.message;
  }
}

/** One problem as the English line `line L, column C: …`. */
export function jsonProblemLine(p: JsonProblem): string {
  if (p.line === 0) return `the JSON is nested too deeply to read (${jsonSyntaxText(p.syntax)})`;
  return `line ${p.line}, column ${p.column}: ${jsonSyntaxText(p.syntax)}`;
}

function failure(problem: JsonProblem): JsonResult {
  return { ok: false, error: jsonProblemLine(problem), problem };
}

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
    if (e instanceof RangeError) return failure({ line: 0, column: 0, syntax: { kind: 'engine', message: e.message } });
    const found = findJsonError(src);
    if (found) return failure({ ...lineColumn(src, found.pos), syntax: found.syntax });
    // The scanner and V8 disagree (should not happen): fall back to V8's position, if any.
    const msg = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(msg);
    return failure({ ...lineColumn(src, m ? Number(m[1]) : 0), syntax: { kind: 'engine', message: msg.split('\n')[0] } });
  }
}

/** 1-based line and column of a string offset. */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return { line, column: col };
}

class JsonError {
  constructor(
    readonly pos: number,
    readonly syntax: JsonSyntax,
  ) {}
}

function found(text: string, i: number): JsonFound {
  if (i >= text.length) return { t: 'end' };
  const ch = text[i];
  if (ch === '\n') return { t: 'line-break' };
  return { t: 'char', c: ch };
}

/** The first syntax error in `text`, or undefined if it is valid JSON. */
export function findJsonError(text: string): { pos: number; syntax: JsonSyntax } | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (syntax: JsonSyntax): never => {
    throw new JsonError(i, syntax);
  };
  const unexpected = (expected: Extract<JsonSyntax, { kind: 'unexpected' }>['expected']): never => fail({ kind: 'unexpected', found: found(text, i), expected });

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
            fail({ kind: 'bad-unicode-escape' });
          }
          i += 6;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else {
          i++;
          fail({ kind: 'bad-escape', escape: esc ?? '' });
        }
      } else if (ch.charCodeAt(0) < 0x20) fail({ kind: 'control-in-string' });
      else i++;
    }
    fail({ kind: 'unterminated-string' });
  };

  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) unexpected('value');
    i += m![0].length;
    if (i < text.length && /[\d.eE]/.test(text[i])) fail({ kind: 'bad-number' });
  };

  const literal = () => {
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    const m = /^[A-Za-z_]\w*/.exec(text.slice(i));
    if (m) fail({ kind: 'bare-word', word: m[0] });
    unexpected('value');
  };

  let depth = 0;
  const nested = (read: () => void) => {
    if (++depth > MAX_JSON_DEPTH) fail({ kind: 'too-deep', max: MAX_JSON_DEPTH });
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
    if (ch === "'") fail({ kind: 'single-quotes' });
    if (ch === undefined) unexpected('value');
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
      if (text[i] === '}') fail({ kind: 'trailing-comma', close: '}' });
      if (text[i] !== '"') {
        if (text[i] === "'") fail({ kind: 'single-quoted-name' });
        unexpected('property-name');
      }
      string();
      ws();
      if (text[i] !== ':') unexpected('colon');
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
      unexpected('comma-or-brace');
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
      if (text[i] === ']') fail({ kind: 'trailing-comma', close: ']' });
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
      unexpected('comma-or-bracket');
    }
  };

  try {
    ws();
    if (i >= text.length) return { pos: i, syntax: { kind: 'empty' } };
    value();
    ws();
    if (i < text.length) unexpected('end');
    return undefined;
  } catch (e) {
    if (e instanceof JsonError) return { pos: e.pos, syntax: e.syntax };
    throw e;
  }
}
