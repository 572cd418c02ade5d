import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { auditEvents, tenants } from "~/db/schema";
import { auditInsert, auditInsertMany, auditInsertWhere } from "~/features/platform/audit.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser } from "../factories";
import { all, textOf, visit } from "../factories/html";
import { cisStaff, seedSub } from "../factories/cis";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { generateStatement } from "~/features/cis/statements/statements.server";
import { seedInvoice } from "../factories/returns";
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
  async function named(userId: string, name: string) {
    await env.DB.prepare("UPDATE users SET display_name = ? WHERE id = ?").bind(name, userId).run();
  }

  /** Each row's sentence and, after a space, the stored action beneath it; without the test's own sign-in. */
  function shown(doc: Document): string[] {
    return all(doc, "tbody tr")
      .map((tr) => `${textOf(tr, "[data-audit-sentence]")} ${textOf(tr, "td:nth-child(2) .font-mono")}`)
      .filter((row) => !row.endsWith(" auth.login.success"));
  }

  it("shows each entry's sentence with its stored action", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    await named(admin.id, "Alice Admin");
    await getDb(env).batch([auditInsert(getDb(env), { tenantId: t.id, action: "cis.invoice.approved", actorId: admin.id, actorEmail: admin.email })]);
    const b = await signIn(t, admin);
    const page = await visit(b, `${t.origin}/settings/audit`);
    expect(shown(page.doc)).toEqual(["Alice Admin approved invoice (since deleted) cis.invoice.approved"]);
  });

  it("names the actor and the invoice of a real approval, and the subcontractor it was for", async () => {
    const { t, u } = await cisStaff("admin");
    await named(u.id, "Alice Admin");
    const sub = await seedSub(t, { name: "Dan Murphy" });
    const actor = { id: u.id, email: u.email, name: "Alice Admin" };
    const created = await createInvoice(
      env,
      t.id,
      invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: "HAR-202611-045", invoiceDate: "2026-11-10", grossP: 100_000, materialsP: 0, vatRate: 0 }),
      actor,
    );
    if (!created.ok) throw new Error(created.code);
    expect((await approveInvoice(env, t.id, created.id, actor)).ok).toBe(true);
    const b = await signIn(t, u);
    const page = await visit(b, `${t.origin}/settings/audit`);
    const sentences = shown(page.doc);
    expect(sentences[0]).toBe("Alice Admin approved invoice HAR-202611-045 cis.invoice.approved");
    expect(sentences[1]).toBe("Alice Admin created invoice HAR-202611-045 cis.invoice.created");
    // Added by the test's seeder, who is no member: named by the e-mail address the entry kept.
    expect(sentences[2]).toBe("seed@example.test added subcontractor Dan Murphy cis.subcontractor.created");
    expect(page.text).not.toContain(created.id);
  });

  it("names members, files, signature requests, roles and portal subcontractors; never another tenant's object", async () => {
    const { t, u } = await cisStaff("admin");
    await named(u.id, "Alice Admin");
    const bob = await createUser(t);
    await named(bob.id, "Bob Builder");
    const sub = await seedSub(t, { name: "Dan Murphy" });
    const other = await cisStaff("admin");
    const theirs = await seedSub(other.t, { name: "Not Yours Ltd" });
    const fileId = newId();
    const requestId = newId();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO files (id, tenant_id, name, size, stored_bytes, mime_type, category, storage_key, owner_id, owner_email, owner_name, created_at, updated_at) VALUES (?, ?, 'agreement.pdf', 10, 10, 'application/pdf', 'pdf', 'k', ?, ?, 'Alice Admin', 1, 1)",
      ).bind(fileId, t.id, u.id, u.email),
    ]);
    const db = getDb(env);
    const at = (n: number) => 1_000_000 + n;
    await db.batch([
      auditInsert(
        db,
        { tenantId: t.id, action: "user.role_changed", actorId: u.id, targetType: "user", targetId: bob.id, payload: { from: "standard", to: "lead" } },
        at(1),
      ),
      auditInsert(db, { tenantId: t.id, action: "files.file.uploaded", actorId: bob.id, targetType: "file", targetId: fileId }, at(2)),
      auditInsert(
        db,
        {
          tenantId: t.id,
          action: "files.signature.completed",
          actorId: bob.id,
          targetType: "signature_request",
          targetId: requestId,
          payload: { name: "agreement.pdf" },
        },
        at(3),
      ),
      auditInsert(db, { tenantId: t.id, action: "cis.permission.updated", actorId: u.id, targetType: "role_bundle", targetId: "lead" }, at(4)),
      auditInsert(db, { tenantId: t.id, action: "cis.portal.signed_in", actorId: sub.id, targetType: "subcontractor", targetId: sub.id }, at(5)),
      auditInsert(db, { tenantId: t.id, action: "cis.subcontractor.updated", actorId: u.id, targetType: "subcontractor", targetId: theirs.id }, at(6)),
      auditInsert(db, { tenantId: t.id, action: "cis.invoice.bulk.approve", actorId: u.id, targetType: "invoice", payload: { count: 3 } }, at(7)),
      auditInsert(db, { tenantId: t.id, action: "files.storage.usage_recalculated", targetType: "job" }, at(8)),
    ]);
    await env.DB.prepare(
      "INSERT INTO audit_events (id, tenant_id, actor_id, action, target_type, target_id, payload, created_at) VALUES (?, ?, ?, 'SIGNATURE_STAMPED', 'file', ?, '{}', ?)",
    )
      .bind(newId(), t.id, u.id, fileId, at(9))
      .run();
    const b = await signIn(t, u);
    const page = await visit(b, `${t.origin}/settings/audit`);
    const sentences = shown(page.doc).slice(-9);
    expect(sentences).toEqual([
      "Signature stamped by Alice Admin: agreement.pdf SIGNATURE_STAMPED",
      "The system recalculated the storage used files.storage.usage_recalculated",
      "Alice Admin approved 3 invoices at once cis.invoice.bulk.approve",
      "Alice Admin updated subcontractor (since deleted) cis.subcontractor.updated",
      "Dan Murphy signed in to the portal cis.portal.signed_in",
      "Alice Admin changed what the lead role may do in CIS cis.permission.updated",
      "Bob Builder signed agreement.pdf files.signature.completed",
      "Bob Builder uploaded agreement.pdf files.file.uploaded",
      "Alice Admin changed Bob Builder's role from standard to lead user.role_changed",
    ]);
    expect(page.text).not.toContain("Not Yours Ltd");
  });
});

