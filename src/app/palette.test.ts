import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlKinds, dataKinds, kindDash, kindSymbolPath, messageColours } from './palette';
import { kindName } from './views/strings';

/** Every `.ts` source under src/protocols (tests excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('message palette', () => {
  it('colours and names every kind a strategy sends with a literal kind', () => {
    const kinds = new Set<string>();
    for (const file of sources(join(__dirname, '../protocols'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\.send\([^,()]+,[^,()]+,\s*'([a-z-]+)'/g)) kinds.add(m[1]);
    }
    expect(kinds.size).toBeGreaterThan(5);
    for (const k of kinds) {
      expect(messageColours[k], `colour for ${k}`).toBeDefined();
      expect(kindName(k, 'zh'), `Chinese name for ${k}`).not.toBe(k);
    }
  });

  it('groups every coloured kind as data or control, with distinct colours', () => {
    const grouped = [...dataKinds, ...controlKinds] as string[];
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(Object.keys(messageColours).sort()).toEqual([...grouped].sort());
    const colours = Object.values(messageColours);
    expect(new Set(colours).size).toBe(colours.length);
    for (const k of grouped) expect(kindName(k, 'en')).toBeTruthy();
  });

  it('gives the kinds of a run distinct shapes, in the order it first sent them, and the same shape every time', () => {
    const kinds = ['vote', 'append', 'ack', 'heartbeat', 'gradient', 'params', 'pull'];
    const shapes = kinds.map((k) => kindSymbolPath(kinds, k, 40));
    expect(new Set(shapes).size).toBe(kinds.length);
    expect(kindSymbolPath(kinds, 'append', 40)).toBe(shapes[1]);
    // Another run's order gives another assignment; a bigger area, a bigger path.
    expect(kindSymbolPath(['append', 'vote'], 'append', 40)).toBe(shapes[0]);
    expect(kindSymbolPath(kinds, 'vote', 90)).not.toBe(shapes[0]);
  });

  it('gives the kinds of a run distinct arrow dashes on the timeline, in the order it first sent them', () => {
    const kinds = ['vote', 'append', 'ack', 'heartbeat', 'gradient', 'params', 'pull'];
    const dashes = kinds.map((k) => kindDash(kinds, k).join(','));
    expect(new Set(dashes).size).toBe(kinds.length);
    // The first kind sent is solid; another run's order gives another assignment.
    expect(kindDash(kinds, 'vote')).toEqual([]);
    expect(kindDash(['append', 'vote'], 'vote').join(',')).toBe(dashes[1]);
  });
});
