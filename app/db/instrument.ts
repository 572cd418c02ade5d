/**
 * Counts D1 round trips for one request (development and tests only), so the benchmark and
 * developers can see how many queries a page costs, and the rows D1 reports reading for them
 * (meta.rows_read of every answer that carries meta: `all`, `run` and batches; `first` and `raw`
 * carry none): both reported in the Server-Timing header.
 */
export type D1Counter = { db: D1Database; queries(): number; rowsRead(): number };

type WithMeta = { meta?: { rows_read?: number } };

export function countingD1(inner: D1Database): D1Counter {
  let n = 0;
  let rows = 0;
  const tally = (result: unknown) => {
    for (const r of Array.isArray(result) ? (result as WithMeta[]) : [result as WithMeta]) rows += r?.meta?.rows_read ?? 0;
    return result;
  };
  const wrapStatement = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        if (prop === "first" || prop === "raw") {
          return (...args: unknown[]) => {
            n += 1;
            return value.apply(target, args);
          };
        }
        if (prop === "all" || prop === "run") {
          return async (...args: unknown[]) => {
            n += 1;
            return tally(await value.apply(target, args));
          };
        }
        return value.bind(target);
      },
    });
  const db = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => wrapStatement(value.call(target, sql));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          // A batch is one round trip; unwrap our proxies for the runtime.
          n += 1;
          return value.call(target, statements).then(tally);
        };
      }
      if (prop === "exec") {
        return (sql: string) => {
          n += 1;
          return value.call(target, sql);
        };
      }
      return value.bind(target);
    },
  });
  return { db, queries: () => n, rowsRead: () => rows };
}
