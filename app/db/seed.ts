import type { Role } from "./schema";
import { modules, platformAdmins, roleBundles, tenantModules, tenants, users } from "./schema";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { DEFAULT_ROLE_BUNDLES } from "../features/auth/default-bundles";
import { hashPassword } from "../features/auth/password.server";
import { MODULE_CATALOGUE } from "../features/platform/module-catalogue";

// Any drizzle SQLite database: D1 in tests, the SQL-collecting proxy in scripts/seed.ts.
// The driver result types differ between the two; the seed only writes, so they do not matter.
type AnyDb = BaseSQLiteDatabase<"async", unknown, Record<string, unknown>>;

export const SEED_PASSWORD = "workspace-demo-2026";

export const SEED_TENANTS = [
  { id: "tnt_acme", slug: "acme", name: "Acme Construction Ltd", modules: ["cis"] as string[], branding: { accentHsl: "145 100% 41%" } },
  { id: "tnt_globex", slug: "globex", name: "Globex Building Services", modules: [] as string[], branding: { accentHsl: "221 83% 53%", radius: "0.75rem" } },
];

export const SEED_USERS: { id: string; tenantId: string; email: string; role: Role; firstName: string; lastName: string; twoFactorRequired?: boolean }[] = [
  { id: "usr_acme_admin", tenantId: "tnt_acme", email: "admin@acme.test", role: "admin", firstName: "Alice", lastName: "Admin" },
  {
    id: "usr_acme_manager",
    tenantId: "tnt_acme",
    email: "manager@acme.test",
    role: "manager",
    firstName: "Maya",
    lastName: "Manager",
    twoFactorRequired: true,
  },
  { id: "usr_acme_lead", tenantId: "tnt_acme", email: "lead@acme.test", role: "lead", firstName: "Liam", lastName: "Lead" },
  { id: "usr_acme_staff", tenantId: "tnt_acme", email: "staff@acme.test", role: "standard", firstName: "Sam", lastName: "Staff" },
  { id: "usr_globex_admin", tenantId: "tnt_globex", email: "admin@globex.test", role: "admin", firstName: "Gina", lastName: "Admin" },
  { id: "usr_globex_staff", tenantId: "tnt_globex", email: "staff@globex.test", role: "standard", firstName: "Gus", lastName: "Staff" },
];

/**
 * Idempotent: fixed ids and INSERT OR IGNORE, so running it again changes nothing. `pepper` is
 * PASSWORD_PEPPER as the server that will check these passwords reads it.
 */
