import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

function makeDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof makeDb>;

/**
 * One drizzle instance per D1 binding for the isolate's life: making one works out the relational
 * configuration of the whole schema, which showed in every request's CPU profile (several calls
 * per request). A binding that is another object (a test's wrapper) gets its own.
 */
const instances = new WeakMap<D1Database, Db>();

function open(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = makeDb(d1);
    instances.set(d1, db);
  }
  return db;
}

/**
 * Where databases come from (ADR 0064). Global tables (tenants, modules, sign-in, platform
 * admins, the platform audit) live in the `DB` binding and are read through `globalDb`. A tenant's
 * own rows live in its shard, picked by `dbFor` and nothing else, so moving tenants onto more
 * databases changes this file, not the data modules.
 *
 * Routing today: `TENANT_SHARDS` (a JSON object, tenant id -> D1 binding name) names the tenants
 * that live outside `DB`; every other tenant lives in `DB`. Without the variable every tenant is in
 * `DB`, which is how the product runs now.
 */
export const HOME_SHARD = "DB";

/** A D1 binding that may hold tenant data: DB itself or DB_<NAME>. Never any other binding. */
const SHARD_BINDING = /^DB(?:_[A-Z0-9_]+)?$/;

export type ShardRoutingErrorCode = "shard_routing_invalid" | "shard_binding_missing";

export const SHARD_ROUTING_MESSAGES: Record<ShardRoutingErrorCode, string> = {
  shard_routing_invalid: "TENANT_SHARDS must be a JSON object mapping tenant ids to D1 binding names (DB or DB_<NAME>).",
  shard_binding_missing: "A tenant is routed to a D1 binding this Worker does not have.",
};

/** A configuration fault: refused outright rather than reading or writing the wrong database. */
export class ShardRoutingError extends Error {
  constructor(
    readonly code: ShardRoutingErrorCode,
    detail: string,
  ) {
    super(`${SHARD_ROUTING_MESSAGES[code]} (${detail})`);
    this.name = "ShardRoutingError";
  }
}

type ShardEnv = Pick<Env, "DB"> & { TENANT_SHARDS?: string };

// Parsed once per distinct value of TENANT_SHARDS (an isolate sees one or two in its life).
const routingCache = new Map<string, ReadonlyMap<string, string>>();

function routing(env: ShardEnv): ReadonlyMap<string, string> {
  const raw = env.TENANT_SHARDS?.trim();
  if (!raw) return new Map();
  const cached = routingCache.get(raw);
  if (cached) return cached;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ShardRoutingError("shard_routing_invalid", "not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new ShardRoutingError("shard_routing_invalid", "not an object");
  const map = new Map<string, string>();
  for (const [tenantId, binding] of Object.entries(parsed)) {
    if (typeof binding !== "string" || !SHARD_BINDING.test(binding)) throw new ShardRoutingError("shard_routing_invalid", `tenant ${tenantId}`);
    map.set(tenantId, binding);
  }
  routingCache.set(raw, map);
  return map;
}

function bindingDb(env: ShardEnv, binding: string): Db {
  const d1 = (env as unknown as Record<string, unknown>)[binding];
  if (!d1 || typeof (d1 as D1Database).prepare !== "function") throw new ShardRoutingError("shard_binding_missing", binding);
  return open(d1 as D1Database);
}

/** The name of the D1 binding holding `tenantId`'s rows. */
export function shardOf(env: ShardEnv, tenantId: string): string {
  return routing(env).get(tenantId) ?? HOME_SHARD;
}

/**
 * The database holding one tenant's rows: the only way a data module reaches tenant data. No
 * tenant (null: platform mail, platform audit entries, platform sessions) is the platform's database.
 */
export function dbFor(env: ShardEnv, tenantId: string | null): Db {
  return tenantId === null ? globalDb(env) : bindingDb(env, shardOf(env, tenantId));
}

/** The database of the platform's own tables: tenants, modules, sign-in, platform admins and audit. */
export function globalDb(env: Pick<Env, "DB">): Db {
  return open(env.DB);
}

/** Every shard this Worker routes to, the home shard first; each binding once. */
export function allShards(env: ShardEnv): { binding: string; db: Db }[] {
  const names = [HOME_SHARD, ...new Set(routing(env).values())].filter((b, i, all) => all.indexOf(b) === i);
  return names.map((binding) => ({ binding, db: bindingDb(env, binding) }));
}

/**
 * Runs the same read on every shard at once and returns the answers in shard order (home shard
 * first). For the super-admin's views across tenants; each shard costs one round trip, in parallel.
 */
export async function fanOut<T>(
  env: ShardEnv,
  read: (db: Db, binding: string) => Promise<T>,
  { home = true }: { home?: boolean } = {},
): Promise<{ binding: string; result: T }[]> {
  // home: false when the caller reads the home shard in a batch of its own (one round trip fewer).
  const shards = allShards(env).filter((s) => home || s.binding !== HOME_SHARD);
  const results = await Promise.all(shards.map((s) => read(s.db, s.binding)));
  return shards.map((s, i) => ({ binding: s.binding, result: results[i] as T }));
}

/**
 * The home database, as before there were shards. Kept while call sites move to `dbFor` (tenant
 * data) or `globalDb` (platform tables); `scripts/codemod-dbfor.mjs` rewrites them.
 */
export function getDb(env: Pick<Env, "DB">): Db {
  return globalDb(env);
}
