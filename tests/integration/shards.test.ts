import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { allShards, dbFor, fanOut, globalDb, loadShardRoutes, ShardRoutingError, shardOf } from "~/db/client.server";
import { inArray } from "drizzle-orm";
import { notifications, storageUsage, tenants, users } from "~/db/schema";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "~/features/platform/notifications/notifications.server";
import { consoleTenants } from "~/features/superadmin/console.server";

/*
 * Two workspaces on two D1 databases through the one seam (ADR 0064): `dbFor(env, tenant)` picks a
 * tenant's database from the global `tenants.shard` column; `globalDb(env)` is the platform's.
 * DB_SHARD_1 is a second local D1 binding that exists for these tests only (vitest.config.ts).
 */

const shard1 = (env as unknown as { DB_SHARD_1: D1Database }).DB_SHARD_1;

const HOME = { id: "tnt_shard_home", slug: "shard-home", user: "usr_shard_home" };
const AWAY = { id: "tnt_shard_away", slug: "shard-away", user: "usr_shard_away" };

/** The app's env with DB_SHARD_1 as a second shard; AWAY's row names it, HOME stays in DB like every other tenant. */
const sharded = { ...env, SHARDS: "DB_SHARD_1" } as Env;

async function rows(d1: D1Database, sqlText: string, ...params: unknown[]) {
  return (
    await d1
      .prepare(sqlText)
      .bind(...params)
      .all<Record<string, unknown>>()
  ).results;
}

