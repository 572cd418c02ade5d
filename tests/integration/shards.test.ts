import { applyD1Migrations, createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { allShards, dbFor, fanOut, globalDb, loadShardRoutes, ShardRoutingError, shardOf } from "~/db/client.server";
import { inArray } from "drizzle-orm";
import { notifications, storageUsage, tenants, users } from "~/db/schema";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "~/features/platform/notifications/notifications.server";
import { consoleTenants, platformAuditPage } from "~/features/superadmin/console.server";
import { RouterContextProvider } from "react-router";
import { cloudflareContext, tenantContext } from "~/context";
import { runCisDeadlineAlerts } from "~/features/cis/dashboard/deadline-alerts.server";
import { encryptPii } from "~/features/cis/pii.server";
import { runUtrCheckBackfill } from "~/features/cis/subcontractors/utr-check.server";
import { createNote, purgeExpiredTrash } from "~/features/notes/notes.server";
import { handleEmailBatch } from "~/features/platform/email/consumer.server";
import { queueEmail } from "~/features/platform/email/send.server";
import type { EmailTransport } from "~/features/platform/email/transports.server";
import { handleJobsBatch } from "~/features/platform/jobs/consumer.server";
import { enqueue } from "~/features/platform/jobs/enqueue.server";
import { moveTenant, restoreTenant } from "~/features/platform/shards/operations.server";
import { compareDumps, exportTenant, type TenantDump } from "~/features/platform/shards/tenant-data.server";
import { tenantMiddleware } from "~/middleware/tenant.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { seedCisSettings, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { deliverMessages, recordingQueue } from "./queue-helpers";

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
    await globalDb(env)
      .delete(tenants)
      .where(inArray(tenants.id, [missing.id, notD1.id, garbled.id]));
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

  it("shows the platform audit log of every shard, merged newest first, with totals and pages across them", async () => {
    const put = (d1: D1Database, id: string, tenantId: string, at: number) =>
      d1.prepare("INSERT INTO audit_events (id, tenant_id, action, created_at) VALUES (?, ?, 'shard.audit.test', ?)").bind(id, tenantId, at).run();
    // 60 entries at home and 60 on the shard, interleaved in time: a page of 50 takes from both.
    for (let i = 0; i < 60; i++) {
      await put(env.DB, `aud-home-${String(i).padStart(2, "0")}`, HOME.id, 1_000_000 + 2 * i);
      await put(shard1, `aud-away-${String(i).padStart(2, "0")}`, AWAY.id, 1_000_001 + 2 * i);
    }
    const first = await platformAuditPage(sharded, { action: "shard.audit.test", page: 1 });
    expect(first.total).toBe(120);
    expect(first.rows.map((r) => r.id).slice(0, 4)).toEqual(["aud-away-59", "aud-home-59", "aud-away-58", "aud-home-58"]);
    expect(first.rows).toHaveLength(50);
    expect(first.rows.find((r) => r.tenantId === AWAY.id)).toMatchObject({ tenantSlug: AWAY.slug });
    const third = await platformAuditPage(sharded, { action: "shard.audit.test", page: 3 });
    expect(third.rows.map((r) => r.id).slice(-2)).toEqual(["aud-away-00", "aud-home-00"]);
    expect(third.rows).toHaveLength(20);
    // One workspace's filter reads its own shard.
    const away = await platformAuditPage(sharded, { tenant: AWAY.id, action: "shard.audit.test", page: 1 });
    expect(away.total).toBe(60);
    expect(away.rows.every((r) => r.tenantId === AWAY.id)).toBe(true);
    // A Worker without shards sees the home database's entries alone.
    expect((await platformAuditPage(env, { action: "shard.audit.test", page: 1 })).total).toBe(60);
  });
});

/*
 * A whole workspace seeded at home through the product's own code, then moved to DB_SHARD_1 with
 * the move tooling: from then on the cron sweeps, the queue consumers and the request middleware
 * must find its rows there, and only there.
 */
