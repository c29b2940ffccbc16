/**
 * Modules fetched on demand, by key: each fetched once (later calls share the first request),
 * a failed fetch tried again on the next call (the page may have gone offline for a moment), and
 * what has arrived readable synchronously. Protocol implementations (factory.ts) and the app's
 * explanation texts (app/explain) load this way.
 */
export interface LoadOnce<K, V> {
  load(key: K): Promise<void>;
  get(key: K): V | undefined;
}

export function loadOnce<K, V>(fetch: (key: K) => Promise<V>): LoadOnce<K, V> {
  const loaded = new Map<K, V>();
  const pending = new Map<K, Promise<void>>();
  return {
    load(key) {
      let p = pending.get(key);
      if (!p) {
        p = fetch(key).then(
          (v) => void loaded.set(key, v),
          (e: unknown) => {
            pending.delete(key);
            throw e;
          },
        );
        pending.set(key, p);
      }
      return p;
    },
    get: (key) => loaded.get(key),
  };
}