beforeAll(async () => {
  await applyD1Migrations(shard1, env.TEST_MIGRATIONS ?? []);
  const now = Date.now();
  for (const t of [HOME, AWAY]) {
    // The tenants row is the platform's (routing, slug); the shard holds a copy its foreign keys point at.
    const tenantRow = { id: t.id, slug: t.slug, name: `Workspace ${t.slug}`, branding: {}, createdAt: now, updatedAt: now };
    await globalDb(env)
      .insert(tenants)
      .values({ ...tenantRow, shard: t === AWAY ? "DB_SHARD_1" : null })
      .onConflictDoNothing();
    await loadShardRoutes(sharded, { force: true });
    const db = dbFor(sharded, t.id);
    if (db.$client !== env.DB) await db.insert(tenants).values(tenantRow).onConflictDoNothing();
    await db
      .insert(users)
      .values({
        id: t.user,
        tenantId: t.id,
        email: `admin@${t.slug}.test`,
        displayName: "Admin",
        role: "admin",
        passwordHash: "x",
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    await db
      .insert(storageUsage)
      .values({ tenantId: t.id, tier: "professional", usedBytes: t === AWAY ? 7_777 : 1_111, createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    // The same notification id in both databases: ids are unique per database, not across shards.
    for (const id of ["ntf_shared", `ntf_${t.slug}`]) {
      await db
        .insert(notifications)
        .values({ id, tenantId: t.id, targetUserId: t.user, type: "test", title: `${t.slug} ${id}`, createdAt: now })
        .onConflictDoNothing();
    }
  }
});

describe("dbFor: each tenant's rows in its own database", () => {
  it("routes a tenant whose row names a shard to that binding and every other tenant to DB", () => {
    expect(shardOf(sharded, AWAY.id)).toBe("DB_SHARD_1");
    expect(shardOf(sharded, HOME.id)).toBe("DB");
    expect(shardOf(env, AWAY.id)).toBe("DB");
    expect(dbFor(sharded, AWAY.id).$client).toBe(shard1);
    expect(dbFor(sharded, HOME.id).$client).toBe(env.DB);
    expect(allShards(sharded).map((s) => s.binding)).toEqual(["DB", "DB_SHARD_1"]);
  });

  it("gives rows of no tenant (platform mail, platform audit) the platform's database", () => {
    expect(dbFor(sharded, null).$client).toBe(env.DB);
    expect(globalDb(sharded).$client).toBe(env.DB);
  });

  it("writes each tenant's rows to its own database only", async () => {
    expect(await rows(env.DB, "SELECT id FROM notifications WHERE tenant_id = ? ORDER BY id", AWAY.id)).toEqual([]);
    expect(await rows(shard1, "SELECT id FROM notifications WHERE tenant_id = ? ORDER BY id", HOME.id)).toEqual([]);
    expect(await rows(shard1, "SELECT id FROM notifications WHERE tenant_id = ? ORDER BY id", AWAY.id)).toEqual([
      { id: "ntf_shard-away" },
      { id: "ntf_shared" },
    ]);
  });

  it("reads each tenant's list from its own database through the data module", async () => {
    const away = await listNotifications(sharded, AWAY.id, AWAY.user, 1);
    expect(away.items.map((n) => n.title).sort()).toEqual(["shard-away ntf_shard-away", "shard-away ntf_shared"]);
    const home = await listNotifications(sharded, HOME.id, HOME.user, 1);
    expect(home.items.map((n) => n.title).sort()).toEqual(["shard-home ntf_shard-home", "shard-home ntf_shared"]);
  });

  it("answers another tenant's object as not found, and a change in one database leaves the other alone", async () => {
    // HOME asks for AWAY's notification by its id: it is not in HOME's database at all.
    expect(await markNotificationRead(sharded, HOME.id, HOME.user, "ntf_shard-away")).toEqual({ ok: false, code: "not_found" });
    // AWAY asks for HOME's, with its own user: not in AWAY's database.
    expect(await markNotificationRead(sharded, AWAY.id, AWAY.user, "ntf_shard-home")).toEqual({ ok: false, code: "not_found" });
    // The id both databases hold: AWAY's change lands in DB_SHARD_1 only.
    expect(await markNotificationRead(sharded, AWAY.id, AWAY.user, "ntf_shared")).toEqual({ ok: true });
    expect(await rows(shard1, "SELECT read FROM notifications WHERE id = 'ntf_shared'")).toEqual([{ read: 1 }]);
    expect(await rows(env.DB, "SELECT read FROM notifications WHERE id = 'ntf_shared'")).toEqual([{ read: 0 }]);
    expect(await markAllNotificationsRead(sharded, HOME.id, HOME.user, Date.now())).toEqual({ ok: true, marked: 2 });
    expect(await rows(shard1, "SELECT id FROM notifications WHERE tenant_id = ? AND read = 0", AWAY.id)).toEqual([{ id: "ntf_shard-away" }]);
  });

  it("refuses a route to a binding the Worker lacks, or to a binding that is not a D1 shard, for that tenant alone", async () => {
    const now = Date.now();
    const missing = { id: "tnt_shard_missing", slug: "shard-missing", shard: "DB_SHARD_9" };
    const notD1 = { id: "tnt_shard_files", slug: "shard-files", shard: "FILES" };
    const garbled = { id: "tnt_shard_garbled", slug: "shard-garbled", shard: "{not a binding" };
    for (const t of [missing, notD1, garbled]) {
      await globalDb(env)
        .insert(tenants)
        .values({ ...t, name: t.slug, branding: {}, createdAt: now, updatedAt: now })
        .onConflictDoNothing();
    }
    await loadShardRoutes(sharded, { force: true });
    expect(() => dbFor(sharded, missing.id)).toThrow(ShardRoutingError);
    expect(() => dbFor(sharded, missing.id)).toThrow(expect.objectContaining({ code: "shard_binding_missing" }));
    expect(() => dbFor(sharded, notD1.id)).toThrow(expect.objectContaining({ code: "shard_routing_invalid" }));
    expect(() => dbFor(sharded, garbled.id)).toThrow(expect.objectContaining({ code: "shard_routing_invalid" }));
    // Everybody else is routed as before: one bad row stops nobody but its own tenant.
    expect(dbFor(sharded, HOME.id).$client).toBe(env.DB);
    expect(dbFor(sharded, AWAY.id).$client).toBe(shard1);
    await globalDb(env).delete(tenants).where(inArray(tenants.id, [missing.id, notD1.id, garbled.id]));
    await loadShardRoutes(sharded, { force: true });
  });

  it("refuses to guess before the routing table is loaded", () => {
    // Another global database than any this isolate has read the table of.
    const fresh = { ...sharded, DB: Object.create(env.DB) as D1Database } as Env;
    expect(() => dbFor(fresh, HOME.id)).toThrow(expect.objectContaining({ code: "shard_routes_not_loaded" }));
  });
});

describe("the super-admin's views across shards", () => {
  it("fans one read out to every shard, home first", async () => {
    const counts = await fanOut(sharded, async (db) => (await db.select({ tenantId: notifications.tenantId }).from(notifications)).map((r) => r.tenantId));
    expect(counts.map((c) => c.binding)).toEqual(["DB", "DB_SHARD_1"]);
    expect(counts[0]!.result).toContain(HOME.id);
    expect(counts[0]!.result).not.toContain(AWAY.id);
    expect(counts[1]!.result.every((id) => id === AWAY.id)).toBe(true);
  });

  it("lists every workspace in the console with storage and users read from its own shard", async () => {
    const list = await consoleTenants(sharded);
    const away = list.find((t) => t.id === AWAY.id);
    const home = list.find((t) => t.id === HOME.id);
    expect(away).toMatchObject({ slug: AWAY.slug, users: 1, storage: { tier: "professional", usedBytes: 7_777 } });
    expect(home).toMatchObject({ slug: HOME.slug, users: 1, storage: { tier: "professional", usedBytes: 1_111 } });
    // The shard's copy of the tenants row is not listed twice.
    expect(list.filter((t) => t.id === AWAY.id)).toHaveLength(1);
    // A Worker without shards reads DB alone, and AWAY has no storage or users there.
    const unsharded = (await consoleTenants(env)).find((t) => t.id === AWAY.id);
    expect(unsharded).toMatchObject({ users: 0, storage: { tier: "free", usedBytes: 0 } });
  });
});
