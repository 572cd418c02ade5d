/**
 * A function whose answers are kept per isolate by their key, for work that comes out the same on
 * every request (tax-month boundaries, scope expansions). At most `limit` answers: the store is
 * emptied when full, so a stream of new keys cannot grow the isolate's heap. The store is made on
 * first use, so a module that only declares a kept function has no side effect when it loads.
 */
export function keptPerIsolate<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  let kept: Map<K, V> | undefined;
  return (key) => {
    const store = (kept ??= new Map());
    const known = store.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (store.size >= limit) store.clear();
    store.set(key, value);
    return value;
  };
}
