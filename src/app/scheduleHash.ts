import { useEffect, useState } from 'react';
import type { Run } from './engine';
import { s } from './i18n/strings';
import { get, reportError } from './store';

/**
 * A finished run's schedule hash, for the run bar and the lesson's variant panels: '' until the
 * hash worker has answered (a few ms after the end), and for a run still going.
 */
export function useScheduleHash(sim: Run | null, done: boolean): string {
  const [shown, setShown] = useState<{ sim: Run; hex: string } | null>(null);
  useEffect(() => {
    if (!done || !sim) return;
    let live = true;
    sim.digests().then(
      (d) => live && setShown({ sim, hex: d.scheduleHash }),
      (e: unknown) => {
        const cause = e instanceof Error ? e.message : String(e);
        reportError(s(get().lang, 'hashFailed', { cause }), undefined, `hash:${cause}`);
      },
    );
    return () => {
      live = false;
    };
  }, [sim, done]);
  return done && shown?.sim === sim ? shown.hex : '';
}
