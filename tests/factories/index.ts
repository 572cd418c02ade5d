import { env } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { modules, roleBundles, tenantModules, tenants, users, type Role } from "~/db/schema";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { hashPassword } from "~/features/auth/password.server";
import { MODULE_CATALOGUE } from "~/features/platform/module-catalogue";
import { newId } from "~/utils/ids";

export const PASSWORD = "correct-horse-battery";

export type TestTenant = { id: string; slug: string; name: string; host: string; origin: string };

let counter = 0;
function unique(prefix: string) {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

let uidSeq = 0;
/** A readable id no other test uses: prefix, time, sequence and a random tail. */
export const uid = (p: string) => `${p}-${Date.now().toString(36)}-${++uidSeq}-${Math.random().toString(36).slice(2, 8)}`;

export async function ensureCatalogue() {
  const db = getDb(env);
  for (const m of MODULE_CATALOGUE)
    await db
      .insert(modules)
      .values({ ...m, defaultConfig: {} })
      .onConflictDoNothing();
}

export async function createTenant(
  opts: { name?: string; modules?: string[]; bundles?: Partial<Record<Role, string[]>>; requireTwoFactor?: boolean; availableModules?: string[] | null } = {},
): Promise<TestTenant> {
  await ensureCatalogue();
  const db = getDb(env);
  const slug = unique("t");
  const id = newId();
  const now = Date.now();
  await db.insert(tenants).values({
    id,
    slug,
    name: opts.name ?? `Tenant ${slug}`,
    branding: {},
    availableModules: opts.availableModules ?? null,
    requireTwoFactor: opts.requireTwoFactor ?? false,
    createdAt: now,
    updatedAt: now,
  });
  for (const m of MODULE_CATALOGUE) {
    await db.insert(tenantModules).values({ tenantId: id, moduleId: m.id, enabled: (opts.modules ?? []).includes(m.id), config: {}, updatedAt: now });
  }
  const bundles = { ...DEFAULT_ROLE_BUNDLES, ...opts.bundles };
  for (const [name, scopes] of Object.entries(bundles)) await db.insert(roleBundles).values({ tenantId: id, name, scopes, updatedAt: now });
  const host = `${slug}.localhost`;
  return { id, slug, name: opts.name ?? `Tenant ${slug}`, host, origin: `http://${host}` };
}

export async function createUser(
  tenant: TestTenant,
  opts: { role?: Role; email?: string; password?: string; twoFactorRequired?: boolean; disabled?: boolean } = {},
) {
  const db = getDb(env);
  const id = newId();
  const email = (opts.email ?? `${unique("u")}@example.test`).toLowerCase();
  const now = Date.now();
  await db.insert(users).values({
    id,
    tenantId: tenant.id,
    email,
    displayName: `User ${email.split("@")[0]}`,
    role: opts.role ?? "standard",
    twoFactorRequired: opts.twoFactorRequired ?? false,
    disabled: opts.disabled ?? false,
    passwordHash: await hashPassword(env, opts.password ?? PASSWORD),
    passwordChangedAt: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { id, email, password: opts.password ?? PASSWORD, role: opts.role ?? "standard" };
}
