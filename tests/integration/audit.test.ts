import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { auditEvents, tenants } from "~/db/schema";
import { auditInsert, auditInsertMany, auditInsertWhere } from "~/features/platform/audit.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser } from "../factories";
import { visit } from "../factories/html";
import { signIn } from "./auth-helpers";

async function entries(tenantId: string) {
  return getDb(env).select().from(auditEvents).where(eq(auditEvents.tenantId, tenantId)).orderBy(auditEvents.createdAt);
}

describe("the audit helpers", () => {
  it("write an entry in the caller's batch, with the payload as JSON", async () => {
    const t = await createTenant();
    const db = getDb(env);
    await db.batch([
      auditInsert(
        db,
        { tenantId: t.id, action: "cis.settings.updated", actorId: "u1", actorEmail: "a@example.test", payload: { changedFields: ["name"] } },
        1000,
      ),
      auditInsertMany(
        db,
        [
          { tenantId: t.id, action: "cis.subcontractor.created", targetType: "subcontractor", targetId: "s1" },
          { tenantId: t.id, action: "cis.subcontractor.created", targetType: "subcontractor", targetId: "s2", ip: "192.0.2.1" },
        ],
        2000,
      ),
    ]);
    const rows = await entries(t.id);
    expect(rows.map((r) => [r.action, r.targetId, r.createdAt])).toEqual([
      ["cis.settings.updated", null, 1000],
      ["cis.subcontractor.created", "s1", 2000],
      ["cis.subcontractor.created", "s2", 2000],
    ]);
    expect(rows[0].payload).toEqual({ changedFields: ["name"] });
    expect(rows[1].payload).toEqual({});
    expect(rows[2].ip).toBe("192.0.2.1");
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
  });

  it("write a conditional entry only while its condition holds, reading fields from the row it names", async () => {
    const t = await createTenant({ name: "Audit Where Ltd" });
    const db = getDb(env);
    const named = (name: string) => sql`${tenants.id} = ${t.id} AND ${tenants.name} = ${name}`;
    await db.batch([
      auditInsertWhere(
        db,
        {
          tenantId: t.id,
          action: "tenant.branding.updated",
          targetType: "tenant",
          targetId: sql`${tenants.id}`,
          payload: sql`json_object('name', ${tenants.name})`,
        },
        named("Audit Where Ltd"),
        { from: tenants, now: 5000 },
      ),
      auditInsertWhere(db, { tenantId: t.id, action: "tenant.module.enabled", payload: { module: "cis" } }, named("Someone Else Ltd"), {
        from: tenants,
        now: 6000,
      }),
    ]);
    const rows = await entries(t.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "tenant.branding.updated",
      targetType: "tenant",
      targetId: t.id,
      createdAt: 5000,
      payload: { name: "Audit Where Ltd" },
    });
  });

  it("see the batch's earlier writes: an entry after an UPDATE that matched nothing is not written", async () => {
    const t = await createTenant();
    const db = getDb(env);
    const stamp = 1_700_000_000_123;
    const [changed] = await db.batch([
      db
        .update(tenants)
        .set({ updatedAt: stamp })
        .where(and(eq(tenants.id, t.id), eq(tenants.slug, "not-this-one")))
        .returning({ id: tenants.id }),
      auditInsertWhere(
        db,
        { tenantId: null, action: "superadmin.tenant.suspended", targetType: "tenant", targetId: t.id, payload: { slug: t.slug } },
        sql`EXISTS (SELECT 1 FROM ${tenants} WHERE ${tenants.id} = ${t.id} AND ${tenants.updatedAt} = ${stamp})`,
      ),
    ]);
    expect(changed).toHaveLength(0);
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)` })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, t.id), eq(auditEvents.action, "superadmin.tenant.suspended")));
    expect(n).toBe(0);
  });
});

describe("the audit log page", () => {
  it("shows each entry's sentence with its stored action", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    await getDb(env).batch([auditInsert(getDb(env), { tenantId: t.id, action: "cis.invoice.approved", actorId: admin.id, actorEmail: admin.email })]);
    const b = await signIn(t, admin);
    const page = await visit(b, `${t.origin}/settings/audit`);
    expect(page.text).toContain("Invoice approved");
    expect(page.text).toContain("cis.invoice.approved");
  });
});

describe("migration 0027 (audit action names)", () => {
  it("renames the old action names to the registered ones and leaves everything else alone", async () => {
    const t = await createTenant();
    const old: Record<string, string> = {
      FILE_UPLOADED: "files.file.uploaded",
      FILE_DELETED: "files.file.deleted",
      BULK_FILES_DELETED: "files.file.bulk_deleted",
      FILE_SHARED: "files.file.shared",
      FILE_DOWNLOADED: "files.file.downloaded",
      FILE_MOVED: "files.file.moved",
      BULK_FILES_MOVED: "files.file.bulk_moved",
      FOLDER_CREATED: "files.folder.created",
      FOLDER_UPDATED: "files.folder.updated",
      FOLDER_DELETED: "files.folder.deleted",
      STORAGE_QUOTA_EXCEEDED: "files.storage.quota_exceeded",
      STORAGE_USAGE_RECALCULATED: "files.storage.usage_recalculated",
      FILES_EXPORTED: "files.exported",
      SIGNATURE_REQUESTED: "files.signature.requested",
      SIGNATURE_COMPLETED: "files.signature.completed",
      SIGNATURE_DECLINED: "files.signature.declined",
      SIGNATURE_STAMPED: "files.signature.stamped",
      "users.disabled": "user.disabled",
      "users.enabled": "user.enabled",
      "users.password_changed": "user.password_changed",
    };
    const kept = ["cis.invoice.approved", "auth.login.success", "something.else"];
    const stmt = env.DB.prepare("INSERT INTO audit_events (id, tenant_id, action, payload, created_at) VALUES (?, ?, ?, ?, ?)");
    const ids = new Map<string, string>();
    for (const action of [...Object.keys(old), ...kept]) ids.set(action, newId());
    await env.DB.batch([...ids].map(([action, id]) => stmt.bind(id, t.id, action, JSON.stringify({ was: action }), 1)));

    const migration = (env.TEST_MIGRATIONS ?? []).find((m) => m.name.includes("audit_action_names"));
    expect(migration).toBeTruthy();
    for (const q of migration!.queries) await env.DB.prepare(q).run();

    const rows = await entries(t.id);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [from, to] of Object.entries(old)) {
      const row = byId.get(ids.get(from)!)!;
      expect(row.action, from).toBe(to);
      expect(row.payload).toEqual({ was: from });
    }
    for (const action of kept) expect(byId.get(ids.get(action)!)!.action).toBe(action);
  });
});
