import { decodeFashion, type FashionSubset } from './fashionFormat';

/**
 * The committed Fashion-MNIST subset (data/fashion-mnist/, derived by
 * scripts/fashion-mnist-subset.ts), loaded on first use only — a scenario on a 2-D dataset never
 * reads it. Vite rewrites this `new URL(…, import.meta.url)` to the emitted asset's URL (dev and
 * build, page and workers alike), so the browser fetches it from the app's own origin; in Node
 * (CLI, Vitest, bench) it stays a file: URL and is read from disk. Never a network source.
 */
const ASSET = new URL('../../data/fashion-mnist/subset.bin.gz', import.meta.url);

let cached: Promise<FashionSubset> | null = null;

/** The decoded subset, shared by every caller in this thread. */
export function loadFashionSubset(): Promise<FashionSubset> {
  if (!cached) {
    cached = readAsset(ASSET).then(gunzipIfNeeded).then(decodeFashion);
    cached.catch(() => {
      cached = null; // a failed load may be retried
    });
  }
  return cached;
}

async function readAsset(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') {
    // Hidden from the bundler: browser builds never take this branch.
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    return new Uint8Array(await fs.readFile(url));
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`Fashion-MNIST subset: HTTP ${res.status} for ${url.pathname}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * The file is stored gzip-compressed. A server may already have undone that (a host that sends
 * `.gz` with Content-Encoding: gzip), so the magic bytes decide, not the file name.
 */
async function gunzipIfNeeded(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
