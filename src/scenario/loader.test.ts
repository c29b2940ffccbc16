import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchBuiltinIds } from './builtinFetch';
import { fetchBuiltin } from './loader';

/** The loader's failures are facts (each language words them); in English, the lines it always printed. */
describe('fetching built-ins', () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number, body = ''): void => void vi.stubGlobal('fetch', async () => new Response(body, { status }));

  it('an id that names nothing, an HTTP error and a failed fetch', async () => {
    answer(404);
    const missing = await fetchBuiltin('nope');
    expect(missing.ok ? null : [missing.errors, missing.problems?.map((p) => ('fact' in p ? p.fact.kind : ''))]).toEqual([['scenario: no built-in scenario "nope"'], ['noBuiltin']]);
    answer(503);
    const down = await fetchBuiltin('nope');
    expect(down.ok ? [] : down.errors).toEqual(['scenario: could not load "nope" (HTTP 503)']);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const offline = await fetchBuiltin('nope');
    expect(offline.ok ? [] : offline.errors).toEqual(['scenario: could not load "nope": the request got no answer from the server (the browser says: Failed to fetch)']);
    const bad = await fetchBuiltin('Not An Id');
    expect(bad.ok ? [] : bad.errors).toEqual(['scenario: "Not An Id" is not a scenario id']);
  });

  it("the index's problems name scenarios/index.json", async () => {
    answer(200, '{"not": "a list"}');
    const r = await fetchBuiltinIds();
    expect(r.ok ? null : r.problems).toEqual([{ path: [], root: 'scenarios/index.json', fact: { kind: 'notAnIndex' } }]);
    answer(200, '["async-partition"]');
    expect(await fetchBuiltinIds()).toEqual({ ok: true, ids: ['async-partition'] });
  });
});
