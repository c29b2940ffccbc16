import { describe, expect, it } from 'vitest';
import { qrModules, qrPath } from './qr';

/** A 7×7 finder pattern: dark ring, light ring, dark 3×3 centre. */
function finderAt(m: boolean[][], r0: number, c0: number): boolean {
  for (let r = 0; r < 7; r++) {
    for (let c = 0; c < 7; c++) {
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      if (m[r0 + r][c0 + c] !== (ring !== 2)) return false;
    }
  }
  return true;
}

describe('the join QR code', () => {
  const url = 'http://192.168.1.23:5180/?room=K7QX2';
  it('is a real QR symbol: finder patterns in three corners, a size of 17 + 4·version', () => {
    const m = qrModules(url);
    const n = m.length;
    expect((n - 17) % 4).toBe(0);
    expect(finderAt(m, 0, 0)).toBe(true);
    expect(finderAt(m, 0, n - 7)).toBe(true);
    expect(finderAt(m, n - 7, 0)).toBe(true);
    expect(finderAt(m, n - 7, n - 7)).toBe(false);
  });
  it('draws exactly the dark modules, inside a 4-module quiet zone', () => {
    const m = qrModules(url);
    const { size, d } = qrPath(url);
    expect(size).toBe(m.length + 8);
    const drawn = [...d.matchAll(/M(\d+) (\d+)h(\d+)/g)].reduce((sum, x) => sum + Number(x[3]), 0);
    expect(drawn).toBe(m.flat().filter(Boolean).length);
    expect(Math.min(...[...d.matchAll(/M(\d+) (\d+)/g)].flatMap((x) => [Number(x[1]), Number(x[2])]))).toBe(4);
  });
  it('differs for a different room', () => {
    expect(qrPath(url).d).not.toBe(qrPath(url.replace('K7QX2', 'K7QX3')).d);
  });
});
