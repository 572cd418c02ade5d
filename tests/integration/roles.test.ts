import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { can } from "~/features/auth/scopes";
import { createTenant, createUser } from "../factories";
import { page, parseHtml, shownText, textOf } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";

const ROLES: Role[] = ["standard", "lead", "manager", "admin"];
const SESSION_COOKIE = "__Host-session";

type Expect = 200 | 403;

/**
 * Every tenant page so far, and what each default role gets, written out by hand (not computed
 * with can(), the function under test).
 */
const PAGES: { path: string; cis?: true; expect: Record<Role, Expect> }[] = [
  { path: "/welcome", expect: { standard: 200, lead: 200, manager: 200, admin: 200 } },
  { path: "/settings/audit", expect: { standard: 403, lead: 403, manager: 200, admin: 200 } },
  { path: "/cis", cis: true, expect: { standard: 200, lead: 200, manager: 200, admin: 200 } },
  { path: "/cis/analytics", cis: true, expect: { standard: 200, lead: 200, manager: 200, admin: 200 } },
  { path: "/cis/subcontractors", cis: true, expect: { standard: 200, lead: 200, manager: 200, admin: 200 } },
  { path: "/cis/subcontractors/new", cis: true, expect: { standard: 403, lead: 200, manager: 403, admin: 200 } },
  // Import creates subcontractors: cis.io.import and cis.sub.write together.
  { path: "/cis/subcontractors/import", cis: true, expect: { standard: 403, lead: 403, manager: 403, admin: 200 } },
  { path: "/cis/subcontractors/invite", cis: true, expect: { standard: 403, lead: 403, manager: 403, admin: 200 } },
  { path: "/cis/settings", cis: true, expect: { standard: 403, lead: 403, manager: 200, admin: 200 } },
];

/** Posts, each with the status a role gets (200: a confirmation step; 302 to the list: nothing to export). */
const ACTIONS: { path: string; form: Record<string, string>; expect: Record<Role, 200 | 302 | 403> }[] = [
  { path: "/cis/subcontractors", form: { intent: "bulk-archive", ids: "no-such-id" }, expect: { standard: 403, lead: 200, manager: 403, admin: 200 } },
  { path: "/cis/subcontractors/export", form: {}, expect: { standard: 403, lead: 302, manager: 302, admin: 302 } },
];

