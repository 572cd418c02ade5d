import type { Role } from "./schema";
import { modules, platformAdmins, roleBundles, tenantModules, tenants, users } from "./schema";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { DEFAULT_ROLE_BUNDLES } from "../features/auth/default-bundles";
import { hashPassword } from "../features/auth/password.server";
import { MODULE_CATALOGUE } from "../features/platform/module-catalogue";

// Any drizzle SQLite database: D1 in tests, the SQL-collecting proxy in scripts/seed.ts.
// biome-ignore lint: the driver generics differ between D1 and the proxy.
type AnyDb = BaseSQLiteDatabase<"async", any, any>;

export const SEED_PASSWORD = "workspace-demo-2026";

export const SEED_TENANTS = [
  { id: "tnt_acme", slug: "acme", name: "Acme Construction Ltd", modules: ["cis"] as string[], branding: { accentHsl: "145 100% 41%" } },
  { id: "tnt_globex", slug: "globex", name: "Globex Building Services", modules: [] as string[], branding: { accentHsl: "221 83% 53%", radius: "0.75rem" } },
];

export const SEED_USERS: { id: string; tenantId: string; email: string; role: Role; firstName: string; lastName: string; twoFactorRequired?: boolean }[] = [
  { id: "usr_acme_admin", tenantId: "tnt_acme", email: "admin@acme.test", role: "admin", firstName: "Alice", lastName: "Admin" },
  { id: "usr_acme_manager", tenantId: "tnt_acme", email: "manager@acme.test", role: "manager", firstName: "Maya", lastName: "Manager", twoFactorRequired: true },
  { id: "usr_acme_lead", tenantId: "tnt_acme", email: "lead@acme.test", role: "lead", firstName: "Liam", lastName: "Lead" },
  { id: "usr_acme_staff", tenantId: "tnt_acme", email: "staff@acme.test", role: "standard", firstName: "Sam", lastName: "Staff" },
  { id: "usr_globex_admin", tenantId: "tnt_globex", email: "admin@globex.test", role: "admin", firstName: "Gina", lastName: "Admin" },
  { id: "usr_globex_staff", tenantId: "tnt_globex", email: "staff@globex.test", role: "standard", firstName: "Gus", lastName: "Staff" },
];

/** Idempotent: fixed ids and INSERT OR IGNORE, so running it again changes nothing. */
export async function seedPlatform(db: AnyDb, now = Date.now()): Promise<void> {
  for (const m of MODULE_CATALOGUE) {
    await db.insert(modules).values({ ...m, defaultConfig: { ...m.defaultConfig } }).onConflictDoNothing();
  }
  for (const t of SEED_TENANTS) {
    await db.insert(tenants).values({ id: t.id, slug: t.slug, name: t.name, branding: t.branding, availableModules: null, createdAt: now, updatedAt: now }).onConflictDoNothing();
    for (const m of MODULE_CATALOGUE) {
      await db.insert(tenantModules).values({ tenantId: t.id, moduleId: m.id, enabled: t.modules.includes(m.id), config: {}, updatedAt: now }).onConflictDoNothing();
    }
    for (const [name, scopes] of Object.entries(DEFAULT_ROLE_BUNDLES)) {
      await db.insert(roleBundles).values({ tenantId: t.id, name, scopes, updatedAt: now }).onConflictDoNothing();
    }
  }
  for (const u of SEED_USERS) {
    await db
      .insert(users)
      .values({
        id: u.id,
        tenantId: u.tenantId,
        email: u.email,
        displayName: `${u.firstName} ${u.lastName}`,
        firstName: u.firstName,
        lastName: u.lastName,
        username: u.email.split("@")[0],
        role: u.role,
        twoFactorRequired: u.twoFactorRequired ?? false,
        passwordHash: await hashPassword(SEED_PASSWORD),
        passwordChangedAt: 0,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
  }
  await db
    .insert(platformAdmins)
    .values({
      id: "adm_super",
      email: "superadmin@workspace.test",
      displayName: "Platform Super-admin",
      isSuperAdmin: true,
      scopes: ["system.superadmin", "system.tenants.create"],
      passwordHash: await hashPassword(SEED_PASSWORD),
      createdAt: now,
    })
    .onConflictDoNothing();
}
