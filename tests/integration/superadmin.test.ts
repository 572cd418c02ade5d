import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { platformAdmins } from "~/db/schema";
import { hashPassword } from "~/features/auth/password.server";
import type { Scope } from "~/features/auth/scopes";
import { newId } from "~/utils/ids";
import { createTenant as createTenantAsAdmin } from "~/features/superadmin/console.server";
import { createTenant, ensureCatalogue } from "../factories";
import { shownText } from "../factories/html";
import { count, signInPlatform } from "./auth-helpers";
import { location } from "./http";

const CONSOLE = "http://localhost/superadmin";
const PASSWORD = "platform-admin-password";
const ALL: Scope[] = ["system.superadmin", "system.tenants.create", "system.tenants.modules"];

/** A platform admin holding exactly `scopes` (no super-admin flags), signed in on the bare domain. */
async function platformAdmin(scopes: Scope[]) {
  const id = newId();
  const email = `admin-${id.slice(0, 8).toLowerCase()}@platform.test`;
  await getDb(env)
    .insert(platformAdmins)
    .values({ id, email, displayName: "Platform Admin", scopes, passwordHash: await hashPassword(env, PASSWORD), createdAt: Date.now() });
  const b = await signInPlatform(email, PASSWORD);
  return { id, b };
}

async function moduleEnabled(tenantId: string, moduleId: string): Promise<number> {
  return count("tenant_modules", "tenant_id = ? AND module_id = ? AND enabled = 1", tenantId, moduleId);
}

async function auditCount(action: string, actorId: string): Promise<number> {
  return count("audit_events", "action = ? AND actor_id = ?", action, actorId);
}

