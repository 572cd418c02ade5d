import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { CIS_SCOPES, settingsSchema } from "~/features/cis/domain";
import { decryptPii } from "~/features/cis/pii.server";
import { saveCisSettings } from "~/features/cis/settings/settings.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, settingsForm as validForm, SETTINGS_UTR } from "../factories/cis";
import { describedBy, hrefs, isChecked, one, page, pageText, parseHtml, shownText, textOf, textsOf, valueOf } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";

const UTR = SETTINGS_UTR;
const squashed = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
const NO_PERMISSION = "You don't have permission to manage CIS settings";

async function settingsRow(t: TestTenant) {
  return env.DB.prepare("SELECT * FROM cis_settings WHERE tenant_id = ?").bind(t.id).first<Record<string, unknown>>();
}

async function bundleScopes(t: TestTenant, name: string): Promise<string[]> {
  const row = await env.DB.prepare("SELECT scopes FROM role_bundles WHERE tenant_id = ? AND name = ?").bind(t.id, name).first<{ scopes: string }>();
  return JSON.parse(row?.scopes ?? "[]");
}

async function auditActions(t: TestTenant): Promise<{ action: string; payload: string }[]> {
  const rows = await env.DB.prepare("SELECT action, payload FROM audit_events WHERE tenant_id = ? ORDER BY created_at")
    .bind(t.id)
    .all<{ action: string; payload: string }>();
  return rows.results;
}

describe("CIS settings: who may open it", () => {
  for (const role of ["standard", "lead"] as const) {
    it(`${role}: refused with the spec's message and status 403, GET and POST, and nothing saved`, async () => {
      const { t, u, b } = await cisStaff(role);
      const res = await b.get(`${t.origin}/cis/settings`);
      expect(res.status).toBe(403);
      const html = await shownText(res);
      expect(html).toContain(NO_PERMISSION);
      expect(html).not.toContain("Processing Settings");
      const post = await b.post(`${t.origin}/cis/settings`, validForm());
      expect(post.status).toBe(403);
      expect(await shownText(post)).toContain(NO_PERMISSION);
      expect(await settingsRow(t)).toBeNull();
      const bundle = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: role, scopes: ["cis.manage"] });
      expect(bundle.status).toBe(403);
      expect(await bundleScopes(t, role)).toEqual(DEFAULT_ROLE_BUNDLES[role]);
      expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(3);
      // The CIS navigation does not offer the page either.
      expect(hrefs(await page(await b.get(`${t.origin}/cis`)))).not.toContain("/cis/settings");
    });
  }

  it("manager: opens and saves settings, sees role bundles read-only, and a bundle POST is refused", async () => {
    const { t, b } = await cisStaff("manager");
    const res = await b.get(`${t.origin}/cis/settings`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    const html = pageText(doc);
    expect(html).toContain("CIS Settings");
    expect(html).toContain("Configure your Construction Industry Scheme settings");
    expect(html).toContain("HMRC Details");
    expect(html).toContain("Processing Settings");
    expect(html).toContain("Role Permissions");
    expect(html).toContain("Scope Checklist");
    expect(html).toContain("Changing it needs the Manage CIS permission");
    expect(html).not.toContain("Save manager permissions");
    // Defaults when nothing is stored yet.
    expect(valueOf(doc, "warningDays")).toBe("3");
    expect(valueOf(doc, "statementDeadlineDays")).toBe("14");

    const post = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "manager", scopes: ["cis.manage"] });
    expect(post.status).toBe(403);
    expect(await shownText(post)).toContain("cis.manage is required");
    expect(await bundleScopes(t, "manager")).toEqual(DEFAULT_ROLE_BUNDLES.manager);

    const save = await b.post(`${t.origin}/cis/settings`, validForm());
    expect(save.status).toBe(302);
    expect((await settingsRow(t))?.company_name).toBe("Acme Builders Ltd");
  });

  it("admin: opens everything, with a save button per role", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.get(`${t.origin}/cis/settings`);
    expect(res.status).toBe(200);
    const html = await shownText(res);
    for (const role of ["admin", "lead", "manager", "standard"]) expect(html).toContain(`Save ${role} permissions`);
    expect(html).toContain("Choose what each role may do in CIS");
  });

  it("lists each permission by its name and what it allows, with the scope id in small print", async () => {
    const { t, b } = await cisStaff("admin");
    const doc = await page(await b.get(`${t.origin}/cis/settings`));
    const box = doc.getElementById("bundle-standard-cis.pii.unmask");
    expect(box?.getAttribute("value")).toBe("cis.pii.unmask");
    expect(squashed(doc.querySelector('label[for="bundle-standard-cis.pii.unmask"]')?.textContent)).toBe("Reveal tax identifiers");
    expect(squashed(box?.parentElement?.textContent)).toBe(
      "Reveal tax identifiersShow a subcontractor's full UTR and National Insurance number instead of the masked form.cis.pii.unmask",
    );
    expect(doc.getElementById("bundle-standard-cis.pii.unmask-description")?.textContent).toBe(
      "Show a subcontractor's full UTR and National Insurance number instead of the masked form.",
    );
    // The default standard role holds cis.read: its summary names it.
    expect(textOf(doc, '[data-testid="bundle-scopes-standard"]')).toBe("View CIS");
    // Every checkbox has a name that is not its id.
    for (const scope of CIS_SCOPES) {
      const label = squashed(doc.querySelector(`label[for="bundle-admin-${scope}"]`)?.textContent);
      expect(label, scope).not.toBe("");
      expect(label, scope).not.toBe(scope);
    }
  });

  it("answers 404 when the CIS module is off", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "admin" });
    const b = await signedIn(t, u);
    expect((await b.get(`${t.origin}/cis/settings`)).status).toBe(404);
  });
});