describe("the audit log page: CIS statements, returns and HMRC", () => {
  it("names a statement by whose and which tax month, a return by its tax month, and what HMRC answered", async () => {
    const { t, u } = await cisStaff("admin");
    await env.DB.prepare("UPDATE users SET display_name = 'Alice Admin' WHERE id = ?").bind(u.id).run();
    const actor = { id: u.id, email: u.email, name: "Alice Admin" };
    const sub = await seedSub(t, { name: "Dan Murphy" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: "Dan Murphy", status: "paid", paymentDate: "2026-04-10", statementRequired: true });
    const statement = await generateStatement(env, t.id, sub.id, "2026-04", actor);
    if (!statement.ok) throw new Error(statement.code);
    const compiled = await compileMonthlyReturn(env, t.id, "2026-04", actor);
    if (!compiled.ok) throw new Error(compiled.code);
    const submissionId = newId();
    await env.DB.prepare(
      `INSERT INTO hmrc_submissions (id, tenant_id, kind, subject_ids, subject_key, status, transport, message_class, request_xml, created_at, updated_at)
       VALUES (?, ?, 'cis300', ?, ?, 'accepted', 'fake', 'IR-CIS-CIS300MR', '<x/>', 1, 1)`,
    )
      .bind(submissionId, t.id, JSON.stringify([compiled.id]), `cis300:${compiled.id}`)
      .run();
    const db = getDb(env);
    await db.batch([auditInsert(db, { tenantId: t.id, action: "cis.hmrc.accepted", targetType: "hmrc_submission", targetId: submissionId })]);

    const b = await signIn(t, u);
    const text = (await visit(b, `${t.origin}/settings/audit`)).text;
    expect(text).toContain("Alice Admin generated Dan Murphy's statement for 6 April to 5 May 2026");
    expect(text).toContain("Alice Admin compiled the return for 6 April to 5 May 2026");
    expect(text).toContain("HMRC accepted the return for 6 April to 5 May 2026");
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
