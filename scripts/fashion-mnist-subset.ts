/**
 * `npm run data:fashion` — derives the committed Fashion-MNIST subset
 * (data/fashion-mnist/subset.bin.gz) from Debian's `dataset-fashion-mnist` (MIT, Zalando SE):
 *
 *   apt-get install -y dataset-fashion-mnist   # idx files under /usr/share/datasets/fashion-mnist
 *   npm run data:fashion [-- --src DIR] [--out FILE] [--check]
 *
 * Stratified and seeded, so the output is a pure function of the idx files: 500 training images
 * per class from the 60 000-image training split and 20 evaluation images per class from the
 * 10 000-image test split. Images are ordered round-robin over the classes (class order re-drawn
 * each round), so every prefix of 10·k images holds k of each class: a scenario's `samples`
 * takes such a prefix. Format: see src/train/fashionFormat.ts. `--check` compares the
 * decompressed contents with the committed file instead of writing (exit 1 when they differ).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { encodeFashion, FASHION_CLASSES, FASHION_PIXELS, type FashionSubset } from '../src/train/fashionFormat';
import { rngFor } from '../src/sim/rng';

const SEED = 20171025; // the paper's arXiv date (1708.07747 was posted 2017-08-25); any fixed seed works
export const TRAIN_PER_CLASS = 500;
export const EVAL_PER_CLASS = 20;

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
}

/** An idx file (gzip or plain): magic 0x0000 0x08 ndim, then big-endian u32 dims, then u8 data. */
function readIdx(path: string): { dims: number[]; data: Uint8Array } {
  let buf: Uint8Array = readFileSync(path);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getUint16(0) !== 0 || buf[2] !== 0x08) throw new Error(`${path}: not an unsigned-byte idx file`);
  const ndim = buf[3];
  const dims = Array.from({ length: ndim }, (_, i) => view.getUint32(4 + 4 * i));
  const offset = 4 + 4 * ndim;
  const size = dims.reduce((a, b) => a * b, 1);
  if (buf.length !== offset + size) throw new Error(`${path}: expected ${offset + size} bytes, got ${buf.length}`);
  return { dims, data: buf.subarray(offset) };
}

function split(dir: string, prefix: string): { images: Uint8Array; labels: Uint8Array; n: number } {
  const img = readIdx(`${dir}/${prefix}-images-idx3-ubyte.gz`);
  const lab = readIdx(`${dir}/${prefix}-labels-idx1-ubyte.gz`);
  if (img.dims[1] * img.dims[2] !== FASHION_PIXELS) throw new Error(`${prefix}: images are not 28×28`);
  if (img.dims[0] !== lab.dims[0]) throw new Error(`${prefix}: ${img.dims[0]} images but ${lab.dims[0]} labels`);
  return { images: img.data, labels: lab.data, n: img.dims[0] };
}

/** Seeded Fisher–Yates over a copy. */
function shuffled<T>(xs: readonly T[], stream: string): T[] {
  const a = xs.slice();
  const rng = rngFor(SEED, stream);
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** perClass images of each class, round-robin over the classes in a seeded order per round. */
export function stratified(src: { images: Uint8Array; labels: Uint8Array; n: number }, perClass: number, stream: string) {
  const byClass: number[][] = Array.from({ length: FASHION_CLASSES }, () => []);
  for (let i = 0; i < src.n; i++) byClass[src.labels[i]].push(i);
  const picks = byClass.map((idx, c) => {
    if (idx.length < perClass) throw new Error(`${stream}: class ${c} has only ${idx.length} images`);
    return shuffled(idx, `${stream}:class${c}`).slice(0, perClass);
  });
  const classes = Array.from({ length: FASHION_CLASSES }, (_, c) => c);
  const n = perClass * FASHION_CLASSES;
  const images = new Uint8Array(n * FASHION_PIXELS);
  const labels = new Uint8Array(n);
  let k = 0;
  for (let round = 0; round < perClass; round++) {
    for (const c of shuffled(classes, `${stream}:round${round}`)) {
      const i = picks[c][round];
      images.set(src.images.subarray(i * FASHION_PIXELS, (i + 1) * FASHION_PIXELS), k * FASHION_PIXELS);
      labels[k++] = c;
    }
  }
  return { images, labels, n };
}

export function buildSubset(dir: string): FashionSubset {
  const train = stratified(split(dir, 'train'), TRAIN_PER_CLASS, 'train');
  const evalSet = stratified(split(dir, 't10k'), EVAL_PER_CLASS, 'eval');
  return { train, eval: evalSet };
}

const isEntry = process.argv[1] !== undefined && /fashion-mnist-subset\.ts$/.test(process.argv[1]);
if (isEntry) {
  const dir = arg('src', '/usr/share/datasets/fashion-mnist');
  const out = arg('out', 'data/fashion-mnist/subset.bin.gz');
  const raw = encodeFashion(buildSubset(dir));
  if (process.argv.includes('--check')) {
    const committed = gunzipSync(readFileSync(out));
    const same = Buffer.compare(Buffer.from(raw), committed) === 0;
    console.log(same ? `${out}: matches the subset derived from ${dir}` : `${out}: DIFFERS from the subset derived from ${dir}`);
    process.exit(same ? 0 : 1);
  }
  // mtime 0 in the gzip header (zlib's default): the same input gives the same bytes.
  const gz = gzipSync(raw, { level: 9 });
  writeFileSync(out, gz);
  console.log(`${out}: ${raw.length} bytes raw, ${gz.length} bytes gzip`);
}