describe("CIS settings: validation", () => {
  it("shows each field's message next to it, keeps the input and writes nothing", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.post(
      `${t.origin}/cis/settings`,
      validForm({
        companyName: " ",
        employerRef: "12/AB",
        accountsOfficeRef: "123PA0001",
        warningDays: "31",
        statementDeadlineDays: "0",
        emailFrom: "nope",
        utr: "123",
      }),
    );
    expect(res.status).toBe(400);
    const doc = await page(res);
    // Each message is the one its field points at (aria-describedby), so it is read with the field.
    expect(describedBy(doc, "companyName")).toContain("Enter the company name, at least 2 characters");
    expect(describedBy(doc, "employerRef")).toContain("Enter the employer reference in the correct format, like 123/AB12345");
    expect(describedBy(doc, "accountsOfficeRef")).toContain("Enter the Accounts Office reference in the correct format, like 754PT00002240");
    expect(describedBy(doc, "warningDays")).toContain("Enter a whole number of days from 0 to 30");
    expect(describedBy(doc, "statementDeadlineDays")).toContain("Enter a whole number of days from 1 to 30");
    expect(describedBy(doc, "emailFrom")).toContain("Enter an email address in the correct format, like name@example.com");
    expect(describedBy(doc, "utr")).toContain("Enter a UTR in the correct format: 10 digits, like 2234567890");
    // The user's input is kept.
    expect(valueOf(doc, "employerRef")).toBe("12/AB");
    expect(valueOf(doc, "accountsOfficeRef")).toBe("123PA0001");
    expect(await settingsRow(t)).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.settings%'", t.id)).toBe(0);
  });

  it("requires a contractor UTR to activate when none is stored, but not to save inactive", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.post(`${t.origin}/cis/settings`, validForm({ utr: "" }));
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("Enter the contractor's UTR to switch CIS on");
    expect(await settingsRow(t)).toBeNull();

    const inactive = await b.post(`${t.origin}/cis/settings`, validForm({ utr: "", active: null }));
    expect(inactive.status).toBe(302);
    const row = await settingsRow(t);
    expect(row?.active).toBe(0);
    expect(row?.utr_enc).toBeNull();
  });

  it("accepts warningDays 0 and lower-case references (stored upper-case)", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.post(`${t.origin}/cis/settings`, validForm({ warningDays: "0", employerRef: "123/ab12345", accountsOfficeRef: "123pg00012345" }));
    expect(res.status).toBe(302);
    const row = await settingsRow(t);
    expect(row?.warning_days).toBe(0);
    expect(row?.employer_ref).toBe("123/AB12345");
    expect(row?.accounts_office_ref).toBe("123PG00012345");
  });
});

