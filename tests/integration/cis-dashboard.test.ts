import { env } from "cloudflare:workers";
// The job types are registered by the worker entry; approval here goes through the data layer directly.
import "~/jobs.server";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { deadlineLink, deadlineNotificationId, runCisDeadlineAlerts } from "~/features/cis/dashboard/deadline-alerts.server";
import { currentTaxMonth, deadlineIndicator, formatPence, invoiceSchema, nextDeadlines, previousTaxMonth, taxMonthOfDate } from "~/features/cis/domain";
import { generateSubcontractorStatement } from "~/features/cis/statements/generate.server";
import { issueStatement } from "~/features/cis/statements/issue.server";
import { auditInsert } from "~/features/platform/index.server";
import { getDb } from "~/db/client.server";
import {
  approveInvoice,
  cancelInvoice,
  deleteInvoice,
  londonToday,
  markInvoicePaid,
  requestInvoiceStatement,
} from "~/features/cis/invoices/transitions.server";
import { listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { formatLongDate } from "~/utils/dates";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, seedCisSettings as activate, seedSub } from "../factories/cis";
import { all, linksTo, one, textOf, textsOf, visit } from "../factories/html";
import { count } from "./auth-helpers";
import { Browser } from "./http";
import { recordingQueue } from "./queue-helpers";
import { seedInvoice } from "../factories/returns";
import { signedIn } from "../factories/sessions";

/** A CIS user signed in; the settings are active (written straight to D1) unless `active` is false, in which case none are stored. */
async function setup(role: Role, opts: { active?: boolean; warningDays?: number } = {}) {
  return cisStaff(role, opts.active === false ? {} : { settings: { warningDays: opts.warningDays } });
}

const actor = (id: string) => ({ id, email: "someone@example.test", name: "Sam Manager" });

describe("CIS dashboard: access and set-up", () => {
  for (const role of ["standard", "lead", "manager", "admin"] as const) {
    it(`${role}: opens the dashboard`, async () => {
      const { t, b } = await setup(role);
      const { status, text } = await visit(b, `${t.origin}/cis`);
      expect(status).toBe(200);
      expect(text).toContain("Tax Month Overview");
    });
  }

  it("answers 404 when the module is off and sends signed-out visitors to sign in", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "admin" });
    const b = await signedIn(t, u);
    expect((await b.get(`${t.origin}/cis`)).status).toBe(404);
    const on = await createTenant({ modules: ["cis"] });
    const anon = await new Browser().get(`${on.origin}/cis`);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe("/login?redirectTo=%2Fcis");
  });

  it("refuses a user whose role lost cis.read", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { standard: ["notes.view"] } });
    const u = await createUser(t, { role: "standard" });
    const b = await signedIn(t, u);
    expect((await b.get(`${t.origin}/cis`)).status).toBe(403);
  });

  it("shows Setup Required while inactive, with Configure Settings only for managers", async () => {
    for (const role of ["manager", "admin"] as const) {
      const { t, b } = await setup(role, { active: false });
      const { status, doc, text } = await visit(b, `${t.origin}/cis`);
      expect(status).toBe(200);
      expect(text).toContain("Setup Required");
      expect(linksTo(doc, "Configure Settings")).toEqual(["/cis/settings"]);
      expect(text).not.toContain("Tax Month Overview");
    }
    for (const role of ["standard", "lead"] as const) {
      const { t, b } = await setup(role, { active: false });
      const { text } = await visit(b, `${t.origin}/cis`);
      expect(text).toContain("Setup Required");
      expect(text).not.toContain("Configure Settings");
      expect(text).not.toContain("Quick Actions");
    }
  });

  it("leaves Setup Required once the settings are saved as active through the settings page", async () => {
    const { t, b } = await setup("admin", { active: false });
    const res = await b.post(`${t.origin}/cis/settings`, {
      intent: "settings",
      active: "on",
      companyName: "Acme Builders Ltd",
      employerRef: "123/AB12345",
      accountsOfficeRef: "123PG00012345",
      utr: "5334567890",
      vatScheme: "standard",
      warningDays: "3",
      statementDeadlineDays: "14",
    });
    expect(res.status).toBe(302);
    const { text } = await visit(b, `${t.origin}/cis`);
    expect(text).not.toContain("Setup Required");
    expect(text).toContain("Quick Actions");
    // The save itself is real activity.
    expect(textOf((await visit(b, `${t.origin}/cis`)).doc, '[data-testid="recent-activity"]')).toContain("updated the CIS settings");
  });
});

