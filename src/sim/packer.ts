/**
 * DEFLATE for the parts of a run's record that are kept but seldom read (issue 9: a long run's
 * memory). The page holds a run's whole history — its rows, for export and for reading a past state
 * back, and its message spans, for the time-space diagram at any time — and those grew by ~8.5 MB
 * per simulated minute of typed arrays in an 8-worker Raft run; deflated they take a third to a
 * quarter of that. fflate is loaded on demand, the first time something ages: a short run, and the
 * page's first load, never load it; until it is here, nothing is packed.
 */
export interface Packer {
  pack(bytes: Uint8Array): Uint8Array;
  /** `packed` back into `out` (whose length is the unpacked size). */
  unpack(packed: Uint8Array, out: Uint8Array): Uint8Array;
}

let packer: Packer | null = null;
let loading: Promise<Packer | null> | null = null;

/** The packer if it has loaded, or null (then `loadPacker` starts loading it). */
export function packerNow(): Packer | null {
  if (!packer) void loadPacker();
  return packer;
}

/** Loads the packer once; null where it cannot load (a chunk the server lost): nothing is packed then. */
export function loadPacker(): Promise<Packer | null> {
  loading ??= import('fflate').then(
    (f) => {
      // Level 1: a third of level 6's time on these columns for ~10 % more bytes.
      packer = { pack: (b) => f.deflateSync(b, { level: 1 }), unpack: (p, out) => f.inflateSync(p, { out }) };
      return packer;
    },
    () => null,
  );
  return loading;
}

/** A typed array's bytes (a view, not a copy). */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
