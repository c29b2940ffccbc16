import { useEffect, useState, type ComponentType, type JSX } from 'react';
import { loadOnce } from '../protocols/loadOnce';

/**
 * A component whose module loads on demand (issue 9), the way protocol code does (loadOnce:
 * fetched once, a failure retried on the next mount). `preload()` starts the fetch where the need
 * is known early (a hover, the scenario); `Part` renders nothing until the module is here, then
 * the component. A failed load goes to `failed` (a dialog reports it and closes); without it, the
 * error is thrown from render for the view's ViewBoundary to show (its ↻ mounts a new try).
 */
export interface OnDemand<P> {
  preload(): Promise<void>;
  /** Whether the module has arrived. */
  ready(): boolean;
  Part: (props: P) => JSX.Element | null;
}

export function onDemand<P extends object, M>(fetch: () => Promise<M>, pick: (m: M) => ComponentType<P>, failed?: (e: unknown) => void): OnDemand<P> {
  const mod = loadOnce<0, M>(fetch);
  const preload = (): Promise<void> => mod.load(0);
  function Part(props: P): JSX.Element | null {
    const m = mod.get(0);
    const [error, setError] = useState<{ e: unknown } | null>(null);
    const [, arrived] = useState(false);
    useEffect(() => {
      if (m) return;
      let live = true;
      preload().then(
        () => live && arrived(true),
        (e: unknown) => {
          if (!live) return;
          if (failed) failed(e);
          else setError({ e });
        },
      );
      return () => {
        live = false;
      };
    }, [m]);
    if (error) throw error.e;
    if (!m) return null;
    const C = pick(m);
    return <C {...props} />;
  }
  return { preload, ready: () => mod.get(0) !== undefined, Part };
}
