import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Sha256Factory } from './history';

/**
 * @noble/hashes' SHA-256 (pure JS, runs anywhere) behind the history's hash interface: the
 * default where the caller passes none, and what the page's hash worker runs.
 */
export const nobleSha256: Sha256Factory = () => {
  const h = sha256.create();
  return {
    update: (d) => h.update(d),
    peekHex: () => bytesToHex(h.clone().digest()),
  };
};
