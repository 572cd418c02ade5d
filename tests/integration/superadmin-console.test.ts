import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { platformAdmins } from "~/db/schema";
import { hashPassword } from "~/features/auth/password.server";
import type { Scope } from "~/features/auth/scopes";
import { newId } from "~/utils/ids";
import { createTenant, createUser, ensureCatalogue } from "../factories";
import { fieldMessage, page, shownText } from "../factories/html";
import { bareSignIn, count, signIn, signInPlatform, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";

const CONSOLE = "http://localhost/superadmin";
const AUDIT = "http://localhost/superadmin/audit";
const PASSWORD = "platform-admin-password";
const GIB = 1024 ** 3;

async function platformAdmin(scopes: Scope[]) {
  const id = newId();
  const email = `console-${id.slice(0, 8).toLowerCase()}@platform.test`;
  await getDb(env)
    .insert(platformAdmins)
    .values({ id, email, displayName: "Console Admin", scopes, passwordHash: await hashPassword(env, PASSWORD), createdAt: Date.now() });
  return { id, b: await signInPlatform(email, PASSWORD) };
}

const slug = () => `sc${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

describe("/superadmin: creating a tenant", () => {
  it("creates it with its available modules and a custom storage limit, invites its first admin by e-mail, lists it, and audits both", async () => {
    await ensureCatalogue();
    const { id, b } = await platformAdmin(["system.superadmin", "system.tenants.create"]);
    const s = slug();
    const res = await b.post(CONSOLE, {
      intent: "create-tenant",
      slug: s,
      name: "Console Made Ltd",
      availableModules: ["cis"],
      storageTier: "custom",
      customLimitGib: "300",
      adminEmail: `First.Admin@${s}.test`,
    });
    expect(res.status).toBe(302);
    const started = Date.now() - 5_000;
    const row = await env.DB.prepare(
      "SELECT t.id, t.available_modules AS m, s.tier, s.custom_limit AS lim FROM tenants t JOIN storage_usage s ON s.tenant_id = t.id WHERE t.slug = ?",
    )
      .bind(s)
      .first<{ id: string; m: string; tier: string; lim: number }>();
    expect(row && JSON.parse(row.m)).toEqual(["cis"]);
    expect(row?.tier).toBe("custom");
    expect(row?.lim).toBe(300 * GIB);
    expect(await count("audit_events", "action = 'superadmin.tenant.created' AND actor_id = ? AND target_id = ?", id, row?.id)).toBe(1);
    // The first admin: an invited admin of the new tenant, audited there, with the activation link e-mailed.
    const email = `first.admin@${s}.test`;
    expect(await count("users", "tenant_id = ? AND email = ? AND role = 'admin'", row?.id, email)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.invited' AND actor_id = ?", row?.id, id)).toBe(1);
    expect((await waitForMail(email, { after: started })).text).toMatch(new RegExp(`https?://${s}\\.localhost\\S*/activate\\?token=`));

    const list = await page(await b.get(CONSOLE));
    const tr = list.querySelector(`tr[data-tenant="${s}"]`);
    expect(tr?.textContent).toContain("Console Made Ltd");
    expect(tr?.textContent).toContain("Custom: 300 GiB");
    expect(tr?.querySelector("td:nth-child(5)")?.textContent).toBe("1");
    expect(tr?.querySelector("[data-status]")?.textContent).toBe("Active");
    expect(tr?.querySelector('button[title="Files is not available to this tenant"]')?.hasAttribute("disabled")).toBe(true);
  });

  it("offers no module the code does not serve, even one the database still lists from an older catalogue", async () => {
    await ensureCatalogue();
    await env.DB.prepare(
      "INSERT OR IGNORE INTO modules (id, label, route, icon, default_config, sort_order) VALUES ('fax', 'Fax', '/fax', 'printer', '{}', 90)",
    ).run();
    const t = await createTenant();
    const { b } = await platformAdmin(["system.superadmin", "system.tenants.modules"]);
    const tr = (await page(await b.get(CONSOLE))).querySelector(`tr[data-tenant="${t.slug}"]`);
    expect(tr?.querySelector('button[title="Enable Files"]')).not.toBeNull();
    expect(tr?.textContent).not.toContain("Fax");

    const res = await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "fax", enabled: "true" });
    expect(await shownText(await b.follow(res, CONSOLE))).toContain("Module not found");
    expect(await count("tenant_modules", "tenant_id = ? AND module_id = 'fax' AND enabled = 1", t.id)).toBe(0);
  });

  it("validates the form: a custom tier needs a limit, a limit needs the custom tier, the first admin's e-mail is required, a taken slug is refused", async () => {
    const existing = await createTenant();
    const { b } = await platformAdmin(["system.superadmin", "system.tenants.create"]);
    const s = slug();
    const noLimit = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "No Limit Ltd", storageTier: "custom", adminEmail: "a@b.test" });
    expect(noLimit.status).toBe(400);
    expect(fieldMessage(await page(noLimit), "customLimitGib")).toBe("Enter the custom limit in GiB");
    const stray = await b.post(CONSOLE, {
      intent: "create-tenant",
      slug: s,
      name: "Stray Ltd",
      storageTier: "starter",
      customLimitGib: "10",
      adminEmail: "a@b.test",
    });
    expect(stray.status).toBe(400);
    expect(fieldMessage(await page(stray), "customLimitGib")).toBe("A custom limit needs the custom tier");
    const noAdmin = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "No Admin Ltd" });
    expect(noAdmin.status).toBe(400);
    expect(fieldMessage(await page(noAdmin), "adminEmail")).toBe("The first admin's email is required");
    const badAdmin = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "Bad Admin Ltd", adminEmail: "not-an-email" });
    expect(fieldMessage(await page(badAdmin), "adminEmail")).toBe("Enter a valid email address");
    const taken = await b.post(CONSOLE, { intent: "create-tenant", slug: existing.slug, name: "Taken Ltd", adminEmail: "a@b.test" });
    expect(taken.status).toBe(400);
    expect(fieldMessage(await page(taken), "slug")).toBe("That slug is already taken");
    expect(await count("tenants", "slug = ?", s)).toBe(0);
  });
});

