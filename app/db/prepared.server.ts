import { is, Param, Placeholder, sql } from "drizzle-orm";
import type { Db } from "./client.server";

/**
 * Statements built once per drizzle instance (so once per D1 binding and isolate) with named
 * placeholders, then bound to each request's values.
 *
 * Building a statement through drizzle (the builder, `is` checks on every column and condition,
 * the SQL text and its parameters) cost as much CPU as everything else a small page does; the SQL
 * of a given shape never changes, only its values. `preparedStatement` builds the query the first
 * time a database asks for it and afterwards only fills in the values, in the order drizzle
 * placed them.
 *
 * The statement returned stands for the built query: it can go into `db.batch([...])` beside
 * ordinary drizzle queries, or be awaited alone, and its rows come back mapped exactly as the
 * built query's would (drizzle's own result mapping). A query whose SQL changes with its input (a
 * filter that is there or not) is one prepared statement per shape, told apart by `shape`.
 */

/** The named placeholders a statement is built with: `p.slug` stands for the value `slug`. */
export type Placeholders<Values extends Record<string, unknown>> = { readonly [K in keyof Values & string]: Placeholder<K, Values[K]> };

type DriverParam = { value: unknown; encoder?: { mapToDriverValue(value: unknown): unknown } };

/** What drizzle's prepared D1 query is made of, as far as this module uses it. */
type PreparedQuery = {
  query: { sql: string; params: unknown[] };
  execute(values?: Record<string, unknown>): Promise<unknown>;
};

/** Where each parameter of the SQL comes from: a fixed value, or a named value (through its column's encoder). */
type Slot = { fixed: unknown } | { name: string; encode: ((value: unknown) => unknown) | null };

type Compiled = { prepared: PreparedQuery; slots: Slot[] };

function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) return { name: param.name, encode: null };
  if (is(param, Param) && is((param as DriverParam).value, Placeholder)) {
    const p = param as DriverParam & { value: Placeholder };
    const encoder = p.encoder;
    return { name: p.value.name, encode: encoder ? (v) => encoder.mapToDriverValue(v) : null };
  }
  return { fixed: param };
}

function compile(query: { prepare(): unknown }): Compiled {
  const prepared = query.prepare() as PreparedQuery;
  return { prepared, slots: prepared.query.params.map(slotOf) };
}

function bindSlots(slots: Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => {
    if ("fixed" in slot) return slot.fixed;
    if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}"`);
    const value = values[slot.name];
    return slot.encode ? slot.encode(value) : value;
  });
}

const placeholders = new Proxy({} as Record<string, Placeholder>, {
  get: (_target, name) => (typeof name === "string" ? sql.placeholder(name) : undefined),
});

/**
 * The statement bound to one call's values. drizzle's batch asks each query for its prepared form
 * (`_prepare`) and reads its SQL and parameters from it: this hands over a view of the statement
 * prepared once whose parameters are this call's.
 */
class BoundStatement {
  constructor(
    private readonly compiled: Compiled,
    private readonly params: unknown[],
  ) {}

  _prepare(): PreparedQuery {
    const view = Object.create(this.compiled.prepared) as PreparedQuery;
    view.query = { sql: this.compiled.prepared.query.sql, params: this.params };
    return view;
  }

  then<T, E = never>(onFulfilled?: (value: unknown) => T | PromiseLike<T>, onRejected?: (reason: unknown) => E | PromiseLike<E>): Promise<T | E> {
    return this._prepare().execute().then(onFulfilled, onRejected);
  }
}

/**
 * `build` once per database (and shape), then the statement bound to `values` on every call.
 * `build` must use the placeholders for everything that varies between calls: a value written
 * into the query directly is kept as it was the first time. It may look at the first call's
 * `values` only to decide the statement's shape, and `shape` must then tell those shapes apart.
 */
export function preparedStatement<Values extends Record<string, unknown>, Query extends { prepare(): unknown }>(
  build: (db: Db, p: Placeholders<Values>, values: Values) => Query,
  shape: (values: Values) => string = () => "",
): (db: Db, values: Values) => Query {
  const byDb = new WeakMap<Db, Map<string, Compiled>>();
  return (db, values) => {
    let shapes = byDb.get(db);
    if (!shapes) {
      shapes = new Map();
      byDb.set(db, shapes);
    }
    const key = shape(values);
    let compiled = shapes.get(key);
    if (!compiled) {
      compiled = compile(build(db, placeholders as Placeholders<Values>, values));
      shapes.set(key, compiled);
    }
    // It behaves as the built query in a batch and when awaited, which is all callers do with it.
    return new BoundStatement(compiled, bindSlots(compiled.slots, values)) as unknown as Query;
  };
}