describe("CIS dashboard: content", () => {
  const QUICK: Record<Role, string[]> = {
    standard: [],
    // Generating statements needs cis.stmt.issue and compiling cis.ret.compile, which coarse write grants.
    lead: ["new-invoice", "add-subcontractor", "generate-statements", "compile-return"],
    manager: ["generate-statements", "compile-return", "configure-settings"],
    admin: ["new-invoice", "add-subcontractor", "generate-statements", "compile-return", "configure-settings"],
  };
  const ALL = ["new-invoice", "add-subcontractor", "generate-statements", "compile-return", "configure-settings"];

  for (const role of ["standard", "lead", "manager", "admin"] as const) {
    it(`${role}: quick actions follow the scopes, each a link to its real page`, async () => {
      const { t, b } = await setup(role);
      const { doc, text } = await visit(b, `${t.origin}/cis`);
      expect(
        all(doc, "[data-action]").map((el) => el.getAttribute("data-action")),
        role,
      ).toEqual(ALL.filter((key) => QUICK[role].includes(key)));
      if (QUICK[role].length === 0) expect(text).toContain("No quick actions are available for your role.");
      if (QUICK[role].includes("add-subcontractor"))
        expect(one(doc, '[data-action="add-subcontractor"] > a').getAttribute("href")).toBe("/cis/subcontractors/new");
      if (QUICK[role].includes("configure-settings")) expect(one(doc, '[data-action="configure-settings"] > a').getAttribute("href")).toBe("/cis/settings");
      if (QUICK[role].includes("new-invoice")) expect(one(doc, '[data-action="new-invoice"] > a').getAttribute("href")).toBe("/cis/invoices/new");
      if (QUICK[role].includes("generate-statements")) expect(one(doc, '[data-action="generate-statements"] > a').getAttribute("href")).toBe("/cis/statements");
      if (QUICK[role].includes("compile-return")) expect(one(doc, '[data-action="compile-return"] > a').getAttribute("href")).toBe("/cis/returns");
      // Every quick action now leads to a real page: none is a disabled placeholder.
      expect(all(doc, "[data-action] > button").length, role).toBe(0);
      // The New Invoice link is there only for cis.inv.write.
      expect(all(doc, 'a[href="/cis/invoices/new"]').length, role).toBe(QUICK[role].includes("new-invoice") ? 1 : 0);
      expect(textsOf(doc, 'a[href="/cis/analytics"]')).toContain("Analytics");
    });
  }

  it("counts active subcontractors of this tenant only, and shows the invoice figures as 0 without invoices", async () => {
    const { t, u, b } = await setup("lead");
    const other = await createTenant({ modules: ["cis"] });
    const make = (tenant: TestTenant, name: string, utr: string, archived = false) =>
      seedSub(tenant, { type: "company", name, utr }, { actor: actor(u.id), archived });
    await make(t, "Bob Builder Ltd", "1111111111");
    await make(t, "Wendy Works Ltd", "2222222222");
    await make(t, "Old Co Ltd", "3333333333", true);
    await make(other, "Elsewhere Ltd", "4444444444");

    const { doc, text: html } = await visit(b, `${t.origin}/cis`);
    const stat = (id: string) => [textOf(doc, `[data-testid="stat-${id}"] > dt`), textOf(doc, `[data-testid="stat-${id}"] > dd`)];
    expect(stat("active-subcontractors")).toEqual(["Active Subcontractors", "2"]);
    expect(stat("draft-invoices")).toEqual(["Draft Invoices", "0"]);
    expect(stat("pending-statements")).toEqual(["Pending Statements", "0"]);
    expect(stat("current-month-cis")).toEqual(["Current Month CIS", "£0.00"]);
    expect(html).not.toContain("Invoices arrive in a later release");

    // Recent Activity is the real audit log, newest first, with relative times; nothing of the other tenant.
    const activity = textsOf(doc, "[data-activity]");
    const name = await displayName(u.id);
    expect(activity[0]).toContain(`${name} added subcontractor Old Co Ltd`);
    expect(activity[1]).toContain(`${name} added subcontractor Wendy Works Ltd`);
    expect(activity[2]).toContain(`${name} added subcontractor Bob Builder Ltd`);
    expect(html).toContain("Just now");
    expect(html).not.toContain("Elsewhere Ltd");
    expect(html).not.toContain("No recent activity");
  });

  it("shows the empty activity state when nothing happened yet", async () => {
    const { t, b } = await setup("standard");
    const { text } = await visit(b, `${t.origin}/cis`);
    expect(text).toContain("No recent activity");
  });

  it("shows the current tax month, its three deadlines in en-GB with indicators, and 'Not compiled'", async () => {
    const { t, b } = await setup("manager");
    const { doc, text: html } = await visit(b, `${t.origin}/cis`);
    const now = new Date();
    const tm = currentTaxMonth(now);
    expect(html).toContain(tm.displayLabel);
    for (const kind of ["statements", "filing", "payment"] as const) {
      expect(html).toContain(formatLongDate(tm.deadlines[kind]));
      expect(html).toContain(`(${deadlineIndicator(tm.deadlines[kind], now).text})`);
    }
    expect(textOf(doc, '[data-testid="return-status"]')).toBe("Not compiled");
  });

  it("shows the deadline alerts the rules engine gives for the tenant's warningDays", async () => {
    const wide = await setup("standard", { warningDays: 30 });
    const now = new Date();
    const expected = nextDeadlines(now, 30);
    expect(expected.length).toBeGreaterThan(0);
    const { doc } = await visit(wide.b, `${wide.t.origin}/cis`);
    const shown = all(doc, "[data-severity]").map((el) => ({ severity: el.getAttribute("data-severity"), text: el.textContent ?? "" }));
    expect(shown).toHaveLength(expected.length);
    for (const a of expected) expect(shown.find((s) => s.text.includes(a.message))?.severity, a.message).toBe(a.kind === "statements" ? "high" : "critical");

    const narrow = await setup("standard", { warningDays: 0 });
    const { doc: narrowDoc } = await visit(narrow.b, `${narrow.t.origin}/cis`);
    expect(all(narrowDoc, "[data-severity]")).toHaveLength(nextDeadlines(new Date(), 0).length);
  });
});

