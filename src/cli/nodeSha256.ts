import { createHash, type Hash } from 'node:crypto';
import type { Sha256Factory } from '../sim/history';

/** node:crypto's native SHA-256 behind the History's hash interface (Node only). */
export const nodeSha256: Sha256Factory = () => {
  const h: Hash = createHash('sha256');
  return {
    update: (d) => h.update(d),
    peekHex: () => h.copy().digest('hex'),
  };
};