describe("CIS settings: saving", () => {
  it("saves, shows the toast, encrypts the UTR and shows it masked only", async () => {
    const { t, u, b } = await cisStaff("admin");
    const res = await b.post(`${t.origin}/cis/settings`, validForm({ vatScheme: "flat", warningDays: "7" }));
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/cis/settings");
    const saved = await b.follow(res, `${t.origin}/cis/settings`);
    expect(saved.status).toBe(200);
    const savedHtml = await saved.text();
    const doc = parseHtml(savedHtml);
    const html = pageText(doc);
    expect(html).toContain("Settings Saved");
    expect(html).toContain("Your CIS settings have been saved successfully.");
    expect(html).toContain("******7890");
    expect(savedHtml).not.toContain(UTR);
    // The saved values come back into the form.
    expect(valueOf(doc, "companyName")).toBe("Acme Builders Ltd");
    expect(valueOf(doc, "vatScheme")).toBe("flat");
    expect(isChecked(doc, "active")).toBe(true);

    const row = await settingsRow(t);
    expect(row).toMatchObject({
      active: 1,
      company_name: "Acme Builders Ltd",
      employer_ref: "123/AB12345",
      accounts_office_ref: "123PG00012345",
      vat_scheme: "flat",
      email_statements: 1,
      warning_days: 7,
      statement_deadline_days: 14,
      email_from: "cis@acme.test",
      email_reply_to: null,
      statement_footer: "Thank you",
      utr_masked: "******7890",
      updated_by: u.id,
    });
    // No plaintext UTR anywhere in the row, the audit trail or the activity log.
    expect(JSON.stringify(row)).not.toContain(UTR);
    expect(String(row?.utr_enc)).toMatch(/^v1\./);
    expect(await decryptPii(env.PII_KEYS, String(row?.utr_enc), { tenantId: t.id, table: "cis_settings", recordId: t.id, field: "utr" })).toBe(UTR);
    expect(await count("audit_events", "tenant_id = ? AND payload LIKE ?", t.id, `%${UTR}%`)).toBe(0);
    expect(await count("activity_log", "tenant_id = ? AND details LIKE ?", t.id, `%${UTR}%`)).toBe(0);

    const audits = await auditActions(t);
    const updated = audits.find((a) => a.action === "cis.settings.updated");
    expect(JSON.parse(updated?.payload ?? "{}").changedFields).toEqual(expect.arrayContaining(["active", "companyName", "vatScheme", "warningDays", "utr"]));
    expect(audits.filter((a) => a.action === "cis.module.activated")).toHaveLength(1);
    expect(await count("activity_log", "tenant_id = ? AND module = 'cis' AND action = 'settings.updated' AND performed_by = ?", t.id, u.id)).toBe(1);
    // The toast is shown once.
    expect(await shownText(await b.get(`${t.origin}/cis/settings`))).not.toContain("Settings Saved");
  });

  it("keeps the stored UTR when the field is left blank, and replaces it when a new one is given", async () => {
    const { t, b } = await cisStaff("admin");
    expect((await b.post(`${t.origin}/cis/settings`, validForm())).status).toBe(302);
    const first = await settingsRow(t);

    expect((await b.post(`${t.origin}/cis/settings`, validForm({ utr: "", companyName: "Acme Renamed Ltd" }))).status).toBe(302);
    const second = await settingsRow(t);
    expect(second?.utr_enc).toBe(first?.utr_enc);
    expect(second?.utr_masked).toBe("******7890");
    expect(second?.company_name).toBe("Acme Renamed Ltd");
    expect(second?.active).toBe(1);
    const audits = await auditActions(t);
    const last = audits.filter((a) => a.action === "cis.settings.updated").at(-1);
    expect(JSON.parse(last?.payload ?? "{}").changedFields).toEqual(["companyName"]);
    // Still active: activation is audited once.
    expect(audits.filter((a) => a.action === "cis.module.activated")).toHaveLength(1);

    expect((await b.post(`${t.origin}/cis/settings`, validForm({ utr: "88765 43210" }))).status).toBe(302);
    const third = await settingsRow(t);
    expect(third?.utr_masked).toBe("******3210");
    expect(await decryptPii(env.PII_KEYS, String(third?.utr_enc), { tenantId: t.id, table: "cis_settings", recordId: t.id, field: "utr" })).toBe("8876543210");
    expect(await count("audit_events", "tenant_id = ? AND payload LIKE '%8876543210%'", t.id)).toBe(0);
  });

  it("audits deactivation and activation again", async () => {
    const { t, b } = await cisStaff("admin");
    await b.post(`${t.origin}/cis/settings`, validForm());
    const off = await b.post(`${t.origin}/cis/settings`, validForm({ active: null, utr: "" }));
    expect(off.status).toBe(302);
    expect((await settingsRow(t))?.active).toBe(0);
    const on = await b.post(`${t.origin}/cis/settings`, validForm({ utr: "" }));
    expect(on.status).toBe(302);
    const actions = (await auditActions(t)).map((a) => a.action).filter((a) => a.startsWith("cis.module"));
    expect(actions).toEqual(["cis.module.activated", "cis.module.deactivated", "cis.module.activated"]);
  });

  it("never shows one tenant's settings on another tenant's host", async () => {
    const acme = await cisStaff("admin");
    const globex = await cisStaff("admin");
    expect((await acme.b.post(`${acme.t.origin}/cis/settings`, validForm({ companyName: "Acme Secret Works" }))).status).toBe(302);
    const html = await shownText(await globex.b.get(`${globex.t.origin}/cis/settings`));
    expect(html).not.toContain("Acme Secret Works");
    expect(html).not.toContain("******7890");
    expect(html).toContain("10 digits. Required to activate the module.");
    // acme's session cookie, replayed on globex's host, is nobody there.
    const thief = new Browser();
    thief.setCookie(globex.t.host, "__Host-session", acme.b.cookie(acme.t.host, "__Host-session") ?? "");
    expect(thief.cookie(globex.t.host, "__Host-session")).toBeTruthy();
    const stolen = await thief.get(`${globex.t.origin}/cis/settings`);
    expect(stolen.status).toBe(302);
    expect(location(stolen)).toContain("/login");
    const stolenPost = await thief.post(`${globex.t.origin}/cis/settings`, validForm({ companyName: "Written By Acme" }));
    expect(stolenPost.status).toBe(302);
    expect(location(stolenPost)).toContain("/login");
    expect(await settingsRow(globex.t)).toBeNull();
    // A save on globex touches only globex's row.
    expect((await globex.b.post(`${globex.t.origin}/cis/settings`, validForm({ companyName: "Globex Works", utr: "5555555555" }))).status).toBe(302);
    expect((await settingsRow(acme.t))?.company_name).toBe("Acme Secret Works");
    expect((await settingsRow(acme.t))?.utr_masked).toBe("******7890");
  });
});

