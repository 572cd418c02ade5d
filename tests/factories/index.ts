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
  const [first, ...rest] = catalogueInserts(db);
  await db.batch([first, ...rest]);
}

function catalogueInserts(db: ReturnType<typeof getDb>) {
  return MODULE_CATALOGUE.map((m) =>
    db
      .insert(modules)
      .values({ ...m, defaultConfig: {} })
      .onConflictDoNothing(),
  );
}

const hashes = new Map<string, Promise<string>>();
/**
 * The stored hash for `password`, computed once per test file and password: a real hash (the
 * test pepper, full PBKDF2 cost), but not one derivation per user created. Users made with the
 * same password share its salt, which no test depends on.
 */
export function testPasswordHash(password = PASSWORD): Promise<string> {
  const key = `${env.PASSWORD_PEPPER}\n${password}`;
  let hash = hashes.get(key);
  if (!hash) {
    hash = hashPassword(env, password);
    hashes.set(key, hash);
    hash.catch(() => hashes.delete(key));
  }
  return hash;
}

export async function createTenant(
  opts: { name?: string; modules?: string[]; bundles?: Partial<Record<Role, string[]>>; requireTwoFactor?: boolean; availableModules?: string[] | null } = {},
): Promise<TestTenant> {
  const db = getDb(env);
  const slug = unique("t");
  const id = newId();
  const now = Date.now();
  const bundles = { ...DEFAULT_ROLE_BUNDLES, ...opts.bundles };
  // One round trip: the module catalogue (if missing), the tenant, its modules and role bundles.
  await db.batch([
    db.insert(tenants).values({
      id,
      slug,
      name: opts.name ?? `Tenant ${slug}`,
      branding: {},
      availableModules: opts.availableModules ?? null,
      requireTwoFactor: opts.requireTwoFactor ?? false,
      createdAt: now,
      updatedAt: now,
    }),
    ...catalogueInserts(db),
    db
      .insert(tenantModules)
      .values(MODULE_CATALOGUE.map((m) => ({ tenantId: id, moduleId: m.id, enabled: (opts.modules ?? []).includes(m.id), config: {}, updatedAt: now }))),
    db.insert(roleBundles).values(Object.entries(bundles).map(([name, scopes]) => ({ tenantId: id, name, scopes, updatedAt: now }))),
  ]);
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
    passwordHash: await testPasswordHash(opts.password ?? PASSWORD),
    passwordChangedAt: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { id, email, password: opts.password ?? PASSWORD, role: opts.role ?? "standard" };
}
