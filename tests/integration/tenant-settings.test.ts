import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { fieldMessage, linksTo, page, shownText, valueOf } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location } from "./http";

const VALID = { accentColor: "#1D4ED8", radius: "1rem", appearance: "dark", fontFamily: "Lora" };

async function branding(tenantId: string): Promise<Record<string, unknown>> {
  const row = await env.DB.prepare("SELECT branding FROM tenants WHERE id = ?").bind(tenantId).first<{ branding: string }>();
  return JSON.parse(row?.branding ?? "{}") as Record<string, unknown>;
}

async function staff(role: "admin" | "standard" | "manager" = "admin", opts: Parameters<typeof createTenant>[0] = {}) {
  const t = await createTenant(opts);
  const u = await createUser(t, { role });
  return { t, u, b: await signedIn(t, u) };
}

describe("/settings/branding", () => {
  it("saves a valid branding, audited, and the tenant's shell uses it on the next page at once", async () => {
    const { t, u, b } = await staff("admin");
    const res = await b.post(`${t.origin}/settings/branding`, VALID);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/settings/branding");
    expect(await branding(t.id)).toMatchObject({ accentColor: "#1D4ED8", accentHsl: "224 76% 48%", radius: "1rem", appearance: "dark", fontFamily: "Lora" });
    expect(await count("audit_events", "tenant_id = ? AND action = 'tenant.branding.updated' AND actor_id = ?", t.id, u.id)).toBe(1);

    // The shell: the root element carries the accent, radius and font, and the tenant's appearance sets the theme.
    const shell = await page(await b.get(`${t.origin}/welcome`));
    const html = shell.documentElement;
    expect(html.getAttribute("data-theme")).toBe("dark");
    const style = html.getAttribute("style") ?? "";
    expect(style).toContain("--accent:224 76% 48%");
    expect(style).toContain("--radius:1rem");
    expect(style).toContain('"Lora Variable"');

    // The server-rendered preview and the form show what was saved.
    const settings = await page(await b.get(`${t.origin}/settings/branding`));
    expect(valueOf(settings, "accentColor")).toBe("#1D4ED8");
    expect(valueOf(settings, "fontFamily")).toBe("Lora");
    const preview = settings.querySelector('[data-testid="branding-preview"]');
    expect(preview?.getAttribute("data-appearance")).toBe("dark");
    expect(preview?.getAttribute("style") ?? "").toContain("--accent:224 76% 48%");
  });

  it("answers invalid values with 400, a message next to each field, the input kept, and changes nothing", async () => {
    const { t, b } = await staff("admin");
    const res = await b.post(`${t.origin}/settings/branding`, { accentColor: "#12345G", radius: "2rem", appearance: "neon", fontFamily: "Comic Sans MS" });
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(fieldMessage(doc, "accentColor")).toBe("Enter the accent colour in the correct format: # and 6 hexadecimal digits, like #00D16A");
    expect(fieldMessage(doc, "radius")).toBe("Select a corner radius from the list");
    expect(fieldMessage(doc, "appearance")).toBe("Select light, dark or follow the system");
    expect(fieldMessage(doc, "fontFamily")).toBe("Select a font from the list");
    expect(valueOf(doc, "accentColor")).toBe("#12345G");
    expect(await branding(t.id)).toEqual({});
    expect(await count("audit_events", "tenant_id = ? AND action = 'tenant.branding.updated'", t.id)).toBe(0);
    // A value smuggling CSS is a validation error, never a style.
    const css = await b.post(`${t.origin}/settings/branding`, { ...VALID, accentColor: "#000000;background:url(x)" });
    expect(css.status).toBe(400);
    expect(await branding(t.id)).toEqual({});
  });

  it("needs branding.edit on the server: a manager gets 403 for the page and the post, the denial is audited, nothing changes", async () => {
    const { t, u, b } = await staff("manager");
    expect((await b.get(`${t.origin}/settings/branding`)).status).toBe(403);
    expect((await b.post(`${t.origin}/settings/branding`, VALID)).status).toBe(403);
    expect(await branding(t.id)).toEqual({});
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied' AND actor_id = ? AND payload LIKE '%branding.edit%'", t.id, u.id)).toBe(
      2,
    );
  });

  it("keeps tenants apart: an admin's cookie on another tenant's host saves nothing there", async () => {
    const { b } = await staff("admin");
    const other = await createTenant();
    const res = await b.post(`${other.origin}/settings/branding`, VALID);
    expect(res.status).toBe(302);
    expect(location(res)).toContain("/login");
    expect(await branding(other.id)).toEqual({});
    // And the bare domain has no tenant settings at all.
    expect((await b.get("http://localhost/settings/branding")).status).toBe(404);
  });
});