/** A user's display name as stored (what Recent Activity shows). */
async function displayName(userId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT display_name FROM users WHERE id = ?").bind(userId).first<{ display_name: string }>();
  return row!.display_name;
}

describe("CIS dashboard: Recent Activity", () => {
  it("shows the audit log's invoices approved and paid, statements generated and issued, returns compiled and submitted and subcontractors verified, as sentences with names and links, newest first", async () => {
    const { t, u, b } = await setup("admin");
    await env.DB.prepare("UPDATE users SET display_name = 'Alice Admin' WHERE id = ?").bind(u.id).run();
    const me = { id: u.id, email: u.email, name: "Alice Admin" };
    const { queue } = recordingQueue();
    const e = { ...env, JOBS: queue } as Env;
    const today = londonToday();
    const month = taxMonthOfDate(today);
    const dan = await seedSub(
      t,
      { name: "Dan Murphy", verificationStatus: "higher", verificationMethod: "online", verificationReference: "V1234567890A", verifiedDate: today },
      { actor: me },
    );
    const input = invoiceSchema.parse({
      subcontractorId: dan.id,
      invoiceNumber: "HAR-202611-045",
      invoiceDate: today,
      grossP: 100_000,
      materialsP: 0,
      vatRate: 0,
    });
    const created = await createInvoice(e, t.id, input, me);
    if (!created.ok) throw new Error(created.code);
    expect((await approveInvoice(e, t.id, created.id, me)).ok).toBe(true);
    expect((await markInvoicePaid(e, t.id, created.id, me, { paymentDate: today })).ok).toBe(true);
    const statement = await generateSubcontractorStatement(e, t.id, dan.id, month.label, me);
    if (!statement.ok) throw new Error(statement.code);
    expect((await issueStatement(e, t, statement.id, "print", me)).ok).toBe(true);
    // The return's entries as compiling and submitting write them (those journeys have their own tests).
    const later = Date.now() + 1_000;
    await getDb(env).batch([
      auditInsert(
        getDb(env),
        {
          tenantId: t.id,
          action: "cis.return.compiled",
          actorId: u.id,
          actorEmail: u.email,
          targetType: "return",
          targetId: "ret_1",
          payload: { taxMonth: month.label },
        },
        later,
      ),
      auditInsert(
        getDb(env),
        {
          tenantId: t.id,
          action: "cis.return.submitted",
          actorId: u.id,
          actorEmail: u.email,
          targetType: "return",
          targetId: "ret_1",
          payload: { taxMonth: month.label },
        },
        later + 1,
      ),
    ]);
    // Another tenant's activity never shows here.
    const other = await createTenant({ modules: ["cis"] });
    await seedSub(other, { name: "Elsewhere Ltd", type: "company" }, { actor: me });

    const { doc, text } = await visit(b, `${t.origin}/cis`);
    const items = all(doc, "[data-activity]");
    const sentences = items.map((li) => (li.querySelector("span")?.textContent ?? "").replace(/\s+/g, " ").trim());
    expect(sentences).toEqual([
      `Alice Admin submitted the return for ${month.displayLabel}`,
      `Alice Admin compiled the return for ${month.displayLabel}`,
      `Alice Admin issued the statement for Dan Murphy, ${month.displayLabel}`,
      `Alice Admin generated the statement for Dan Murphy, ${month.displayLabel}`,
      "Alice Admin recorded payment of invoice HAR-202611-045 from Dan Murphy",
      "Alice Admin approved invoice HAR-202611-045 from Dan Murphy",
      // One batch, one instant: the later-written entry first.
      "Alice Admin verified Dan Murphy at the higher rate (30%)",
      "Alice Admin added subcontractor Dan Murphy",
    ]);
    // Each names its thing as a link to where it is.
    const linkOf = (i: number) => items[i]!.querySelector("a")?.getAttribute("href");
    expect(linkOf(0)).toBe(`/cis/returns?month=${month.label}`);
    expect(linkOf(2)).toBe(`/cis/statements?month=${month.label}`);
    expect(linkOf(4)).toBe(`/cis/invoices/${created.id}`);
    expect(linkOf(5)).toBe(`/cis/invoices/${created.id}`);
    expect(linkOf(6)).toBe(`/cis/subcontractors/${dan.id}`);
    expect(linkOf(7)).toBe(`/cis/subcontractors/${dan.id}`);
    expect(text).not.toContain("Elsewhere Ltd");
    // Never an identifier.
    expect(text).not.toContain(dan.utr);
  });

  it("shows at most ten entries, and an erased actor as a former user", async () => {
    const { t, u } = await setup("lead");
    for (let i = 0; i < 12; i++) await seedSub(t, { name: `Builder ${String(i).padStart(2, "0")}` }, { actor: { id: u.id, email: u.email, name: "x" } });
    await env.DB.prepare("UPDATE users SET scrubbed_at = ? WHERE id = ?").bind(Date.now(), u.id).run();
    const other = await createUser(t, { role: "lead" });
    const { doc } = await visit(await signedIn(t, other), `${t.origin}/cis`);
    const items = textsOf(doc, "[data-activity]");
    expect(items).toHaveLength(10);
    expect(items[0]).toMatch(/^A former user added subcontractor Builder 11/);
  });
});

