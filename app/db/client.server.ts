import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof makeDb>;

function makeDb(binding: D1Database) {
  return drizzle(binding, { schema });
}

/**
 * One drizzle instance per D1 binding for the isolate's life: making one works out the relational
 * configuration of the whole schema, which showed in every request's CPU profile (several calls
 * per request). A binding that is another object (a test's wrapper) gets its own.
 */
const instances = new WeakMap<D1Database, Db>();

export function getDb(env: Pick<Env, "DB">): Db {
  let db = instances.get(env.DB);
  if (!db) {
    db = makeDb(env.DB);
    instances.set(env.DB, db);
  }
  return db;
}
