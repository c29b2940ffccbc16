/**
 * The committed Fashion-MNIST subset's binary format (before gzip), pure JS for every thread:
 *
 *   0  "FMNS"  magic            8  u32 LE  training images (n)
 *   4  u8 1    version         12  u32 LE  evaluation images (m)
 *   5  u8 28   rows            16  n training labels (u8, 0–9), then m evaluation labels
 *   6  u8 28   columns             then n·784 training pixels, then m·784 evaluation pixels
 *   7  u8 10   classes             (u8, row-major, 0 = background, as in the idx files)
 *
 * Written by scripts/fashion-mnist-subset.ts; read by fashionData.ts.
 */

export const FASHION_ROWS = 28;
export const FASHION_COLS = 28;
export const FASHION_PIXELS = FASHION_ROWS * FASHION_COLS;
export const FASHION_CLASSES = 10;

const MAGIC = 'FMNS';
const VERSION = 1;
const HEADER = 16;

export interface FashionSplit {
  /** n·784 pixels, row-major per image. */
  images: Uint8Array;
  /** n labels, 0–9. */
  labels: Uint8Array;
  n: number;
}

export interface FashionSubset {
  train: FashionSplit;
  eval: FashionSplit;
}

export function encodeFashion(s: FashionSubset): Uint8Array {
  const { train, eval: ev } = s;
  const out = new Uint8Array(HEADER + (train.n + ev.n) * (1 + FASHION_PIXELS));
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i);
  out.set([VERSION, FASHION_ROWS, FASHION_COLS, FASHION_CLASSES], 4);
  view.setUint32(8, train.n, true);
  view.setUint32(12, ev.n, true);
  let o = HEADER;
  for (const part of [train.labels, ev.labels, train.images, ev.images]) {
    out.set(part, o);
    o += part.length;
  }
  return out;
}

/** Parses the (decompressed) file; every view shares the input's buffer. */
export function decodeFashion(bytes: Uint8Array): FashionSubset {
  const fail = (why: string): never => {
    throw new Error(`Fashion-MNIST subset: ${why}`);
  };
  if (bytes.length < HEADER) fail(`file too short (${bytes.length} bytes)`);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== MAGIC) fail('bad magic (not an FMNS file)');
  if (bytes[4] !== VERSION) fail(`unsupported version ${bytes[4]} (expected ${VERSION})`);
  if (bytes[5] !== FASHION_ROWS || bytes[6] !== FASHION_COLS || bytes[7] !== FASHION_CLASSES) {
    fail(`unexpected shape ${bytes[5]}×${bytes[6]}, ${bytes[7]} classes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(8, true);
  const m = view.getUint32(12, true);
  const want = HEADER + (n + m) * (1 + FASHION_PIXELS);
  if (bytes.length !== want) fail(`expected ${want} bytes for ${n}+${m} images, got ${bytes.length}`);
  let o = HEADER;
  const take = (len: number): Uint8Array => bytes.subarray(o, (o += len));
  const trainLabels = take(n);
  const evalLabels = take(m);
  const trainImages = take(n * FASHION_PIXELS);
  const evalImages = take(m * FASHION_PIXELS);
  for (const labels of [trainLabels, evalLabels]) {
    for (const l of labels) if (l >= FASHION_CLASSES) fail(`label ${l} out of range`);
  }
  return { train: { images: trainImages, labels: trainLabels, n }, eval: { images: evalImages, labels: evalLabels, n: m } };
}