describe("CIS dashboard: invoice figures", () => {
  it("counts Draft Invoices and Current Month CIS as the invoice list's cards do, and Pending Statements as the statements screen does for the month; deleted, cancelled and other tenants' invoices do not count", async () => {
    const { t, u, b } = await setup("admin");
    const me = actor(u.id);
    // A recording JOBS queue: approval's statements.generate job must not run in the background here.
    const { queue } = recordingQueue();
    const e = { ...env, JOBS: queue } as Env;
    const now = new Date();
    const today = londonToday(now);
    const lastMonthDate = `${previousTaxMonth(currentTaxMonth(now).label).label}-10`;
    const std = await seedSub(t, { name: "Std Builder", verificationStatus: "standard" });
    const high = await seedSub(t, { name: "High Builder", verificationStatus: "higher" });
    const make = async (tenant: TestTenant, sub: { id: string }, invoiceNumber: string, invoiceDate: string, grossP: number, source?: "portal") => {
      const input = invoiceSchema.parse({ subcontractorId: sub.id, invoiceNumber, invoiceDate, grossP, materialsP: 0, vatRate: 0 });
      const res = await createInvoice(e, tenant.id, input, me, source ? { source } : {});
      if (!res.ok) throw new Error(res.code);
      return res.id;
    };
    const ok = (r: { ok: boolean }) => expect(r.ok).toBe(true);

    await make(t, std, "D-1", today, 100_000);
    await make(t, std, "D-2", today, 100_000, "portal");
    ok(await deleteInvoice(e, t.id, await make(t, std, "D-3", today, 100_000), me));
    // Approved this month, not paid: 20% of 1,000.00 in this month's CIS, but no statement yet (nothing paid).
    const a1 = await make(t, std, "A-1", today, 100_000);
    ok(await approveInvoice(e, t.id, a1, me));
    // Paid this month at 30%: 150.00, its statement pending this month.
    const p1 = await make(t, high, "P-1", today, 50_000);
    ok(await approveInvoice(e, t.id, p1, me));
    ok(await markInvoicePaid(e, t.id, p1, me, { paymentDate: today }));
    ok(await requestInvoiceStatement(e, t.id, p1, me));
    // Paid this month, statement already issued: counts for CIS (100.00), not as pending.
    const a3 = await make(t, std, "A-3", today, 50_000);
    ok(await approveInvoice(e, t.id, a3, me));
    ok(await markInvoicePaid(e, t.id, a3, me, { paymentDate: today }));
    await env.DB.prepare("UPDATE cis_invoices SET statement_issued_at = ?, statement_issued_method = 'email' WHERE id = ?").bind(Date.now(), a3).run();
    // Paid last tax month: pending there (the list's card counts it), not this month's statement nor CIS.
    const a2 = await make(t, std, "A-2", lastMonthDate, 200_000);
    ok(await approveInvoice(e, t.id, a2, me));
    ok(await markInvoicePaid(e, t.id, a2, me, { paymentDate: lastMonthDate }));
    // Cancelled after approval: nothing.
    const c1 = await make(t, std, "C-1", today, 700_000);
    ok(await approveInvoice(e, t.id, c1, me));
    ok(await cancelInvoice(e, t.id, c1, me));
    // Another tenant's invoices, drafts and approved, never count here.
    const other = await createTenant({ modules: ["cis"] });
    const foreign = await seedSub(other, { name: "Elsewhere Ltd", type: "company" });
    await make(other, foreign, "X-1", today, 100_000);
    const x2 = await make(other, foreign, "X-2", today, 9_900_000);
    ok(await approveInvoice(e, other.id, x2, me));
    ok(await markInvoicePaid(e, other.id, x2, me, { paymentDate: today }));

    const { doc } = await visit(b, `${t.origin}/cis`);
    const value = (id: string) => textOf(doc, `[data-testid="stat-${id}"] > dd`);
    expect(value("draft-invoices")).toBe("2");
    // Statements this tax month still needs generated: one (High Builder's), as the statements screen says.
    expect(value("pending-statements")).toBe("1");
    expect(value("current-month-cis")).toBe("£450.00");
    // The invoice list's own cards over the same data: the dashboard reuses them, never recomputes.
    // Pending Statements has one meaning everywhere: statements this tax month still needs generated
    // (last month's pending invoice is not counted here), and the card names the month.
    const list = await listInvoices(env, t.id, parseInvoiceListQuery(new URLSearchParams()), now);
    expect(list.stats).toMatchObject({ draft: 2, pendingStatements: 1, thisMonthCisP: 45_000 });
    expect(value("current-month-cis")).toBe(formatPence(list.stats.thisMonthCisP));
    const { doc: listDoc } = await visit(b, `${t.origin}/cis/invoices`);
    expect(textOf(listDoc, '[data-card="Pending Statements"]')).toBe(value("pending-statements"));
    const month = currentTaxMonth(now);
    const monthLink = listDoc.querySelector(`a[href="/cis/statements?month=${month.label}"]`);
    expect(monthLink?.textContent).toBe(`Tax month ${month.displayLabel}`);
  });
});