describe("CIS settings: save failures", () => {
  // Through the real schema, so the input has exactly the shape an action passes.
  const input = settingsSchema.parse({
    active: true,
    companyName: "Acme",
    employerRef: "123/AB12345",
    accountsOfficeRef: "123PG00012345",
    utr: UTR,
    vatScheme: "standard",
    emailStatements: true,
    warningDays: 3,
    statementDeadlineDays: 14,
  });
  const who = { id: "u1", email: "a@example.test", name: "A", ip: null };

  it("writes nothing (no row, no audit) when the batch fails, and answers the generic code", async () => {
    // No such tenant: the foreign key fails inside the batch, so its audit entries must not land either.
    const res = await saveCisSettings(env, "no-such-tenant", { ...input }, who);
    expect(res).toEqual({ ok: false, code: "save_failed" });
    expect(await count("cis_settings", "tenant_id = 'no-such-tenant'")).toBe(0);
    expect(await count("audit_events", "tenant_id = 'no-such-tenant'")).toBe(0);
    expect(await count("activity_log", "tenant_id = 'no-such-tenant'")).toBe(0);
  });

  it("reports an encryption failure as its own code, not the key details", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const res = await saveCisSettings({ ...env, PII_KEYS: "not-a-key" }, t.id, { ...input }, who);
    expect(res).toEqual({ ok: false, code: "encrypt_failed" });
    expect(await settingsRow(t)).toBeNull();
  });
});

