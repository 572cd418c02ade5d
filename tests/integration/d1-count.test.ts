import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { cisStaff, seedSub } from "../factories/cis";
import { createPlatformAdmin, signInPlatform } from "./auth-helpers";
import { Browser } from "./http";
import { inviteByMail } from "./portal-helpers";
import { batchJobKey } from "~/features/cis/statements/statements-page.server";
import { generateStatement } from "~/features/cis/statements/statements.server";
import { enqueue } from "~/features/platform/jobs/enqueue.server";
import { compileMonthlyReturn } from "~/features/cis/returns/returns.server";
import { seedInvoice } from "../factories/returns";
import { signedIn } from "../factories/sessions";
import { analyticsWindow } from "~/features/cis/analytics/analytics.server";
import { d1Queries } from "./d1-queries";

describe("D1 query count header", () => {
  it("reports the round trips a page costs", async () => {
    const bare = await exports.default.fetch("http://localhost/");
    expect(d1Queries(bare)).toBe(0);
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signedIn(t, u);
    const page = await b.get(`${t.origin}/welcome`);
    expect(page.status).toBe(200);
    // One batch: the tenant, its modules, and the session with its user and role bundle.
    expect(d1Queries(page)).toBe(1);
  });

  it("serves the public site's pages without reading D1", async () => {
    for (const path of ["/", "/vision", "/help", "/terms", "/privacy", "/start-a-project"]) {
      const res = await exports.default.fetch(`http://localhost${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(0);
    }
  });

  it("serves a page of the subcontractor list in one round trip (its batch rides on the middleware's), whatever the tenant's size", async () => {
    const { t, b } = await cisStaff("admin");
    // The first page of a tenant this isolate serves learns its id (two round trips); after that, one.
    const first = await b.get(`${t.origin}/cis/subcontractors`);
    expect(first.status).toBe(200);
    expect(d1Queries(first)).toBe(2);
    const again = await b.get(`${t.origin}/cis/subcontractors`);
    expect(again.status).toBe(200);
    expect(d1Queries(again)).toBe(1);
    for (let i = 0; i < 30; i++) await seedSub(t, { name: `Count Builder ${String(i).padStart(2, "0")}` });
    const full = await b.get(`${t.origin}/cis/subcontractors?page=2`);
    expect(full.status).toBe(200);
    expect(await full.text()).toContain("Count Builder 29");
    expect(d1Queries(full)).toBe(1);
    // A search (its UTR term hashed first) rides along too.
    const search = await b.get(`${t.origin}/cis/subcontractors?q=builder%2001`);
    expect(search.status).toBe(200);
    expect(await search.text()).toContain("Count Builder 01");
    expect(d1Queries(search)).toBe(1);
  });

  it("serves the CIS analytics page in two round trips", async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Analytics Builder" });
    // Paid invoices in every month of the window, so every grouped figure has rows to read.
    const window = analyticsWindow(new Date());
    for (const m of window) await seedInvoice(t, { subcontractorId: sub.id, paymentDate: `${m.label}-10` });
    await compileMonthlyReturn(env, t.id, window[10]!.label, { id: "seed", email: "seed@example.test", name: "Seeder" });
    const res = await b.get(`${t.origin}/cis/analytics`);
    expect(res.status).toBe(200);
    expect(d1Queries(res)).toBe(2);
  });

  it("serves the CIS settings page (settings and role bundles) in two round trips", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.get(`${t.origin}/cis/settings`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Role Permissions");
    expect(d1Queries(res)).toBe(2);
  });

  it("serves the audit log, with every actor and target named, in two round trips (the middleware's batch, then the entries with their names)", async () => {
    const { t, u, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Audit Builder" });
    const actor = { id: u.id, email: u.email, name: "Admin" };
    const created = await createInvoice(
      env,
      t.id,
      invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: "AUD-1", invoiceDate: "2026-05-10", grossP: 1000, materialsP: 0, vatRate: 0 }),
      actor,
    );
    if (!created.ok) throw new Error(created.code);
    expect((await approveInvoice(env, t.id, created.id, actor)).ok).toBe(true);
    const res = await b.get(`${t.origin}/settings/audit`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("approved invoice AUD-1");
    expect(html).toContain("added subcontractor Audit Builder");
    expect(d1Queries(res)).toBe(2);
  });

  it("serves the invoice form in two round trips, new and edit (the middleware's batch, then subcontractors and invoice in one)", async () => {
    const { t, u, b } = await cisStaff("admin");
    for (let i = 0; i < 5; i++) await seedSub(t, { name: `Form Builder ${i}` });
    const sub = await seedSub(t, { name: "Form Builder Edit" });
    const created = await createInvoice(
      env,
      t.id,
      invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: "D1-1", invoiceDate: "2026-05-10", grossP: 1000, materialsP: 0, vatRate: 20 }),
      { id: u.id, email: u.email, name: "Admin" },
    );
    if (!created.ok) throw new Error(created.code);
    const fresh = await b.get(`${t.origin}/cis/invoices/new?subcontractorId=${sub.id}`);
    expect(fresh.status).toBe(200);
    expect(d1Queries(fresh)).toBe(2);
    const edit = await b.get(`${t.origin}/cis/invoices/${created.id}/edit`);
    expect(edit.status).toBe(200);
    expect(d1Queries(edit)).toBe(2);
  });

  it("serves a subcontractor's page in two round trips (the middleware's batch; the subcontractor and its latest online verification, in one)", async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Count Verified Builder" });
    const res = await b.get(`${t.origin}/cis/subcontractors/${sub.id}`);
    expect(res.status).toBe(200);
    expect(d1Queries(res)).toBe(2);
  });

  it("serves an invoice's detail page in two round trips (the middleware's batch; the invoice, its subcontractor and the names of who acted, in one)", async () => {
    const { t, b, u } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Count Invoice Builder", email: "count-invoice@example.test" });
    const actor = { id: u.id, email: u.email, name: "Counter" };
    const input = invoiceSchema.parse({
      subcontractorId: sub.id,
      invoiceNumber: "COUNT-1",
      invoiceDate: "2026-03-10",
      grossP: 10_000,
      materialsP: 0,
      vatRate: 20,
    });
    const created = await createInvoice(env, t.id, input, actor);
    if (!created.ok) throw new Error(created.code);
    const draft = await b.get(`${t.origin}/cis/invoices/${created.id}`);
    expect(draft.status).toBe(200);
    expect(d1Queries(draft)).toBe(2);
    expect((await approveInvoice(env, t.id, created.id, actor)).ok).toBe(true);
    expect((await markInvoicePaid(env, t.id, created.id, actor)).ok).toBe(true);
    expect((await requestInvoiceStatement(env, t.id, created.id, actor)).ok).toBe(true);
    const approved = await b.get(`${t.origin}/cis/invoices/${created.id}`);
    expect(approved.status).toBe(200);
    expect(d1Queries(approved)).toBe(2);
  });

  it("serves a page of the invoice list in one round trip (its batch rides on the middleware's), whatever the tenant's size", async () => {
    const { t, b } = await cisStaff("admin");
    // The first page of a tenant this isolate serves learns its id (two round trips); after that, one.
    const first = await b.get(`${t.origin}/cis/invoices`);
    expect(first.status).toBe(200);
    expect(d1Queries(first)).toBe(2);
    const again = await b.get(`${t.origin}/cis/invoices`);
    expect(again.status).toBe(200);
    expect(d1Queries(again)).toBe(1);
    const sub = await seedSub(t, { name: "Count Invoicer" });
    for (let i = 0; i < 30; i++) {
      const res = await createInvoice(
        env,
        t.id,
        invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: `CNT-${i}`, invoiceDate: "2026-05-10", grossP: 10_000, materialsP: 0, vatRate: 0 }),
        { id: "seed", email: "seed@example.test", name: "Seeder" },
      );
      expect(res.ok).toBe(true);
    }
    const full = await b.get(`${t.origin}/cis/invoices?page=2&status=draft&period=all&q=cnt`);
    expect(full.status).toBe(200);
    expect((await full.text()).match(/data-invoice-number="CNT-\d+"|>CNT-\d+</g)?.length ?? 0, "page 2 of 30: five rows").toBeGreaterThan(0);
    expect(d1Queries(full)).toBe(1);
  });
});

describe("D1 round trips: invoice import", () => {
  it("serves GET /cis/invoices/import in one round trip (the middleware's batch; the page itself reads nothing)", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Import Count Builder" });
    const res = await b.get(`${t.origin}/cis/invoices/import`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Import invoices");
    expect(d1Queries(res)).toBe(1);
  });
});

describe("D1 round trips: CIS dashboard", () => {
  it("serves the CIS dashboard (settings, subcontractor and invoice figures, activity) in two round trips", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await seedSub(t, { name: "Dashboard Count Builder" });
    const res = await b.get(`${t.origin}/cis`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Current Month CIS");
    expect(d1Queries(res)).toBe(2);
  });

  it("serves the statements screen in one round trip once the isolate knows the tenant (its batch of settings, counts, the page's rows and invoices and the batch job rides on the middleware's)", async () => {
    const { t, u, b } = await cisStaff("admin");
    const quiet = { ...env, JOBS: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue };
    const actor = { id: u.id, email: u.email, name: "Counter" };
    // The first page of a tenant this isolate serves learns its id: two round trips.
    const empty = await b.get(`${t.origin}/cis/statements?month=2026-04`);
    expect(empty.status).toBe(200);
    expect(d1Queries(empty)).toBe(2);
    for (const [i, name] of ["Count Stmt A", "Count Stmt B", "Count Stmt C"].entries()) {
      const sub = await seedSub(t, { name });
      const inv = await createInvoice(
        quiet,
        t.id,
        invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber: `STC-${i}`, invoiceDate: "2026-04-10", grossP: 10_000, materialsP: 0, vatRate: 20 }),
        actor,
      );
      if (!inv.ok) throw new Error(inv.code);
      expect((await approveInvoice(quiet, t.id, inv.id, actor)).ok).toBe(true);
      expect((await markInvoicePaid(quiet, t.id, inv.id, actor, { paymentDate: "2026-04-10" })).ok).toBe(true);
      if (i === 0) expect((await generateStatement(env, t.id, sub.id, "2026-04", actor)).ok).toBe(true);
    }
    await enqueue(quiet, {
      tenantId: t.id,
      type: "statements.generate-all",
      input: { taxMonth: "2026-04", actorEmail: u.email },
      performedBy: u.id,
      idempotencyKey: batchJobKey("2026-04", null),
    });
    const full = await b.get(`${t.origin}/cis/statements?month=2026-04`);
    expect(full.status).toBe(200);
    const html = await full.text();
    expect(html).toContain("Generating statements");
    expect(html).toContain("Count Stmt C");
    expect(d1Queries(full)).toBe(1);
  });
});

describe("D1 round trips: CIS returns", () => {
  it("serves /cis/returns (the month's returns and lines, history and its lines, the month's payments) in one round trip once the isolate knows the tenant, whatever the history", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    // The first page of a tenant this isolate serves learns its id: two round trips.
    const empty = await b.get(`${t.origin}/cis/returns?month=2026-01`);
    expect(empty.status).toBe(200);
    expect(d1Queries(empty)).toBe(2);
    const sub = await seedSub(t, { name: "Returns Count Builder" });
    const actor = { id: "seed", email: "seed@example.test", name: "Seeder" };
    for (const month of ["2025-11", "2025-12", "2026-01"]) {
      await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: `${month}-10` });
      await compileMonthlyReturn(env, t.id, month, actor);
    }
    const full = await b.get(`${t.origin}/cis/returns?month=2026-01`);
    expect(full.status).toBe(200);
    expect(await full.text()).toContain("Returns Count Builder");
    expect(d1Queries(full)).toBe(1);
  });

  it("serves a return's submit page in two round trips (the middleware's batch; the month's returns, lines and submissions in one)", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const sub = await seedSub(t, { name: "Submit Count Builder" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: "2026-01-10" });
    await compileMonthlyReturn(env, t.id, "2026-01", { id: "seed", email: "seed@example.test", name: "Seeder" });
    const res = await b.get(`${t.origin}/cis/returns/2026-01/submit`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Submit CIS300 return");
    expect(d1Queries(res)).toBe(2);
  });
});

describe("D1 round trips: files", () => {
  it("serves every files page in two round trips (the middleware's batch and the page's)", async () => {
    const { filesStaff, uploadOk } = await import("../factories/files");
    const { t, b } = await filesStaff("lead");
    await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Counted", color: "#64748b" });
    const id = await uploadOk(b, t, "count.csv", "a,b", {}, "text/csv");
    for (let i = 0; i < 5; i++) await uploadOk(b, t, `more-${i}.txt`, "x");
    for (const path of [
      "/files/overview",
      "/files/all",
      "/files/all?view=grid&sort=name&q=more",
      "/files/folders",
      "/files/folders/counted",
      "/files/upload",
      `/files/file/${id}`,
    ]) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(2);
    }
  });
});

describe("D1 round trips: signatures", () => {
  it("serves the signature list, its tabs and the signing steps in two round trips", async () => {
    const { askToSign, filesStaff, uploadOk } = await import("../factories/files");
    const { PDFDocument } = await import("pdf-lib");
    const { t, b } = await filesStaff("lead");
    const signer = await createUser(t, { role: "lead" });
    const sb = await signedIn(t, signer);
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const fileId = await uploadOk(b, t, "count.pdf", Uint8Array.from(await pdf.save()), {}, "application/pdf");
    await askToSign(b, t, fileId, signer.id);
    const row = await env.DB.prepare("SELECT id FROM signature_requests WHERE file_id = ?").bind(fileId).first<{ id: string }>();
    for (const path of [
      "/files/signatures",
      "/files/signatures?tab=signed&q=count",
      `/files/signatures/${row!.id}`,
      `/files/signatures/${row!.id}?step=signature`,
      `/files/signatures/${row!.id}/document`,
    ]) {
      const res = await sb.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(2);
    }
  });
});

describe("D1 round trips: notifications", () => {
  it("shows the shell's unread count at no extra round trip, and serves /notifications in two", async () => {
    const { getDb } = await import("~/db/client.server");
    const { notifications } = await import("~/db/schema");
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signedIn(t, u);
    const now = Date.now();
    await getDb(env)
      .insert(notifications)
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          id: `count-${t.id}-${i}`,
          tenantId: t.id,
          targetUserId: u.id,
          type: "test",
          title: `N${i}`,
          createdAt: now - i,
        })),
      );
    const welcome = await b.get(`${t.origin}/welcome`);
    expect(welcome.status).toBe(200);
    expect(await welcome.text()).toContain("Notifications, 8 unread");
    // Still the middleware's one batch: the count rides on the session's statement.
    expect(d1Queries(welcome)).toBe(1);
    const inbox = await b.get(`${t.origin}/notifications`);
    expect(inbox.status).toBe(200);
    expect(d1Queries(inbox)).toBe(2);
  });
});

describe("D1 round trips: portal invoices", () => {
  it("serves /portal/invoices and /portal/invoices/new in three (the middleware's batch, the portal session, the page's batch)", async () => {
    const { t, b: staff } = await cisStaff("manager");
    const sub = await seedSub(t, { name: "Count Portal Sub", email: `count-${Date.now().toString(36)}@example.test` });
    const { link } = await inviteByMail(t, staff, sub);
    const token = new URL(link).searchParams.get("token") ?? "";
    const portal = new Browser();
    expect((await portal.post(`${t.origin}/portal/auth`, { token })).status).toBe(302);
    for (let i = 0; i < 3; i++) {
      const input = invoiceSchema.parse({
        subcontractorId: sub.id,
        invoiceNumber: `CNT-${i}`,
        invoiceDate: "2026-03-10",
        grossP: 1000,
        materialsP: 0,
        vatRate: 20,
      });
      await createInvoice(env, t.id, input, { id: sub.id, email: "", name: sub.name }, { source: "portal" });
    }
    const list = await portal.get(`${t.origin}/portal/invoices`);
    expect(list.status).toBe(200);
    expect(d1Queries(list)).toBe(3);
    const form = await portal.get(`${t.origin}/portal/invoices/new`);
    expect(form.status).toBe(200);
    expect(d1Queries(form)).toBe(3);
    const home = await portal.get(`${t.origin}/portal`);
    expect(home.status).toBe(200);
    expect(d1Queries(home)).toBe(3);
  });
});

describe("D1 round trips: signatures by subcontractors", () => {
  it("offers subcontractors on a file's page in its two round trips, and serves the portal's signing page and document in three", async () => {
    const { askToSign, uploadOk } = await import("../factories/files");
    const { PDFDocument } = await import("pdf-lib");
    const t = await createTenant({ modules: ["files", "cis"] });
    const lead = await createUser(t, { role: "lead" });
    const b = await signedIn(t, lead);
    const staff = await signedIn(t, await createUser(t, { role: "admin" }));
    const sub = await seedSub(t, { name: "Count Signing Sub", email: `count-sign-${Date.now().toString(36)}@example.test` });
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const fileId = await uploadOk(b, t, "count-sub.pdf", Uint8Array.from(await pdf.save()), {}, "application/pdf");
    const filePage = await b.get(`${t.origin}/files/file/${fileId}`);
    expect(await filePage.text()).toContain(`sub:${sub.id}`);
    expect(d1Queries(filePage)).toBe(2);
    await askToSign(b, t, fileId, `sub:${sub.id}`);
    const row = await env.DB.prepare("SELECT id FROM signature_requests WHERE file_id = ?").bind(fileId).first<{ id: string }>();
    const { link } = await inviteByMail(t, staff, sub);
    const portal = new Browser();
    expect((await portal.post(`${t.origin}/portal/auth`, { token: new URL(link).searchParams.get("token") ?? "" })).status).toBe(302);
    for (const path of [`/portal/signatures/${row!.id}`, `/portal/signatures/${row!.id}?step=signature`, `/portal/signatures/${row!.id}/document`, "/portal"]) {
      const res = await portal.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(3);
    }
  });
});

describe("D1 round trips: team", () => {
  it("serves /settings/users and /account in two round trips each", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    for (let i = 0; i < 5; i++) await createUser(t);
    const b = await signedIn(t, admin);
    const users = await b.get(`${t.origin}/settings/users?q=u`);
    expect(users.status).toBe(200);
    expect(d1Queries(users)).toBe(2);
    const account = await b.get(`${t.origin}/account`);
    expect(account.status).toBe(200);
    expect(d1Queries(account)).toBe(2);
  });
});

describe("D1 round trips: tenant settings and the super-admin console", () => {
  it("serves /settings/branding in one round trip (the tenant rides on the middleware's batch) and /settings/modules in two", async () => {
    const t = await createTenant();
    const b = await signedIn(t, await createUser(t, { role: "admin" }));
    const branding = await b.get(`${t.origin}/settings/branding`);
    expect(branding.status).toBe(200);
    expect(d1Queries(branding)).toBe(1);
    const modules = await b.get(`${t.origin}/settings/modules`);
    expect(modules.status).toBe(200);
    expect(d1Queries(modules)).toBe(2);
  });

  it("serves the console's tenants list and the platform audit log in two round trips each (the platform session, then one batch)", async () => {
    await createTenant();
    const admin = await createPlatformAdmin();
    const b = await signInPlatform(admin.email, admin.password);
    const list = await b.get("http://localhost/superadmin");
    expect(list.status).toBe(200);
    expect(d1Queries(list)).toBe(2);
    const audit = await b.get("http://localhost/superadmin/audit?action=auth.login.success");
    expect(audit.status).toBe(200);
    expect(d1Queries(audit)).toBe(2);
  });
});

describe("D1 round trips: chat", () => {
  it("serves /chat and a room (newest page, marked read, or an older page) in two round trips whatever the room's size; the shell's unread total rides on the middleware's batch", async () => {
    const { chatTenant, seedGroup, seedMessages } = await import("../factories/chat");
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Counted", [a!.id, b!.id]);
    await seedMessages(t, roomId, b!.id, 120);
    const welcome = await a!.b.get(`${t.origin}/welcome`);
    expect(d1Queries(welcome)).toBe(1);
    const list = await a!.b.get(`${t.origin}/chat`);
    expect(list.status).toBe(200);
    expect(d1Queries(list)).toBe(2);
    const room = await a!.b.get(`${t.origin}/chat/${roomId}`);
    expect(room.status).toBe(200);
    expect(d1Queries(room)).toBe(2);
    const older = /href="([^"]*before=[^"]*)"/.exec(await room.text())![1]!.replace(/&amp;/g, "&");
    const page2 = await a!.b.get(`${t.origin}${older}`);
    expect(page2.status).toBe(200);
    expect(d1Queries(page2)).toBe(2);
  });
});

describe("D1 round trips: notes", () => {
  it("serves every notes page in two round trips (the middleware's batch and the page's), searching included", async () => {
    const t = await createTenant({ modules: ["notes"] });
    const b = await signedIn(t, await createUser(t, { role: "lead" }));
    const folder = await b.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "Counted", color: "#3B82F6" });
    const folderId = folder.headers.get("Location")!.split("/").pop()!;
    const created = await b.post(`${t.origin}/notes/new`, { intent: "save", title: "Counted note", body: "site walk", folderId });
    const id = created.headers.get("Location")!.split("/").pop()!;
    await b.post(`${t.origin}/notes/new`, { intent: "save-draft", title: "Counted draft" });
    for (const path of [
      "/notes/all",
      "/notes/all?q=site",
      "/notes/shared",
      "/notes/bookmarks",
      "/notes/trash",
      "/notes/folders",
      `/notes/folders/${folderId}`,
      "/notes/new",
      `/notes/${id}`,
      `/notes/all?side=${id}`,
      `/notes/all?q=site&side=${id}`,
    ]) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(2);
    }
  });
});

describe("D1 round trips: the calendar", () => {
  it("serves every calendar view (with and without a view in the address), an event's page and the new-event page in two round trips", async () => {
    const { scheduleStaff, seedEvent, seedTeam } = await import("../factories/schedule");
    const { t, u, b } = await scheduleStaff("admin", await createTenant({ modules: ["schedule", "files"] }));
    await seedTeam(t, "Groundworks", [u.id]);
    const id = await seedEvent(t, { createdBy: u.id, shares: [u.id], rrule: "FREQ=WEEKLY;BYDAY=MO,WE", start: Date.UTC(2026, 5, 1, 7) });
    for (const path of [
      "/schedule",
      "/schedule?view=day&date=2026-06-10",
      "/schedule?view=week&date=2026-06-10",
      "/schedule?view=month&date=2026-06-10",
      "/schedule?view=year&date=2026-06-10",
      "/schedule?date=2026-06-10",
      `/schedule/${id}`,
      "/schedule/new",
      `/schedule/${id}?fileq=plan`,
      `/schedule/${id}?at=${Date.UTC(2026, 5, 3, 7)}`,
    ]) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(2);
    }
  });
});

describe("D1 round trips: the subcontractor list's UTR filter", () => {
  it("serves /cis/subcontractors?utr=invalid in the list's two round trips", async () => {
    const { t, b } = await cisStaff("admin");
    await seedSub(t, { name: "Count Flagged Builder" });
    const res = await b.get(`${t.origin}/cis/subcontractors?utr=invalid`);
    expect(res.status).toBe(200);
    expect(d1Queries(res)).toBe(2);
  });
});

describe("D1 round trips: chat, new chats and message pages", () => {
  it("serves the new chat and new group forms, a message's edit and delete pages and the attach page in two round trips", async () => {
    const { chatTenant, seedGroup } = await import("../factories/chat");
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Counted pages", [a!.id, b!.id]);
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "counted-pages-01", text: "Counted" });
    const id = (await env.DB.prepare("SELECT id FROM chat_messages WHERE room_id = ?").bind(roomId).first<string>("id"))!;
    const pages = [
      "/chat/new",
      "/chat/new-group",
      `/chat/${roomId}/messages/${id}/edit`,
      `/chat/${roomId}/messages/${id}/delete`,
      `/chat/${roomId}/attach?q=x`,
    ];
    for (const path of pages) {
      const res = await a!.b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(d1Queries(res), path).toBe(2);
    }
  });
});