describe("a workspace moved to another shard", () => {
  const NOW = new Date("2026-05-17T08:00:00Z");
  const DAY = 86_400_000;
  let moved: { t: TestTenant; reader: { id: string; email: string }; oldNote: string; legacySub: string; before: TenantDump };

  beforeAll(async () => {
    const t = await createTenant({ modules: ["cis", "notes"], bundles: { standard: ["cis.read", "notes.read", "notes.create"] } });
    await seedCisSettings(t, { warningDays: 3 });
    const reader = await createUser(t, { role: "standard" });
    const viewer = {
      id: reader.id,
      email: reader.email,
      name: "Reader",
      create: true,
      edit: true,
      delete: true,
      share: false,
      manageAll: false,
      createFolders: false,
      manageFolders: false,
    };
    const note = await createNote(env, t.id, viewer, { title: "Old", content: "<p>gone soon</p>", tags: [], color: null, folderId: null });
    if (!note.ok) throw new Error(note.code);
    await env.DB.prepare("UPDATE notes SET deleted_at = ? WHERE id = ?")
      .bind(Date.now() - 40 * DAY, note.id)
      .run();
    const sub = await seedSub(t);
    // As before the UTR flag was stored: a typo UTR, no flag.
    const enc = await encryptPii(env.PII_KEYS, "1234567890", { tenantId: t.id, table: "cis_subcontractors", recordId: sub.id, field: "utr" });
    await env.DB.prepare("UPDATE cis_subcontractors SET utr_enc = ?, utr_invalid = NULL WHERE tenant_id = ? AND id = ?").bind(enc, t.id, sub.id).run();
    // A payment labelled with another month than its date's (outside the alerts' window): counted in both months.
    await seedInvoice(t, { subcontractorId: sub.id, paymentDate: "2025-01-03", taxMonth: "2025-01" });
    const before = await exportTenant(env.DB, t.id);
    const result = await moveTenant(sharded, t.id, "DB_SHARD_1");
    expect(result).toMatchObject({ ok: true, from: "DB", to: "DB_SHARD_1" });
    moved = { t, reader, oldNote: note.id, legacySub: sub.id, before };
  });

  it("copies every tenant row, switches the route in the global row and leaves nothing behind at home", async () => {
    const { t, before } = moved;
    expect(shardOf(sharded, t.id)).toBe("DB_SHARD_1");
    expect(await rows(env.DB, "SELECT shard, suspended_at FROM tenants WHERE id = ?", t.id)).toEqual([{ shard: "DB_SHARD_1", suspended_at: null }]);
    const after = await exportTenant(shard1, t.id);
    const { counts, differing } = compareDumps(before, after);
    // Only the tenants row changed: suspended for the move and reinstated after it (its updated_at).
    expect(differing).toEqual(["tenants"]);
    expect(counts).toMatchObject({ users: 1, cis_subcontractors: 1, cis_invoices: 1, notes: 1, role_bundles: expect.any(Number) });
    for (const table of ["users", "cis_subcontractors", "notes", "tenant_modules", "audit_events", "role_bundles"]) {
      expect(await rows(env.DB, `SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`, t.id)).toEqual([{ n: 0 }]);
    }
    // The search index follows its notes (kept by triggers in each database).
    expect(await rows(shard1, "SELECT count(*) AS n FROM notes_fts WHERE tenant_id = ?", t.id)).toEqual([{ n: 1 }]);
    // So do the list counts: rebuilt once by the copied rows' triggers (not copied as well, which
    // would count every subcontractor twice), and nothing counted at home any more.
    expect(await rows(shard1, "SELECT coalesce(sum(n), 0) AS n FROM cis_subcontractor_counts WHERE tenant_id = ?", t.id)).toEqual([{ n: 1 }]);
    expect(await rows(env.DB, "SELECT count(*) AS n FROM cis_subcontractor_counts WHERE tenant_id = ?", t.id)).toEqual([{ n: 0 }]);
    const paidMonths = "SELECT tax_month, n FROM cis_paid_month_counts WHERE tenant_id = ? ORDER BY tax_month";
    expect(await rows(shard1, paidMonths, t.id)).toEqual([
      { tax_month: "2024-12", n: 1 },
      { tax_month: "2025-01", n: 1 },
    ]);
    expect(await rows(env.DB, paidMonths, t.id)).toEqual([]);
  });

  it("the daily deadline alerts notify the moved workspace's people in its shard", async () => {
    const { t, reader } = moved;
    const run = await runCisDeadlineAlerts(sharded, NOW);
    expect(run.failures).toEqual([]);
    // The return is due (no statements are owed: no paid invoices).
    expect(await rows(shard1, "SELECT count(*) AS n FROM notifications WHERE tenant_id = ? AND target_user_id = ?", t.id, reader.id)).toEqual([{ n: 1 }]);
    expect(await rows(env.DB, "SELECT count(*) AS n FROM notifications WHERE tenant_id = ?", t.id)).toEqual([{ n: 0 }]);
  });

  it("the notes purge deletes the moved workspace's expired trash in its shard, audited there", async () => {
    const { t, oldNote } = moved;
    expect(await purgeExpiredTrash(sharded)).toBeGreaterThanOrEqual(1);
    expect(await rows(shard1, "SELECT id FROM notes WHERE id = ?", oldNote)).toEqual([]);
    expect(await rows(shard1, "SELECT count(*) AS n FROM audit_events WHERE tenant_id = ? AND action = 'notes.note.purged'", t.id)).toEqual([{ n: 1 }]);
  });

  it("the UTR check flags the moved workspace's legacy row in its shard", async () => {
    for (let i = 0; i < 20 && (await runUtrCheckBackfill(sharded)).more; i++);
    expect(await rows(shard1, "SELECT utr_invalid FROM cis_subcontractors WHERE id = ?", moved.legacySub)).toEqual([{ utr_invalid: 1 }]);
  });

  it("a queued job of the moved workspace runs against its shard", async () => {
    const { t, reader } = moved;
    const { sent, queue } = recordingQueue();
    const { jobId } = await enqueue(
      { ...sharded, JOBS: queue },
      {
        tenantId: t.id,
        type: "notifications.send",
        input: { userId: reader.id, type: "info", title: "From the shard" },
        performedBy: null,
      },
    );
    expect(await rows(env.DB, "SELECT count(*) AS n FROM jobs WHERE id = ?", jobId)).toEqual([{ n: 0 }]);
    const { result } = await deliverMessages("cis-workspace-jobs", [{ body: sent[0] }], (batch) => handleJobsBatch(batch, sharded));
    expect(result.explicitAcks).toHaveLength(1);
    expect(await rows(shard1, "SELECT status FROM jobs WHERE id = ?", jobId)).toEqual([{ status: "done" }]);
    expect(await rows(shard1, "SELECT count(*) AS n FROM notifications WHERE tenant_id = ? AND title = 'From the shard'", t.id)).toEqual([{ n: 1 }]);
  });

  it("a queued e-mail of the moved workspace is claimed and marked sent in its shard", async () => {
    const { t } = moved;
    const { sent, queue } = recordingQueue();
    const { outboxId } = await queueEmail(
      { ...sharded, EMAIL: queue },
      { tenantId: t.id, to: "someone@example.test", template: "platform.notice", data: { subject: "Hi", message: "Hello" } },
    );
    expect(sent).toEqual([{ outboxId, tenantId: t.id }]);
    const delivered: string[] = [];
    const transport = {
      name: "test",
      async send(m: { outboxId: string }) {
        delivered.push(m.outboxId);
      },
    } as unknown as EmailTransport;
    await deliverMessages("cis-workspace-email", [{ body: sent[0] }], (batch) => handleEmailBatch(batch, sharded, transport));
    expect(delivered).toEqual([outboxId]);
    expect(await rows(shard1, "SELECT status FROM email_outbox WHERE id = ?", outboxId)).toEqual([{ status: "sent" }]);
  });

  it("the tenant middleware serves the moved workspace from its shard; a Worker without the shard refuses it", async () => {
    const { t } = moved;
    const served = await throughMiddleware(sharded, t.slug);
    expect(served).toMatchObject({ id: t.id, slug: t.slug });
    expect(served!.modules.map((m) => m.id).sort()).toEqual(["cis", "notes"]);
    await expect(throughMiddleware(env, t.slug)).rejects.toThrow(expect.objectContaining({ code: "shard_binding_missing" }));
    // Another workspace's pages are unaffected by that refusal.
    const other = await createTenant({ modules: ["notes"] });
    expect(await throughMiddleware(env, other.slug)).toMatchObject({ id: other.id });
  });

  it("backs up one workspace to a file and restores it in its shard, row for row, leaving its neighbours alone", async () => {
    const { t } = moved;
    const backup = JSON.parse(JSON.stringify(await exportTenant(shard1, t.id))) as TenantDump;
    const neighbour = await rows(shard1, "SELECT count(*) AS n FROM notifications WHERE tenant_id = ?", AWAY.id);
    // Damage: rows deleted and one changed.
    await shard1.prepare("DELETE FROM notifications WHERE tenant_id = ?").bind(t.id).run();
    await shard1.prepare("UPDATE users SET display_name = 'Changed' WHERE tenant_id = ?").bind(t.id).run();
    expect(await restoreTenant(sharded, t.id, backup)).toMatchObject({ ok: true });
    const restored = await exportTenant(shard1, t.id);
    // Row for row as backed up, but for the tenants row's updated_at (suspended and reinstated around the restore).
    expect(compareDumps(backup, restored).differing).toEqual(["tenants"]);
    expect(await rows(shard1, "SELECT display_name FROM users WHERE tenant_id = ?", t.id)).toEqual([
      { display_name: `User ${moved.reader.email.split("@")[0]}` },
    ]);
    expect(await rows(shard1, "SELECT count(*) AS n FROM notifications WHERE tenant_id = ?", AWAY.id)).toEqual(neighbour);
    expect(await rows(env.DB, "SELECT suspended_at FROM tenants WHERE id = ?", t.id)).toEqual([{ suspended_at: null }]);
  });

  it("moves the workspace back home, where its global row stays the one row", async () => {
    const { t } = moved;
    const result = await moveTenant(sharded, t.id, "DB");
    expect(result).toMatchObject({ ok: true, from: "DB_SHARD_1", to: "DB" });
    expect(shardOf(sharded, t.id)).toBe("DB");
    expect(await rows(shard1, "SELECT count(*) AS n FROM users WHERE tenant_id = ?", t.id)).toEqual([{ n: 0 }]);
    expect(await rows(shard1, "SELECT count(*) AS n FROM tenants WHERE id = ?", t.id)).toEqual([{ n: 0 }]);
    expect(await rows(env.DB, "SELECT count(*) AS n FROM tenants WHERE id = ?", t.id)).toEqual([{ n: 1 }]);
    expect(await rows(env.DB, "SELECT count(*) AS n FROM users WHERE tenant_id = ?", t.id)).toEqual([{ n: 1 }]);
  });
});

/** The tenant the middleware puts in the request context for a workspace host. */
async function throughMiddleware(e: Env, slug: string) {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env: e, ctx: createExecutionContext(), nonce: "" });
  const request = new Request(`http://${slug}.${e.APP_DOMAIN}/`);
  await tenantMiddleware({ request, context, params: {} } as unknown as Parameters<typeof tenantMiddleware>[0], async () => new Response("ok"));
  return context.get(tenantContext);
}
