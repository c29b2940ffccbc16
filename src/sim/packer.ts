import type { RowsBatch } from './historyRows';
import type { PackedColumns } from './packedBatch';

/**
 * DEFLATE for what has aged of a long run's record (issue 9: a long run's memory). The page holds a
 * run's whole history — its rows, for export and for reading a past state back, and its message
 * spans, for the time-space diagram at any time — which grew by ~8.5 MB of typed arrays per
 * simulated minute of an 8-worker Raft run; packed, about a quarter of that.
 *
 * Packing is the costly half (level-1 deflate of a spans chunk is a long task on the page): the app
 * has it done in a worker (`packWith`, workers/packClient.ts), the results swap in as they come;
 * the tests pack on their own thread (packLocal.ts). Where no one set a packer (the CLI), nothing
 * is packed. Reading back is sync — a past state is drawn in the frame that asks — so the page
 * loads the codec (packCodec.ts: fflate's inflate alone and the unpacking) the first time a record
 * is worth packing, not in its first load; nothing is packed before it is here.
 */

export interface Packing {
  /** A history batch's columns, packed (packedBatch.ts); the batch stays as it is (a worker gets a copy). */
  batch(b: RowsBatch): PackedColumns | Promise<PackedColumns>;
  /** Bytes, deflated; they may be taken (a worker gets them transferred): pass a copy. */
  bytes(b: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

export type Codec = typeof import('./packCodec');

let packingLoader: (() => Packing | Promise<Packing>) | null = null;
let ready: { pack: Packing; codec: Codec } | null = null;
let loading: Promise<boolean> | null = null;
/** Holds on packing (`holdPacking`) now. */
let held = 0;

/**
 * No new packing until `p` settles (an export: the page's other work then needs the machine's
 * cores more than the record needs packing now). What ages meanwhile is packed afterwards.
 */
export function holdPacking<T>(p: Promise<T>): Promise<T> {
  held++;
  return p.finally(() => held--);
}

/** Who packs (the app: its worker, loaded when first needed). Set before anything is worth packing. */
export function packWith(load: () => Packing | Promise<Packing>): void {
  packingLoader = load;
  ready = null;
  loading = null;
}

/** The packer and the codec, once both are here; null until then (the first call starts loading them where a packer is set). */
export function packerNow(): { pack: Packing; codec: Codec } | null {
  if (!ready && packingLoader) void loadPacker();
  return held > 0 ? null : ready;
}

/** The codec where it has loaded (whatever was packed was packed after it loaded). */
export function codecNow(): Codec {
  if (!ready) throw new Error('packer: no codec');
  return ready.codec;
}

/** Loads the packer and the codec, once; false where they cannot load (nothing is packed then). */
export function loadPacker(): Promise<boolean> {
  const load = packingLoader;
  if (!load) return Promise.resolve(false);
  loading ??= Promise.all([import('./packCodec'), load()]).then(
    ([codec, pack]) => {
      ready = { pack, codec };
      return true;
    },
    () => false,
  );
  return loading;
}
