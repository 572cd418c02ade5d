import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Counts D1 round trips (development and tests only), so the benchmark and developers can see how
 * many queries a page costs, and the rows D1 reports reading for them (meta.rows_read of every
 * answer that carries meta: `all`, `run` and batches; `first` and `raw` carry none): both reported
 * in the Server-Timing header.
 */
export type D1Counter = { db: D1Database; queries(): number; rowsRead(): number };

type WithMeta = { meta?: { rows_read?: number } };
type Tally = { queries: number; rows: number };

/** A D1 binding that adds what it sends to the tally `current` names (none: counts nothing). */
function instrumented(inner: D1Database, current: () => Tally | undefined): D1Database {
  const query = () => {
    const t = current();
    if (t) t.queries += 1;
  };
  const tally = (result: unknown) => {
    const t = current();
    if (t) for (const r of Array.isArray(result) ? (result as WithMeta[]) : [result as WithMeta]) t.rows += r?.meta?.rows_read ?? 0;
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
            query();
            return value.apply(target, args);
          };
        }
        if (prop === "all" || prop === "run") {
          return async (...args: unknown[]) => {
            query();
            return tally(await value.apply(target, args));
          };
        }
        return value.bind(target);
      },
    });
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "prepare") return (sql: string) => wrapStatement(value.call(target, sql));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          // A batch is one round trip.
          query();
          return value.call(target, statements).then(tally);
        };
      }
      if (prop === "exec") {
        return (sql: string) => {
          query();
          return value.call(target, sql);
        };
      }
      return value.bind(target);
    },
  });
}

/** A counter of its own around a binding: everything sent through `db` counts, whatever the request. */
export function countingD1(inner: D1Database): D1Counter {
  const t: Tally = { queries: 0, rows: 0 };
  return { db: instrumented(inner, () => t), queries: () => t.queries, rowsRead: () => t.rows };
}

/**
 * The Worker's counting: one wrapper per binding for the isolate's life, so the drizzle instance
 * kept per binding (client.server.ts) is made once, not once a request, and a tally per request,
 * found through the request's async context, so concurrent requests in one isolate each count
 * only their own round trips.
 */
const requestTally = new AsyncLocalStorage<Tally>();
const counted = new WeakMap<D1Database, D1Database>();

/** The binding that counts into the tally of the request running (see `countRequest`); the same object every time. */
export function requestCountedD1(inner: D1Database): D1Database {
  let db = counted.get(inner);
  if (!db) {
    db = instrumented(inner, () => requestTally.getStore());
    counted.set(inner, db);
  }
  return db;
}

/** Runs one request with a fresh tally; round trips made through `requestCountedD1` bindings meanwhile count into it. */
export async function countRequest<T>(run: () => Promise<T>): Promise<{ result: T; queries: number; rowsRead: number }> {
  const t: Tally = { queries: 0, rows: 0 };
  const result = await requestTally.run(t, run);
  return { result, queries: t.queries, rowsRead: t.rows };
}