describe("/superadmin: suspending a tenant", () => {
  it("asks first, then suspends: pages and sign-in answer the suspended page, sessions end; reinstating lets people back", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "admin" });
    const staff = await signIn(t, u);
    expect((await staff.get(`${t.origin}/welcome`)).status).toBe(200);
    const { id, b } = await platformAdmin(["system.superadmin"]);

    // Without JavaScript the first post is the confirmation step and changes nothing.
    const ask = await b.post(CONSOLE, { intent: "suspend", tenantId: t.id, confirmed: "" });
    expect(ask.status).toBe(200);
    const askDoc = await page(ask);
    expect(askDoc.querySelector('[role="alertdialog"]')?.textContent).toContain(`Suspend ${t.name}?`);
    expect(await count("tenants", "id = ? AND suspended_at IS NOT NULL", t.id)).toBe(0);

    const done = await b.post(CONSOLE, { intent: "suspend", tenantId: t.id, confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(await count("tenants", "id = ? AND suspended_at IS NOT NULL", t.id)).toBe(1);
    expect(await count("sessions", "tenant_id = ? AND revoked_at IS NULL", t.id)).toBe(0);
    expect(await count("audit_events", "action = 'superadmin.tenant.suspended' AND actor_id = ? AND target_id = ?", id, t.id)).toBe(1);
    // A second suspend records nothing more.
    expect((await b.post(CONSOLE, { intent: "suspend", tenantId: t.id, confirmed: "yes" })).status).toBe(302);
    expect(await count("audit_events", "action = 'superadmin.tenant.suspended' AND target_id = ?", t.id)).toBe(1);

    for (const path of ["/welcome", "/login", "/settings/branding"]) {
      const res = await staff.get(`${t.origin}${path}`);
      expect(res.status).toBe(403);
      expect(await shownText(res)).toContain("This workspace is suspended");
    }
    const onHost = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password });
    expect(onHost.status).toBe(403);
    expect(await count("sessions", "tenant_id = ? AND revoked_at IS NULL", t.id)).toBe(0);
    // The bare domain's sign-in finds no account in a suspended workspace either.
    const { res: bare } = await bareSignIn(u.email, u.password);
    expect(bare.status).toBe(400);
    expect(await count("sessions", "tenant_id = ? AND revoked_at IS NULL", t.id)).toBe(0);
    expect((await page(await b.get(CONSOLE))).querySelector(`tr[data-tenant="${t.slug}"] [data-status]`)?.textContent).toBe("Suspended");

    expect((await b.post(CONSOLE, { intent: "reinstate", tenantId: t.id, confirmed: "yes" })).status).toBe(302);
    expect(await count("tenants", "id = ? AND suspended_at IS NULL", t.id)).toBe(1);
    expect(await count("audit_events", "action = 'superadmin.tenant.reinstated' AND actor_id = ? AND target_id = ?", id, t.id)).toBe(1);
    // The old session stays ended; signing in again works.
    expect(location(await staff.get(`${t.origin}/welcome`))).toContain("/login");
    const again = await signIn(t, u);
    expect((await again.get(`${t.origin}/welcome`)).status).toBe(200);
  });

  it("refuses suspending to anyone without system.superadmin, and tenant staff never reach the console", async () => {
    const t = await createTenant();
    const { b } = await platformAdmin(["system.tenants.create", "system.tenants.modules"]);
    expect((await b.post(CONSOLE, { intent: "suspend", tenantId: t.id, confirmed: "yes" })).status).toBe(403);
    expect((await b.get(AUDIT)).status).toBe(403);
    expect(await count("tenants", "id = ? AND suspended_at IS NOT NULL", t.id)).toBe(0);

    const admin = await createUser(t, { role: "admin" });
    const staff = await signIn(t, admin);
    expect((await staff.get(`${t.origin}/superadmin`)).status).toBe(404);
    expect((await staff.post(`${t.origin}/superadmin`, { intent: "suspend", tenantId: t.id, confirmed: "yes" })).status).toBe(404);
    expect((await staff.get(`${t.origin}/superadmin/audit`)).status).toBe(404);
    // Signed out on the bare domain: to the sign-in page.
    expect(location(await new Browser().get(AUDIT))).toContain("/login");
    expect(await count("tenants", "id = ? AND suspended_at IS NOT NULL", t.id)).toBe(0);
  });
});