describe("route x role matrix", () => {
  for (const role of ROLES) {
    it(`${role}: gets exactly the table's answers, and nothing on another tenant's host with the same cookie`, async () => {
      const t = await createTenant({ modules: ["cis"] });
      const other = await createTenant({ modules: ["cis"] });
      const u = await createUser(t, { role });
      const b = await signedIn(t, u);
      // The same session cookie, replayed on the other tenant's host.
      const thief = new Browser();
      thief.setCookie(other.host, SESSION_COOKIE, b.cookie(t.host, SESSION_COOKIE) ?? "");
      expect(thief.cookie(other.host, SESSION_COOKIE)).toBeTruthy();
      for (const r of PAGES) {
        const res = await b.get(`${t.origin}${r.path}`);
        expect(res.status, `${role} ${r.path}`).toBe(r.expect[role]);
        if (r.expect[role] === 403) expect(await res.text()).toMatch(/Forbidden|permission/);
        const foreign = await thief.get(`${other.origin}${r.path}`);
        expect(foreign.status, `${role} ${r.path} on another tenant`).toBe(302);
        expect(location(foreign), `${role} ${r.path} on another tenant`).toContain("/login");
      }
      for (const a of ACTIONS) {
        const res = await b.post(`${t.origin}${a.path}`, a.form);
        expect(res.status, `${role} POST ${a.path}`).toBe(a.expect[role]);
        if (res.status === 302) expect(location(res)).not.toContain("/login");
        const foreign = await thief.post(`${other.origin}${a.path}`, a.form);
        expect(foreign.status, `${role} POST ${a.path} on another tenant`).toBe(302);
        expect(location(foreign)).toContain("/login");
      }
      // Tenant staff never reach the platform console.
      expect((await b.get(`${t.origin}/superadmin`)).status).toBe(404);
    });
  }

  it("audits a scope denial", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "standard" });
    const b = await signedIn(t, u);
    expect((await b.get(`${t.origin}/settings/audit`)).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied' AND actor_id = ?", t.id, u.id)).toBe(1);
  });

  it("reads the bundle on every request: a revoked scope stops working at once", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "manager" });
    const b = await signedIn(t, u);
    expect((await b.get(`${t.origin}/settings/audit`)).status).toBe(200);
    const scopes = DEFAULT_ROLE_BUNDLES.manager.filter((s) => s !== "tenant.view_settings");
    await env.DB.prepare("UPDATE role_bundles SET scopes = ? WHERE tenant_id = ? AND name = 'manager'").bind(JSON.stringify(scopes), t.id).run();
    expect((await b.get(`${t.origin}/settings/audit`)).status).toBe(403);
  });

  it("lets a scope check without a tenant pass only for system. scopes", () => {
    expect(can({ tenantId: null, scopes: ["*"] }, "notes.view")).toBe(false);
    expect(can({ tenantId: null, scopes: ["system.superadmin"] }, "system.superadmin")).toBe(true);
    expect(can({ tenantId: "t", scopes: ["files.*"] }, "files.upload")).toBe(true);
    // @ts-expect-error not a scope of any family: a typo fails typecheck, and is refused at run time
    expect(can({ tenantId: "t", scopes: ["files.*"] }, "filesystem.x")).toBe(false);
    expect(can({ tenantId: "t", scopes: ["cis.manage"] }, "cis.inv.approve")).toBe(true);
    expect(can({ tenantId: "t", scopes: ["cis.read"] }, "cis.sub.read")).toBe(true);
    expect(can({ tenantId: "t", scopes: ["cis.read"] }, "cis.sub.write")).toBe(false);
  });
});

describe("the person in the shell", () => {
  it("saves status at once with a plain form post", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signedIn(t, u);
    const res = await b.post(`${t.origin}/me/status`, { status: "busy", redirectTo: "/welcome" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/welcome");
    const row = await env.DB.prepare("SELECT user_status, user_status_updated_at FROM users WHERE id = ?")
      .bind(u.id)
      .first<{ user_status: string; user_status_updated_at: number }>();
    expect(row?.user_status).toBe("busy");
    expect(row?.user_status_updated_at).toBeGreaterThan(0);
    const welcome = await (await b.get(`${t.origin}/welcome`)).text();
    expect(parseHtml(welcome).querySelector('[data-status="busy"]')).not.toBeNull();
    expect(welcome).toContain("#F97316");
    expect((await b.post(`${t.origin}/me/status`, { status: "asleep" })).status).toBe(400);
  });

  it("answers the theme form with a redirect and a toast, without JavaScript, and renders the theme on the server", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signedIn(t, u);
    const res = await b.post(`${t.origin}/preferences/theme`, { theme: "dark", redirectTo: "/welcome" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/welcome");
    const doc = await page(await b.get(`${t.origin}/welcome`));
    expect(doc.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(textOf(doc, '[data-toast-type="success"]')).toContain("Theme updated");
    // The toast is shown once.
    expect(await shownText(await b.get(`${t.origin}/welcome`))).not.toContain("Theme updated");
    const row = await env.DB.prepare("SELECT theme_preference FROM users WHERE id = ?").bind(u.id).first<{ theme_preference: string }>();
    expect(row?.theme_preference).toBe("dark");
  });

  it("works for a signed-out visitor through the cookie alone", async () => {
    const b = new Browser();
    const res = await b.post("http://localhost/preferences/theme", { theme: "light", redirectTo: "//evil.test" });
    expect(location(res)).toBe("/");
    expect((await page(await b.get("http://localhost/"))).documentElement.getAttribute("data-theme")).toBe("light");
  });
});