export async function seedPlatform(db: AnyDb, secrets: { pepper: string }, now = Date.now()): Promise<void> {
  // One hash for every account: each PBKDF2 run is deliberately slow.
  const passwordHash = await hashPassword({ PASSWORD_PEPPER: secrets.pepper }, SEED_PASSWORD);
  for (const m of MODULE_CATALOGUE) {
    await db
      .insert(modules)
      .values({ ...m, defaultConfig: { ...m.defaultConfig } })
      .onConflictDoNothing();
  }
  for (const t of SEED_TENANTS) {
    await db
      .insert(tenants)
      .values({ id: t.id, slug: t.slug, name: t.name, branding: t.branding, availableModules: null, createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    for (const m of MODULE_CATALOGUE) {
      await db
        .insert(tenantModules)
        .values({ tenantId: t.id, moduleId: m.id, enabled: t.modules.includes(m.id), config: {}, updatedAt: now })
        .onConflictDoNothing();
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
        passwordHash,
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
      scopes: ["system.superadmin", "system.tenants.create", "system.tenants.modules"],
      passwordHash,
      createdAt: now,
    })
    .onConflictDoNothing();
}

// ---------------------------------------------------------------------------
// CIS demo data: acme has active settings and ~25 subcontractors; globex has CIS inactive.

export type SeedSecrets = { piiKeys: string; hmacKey: string };

const DEMO_SUBCONTRACTORS: {
  name: string;
  type: "individual" | "company" | "partnership";
  status: "gross" | "standard" | "higher";
  method?: "online" | "phone" | "letter";
  nino?: string;
  company?: string;
  email?: string;
  phone?: string;
  archived?: boolean;
}[] = [
  {
    name: "Hartley Groundworks Ltd",
    type: "company",
    status: "gross",
    method: "online",
    company: "09876543",
    email: "accounts@hartleygroundworks.test",
    phone: "01632960001",
  },
  {
    name: "Priya Sharma",
    type: "individual",
    status: "standard",
    method: "online",
    nino: "JK123456A",
    email: "priya.sharma@example.test",
    phone: "07700900101",
  },
  { name: "Kowalski & Sons", type: "partnership", status: "standard", method: "phone", email: "office@kowalski.test", phone: "01632960002" },
  { name: "Tom Barker", type: "individual", status: "higher", nino: "AH234567B", phone: "07700900102" },
  { name: "Northgate Scaffolding Ltd", type: "company", status: "gross", method: "online", company: "SC123456", email: "info@northgate.test" },
  { name: "Aisha Okafor", type: "individual", status: "standard", method: "letter", nino: "CE345678C", email: "aisha.okafor@example.test" },
  {
    name: "Brightwell Electrical Ltd",
    type: "company",
    status: "standard",
    method: "online",
    company: "11223344",
    email: "jobs@brightwell.test",
    phone: "01632960003",
  },
  { name: "Dan Murphy", type: "individual", status: "standard", method: "online", nino: "ST456789D", email: "dan.murphy@example.test" },
  { name: "Evans Roofing Partnership", type: "partnership", status: "gross", method: "online", email: "evansroofing@example.test" },
  { name: "Lena Fischer", type: "individual", status: "standard", method: "phone", nino: "PR567890A", phone: "07700900103" },
  { name: "Greenfield Plastering Ltd", type: "company", status: "higher", company: "12345678", email: "greenfield@example.test" },
  { name: "Marcus Reid", type: "individual", status: "standard", method: "online", nino: "WL678901B", email: "marcus.reid@example.test", phone: "07700900104" },
  { name: "Oakridge Joinery Ltd", type: "company", status: "standard", method: "online", company: "08765432", email: "hello@oakridge.test" },
  { name: "Sofia Rossi", type: "individual", status: "gross", method: "online", nino: "JB789012C", email: "sofia.rossi@example.test" },
  { name: "Patel Brothers Building", type: "partnership", status: "standard", method: "letter", phone: "01632960004" },
  { name: "Callum Fraser", type: "individual", status: "standard", method: "online", nino: "KC890123D", email: "callum.fraser@example.test", archived: true },
  { name: "Ironbridge Steel Erectors Ltd", type: "company", status: "gross", method: "online", company: "07654321", email: "ops@ironbridge.test" },
  { name: "Hannah Lewis", type: "individual", status: "higher", nino: "LE901234A" },
  {
    name: "Riverside Drainage Ltd",
    type: "company",
    status: "standard",
    method: "phone",
    company: "06543210",
    email: "riverside@example.test",
    archived: true,
  },
  { name: "Jamal Ahmed", type: "individual", status: "standard", method: "online", nino: "MA012345B", email: "jamal.ahmed@example.test", phone: "07700900105" },
  { name: "Summit Glazing Ltd", type: "company", status: "standard", method: "online", company: "05432109", email: "sales@summitglazing.test" },
  { name: "O'Connor Plumbing Partnership", type: "partnership", status: "higher", email: "oconnor@example.test" },
  { name: "Ewa Nowak", type: "individual", status: "standard", method: "online", nino: "NW123456C", email: "ewa.nowak@example.test" },
  { name: "Westbury Demolition Ltd", type: "company", status: "gross", method: "letter", company: "04321098", archived: true },
  { name: "George Whitfield", type: "individual", status: "standard", method: "phone", nino: "RE234567D", phone: "07700900106" },
];

/** A valid-looking 10-digit demo UTR, different per row and stable between runs. */
function demoUtr(i: number): string {
  return String(1_000_000_000 + (((i + 1) * 7_919_131) % 8_999_999_999)).slice(0, 10);
}

export async function seedCis(db: AnyDb, secrets: SeedSecrets, now = Date.now()): Promise<void> {
  const { cisSettings, cisSubcontractors } = await import("./schema");
  const { encryptPii, maskNino, maskUtr, piiSearchHash } = await import("../features/cis/pii.server");
  const tenantId = "tnt_acme";
  const contractorUtr = "1234567890";
  await db
    .insert(cisSettings)
    .values({
      tenantId,
      active: true,
      companyName: "Acme Construction Ltd",
      employerRef: "123/AB45678",
      accountsOfficeRef: "123PA00012345",
      utrEnc: await encryptPii(secrets.piiKeys, contractorUtr, { tenantId, table: "cis_settings", recordId: tenantId, field: "utr" }),
      utrMasked: maskUtr(contractorUtr),
      vatScheme: "standard",
      emailStatements: true,
      warningDays: 3,
      statementDeadlineDays: 14,
      emailFrom: "cis@acme.test",
      emailReplyTo: "accounts@acme.test",
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const rates = { gross: 0, standard: 20, higher: 30 } as const;
  for (const [i, s] of DEMO_SUBCONTRACTORS.entries()) {
    const id = `sub_acme_${String(i + 1).padStart(2, "0")}`;
    const utr = demoUtr(i);
    const ctx = (field: string) => ({ tenantId, table: "cis_subcontractors", recordId: id, field });
    await db
      .insert(cisSubcontractors)
      .values({
        id,
        tenantId,
        type: s.type,
        name: s.name,
        nameLower: s.name.toLowerCase(),
        utrEnc: await encryptPii(secrets.piiKeys, utr, ctx("utr")),
        utrMasked: maskUtr(utr),
        utrHash: await piiSearchHash(secrets.hmacKey, tenantId, "utr", utr),
        ninoEnc: s.nino ? await encryptPii(secrets.piiKeys, s.nino, ctx("nino")) : null,
        ninoMasked: s.nino ? maskNino(s.nino) : null,
        companyNumber: s.company ?? null,
        email: s.email ?? null,
        phone: s.phone ?? null,
        verificationStatus: s.status,
        verificationRate: rates[s.status],
        verificationMethod: s.method ?? null,
        verificationReference: s.method ? `V${String(1_000_000_000 + i * 37).slice(0, 10)}${s.status === "higher" ? "A" : ""}` : null,
        verifiedDate: s.method ? "2026-04-10" : null,
        active: !s.archived,
        createdAt: now - (DEMO_SUBCONTRACTORS.length - i) * 86_400_000,
        updatedAt: now,
        createdBy: "usr_acme_admin",
        updatedBy: "usr_acme_admin",
      })
      .onConflictDoNothing();
  }
}
