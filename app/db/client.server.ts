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
 * Routing: the global `tenants.shard` column names the D1 binding holding a tenant's rows (null:
 * `DB`). The `SHARDS` variable lists the other bindings this Worker routes to (comma-separated
 * `DB_<NAME>`); without it the Worker has one database and every tenant is in `DB`. With it, each
 * isolate keeps the tenants whose shard is set in memory (`loadShardRoutes`, refreshed after a
 * minute), so `dbFor` stays synchronous; until that table is loaded `dbFor` refuses rather than
 * guess.
 */
export const HOME_SHARD = "DB";

/** A D1 binding that may hold tenant data: DB itself or DB_<NAME>. Never any other binding. */
const SHARD_BINDING = /^DB(?:_[A-Z0-9_]+)?$/;

/** How long an isolate trusts its copy of the routing table before reading it again. */
export const SHARD_ROUTES_TTL_MS = 60_000;

export type ShardRoutingErrorCode = "shard_routing_invalid" | "shard_binding_missing" | "shard_routes_not_loaded";

export const SHARD_ROUTING_MESSAGES: Record<ShardRoutingErrorCode, string> = {
  shard_routing_invalid: "A tenant's shard must name a D1 binding (DB or DB_<NAME>) listed in SHARDS.",
  shard_binding_missing: "A tenant is routed to a D1 binding this Worker does not have.",
  shard_routes_not_loaded: "The routing table of the shards was not loaded before a tenant's database was asked for.",
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

type ShardEnv = Pick<Env, "DB"> & { SHARDS?: string };

/** The shard bindings besides DB that the Worker routes to; a name that is not DB_<NAME> is left out. */
function extraShards(env: ShardEnv): string[] {
  const names = (env.SHARDS ?? "").split(",").map((s) => s.trim());
  return [...new Set(names.filter((n) => n !== HOME_SHARD && SHARD_BINDING.test(n)))];
}

/** Does this Worker route tenants to more than one database? */
export function isSharded(env: ShardEnv): boolean {
  return extraShards(env).length > 0;
}

type RouteTable = { loadedAt: number; byId: Map<string, string>; bySlug: Map<string, { id: string; shard: string }> };

// One table per global database (a test's env with another DB gets its own).
const tables = new WeakMap<D1Database, RouteTable>();

/**
 * Reads the tenants that live outside `DB` from the global table, unless this isolate read them
 * less than a minute ago (`force` reads anyway: after a tenant's row disagreed with the table).
 * A Worker without shards reads nothing.
 */
export async function loadShardRoutes(env: ShardEnv, { force = false, now = Date.now() } = {}): Promise<void> {
  if (!isSharded(env)) return;
  const current = tables.get(env.DB);
  if (!force && current && now - current.loadedAt < SHARD_ROUTES_TTL_MS) return;
  const { results } = await env.DB.prepare("SELECT id, slug, shard FROM tenants WHERE shard IS NOT NULL").all<{ id: string; slug: string; shard: string }>();
  const table: RouteTable = { loadedAt: now, byId: new Map(), bySlug: new Map() };
  for (const r of results) {
    table.byId.set(r.id, r.shard);
    table.bySlug.set(r.slug, { id: r.id, shard: r.shard });
  }
  tables.set(env.DB, table);
}

/** The shard the routing table gives a workspace host's slug (DB when it names none). */
export function shardOfSlug(env: ShardEnv, slug: string): string {
  if (!isSharded(env)) return HOME_SHARD;
  const route = loadedTable(env, slug).bySlug.get(slug);
  return route ? checkedShard(env, route.shard, route.id) : HOME_SHARD;
}

function loadedTable(env: ShardEnv, detail: string): RouteTable {
  const table = tables.get(env.DB);
  if (!table) throw new ShardRoutingError("shard_routes_not_loaded", detail);
  return table;
}

/** A tenant's shard value, refused (for that tenant alone) unless it names a shard of this Worker. */
function checkedShard(env: ShardEnv, shard: string, tenantId: string): string {
  if (shard === HOME_SHARD) return shard;
  if (!SHARD_BINDING.test(shard)) throw new ShardRoutingError("shard_routing_invalid", `tenant ${tenantId}`);
  if (!extraShards(env).includes(shard)) throw new ShardRoutingError("shard_binding_missing", `${shard} for tenant ${tenantId}`);
  return shard;
}

function bindingDb(env: ShardEnv, binding: string): Db {
  const d1 = (env as unknown as Record<string, unknown>)[binding];
  if (!d1 || typeof (d1 as D1Database).prepare !== "function") throw new ShardRoutingError("shard_binding_missing", binding);
  return open(d1 as D1Database);
}

/** The name of the D1 binding holding `tenantId`'s rows. */
export function shardOf(env: ShardEnv, tenantId: string): string {
  if (!isSharded(env)) return HOME_SHARD;
  const shard = loadedTable(env, tenantId).byId.get(tenantId);
  return shard === undefined ? HOME_SHARD : checkedShard(env, shard, tenantId);
}

/** The database of one shard binding (DB or one listed in SHARDS). */
export function shardDb(env: ShardEnv, binding: string): Db {
  return bindingDb(env, checkedShard(env, binding, "-"));
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
  return [HOME_SHARD, ...extraShards(env)].map((binding) => ({ binding, db: bindingDb(env, binding) }));
}

/**
 * Runs the same read on every shard at once and returns the answers in shard order (home shard
 * first). For the super-admin's views across tenants and the sweeps of cron and the queues; each
 * shard costs one round trip, in parallel.
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

/** `fanOut` for sweeps that count what they did: the sum over every shard. */
export async function sumOverShards(env: ShardEnv, run: (db: Db, binding: string) => Promise<number>): Promise<number> {
  return (await fanOut(env, run)).reduce((sum, s) => sum + s.result, 0);
}

/**
 * The home database, as before there were shards: for the tests' fixtures and the seed, which run
 * on `DB`. Application code reaches data through `dbFor` (a tenant's rows) or `globalDb` (the
 * platform's tables); `node scripts/codemod-dbfor.mjs --list` names any call left in `app/`.
 */
export function getDb(env: Pick<Env, "DB">): Db {
  return globalDb(env);
}
