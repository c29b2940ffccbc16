import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base64UrlToBytes, bytesToBase64Url, decodeScenarioHash, decodeScenarioHashAny, encodeScenarioHash, encodeScenarioHashCompressed, encodeScenarioHashShortest } from './hashCodec';
import { parseUrlParams, PAGE_PARAMS, SCENARIO_SETTINGS } from './url';
import { fieldNamesOf } from './issues';
import { scenarioSchema } from './schema';
import { readFileSync } from 'node:fs';

const scenarioJson = readFileSync(new URL('../../public/scenarios/async-partition.json', import.meta.url), 'utf8');

describe('scenario hash', () => {
  it('is base64url without padding and round-trips Chinese text', () => {
    const json = '{"title":{"en":"CAP","zh":"训练中的 CAP：分区迫使你取舍"},"x":"~?/+"}';
    const h = encodeScenarioHash(json);
    expect(h).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeScenarioHash(h)).toEqual({ ok: true, json });
    expect(decodeScenarioHash(`#scenario=${h}`)).toEqual({ ok: true, json });
  });

  it('matches the standard base64url of the UTF-8 bytes', () => {
    const json = '{"a":"é中"}';
    expect(encodeScenarioHash(json)).toBe(Buffer.from(json, 'utf8').toString('base64url'));
  });

  it('round-trips any bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const s = bytesToBase64Url(bytes);
        expect(s).toBe(Buffer.from(bytes).toString('base64url'));
        expect(base64UrlToBytes(s)).toEqual(bytes);
      }),
    );
  });

  it('round-trips any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeScenarioHash(encodeScenarioHash(s))).toEqual({ ok: true, json: s });
      }),
    );
  });

  it('accepts standard base64 and a "+" turned into a space', () => {
    const json = '{"k":">>>???"}';
    const std = Buffer.from(json).toString('base64');
    expect(decodeScenarioHash(std)).toEqual({ ok: true, json });
    expect(decodeScenarioHash(std.replace(/\+/g, ' '))).toEqual({ ok: true, json });
  });

  it('reports bad input instead of throwing', () => {
    expect(decodeScenarioHash('abc$def')).toEqual({ ok: false, problem: { problem: 'hash-bad-char', char: '$', position: 4 } });
    expect(decodeScenarioHash('abcde')).toEqual({ ok: false, problem: { problem: 'hash-truncated' } });
    expect(decodeScenarioHash(bytesToBase64Url(new Uint8Array([0xff, 0xfe])))).toEqual({ ok: false, problem: { problem: 'hash-not-utf8' } });
  });

  it('compressed form round-trips and is shorter for a real scenario', async () => {
    const z = await encodeScenarioHashCompressed(scenarioJson);
    expect(z.startsWith('z:')).toBe(true);
    expect(z.slice(2)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(z.length).toBeLessThan(encodeScenarioHash(scenarioJson).length);
    expect(await decodeScenarioHashAny(z)).toEqual({ ok: true, json: scenarioJson });
    expect(await decodeScenarioHashAny(`#scenario=${z}`)).toEqual({ ok: true, json: scenarioJson });
    // The uncompressed form goes through the same entry point.
    expect(await decodeScenarioHashAny(encodeScenarioHash(scenarioJson))).toEqual({ ok: true, json: scenarioJson });
    expect(await encodeScenarioHashShortest(scenarioJson)).toBe(z);
    expect(await encodeScenarioHashShortest('{}')).toBe(encodeScenarioHash('{}'));
  });

  it('compressed form keeps Chinese text', async () => {
    const json = JSON.stringify({ zh: '副本分歧：保住了 A，放弃了 C'.repeat(5) });
    expect(await decodeScenarioHashAny(await encodeScenarioHashCompressed(json))).toEqual({ ok: true, json });
  });

  it('a damaged compressed link is an error, not an exception', async () => {
    const z = await encodeScenarioHashCompressed(scenarioJson);
    const r = await decodeScenarioHashAny(z.slice(0, z.length / 2));
    expect(r.ok).toBe(false);
    // Cut short, it is either a base64 that cannot end there or a deflate stream that stops early.
    if (!r.ok) expect(['hash-truncated', 'hash-damaged']).toContain(r.problem.problem);
  });
});