describe("CIS deadline alerts (cron job)", () => {
  // 17 May 2026, 09:00 London: the April tax month's deadlines (19 and 22 May) are 2 and 5 days away.
  const NOW = new Date("2026-05-17T08:00:00Z");

  it("notifies every user who can read CIS in active tenants, once, however often it runs", async () => {
    const t = await createTenant({ modules: ["cis"] });
    await activate(t, { warningDays: 3 });
    const users = await Promise.all((["standard", "lead", "manager", "admin"] as const).map((role) => createUser(t, { role })));
    const disabled = await createUser(t, { role: "admin", disabled: true });

    const noRead = await createTenant({ modules: ["cis"], bundles: { standard: ["notes.view"] } });
    await activate(noRead, { warningDays: 3 });
    const blind = await createUser(noRead, { role: "standard" });
    const sees = await createUser(noRead, { role: "lead" });

    const inactive = await createTenant({ modules: ["cis"] });
    await activate(inactive, { warningDays: 3, active: false });
    await createUser(inactive, { role: "admin" });

    const moduleOff = await createTenant();
    await activate(moduleOff, { warningDays: 3 });
    await createUser(moduleOff, { role: "admin" });

    // Statements still to issue in both tenants, so the statements deadline is not met yet.
    for (const tenant of [t, noRead])
      await seedInvoice(tenant, { subcontractorId: (await seedSub(tenant)).id, status: "paid", taxMonth: "2026-04", statementRequired: true });

    const expected = nextDeadlines(NOW, 3);
    // Statements and filing on the 19th (2 days); payment on the 22nd (5 days) is outside 3 days.
    expect(expected.map((a) => a.kind)).toEqual(["statements", "filing"]);
    expect(expected.every((a) => a.taxMonth === "2026-04")).toBe(true);

    const first = await runCisDeadlineAlerts(env, NOW);
    expect(first.failures).toEqual([]);
    expect(await count("notifications", "tenant_id = ? AND type = 'cis.deadline'", t.id)).toBe(expected.length * users.length);
    for (const u of users) {
      for (const a of expected) {
        const row = await env.DB.prepare("SELECT * FROM notifications WHERE id = ?")
          .bind(deadlineNotificationId(t.id, a.taxMonth, a.kind, u.id))
          .first<Record<string, unknown>>();
        expect(row).toMatchObject({ tenant_id: t.id, target_user_id: u.id, link: deadlineLink(a), subject_id: "2026-04", message: a.message, read: 0 });
      }
    }
    expect(await count("notifications", "target_user_id = ?", disabled.id)).toBe(0);
    expect(await count("notifications", "target_user_id = ?", blind.id)).toBe(0);
    expect(await count("notifications", "target_user_id = ?", sees.id)).toBe(expected.length);
    expect(await count("notifications", "tenant_id = ?", inactive.id)).toBe(0);
    expect(await count("notifications", "tenant_id = ?", moduleOff.id)).toBe(0);

    // A second run the same day (and a later one in the same window) creates nothing new.
    const second = await runCisDeadlineAlerts(env, NOW.getTime());
    expect(second.created).toBe(0);
    await runCisDeadlineAlerts(env, new Date("2026-05-18T20:00:00Z"));
    expect(await count("notifications", "tenant_id = ? AND type = 'cis.deadline'", t.id)).toBe(expected.length * users.length);

    // The payment deadline enters the window later and is notified once.
    await runCisDeadlineAlerts(env, new Date("2026-05-19T12:00:00Z"));
    expect(await count("notifications", "tenant_id = ? AND type = 'cis.deadline'", t.id)).toBe(3 * users.length);
  });

  it("uses each tenant's own warningDays", async () => {
    const t = await createTenant({ modules: ["cis"] });
    await activate(t, { warningDays: 0 });
    await createUser(t, { role: "admin" });
    // Two days before the 19th: nothing within 0 days.
    await runCisDeadlineAlerts(env, NOW);
    expect(await count("notifications", "tenant_id = ?", t.id)).toBe(0);
  });
});