const slug = () => `sa${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

describe("/superadmin: creating a tenant", () => {
  it("needs system.tenants.create: a platform admin without it gets 403, nothing is created, the denial is audited", async () => {
    const { id, b } = await platformAdmin(["system.superadmin", "system.tenants.modules"]);
    const s = slug();
    const res = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "Not Allowed Ltd", adminEmail: "first@admin.test" });
    expect(res.status).toBe(403);
    expect(await count("tenants", "slug = ?", s)).toBe(0);
    expect(await auditCount("superadmin.tenant.created", id)).toBe(0);
    expect(await count("audit_events", "action = 'auth.scope.denied' AND actor_id = ? AND payload LIKE '%system.tenants.create%'", id)).toBe(1);
  });

  it("creates the tenant with the scope, and answers a taken slug with 400 and its message", async () => {
    const { id, b } = await platformAdmin(ALL);
    const s = slug();
    const res = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "Made Here Ltd", adminEmail: "first@admin.test" });
    expect(res.status).toBe(302);
    expect(await count("tenants", "slug = ?", s)).toBe(1);
    expect(await auditCount("superadmin.tenant.created", id)).toBe(1);
    const dup = await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "Again Ltd", adminEmail: "first@admin.test" });
    expect(dup.status).toBe(400);
    expect(await shownText(dup)).toContain("That slug is already taken");
    expect(await count("tenants", "slug = ?", s)).toBe(1);
  });

  it("answers an invalid slug with 400 and the field message", async () => {
    const { b } = await platformAdmin(ALL);
    const res = await b.post(CONSOLE, { intent: "create-tenant", slug: "-Bad Slug-", name: "Bad Ltd", adminEmail: "first@admin.test" });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("Use lower-case letters, digits and hyphens");
  });
});

describe("/superadmin: switching a tenant's modules", () => {
  it("needs system.tenants.modules: a platform admin without it gets 403 and nothing changes", async () => {
    const t = await createTenant();
    const { id, b } = await platformAdmin(["system.superadmin", "system.tenants.create"]);
    const res = await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "cis", enabled: "true" });
    expect(res.status).toBe(403);
    expect(await moduleEnabled(t.id, "cis")).toBe(0);
    expect(await auditCount("superadmin.module.enabled", id)).toBe(0);
    expect(await count("audit_events", "action = 'auth.scope.denied' AND actor_id = ? AND payload LIKE '%system.tenants.modules%'", id)).toBe(1);
  });

  it("switches a module on and off with the scope, audited", async () => {
    const t = await createTenant();
    const { id, b } = await platformAdmin(["system.superadmin", "system.tenants.modules"]);
    expect((await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "cis", enabled: "true" })).status).toBe(302);
    expect(await moduleEnabled(t.id, "cis")).toBe(1);
    expect((await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "cis", enabled: "false" })).status).toBe(302);
    expect(await moduleEnabled(t.id, "cis")).toBe(0);
    expect(await auditCount("superadmin.module.enabled", id)).toBe(1);
    expect(await auditCount("superadmin.module.disabled", id)).toBe(1);
  });

  it("refuses a malformed toggle with 400 and changes nothing", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { id, b } = await platformAdmin(ALL);
    // Anything but "true"/"false" is not a decision to switch the module off.
    const res = await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "cis", enabled: "maybe" });
    expect(res.status).toBe(400);
    expect(await moduleEnabled(t.id, "cis")).toBe(1);
    expect(await auditCount("superadmin.module.disabled", id)).toBe(0);
    const missing = await b.post(CONSOLE, { intent: "toggle-module", moduleId: "cis", enabled: "false" });
    expect(missing.status).toBe(400);
    expect(await moduleEnabled(t.id, "cis")).toBe(1);
  });

  it("changes nothing for an unknown tenant, an unknown module or a module the tenant may not have", async () => {
    await ensureCatalogue();
    const t = await createTenant({ availableModules: [] });
    const { id, b } = await platformAdmin(ALL);
    for (const form of [
      { tenantId: "no-such-tenant", moduleId: "cis" },
      { tenantId: t.id, moduleId: "no-such-module" },
      { tenantId: t.id, moduleId: "cis" },
    ]) {
      const res = await b.post(CONSOLE, { intent: "toggle-module", ...form, enabled: "true" });
      expect(res.status).toBe(302);
      expect(location(res)).toBe("/superadmin");
    }
    expect(await moduleEnabled(t.id, "cis")).toBe(0);
    expect(await auditCount("superadmin.module.enabled", id)).toBe(0);
  });
});

describe("/superadmin: the console itself", () => {
  it("needs system.superadmin for the page and for every action, whatever else is held", async () => {
    const t = await createTenant();
    const { b } = await platformAdmin(["system.tenants.create", "system.tenants.modules"]);
    expect((await b.get(CONSOLE)).status).toBe(403);
    const s = slug();
    expect((await b.post(CONSOLE, { intent: "create-tenant", slug: s, name: "Sneaky Ltd", adminEmail: "first@admin.test" })).status).toBe(403);
    expect((await b.post(CONSOLE, { intent: "toggle-module", tenantId: t.id, moduleId: "cis", enabled: "true" })).status).toBe(403);
    expect(await count("tenants", "slug = ?", s)).toBe(0);
    expect(await moduleEnabled(t.id, "cis")).toBe(0);
  });

  it("answers an unknown intent with 400", async () => {
    const { b } = await platformAdmin(ALL);
    expect((await b.post(CONSOLE, { intent: "delete-everything" })).status).toBe(400);
  });
});

describe("creating tenants at the same time", () => {
  it("gives one of two simultaneous creations with the same slug the tenant and the other 'slug_taken', and writes nothing for the loser", async () => {
    await ensureCatalogue();
    const slug = `race${newId().slice(0, 8).toLowerCase()}`;
    const actor = { id: "platform-admin", email: "ops@example.com", name: "Ops", ip: null };
    const results = await Promise.all([
      createTenantAsAdmin(env, { slug, name: "First Race Ltd" }, actor),
      createTenantAsAdmin(env, { slug, name: "Second Race Ltd" }, actor),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "slug_taken" }]);
    expect(await count("tenants", "slug = ?", slug)).toBe(1);
    expect(await count("audit_events", "action = 'superadmin.tenant.created' AND payload LIKE ?", `%${slug}%`)).toBe(1);
  });
});
