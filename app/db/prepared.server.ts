import { Column, getTableName, is, Param, Placeholder, SQL, sql, Subquery } from "drizzle-orm";
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

type Decoder = { mapFromDriverValue(value: unknown): unknown };
type SelectedField = { path: string[]; field: unknown };

/** What drizzle's prepared D1 query is made of, as far as this module uses it. */
type PreparedQuery = {
  query: { sql: string; params: unknown[] };
  execute(values?: Record<string, unknown>): Promise<unknown>;
  fields?: SelectedField[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
  mapAllResult(rows: unknown, isFromBatch?: boolean): unknown;
};

/** Where each parameter of the SQL comes from: a fixed value, or a named value (through its column's encoder). */
type Slot = { fixed: unknown } | { name: string; encode: ((value: unknown) => unknown) | null };

type Compiled = { prepared: PreparedQuery; slots: Slot[]; mapRows: ((rows: unknown[][]) => unknown[]) | null };

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
  const mapRows = prepared.fields && !prepared.customResultMapper ? rowMapper(prepared.fields, prepared.joinsNotNullableMap) : null;
  return { prepared, slots: prepared.query.params.map(slotOf), mapRows };
}

// A SQL fragment's decoder is internal to drizzle's types, though every selected SQL field has one.
const sqlDecoder = (fragment: SQL) => (fragment as unknown as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return sqlDecoder(field);
  if (is(field, Subquery)) return sqlDecoder((field as unknown as { _: { sql: SQL } })._.sql);
  return sqlDecoder((field as { sql: SQL }).sql);
}

/**
 * drizzle's mapping of a row (its values in selection order) to the selection's shape, with each
 * field's decoder and place worked out once instead of for every row: the same objects, nested
 * the same way, and a left-joined table's object null when every column of it is null.
 */
function rowMapper(fields: SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined) {
  const plan = fields.map(({ path, field }) => ({
    path,
    decoder: decoderOf(field),
    // The joined table a nested object's column belongs to, for the null-row rule.
    joinedTable: joinsNotNullableMap && path.length === 2 && is(field, Column) ? getTableName(field.table) : null,
  }));
  return (rows: unknown[][]) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      const nullify: Record<string, string | false> = {};
      for (let i = 0; i < plan.length; i++) {
        const { path, decoder, joinedTable } = plan[i]!;
        let node = result;
        for (let j = 0; j < path.length - 1; j++) node = (node[path[j]!] ??= {}) as Record<string, unknown>;
        const raw = row[i];
        const value = (node[path[path.length - 1]!] = raw === null ? null : decoder.mapFromDriverValue(raw));
        if (joinedTable === null) continue;
        const objectName = path[0]!;
        if (!(objectName in nullify)) nullify[objectName] = value === null ? joinedTable : false;
        else if (typeof nullify[objectName] === "string" && nullify[objectName] !== joinedTable) nullify[objectName] = false;
      }
      for (const objectName in nullify) {
        const table = nullify[objectName];
        if (typeof table === "string" && !joinsNotNullableMap![table]) result[objectName] = null;
      }
      return result;
    });
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
    const { prepared, mapRows } = this.compiled;
    const view = Object.create(prepared) as PreparedQuery;
    view.query = { sql: prepared.query.sql, params: this.params };
    if (mapRows) {
      // A batch hands over D1's answer (rows as objects, keyed by column name in selection order);
      // alone, the rows come as arrays of values.
      view.mapAllResult = (rows, isFromBatch) =>
        mapRows(isFromBatch ? (rows as { results: Record<string, unknown>[] }).results.map(Object.values) : (rows as unknown[][]));
    }
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
