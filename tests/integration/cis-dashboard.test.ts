import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { deadlineNotificationId, runCisDeadlineAlerts } from "~/features/cis/deadline-alerts.server";
import { currentTaxMonth, deadlineIndicator, nextDeadlines, subcontractorCreateSchema } from "~/features/cis/domain";
import { archiveSubcontractors, createSubcontractor } from "~/features/cis/subcontractors.server";
import { formatLongDate } from "~/utils/dates";
import { createTenant, createUser, type TestTenant } from "../factories";
import { count, signIn } from "./auth-helpers";
import { Browser } from "./http";

function decode(html: string): string {
  return html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

/** Active settings written straight to D1, so no activity entry is created by the set-up. */
async function activate(t: TestTenant, opts: { warningDays?: number; active?: boolean } = {}) {
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO cis_settings (tenant_id, active, company_name, employer_ref, accounts_office_ref, warning_days, statement_deadline_days, created_at, updated_at) VALUES (?, ?, 'Test Co', '123/AB12345', '123PA00012345', ?, 14, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET active = excluded.active, warning_days = excluded.warning_days",
  )
    .bind(t.id, opts.active === false ? 0 : 1, opts.warningDays ?? 3, now, now)
    .run();
}

async function setup(role: Role, opts: { active?: boolean; warningDays?: number } = {}) {
  const t = await createTenant({ modules: ["cis"] });
  if (opts.active !== false) await activate(t, opts);
  const u = await createUser(t, { role });
  const b = await signIn(t, u);
  return { t, u, b };
}

async function page(b: Awaited<ReturnType<typeof signIn>>, url: string) {
  const res = await b.get(url);
  return { status: res.status, html: decode(await res.text()) };
}

const actor = (id: string) => ({ id, email: "someone@example.test", name: "Sam Manager" });

describe("CIS dashboard: access and set-up", () => {
  for (const role of ["standard", "lead", "manager", "admin"] as const) {
    it(`${role}: opens the dashboard`, async () => {
      const { t, b } = await setup(role);
      const { status, html } = await page(b, `${t.origin}/cis`);
      expect(status).toBe(200);
      expect(html).toContain("Tax Month Overview");
    });
  }

  it("answers 404 when the module is off and sends signed-out visitors to sign in", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "admin" });
    const b = await signIn(t, u);
    expect((await b.get(`${t.origin}/cis`)).status).toBe(404);
    const on = await createTenant({ modules: ["cis"] });
    const anon = await new Browser().get(`${on.origin}/cis`);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe("/login?redirectTo=%2Fcis");
  });

  it("refuses a user whose role lost cis.read", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { standard: ["notes.view"] } });
    const u = await createUser(t, { role: "standard" });
    const b = await signIn(t, u);
    expect((await b.get(`${t.origin}/cis`)).status).toBe(403);
  });

  it("shows Setup Required while inactive, with Configure Settings only for managers", async () => {
    for (const role of ["manager", "admin"] as const) {
      const { t, b } = await setup(role, { active: false });
      const { status, html } = await page(b, `${t.origin}/cis`);
      expect(status).toBe(200);
      expect(html).toContain("Setup Required");
      expect(html).toMatch(/<a[^>]*href="\/cis\/settings"[^>]*>Configure Settings<\/a>/);
      expect(html).not.toContain("Tax Month Overview");
    }
    for (const role of ["standard", "lead"] as const) {
      const { t, b } = await setup(role, { active: false });
      const { html } = await page(b, `${t.origin}/cis`);
      expect(html).toContain("Setup Required");
      expect(html).not.toContain("Configure Settings");
      expect(html).not.toContain("Quick Actions");
    }
  });

  it("leaves Setup Required once the settings are saved as active through the settings page", async () => {
    const { t, b } = await setup("admin", { active: false });
    const res = await b.post(`${t.origin}/cis/settings`, {
      intent: "settings",
      active: "on",
      companyName: "Acme Builders Ltd",
      employerRef: "123/AB12345",
      accountsOfficeRef: "123PA00012345",
      utr: "1234567890",
      vatScheme: "standard",
      warningDays: "3",
      statementDeadlineDays: "14",
    });
    expect(res.status).toBe(302);
    const { html } = await page(b, `${t.origin}/cis`);
    expect(html).not.toContain("Setup Required");
    expect(html).toContain("Quick Actions");
    // The save itself is real activity.
    expect(html).toContain("Settings updated");
  });
});