describe("/superadmin/audit", () => {
  it("pages the platform audit log and filters it by tenant and by action", async () => {
    const a = await createTenant();
    const other = await createTenant();
    const { b } = await platformAdmin(["system.superadmin", "system.tenants.modules"]);
    await b.post(CONSOLE, { intent: "toggle-module", tenantId: a.id, moduleId: "files", enabled: "true" });
    await b.post(CONSOLE, { intent: "suspend", tenantId: a.id, confirmed: "yes" });
    await b.post(CONSOLE, { intent: "toggle-module", tenantId: other.id, moduleId: "files", enabled: "true" });

    const actions = (doc: Document) => [...doc.querySelectorAll("tr[data-action]")].map((r) => r.getAttribute("data-action"));
    const byTenant = await page(await b.get(`${AUDIT}?tenant=${a.id}`));
    expect(actions(byTenant)).toEqual(["superadmin.tenant.suspended", "superadmin.module.enabled"]);
    const byBoth = await page(await b.get(`${AUDIT}?tenant=${a.id}&action=superadmin.module.enabled`));
    expect(actions(byBoth)).toEqual(["superadmin.module.enabled"]);
    const byAction = actions(await page(await b.get(`${AUDIT}?action=superadmin.tenant.suspended`)));
    expect(byAction.length).toBeGreaterThan(0);
    expect(new Set(byAction)).toEqual(new Set(["superadmin.tenant.suspended"]));
    // A malformed filter is no filter, never an error.
    expect((await b.get(`${AUDIT}?action=${encodeURIComponent("x' OR 1=1 --")}&page=-3`)).status).toBe(200);
  });
});