describe("/settings/modules", () => {
  it("switches modules within the tenant's available modules only, audited, and the shell follows", async () => {
    const { t, u, b } = await staff("admin", { availableModules: ["files", "notes"] });
    const before = await page(await b.get(`${t.origin}/settings/modules`));
    expect(before.querySelector('[data-module="cis"]')?.textContent).toContain("Not available to your workspace");
    expect(before.querySelector('[data-module="cis"] form')).toBeNull();

    const on = await b.post(`${t.origin}/settings/modules`, { moduleId: "files", enabled: "true" });
    expect(on.status).toBe(302);
    expect(await count("tenant_modules", "tenant_id = ? AND module_id = 'files' AND enabled = 1", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'tenant.module.enabled' AND actor_id = ? AND target_id = 'files'", t.id, u.id)).toBe(1);
    expect(linksTo(await page(await b.get(`${t.origin}/welcome`)), "Files")).toContain("/files");

    // A module outside availableModules is refused however the form is forged.
    const forged = await b.post(`${t.origin}/settings/modules`, { moduleId: "cis", enabled: "true" });
    expect(forged.status).toBe(302);
    expect(await shownText(await b.follow(forged, `${t.origin}/settings/modules`))).toContain("That module is not available to your workspace");
    expect(await count("tenant_modules", "tenant_id = ? AND module_id = 'cis' AND enabled = 1", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'tenant.module.enabled' AND target_id = 'cis'", t.id)).toBe(0);

    expect((await b.post(`${t.origin}/settings/modules`, { moduleId: "files", enabled: "false" })).status).toBe(302);
    expect(await count("tenant_modules", "tenant_id = ? AND module_id = 'files' AND enabled = 1", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'tenant.module.disabled' AND target_id = 'files'", t.id)).toBe(1);
    // Anything but "true"/"false" is no decision.
    expect((await b.post(`${t.origin}/settings/modules`, { moduleId: "files", enabled: "maybe" })).status).toBe(400);
  });

  it("offers no module the code does not serve, even one a database still lists from an older catalogue", async () => {
    // A catalogue row and a switched-on module left from when a fax module was listed but had no pages.
    await env.DB.prepare(
      "INSERT OR IGNORE INTO modules (id, label, route, icon, default_config, sort_order) VALUES ('fax', 'Fax', '/fax', 'printer', '{}', 40)",
    ).run();
    const { t, b } = await staff("admin", { modules: ["files"] });
    await env.DB.prepare("INSERT INTO tenant_modules (tenant_id, module_id, enabled, config, updated_at) VALUES (?, 'fax', 1, '{}', 0)").bind(t.id).run();

    const settings = await page(await b.get(`${t.origin}/settings/modules`));
    expect(settings.querySelector('[data-module="files"]')).not.toBeNull();
    expect(settings.querySelector('[data-module="fax"]')).toBeNull();
    const shell = await page(await b.get(`${t.origin}/welcome`));
    expect(linksTo(shell, "Files")).toContain("/files");
    expect(linksTo(shell, "Fax")).toEqual([]);

    const res = await b.post(`${t.origin}/settings/modules`, { moduleId: "fax", enabled: "true" });
    expect(res.status).toBe(302);
    expect(await shownText(await b.follow(res, `${t.origin}/settings/modules`))).toContain("That module does not exist");
    expect(await count("audit_events", "tenant_id = ? AND target_id = 'fax'", t.id)).toBe(0);
  });

  it("needs modules.edit on the server, and touches only the signed-in person's tenant", async () => {
    const { t, b } = await staff("standard");
    expect((await b.get(`${t.origin}/settings/modules`)).status).toBe(403);
    expect((await b.post(`${t.origin}/settings/modules`, { moduleId: "files", enabled: "true" })).status).toBe(403);
    expect(await count("tenant_modules", "tenant_id = ? AND enabled = 1", t.id)).toBe(0);

    const admin = await staff("admin");
    const other = await createTenant();
    const res = await admin.b.post(`${other.origin}/settings/modules`, { moduleId: "files", enabled: "true" });
    expect(location(res)).toContain("/login");
    expect(await count("tenant_modules", "tenant_id = ? AND enabled = 1", other.id)).toBe(0);
  });
});

describe("/welcome with no modules switched on", () => {
  it("tells an admin where modules are switched on, with a link to the module settings", async () => {
    const { t, b } = await staff("admin");
    const doc = await page(await b.get(`${t.origin}/welcome`));
    const text = doc.body.textContent ?? "";
    expect(text).toContain("No modules are switched on yet");
    expect(linksTo(doc, "Switch modules on")).toEqual(["/settings/modules"]);
    expect(text).not.toContain("Your workspace administrator");
    // The link leads to a page the admin may open.
    expect((await b.get(`${t.origin}/settings/modules`)).status).toBe(200);
  });

  it("tells others that their administrator switches modules on, with no link they could not follow", async () => {
    const { t, b } = await staff("standard");
    const doc = await page(await b.get(`${t.origin}/welcome`));
    const text = doc.body.textContent ?? "";
    expect(text).toContain("Your workspace administrator can enable modules such as CIS and Files.");
    expect(doc.querySelectorAll('a[href="/settings/modules"]').length).toBe(0);
  });
});
