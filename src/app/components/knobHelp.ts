import { useState } from 'react';
import { loadOnce } from '../../protocols/loadOnce';
import type { Lang } from '../i18n/lang';

type KnobWords = typeof import('../words/knobWords');
const words = loadOnce<0, KnobWords>(() => import('../words/knobWords'));

export interface KnobHelp {
  /** Starts the fetch (the row was pointed at or focused); the owner re-renders when it arrives. */
  load(): void;
  /** The knob's description, once the words have arrived. */
  text(kind: string, key: string, lang: Lang): string | undefined;
}

/**
 * The knobs' descriptions (words/knobWords.ts) for their tooltips, fetched when the strategy row is
 * first pointed at or focused rather than with the first paint (issue 9's first-load JS).
 */
export function useKnobHelp(): KnobHelp {
  const [, arrived] = useState(false);
  const m = words.get(0);
  return {
    load: () => {
      if (!m) words.load(0).then(() => arrived(true), () => undefined);
    },
    text: (kind, key, lang) => m?.knobHelp(kind, key, lang),
  };
}