describe("CIS settings: role permissions", () => {
  it("lists only roles holding a cis. scope", async () => {
    const { t, b } = await cisStaff("admin", { tenantOptions: { bundles: { standard: ["notes.view", "chat.*"] } } });
    const bundles = [...(await page(await b.get(`${t.origin}/cis/settings`))).querySelectorAll("[data-bundle]")].map((el) => el.getAttribute("data-bundle"));
    expect(bundles).toContain("lead");
    expect(bundles).toContain("admin");
    expect(bundles).not.toContain("standard");
  });

  it("admin changes a role's CIS scopes, keeping its other scopes exactly, audited, effective on the next request", async () => {
    const { t, u, b } = await cisStaff("admin");
    const manager = await createUser(t, { role: "manager" });
    const mb = await signedIn(t, manager);
    expect((await mb.get(`${t.origin}/cis/settings`)).status).toBe(200);

    const chosen = ["cis.read", "cis.approve", "cis.submit", "cis.ret.compile", "cis.settings.read"];
    const res = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "manager", scopes: chosen });
    expect(res.status).toBe(302);
    const shown = await shownText(await b.follow(res, `${t.origin}/cis/settings`));
    expect(shown).toContain("Permissions Updated");

    const nonCis = DEFAULT_ROLE_BUNDLES.manager.filter((s) => !s.startsWith("cis."));
    // Non-CIS scopes first, as they were; the chosen CIS scopes after them in catalogue order.
    expect(await bundleScopes(t, "manager")).toEqual([...nonCis, ...CIS_SCOPES.filter((s) => chosen.includes(s))]);
    const audit = await env.DB.prepare("SELECT payload, actor_id FROM audit_events WHERE tenant_id = ? AND action = 'cis.permission.updated'")
      .bind(t.id)
      .first<{ payload: string; actor_id: string }>();
    expect(audit?.actor_id).toBe(u.id);
    const payload = JSON.parse(audit?.payload ?? "{}");
    expect(payload.role).toBe("manager");
    expect(payload.removed).toEqual(expect.arrayContaining(["cis.settings.write", "cis.export"]));
    expect(payload.added).toEqual([]);

    // The manager's very next request runs on the new bundle.
    const after = await mb.get(`${t.origin}/cis/settings`);
    expect(after.status).toBe(403);
    expect(await shownText(after)).toContain(NO_PERMISSION);
    // Other tenants' roles of the same name are untouched.
    const other = await createTenant({ modules: ["cis"] });
    expect(await bundleScopes(other, "manager")).toEqual(DEFAULT_ROLE_BUNDLES.manager);
  });

  it("keeps unknown cis. scopes and wildcard scopes outside the grid", async () => {
    const { t, b } = await cisStaff("admin", { tenantOptions: { bundles: { lead: ["files.*", "cis.*", "cis.read", "*", "notes.view"] } } });
    const res = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "lead", scopes: ["cis.inv.read"] });
    expect(res.status).toBe(302);
    expect(await bundleScopes(t, "lead")).toEqual(["files.*", "cis.*", "*", "notes.view", "cis.inv.read"]);
  });

  it("shows a checklist error for a role that can submit returns but not compile them", async () => {
    const { t, b } = await cisStaff("admin");
    const before = await shownText(await b.get(`${t.origin}/cis/settings`));
    expect(before).not.toContain("Role 'standard': can submit returns");
    const res = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "standard", scopes: ["cis.read", "cis.ret.submit"] });
    expect(res.status).toBe(302);
    const doc = await page(await b.get(`${t.origin}/cis/settings`));
    expect(textsOf(one(doc, '[data-testid="checklist-errors"]'), "li")).toContain(
      "Role 'standard': can submit returns (cis.ret.submit) but cannot compile them (cis.ret.compile)",
    );
    expect(textOf(doc, '[data-testid="bundle-scopes-standard"]')).toBe("View CIS, Submit returns");
  });

  it("refuses unknown scopes, unknown roles, stale forms and removing the last cis.manage", async () => {
    const { t, b } = await cisStaff("admin");
    const bad = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "lead", scopes: ["cis.read", "files.*"] });
    expect(bad.status).toBe(400);
    expect(await shownText(bad)).toContain("Unknown CIS scope: files.*");
    expect((await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "ghost", scopes: ["cis.read"] })).status).toBe(404);

    const stale = await b.post(`${t.origin}/cis/settings`, { intent: "bundle", bundle: "lead", version: "1", scopes: ["cis.read"] });
    expect(stale.status).toBe(409);
    expect(await shownText(stale)).toContain("changed by someone else");

    const lastManage = await b.post(`${t.origin}/cis/settings`, {
      intent: "bundle",
      bundle: "admin",
      scopes: ["cis.read", "cis.settings.write", "cis.settings.read"],
    });
    expect(lastManage.status).toBe(400);
    expect(await shownText(lastManage)).toContain("At least one role must keep cis.manage");
    expect(await bundleScopes(t, "lead")).toEqual(DEFAULT_ROLE_BUNDLES.lead);
    expect(await bundleScopes(t, "admin")).toEqual(DEFAULT_ROLE_BUNDLES.admin);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.updated'", t.id)).toBe(0);
  });
});