describe('parseUrlParams', () => {
  it('defaults', () => {
    expect(parseUrlParams('', '')).toEqual({ autoplay: false, speed: 1, lang: 'en', backend: 'auto', present: false, lessons: false, problems: [] });
  });

  it('reads every parameter', () => {
    expect(parseUrlParams('?scenario=async-partition&autoplay=1&speed=max&lang=zh&backend=wasm', '')).toEqual({
      scenarioId: 'async-partition',
      autoplay: true,
      speed: 'max',
      lang: 'zh',
      backend: 'wasm',
      present: false,
      lessons: false,
      problems: [],
    });
    expect(parseUrlParams('speed=0.1', '').speed).toBe(0.1);
    expect(parseUrlParams('speed=100', '').speed).toBe(100);
    expect(parseUrlParams('lang=zh-CN', '').lang).toBe('zh');
  });

  it('takes the scenario from the hash, either form', () => {
    const h = encodeScenarioHash('{"a":1}');
    expect(parseUrlParams('', `#scenario=${h}`).scenarioHash).toBe(h);
    expect(parseUrlParams('', '#scenario=z:abc').scenarioHash).toBe('z:abc');
  });

  it('a bad value names the parameter and keeps the default', () => {
    const p = parseUrlParams('?speed=fast&lang=fr&backend=gpu&autoplay=yes&scenario=Bad%20Id', '');
    expect(p.speed).toBe(1);
    expect(p.lang).toBe('en');
    expect(p.backend).toBe('auto');
    expect(p.autoplay).toBe(false);
    expect(p.scenarioId).toBeUndefined();
    expect(p.problems).toEqual([
      { problem: 'not-id', param: 'scenario', value: 'Bad Id' },
      { problem: 'not-flag', param: 'autoplay', value: 'yes' },
      { problem: 'not-speed', param: 'speed', value: 'fast' },
      { problem: 'not-choice', param: 'lang', value: 'fr', choices: ['en', 'zh'] },
      { problem: 'not-choice', param: 'backend', value: 'gpu', choices: ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] },
    ]);
  });

  it('at=<ms> shares a moment, in the query or after the scenario in the hash', () => {
    expect(parseUrlParams('?scenario=raft-leader-crash&autoplay=1&speed=max&at=3900', '').at).toBe(3900);
    expect(parseUrlParams('', '#scenario=z:abc&at=6900.5').at).toBe(6900.5);
    expect(parseUrlParams('', '#scenario=z:abc&at=6900')).toMatchObject({ scenarioHash: 'z:abc', at: 6900 });
    expect(parseUrlParams('', '').at).toBeUndefined();
    for (const bad of ['-1', 'soon', '']) {
      const p = parseUrlParams(`at=${bad}`, '');
      expect(p.at).toBeUndefined();
      expect(p.problems).toEqual([{ problem: 'not-time', param: 'at', value: bad }]);
    }
  });

  it('a lesson: lesson, step, variant, mode, present (CURRICULUM §C.8), and lessons=1 for the index', () => {
    expect(parseUrlParams('?lesson=cap-partition-choice&step=partition.4&variant=async&mode=free&present=1', '')).toMatchObject({
      lessonId: 'cap-partition-choice',
      step: 'partition.4',
      variant: 'async',
      mode: 'free',
      present: true,
      lessons: false,
      problems: [],
    });
    expect(parseUrlParams('?lessons=1', '')).toMatchObject({ lessons: true, present: false });
    const bad = parseUrlParams('?lesson=L1!&step=4&variant=A&mode=teach&present=yes', '');
    expect([bad.lessonId, bad.step, bad.variant, bad.mode, bad.present]).toEqual([undefined, undefined, undefined, undefined, false]);
    expect(bad.problems).toEqual([
      { problem: 'not-id', param: 'lesson', value: 'L1!' },
      { problem: 'not-step', param: 'step', value: '4', example: 'partition.3' },
      { problem: 'not-id', param: 'variant', value: 'A' },
      { problem: 'not-choice', param: 'mode', value: 'teach', choices: ['guided', 'free'] },
      { problem: 'not-flag', param: 'present', value: 'yes' },
    ]);
  });

  it('speed outside 0.1…100 is an error', () => {
    expect(parseUrlParams('speed=500', '').problems).toEqual([{ problem: 'speed-range', param: 'speed', value: '500', min: 0.1, max: 100 }]);
    expect(parseUrlParams('speed=0', '').problems).toHaveLength(1);
    expect(parseUrlParams('speed=', '').problems).toEqual([{ problem: 'not-speed', param: 'speed', value: '' }]);
  });

  it('caller defaults apply unless the URL says otherwise', () => {
    expect(parseUrlParams('', '', { lang: 'zh' }).lang).toBe('zh');
    expect(parseUrlParams('lang=en', '', { lang: 'zh' }).lang).toBe('en');
    expect(parseUrlParams('lang=xx', '', { lang: 'zh' }).lang).toBe('zh');
  });
});

describe('parameters the page does not read', () => {
  it("names a scenario's setting only by a field a scenario file really has, and none the page reads", () => {
    const fields = fieldNamesOf(scenarioSchema);
    for (const k of SCENARIO_SETTINGS) expect(fields.has(k), k).toBe(true);
    for (const k of PAGE_PARAMS) expect((SCENARIO_SETTINGS as readonly string[]).includes(k), k).toBe(false);
  });

  it('reports a misspelt parameter with the one meant, and a setting with where it is set; keeps every default', () => {
    const p = parseUrlParams('?scenario=async-partition&spede=max&lnag=zh&workers=16&seed=3', '');
    expect(p.problems).toEqual([
      { problem: 'unknown-param', param: 'spede', value: 'max', hint: 'speed' },
      { problem: 'unknown-param', param: 'lnag', value: 'zh', hint: 'lang' },
      { problem: 'scenario-setting', param: 'workers', value: '16', setting: 'workers', onPage: true },
      { problem: 'scenario-setting', param: 'seed', value: '3', setting: 'seed', onPage: false },
    ]);
    expect([p.scenarioId, p.speed, p.lang]).toEqual(['async-partition', 1, 'en']);
  });

  it("leaves alone what a messenger, a newsletter or an ad adds to a shared link, and the live room's own", () => {
    const p = parseUrlParams('?scenario=async-partition&from=singlemessage&isappinstalled=0&utm_source=news&utm_medium=email&fbclid=IwAR0&gclid=x&spm=a2c&room=K7QX2&role=teacher&key=abc', '');
    expect(p.problems).toEqual([]);
  });
});