describe("CIS dashboard: content", () => {
  const QUICK: Record<Role, string[]> = {
    standard: [],
    lead: ["new-invoice", "add-subcontractor"],
    manager: ["generate-statements", "compile-return", "configure-settings"],
    admin: ["new-invoice", "add-subcontractor", "generate-statements", "compile-return", "configure-settings"],
  };
  const ALL = ["new-invoice", "add-subcontractor", "generate-statements", "compile-return", "configure-settings"];

  for (const role of ["standard", "lead", "manager", "admin"] as const) {
    it(`${role}: quick actions follow the scopes, and missing pages are disabled rather than dead links`, async () => {
      const { t, b } = await setup(role);
      const { html } = await page(b, `${t.origin}/cis`);
      for (const key of ALL) {
        if (QUICK[role].includes(key)) expect(html, `${role} ${key}`).toContain(`data-action="${key}"`);
        else expect(html, `${role} ${key}`).not.toContain(`data-action="${key}"`);
      }
      if (QUICK[role].length === 0) expect(html).toContain("No quick actions are available for your role.");
      if (QUICK[role].includes("add-subcontractor")) expect(html).toMatch(/data-action="add-subcontractor"><a[^>]*href="\/cis\/subcontractors\/new"/);
      if (QUICK[role].includes("configure-settings")) expect(html).toMatch(/data-action="configure-settings"><a[^>]*href="\/cis\/settings"/);
      for (const key of ["new-invoice", "generate-statements", "compile-return"]) {
        if (QUICK[role].includes(key)) expect(html).toMatch(new RegExp(`data-action="${key}"><button[^>]*disabled=""[^>]*title="Coming soon"`));
      }
      expect(html).not.toContain('href="/cis/invoices');
      expect(html).toMatch(/<a[^>]*href="\/cis\/analytics"[^>]*>Analytics<\/a>/);
    });
  }

  it("counts active subcontractors of this tenant only, and shows the invoice figures as 0 with a note", async () => {
    const { t, u, b } = await setup("lead");
    const other = await createTenant({ modules: ["cis"] });
    const make = async (tenant: TestTenant, name: string, utr: string) => {
      const input = subcontractorCreateSchema.parse({ type: "company", name, utr, active: true });
      const res = await createSubcontractor(env, tenant.id, input, actor(u.id), { canVerify: true });
      if (!res.ok) throw new Error(res.code);
      return res.id;
    };
    await make(t, "Bob Builder Ltd", "1111111111");
    await make(t, "Wendy Works Ltd", "2222222222");
    const archived = await make(t, "Old Co Ltd", "3333333333");
    await archiveSubcontractors(env, t.id, [archived], actor(u.id));
    await make(other, "Elsewhere Ltd", "4444444444");

    const { html } = await page(b, `${t.origin}/cis`);
    expect(html).toMatch(/data-testid="stat-active-subcontractors"><dt[^>]*>Active Subcontractors<\/dt><dd[^>]*>2<\/dd>/);
    expect(html).toMatch(/data-testid="stat-draft-invoices"><dt[^>]*>Draft Invoices<\/dt><dd[^>]*>0<\/dd>/);
    expect(html).toMatch(/data-testid="stat-pending-statements"><dt[^>]*>Pending Statements<\/dt><dd[^>]*>0<\/dd>/);
    expect(html).toMatch(/data-testid="stat-current-month-cis"><dt[^>]*>Current Month CIS<\/dt><dd[^>]*>£0\.00<\/dd>/);
    expect(html).toContain("Invoices arrive in a later release");

    // Recent Activity is the real log, newest first, with relative times; nothing of the other tenant.
    expect(html).toContain("Subcontractor archived: Old Co Ltd");
    expect(html).toContain("Subcontractor created: Wendy Works Ltd");
    expect(html).toContain("Subcontractor created: Bob Builder Ltd");
    expect(html.indexOf("Subcontractor archived: Old Co Ltd")).toBeLessThan(html.indexOf("Subcontractor created: Bob Builder Ltd"));
    expect(html).toContain("Just now");
    expect(html).toContain("by Sam Manager");
    expect(html).not.toContain("Elsewhere Ltd");
    expect(html).not.toContain("No recent activity");
  });

  it("shows the empty activity state when nothing happened yet", async () => {
    const { t, b } = await setup("standard");
    const { html } = await page(b, `${t.origin}/cis`);
    expect(html).toContain("No recent activity");
  });

  it("shows the current tax month, its three deadlines in en-GB with indicators, and 'Not compiled'", async () => {
    const { t, b } = await setup("manager");
    const { html } = await page(b, `${t.origin}/cis`);
    const now = new Date();
    const tm = currentTaxMonth(now);
    expect(html).toContain(tm.displayLabel);
    for (const kind of ["statements", "filing", "payment"] as const) {
      expect(html).toContain(formatLongDate(tm.deadlines[kind]));
      expect(html).toContain(`(${deadlineIndicator(tm.deadlines[kind], now).text})`);
    }
    expect(html).toMatch(/data-testid="return-status">Not compiled</);
  });

  it("shows the deadline alerts the rules engine gives for the tenant's warningDays", async () => {
    const wide = await setup("standard", { warningDays: 30 });
    const now = new Date();
    const expected = nextDeadlines(now, 30);
    expect(expected.length).toBeGreaterThan(0);
    const { html } = await page(wide.b, `${wide.t.origin}/cis`);
    expect(html.match(/data-severity="/g)?.length ?? 0).toBe(expected.length);
    for (const a of expected) expect(html).toContain(a.message);
    for (const a of expected) expect(html).toContain(`data-severity="${a.kind === "statements" ? "high" : "critical"}"`);

    const narrow = await setup("standard", { warningDays: 0 });
    const { html: narrowHtml } = await page(narrow.b, `${narrow.t.origin}/cis`);
    expect(narrowHtml.match(/data-severity="/g)?.length ?? 0).toBe(nextDeadlines(new Date(), 0).length);
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

    const expected = nextDeadlines(NOW, 3);
    // Statements and filing on the 19th (2 days); payment on the 22nd (5 days) is outside 3 days.
    expect(expected.map((a) => a.kind)).toEqual(["statements", "filing"]);
    expect(expected.every((a) => a.taxMonth === "2026-04")).toBe(true);

    const first = await runCisDeadlineAlerts(env, NOW);
    expect(first.failures).toEqual([]);
    expect(await count("notifications", "tenant_id = ? AND type = 'cis.deadline'", t.id)).toBe(expected.length * users.length);
    for (const u of users) {
      for (const a of expected) {
        const row = await env.DB.prepare("SELECT * FROM notifications WHERE id = ?").bind(deadlineNotificationId(t.id, a.taxMonth, a.kind, u.id)).first<Record<string, unknown>>();
        expect(row).toMatchObject({ tenant_id: t.id, target_user_id: u.id, link: "/cis", subject_id: "2026-04", message: a.message, read: 0 });
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
