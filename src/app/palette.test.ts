import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlKinds, dataKinds, messageColours } from './palette';
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
});
