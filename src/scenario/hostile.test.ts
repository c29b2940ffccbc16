import { describe, expect, it } from 'vitest';
import { parseScenarioText } from './loader';
import { decodeScenarioHashAny, encodeScenarioHash, encodeScenarioHashCompressed } from './hashCodec';

/**
 * Hostile input (a shared link, a downloaded file): it can only ever be data. Every case gets a
 * readable error naming the field (or the line and column), never an exception, and nothing
 * outside the parsed value changes. Script in a title is kept as text; the e2e security spec proves
 * the page shows it without running it.
 */
const base = { schema: 1, id: 'x', seed: 1, durationMs: 1000, cluster: { workers: 2 }, strategy: { kind: 'allreduce' } };
const text = JSON.stringify(base);
const errors = (t: string) => {
  const r = parseScenarioText(t);
  if (r.ok) throw new Error('expected a rejection');
  return r.errors;
};

describe('hostile scenario files', () => {
  it('prototype keys are unknown fields, wherever they appear, and pollute nothing', () => {
    expect(errors(text.replace('{', '{"__proto__":{"polluted":1},'))).toEqual(['scenario: unknown field "__proto__"']);
    expect(errors(text.replace('"cluster":{', '"cluster":{"__proto__":{"workers":9},'))).toEqual(['cluster: unknown field "__proto__"']);
    expect(errors(text.replace('"kind":"allreduce"', '"kind":"allreduce","constructor":{"prototype":{"polluted":1}}'))).toEqual(['strategy: unknown field "constructor"']);
    expect(errors(JSON.stringify({ ...base, cluster: { workers: 2, servers: 1, brokers: 1 }, strategy: { kind: 'kafka-ps', constructor: 1, toString: 2 } }))).toEqual([
      'strategy: unknown field "constructor"; unknown field "toString"',
    ]);
    expect(errors(JSON.stringify({ ...base, strategy: { kind: '__proto__' } }))[0]).toMatch(/^strategy\.kind: unknown strategy "__proto__"; valid strategies: allreduce, /);
    expect(errors(JSON.stringify({ ...base, timeline: [{ at: 1, do: 'constructor' }] }))[0]).toMatch(/^timeline\[0\]\.do: unknown action "constructor"; valid actions: partition, /);
    expect(errors(JSON.stringify({ ...base, expect: [{ at: 1, metric: 'hasOwnProperty', op: '==', value: 1 }] }))[0]).toMatch(/^expect\[0\]\.metric: expected one of "divergence", /);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('workers');
  });

  it('numbers too large for a double, or out of range, are named', () => {
    expect(errors(text.replace('"seed":1', '"seed":1e400'))).toEqual(['seed: expected a number, got a number too large to represent (it reads as infinity)']);
    expect(errors(text.replace('"workers":2', '"workers":1e308'))).toContain('cluster.workers: must be <= 64, got 1e+308');
    expect(errors(text.replace('"durationMs":1000', '"durationMs":-1e308'))).toEqual(['durationMs: must be > 0, got -1e+308']);
    expect(errors(JSON.stringify({ ...base, timeline: [{ at: 1e300, do: 'heal' }] }))).toEqual(['timeline[0].at: 1e+300 is after the end of the run (durationMs 1000)']);
  });

  it('deep nesting is refused with a position, or named by field, never by exhausting the stack', () => {
    const deepBroken = text.replace('"id":"x"', `"description":{"en":${'['.repeat(100_000)}}`);
    expect(errors(deepBroken)).toEqual(['line 1, column 287: nesting deeper than 256 levels (a scenario needs about 6)']);
    const deepValid = text.replace('"id":"x"', `"description":{"en":${'['.repeat(100_000)}${']'.repeat(100_000)},"zh":"a"},"id":"x"`);
    expect(errors(deepValid)).toEqual(['description.en: expected a string, got an array']);
    const deepObject = text.replace('"id":"x"', `"title":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)},"id":"x"`);
    // `a` could be a third language's key (a BCP 47 tag), so its value is checked too.
    expect(errors(deepObject)).toEqual(['title.en: missing (expected a string)', 'title.zh: missing (expected a string)', 'title.a: expected a string, got an object']);
  });

  it('markup in titles and descriptions is kept as text, unchanged', () => {
    const title = { en: '<script>window.__pwned = 1</script>', zh: '<img src=x onerror="window.__pwned = 1">' };
    const r = parseScenarioText(JSON.stringify({ ...base, title, description: { en: '</div><svg onload=alert(1)>', zh: '"><iframe src=javascript:alert(1)>' } }));
    expect(r.ok && r.scenario.title).toEqual(title);
  });
});

describe('hostile links', () => {
  it('a #scenario= hash decodes to text that goes through the same checks, in both forms', async () => {
    const hostile = text.replace('{', '{"__proto__":{"polluted":1},');
    for (const hash of [encodeScenarioHash(hostile), await encodeScenarioHashCompressed(hostile)]) {
      const d = await decodeScenarioHashAny(`#scenario=${hash}`);
      expect(d.ok && errors(d.json)).toEqual(['scenario: unknown field "__proto__"']);
    }
    expect(await decodeScenarioHashAny('#scenario=z:AAAA')).toEqual({ ok: false, problem: { problem: 'hash-damaged' } });
    expect(await decodeScenarioHashAny('#scenario=<script>')).toEqual({ ok: false, problem: { problem: 'hash-bad-char', char: '<', position: 1 } });
  });
});
