import type { Role, TenantBranding } from "./schema";
import { modules, platformAdmins, roleBundles, tenantModules, tenants, users } from "./schema";
import { chatMembers, chatMessages, chatRooms } from "./schema";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { DEFAULT_ROLE_BUNDLES } from "../features/auth";
import { hashPassword } from "../features/auth/index.server";
import { utrCheckDigit, type SubcontractorType, type VerificationStatus } from "../features/cis";
import { MODULE_CATALOGUE, type AuditAction } from "../features/platform";

// Any drizzle SQLite database: D1 in tests, the SQL-collecting proxy in scripts/seed.ts.
// The driver result types differ between the two; the seed only writes, so they do not matter.
type AnyDb = BaseSQLiteDatabase<"async", unknown, Record<string, unknown>>;

export const SEED_PASSWORD = "workspace-demo-2026";

export const SEED_TENANTS = [
  {
    id: "tnt_acme",
    slug: "acme",
    name: "Acme Construction Ltd",
    modules: ["cis", "files", "chat", "notes"] as string[],
    // The address is printed on acme's statements.
    branding: { accentHsl: "145 100% 41%", address: "Unit 4, Riverside Park\nLeeds\nLS1 4AB" } as TenantBranding,
  },
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
  type: SubcontractorType;
  status: VerificationStatus;
  method?: "online" | "phone" | "letter";
  nino?: string;
  company?: string;
  /** A VAT number: VAT registered, so new invoices from it default to the reverse charge. */
  vat?: string;
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
    vat: "GB123456789",
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
  {
    name: "Northgate Scaffolding Ltd",
    type: "company",
    status: "gross",
    method: "online",
    company: "SC123456",
    vat: "GB234567891",
    email: "info@northgate.test",
  },
  { name: "Aisha Okafor", type: "individual", status: "standard", method: "letter", nino: "CE345678C", email: "aisha.okafor@example.test" },
  {
    name: "Brightwell Electrical Ltd",
    type: "company",
    status: "standard",
    method: "online",
    company: "11223344",
    vat: "GB345678912",
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
/** A valid UTR per demo subcontractor: nine digits from i, HMRC's check digit in front. */
function demoUtr(i: number): string {
  const tail = String(((i + 1) * 7_919_131) % 1_000_000_000).padStart(9, "0");
  return `${utrCheckDigit(tail)}${tail}`;
}

export async function seedCis(db: AnyDb, secrets: SeedSecrets, now = Date.now()): Promise<void> {
  const { cisSettings, cisSubcontractors } = await import("./schema");
  const { encryptPii, maskNino, maskUtr, piiSearchHash } = await import("../features/cis/pii.server");
  const tenantId = "tnt_acme";
  const contractorUtr = "2234567890";
  await db
    .insert(cisSettings)
    .values({
      tenantId,
      active: true,
      companyName: "Acme Construction Ltd",
      employerRef: "123/AB45678",
      accountsOfficeRef: "123PG00012345",
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
        vatNumber: s.vat ?? null,
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
    // The audit trail of adding it (and of its verification), so the dashboard's Recent Activity has a history.
    const createdAt = now - (DEMO_SUBCONTRACTORS.length - i) * 86_400_000;
    await seedAudit(db, `aud_acme_${id}_created`, {
      action: "cis.subcontractor.created",
      actorId: "usr_acme_admin",
      targetType: "subcontractor",
      targetId: id,
      at: createdAt,
      payload: { type: s.type, verificationStatus: s.status },
    });
    if (s.method)
      await seedAudit(db, `aud_acme_${id}_verified`, {
        action: "cis.subcontractor.verified",
        actorId: "usr_acme_admin",
        targetType: "subcontractor",
        targetId: id,
        at: createdAt + 3_600_000,
        payload: { status: s.status, rate: rates[s.status], method: s.method },
      });
  }
}

const SEED_ACTOR_EMAILS: Readonly<Record<string, string>> = Object.fromEntries(SEED_USERS.map((u) => [u.id, u.email]));

/** One audit entry of acme's demo history, under a fixed id (a later run adds nothing). */
async function seedAudit(
  db: AnyDb,
  id: string,
  e: { action: AuditAction; actorId: string; targetType: string; targetId: string; at: number; payload: Record<string, unknown> },
): Promise<void> {
  const { auditEvents } = await import("./schema");
  await db
    .insert(auditEvents)
    .values({
      id,
      tenantId: "tnt_acme",
      action: e.action,
      actorId: e.actorId,
      actorEmail: SEED_ACTOR_EMAILS[e.actorId] ?? null,
      targetType: e.targetType,
      targetId: e.targetId,
      payload: e.payload,
      ip: null,
      createdAt: e.at,
    })
    .onConflictDoNothing();
}

// ---------------------------------------------------------------------------
// CIS demo invoices: about 120 for acme over the last four tax months, in every status.

const INVOICE_WORKS = [
  "Groundworks and foundations, plot 4",
  "First fix electrics, units 1-3",
  "Roof strip and re-tile",
  "Scaffold hire and erection, east elevation",
  "Plastering and skim, ground floor",
  "Second fix joinery: doors and skirting",
  "Drainage run and inspection chambers",
  "Steel frame erection, bay 2",
  "Glazing: curtain wall panels",
  "Bathroom plumbing and testing",
  "Brickwork to damp-proof course",
  "Demolition of rear extension",
] as const;
const JUSTIFICATIONS = [
  "Structural steel supplied by the subcontractor at cost",
  "Glazing units bought in by the subcontractor for this job",
  "Roof tiles and membranes supplied, invoices attached",
] as const;

/** 'YYYY-MM-DD' plus `days`, on the calendar (no time zone involved). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
const minDate = (a: string, b: string) => (a < b ? a : b);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * About 120 invoices for acme spread over the current tax month and the three before it
 * (relative to `now`, the day the seed runs), in every status: drafts, portal submissions,
 * approved, paid (with payment dates), cancelled, and a few soft-deleted; varied subcontractors,
 * materials shares (some at 60% or more, a few at 80% or more with a justification), VAT rates
 * and reverse charge. Every amount comes from the rules engine at the subcontractor's rate; some
 * approved and paid invoices carry statement flags. Fixed ids and INSERT OR IGNORE: running it
 * again, on any later day, changes nothing.
 */
// eslint-disable-next-line max-lines-per-function -- demo invoices built in one pass over the demo subcontractors; it only runs in development
export async function seedCisInvoices(db: AnyDb, now = Date.now()): Promise<void> {
  const { cisInvoices } = await import("./schema");
  const { maskNino, maskUtr } = await import("../features/cis/pii.server");
  const { currentTaxMonth, invoiceAmounts, londonDateParts, previousTaxMonth, RATE_FOR_VERIFICATION_STATUS, taxMonthOfDate } =
    await import("../features/cis/domain");
  const tenantId = "tnt_acme";
  const p = londonDateParts(new Date(now));
  const today = `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
  const months = [currentTaxMonth(new Date(now)).label];
  for (let k = 1; k < 4; k++) months.push(previousTaxMonth(months[k - 1]).label);
  const subs = DEMO_SUBCONTRACTORS.map((s, i) => ({ ...s, id: `sub_acme_${String(i + 1).padStart(2, "0")}`, i }));
  const active = subs.filter((s) => !s.archived);
  // Status patterns per month: the current month holds most of the work in progress, older months are mostly paid.
  const PATTERNS = [
    ["draft", "portal_draft", "approved", "draft", "paid", "approved", "draft", "cancelled", "portal_draft", "approved"],
    ["paid", "approved", "paid", "paid", "cancelled", "approved", "draft", "paid", "paid", "portal_draft"],
    ["paid", "paid", "paid", "cancelled", "paid", "approved", "paid", "paid", "paid", "paid"],
    ["paid", "paid", "cancelled", "paid", "paid", "paid", "paid", "approved", "paid", "paid"],
  ] as const;
  const COUNT = 120;
  for (let i = 0; i < COUNT; i++) {
    const k = i % 4;
    const n = Math.floor(i / 4);
    const status = PATTERNS[k][n % PATTERNS[k].length];
    // Archived subcontractors only appear on older, settled invoices (they worked before leaving).
    const sub = k >= 2 && status === "paid" && n % 7 === 3 ? subs.filter((s) => s.archived)[n % 3] : active[(i * 7) % active.length];
    const rate = RATE_FOR_VERIFICATION_STATUS[sub.status];
    const start = `${months[k]}-06`;
    const span = k === 0 ? daysBetween(start, today) : 27;
    const invoiceDate = addDays(start, (n * 5 + i) % (span + 1));
    const receivedDate = minDate(addDays(invoiceDate, i % 4), today);
    // Gross from £250 to about £12,000, in whole pounds and pence.
    const grossP = 25_000 + ((i * 7_919 + 1_234) % 1_175_000);
    const share = [0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.62, 0.7, 0.85][i % 10];
    const materialsP = Math.round(grossP * share);
    const vatRate = ([20, 20, 0, 5, 20, 0] as const)[i % 6];
    const reverseCharge = vatRate === 20 && sub.type !== "individual" && i % 4 === 1;
    const amounts = invoiceAmounts({ grossP, materialsP, cisRate: rate, vatRate, reverseCharge });
    const created = Date.parse(`${invoiceDate}T10:00:00Z`);
    const settled = status === "approved" || status === "paid";
    const paymentDate = status === "paid" ? minDate(addDays(invoiceDate, 7 + (i % 14)), today) : null;
    const utr = demoUtr(sub.i);
    const statementRequired = settled && i % 3 !== 2;
    const statementIssued = statementRequired && status === "paid" && k >= 2;
    const deleted = (status === "draft" || status === "cancelled") && n % 9 === 4;
    const seq = String(i + 1).padStart(3, "0");
    await db
      .insert(cisInvoices)
      .values({
        id: `inv_acme_${seq}`,
        tenantId,
        invoiceNumber: `${sub.name
          .replace(/[^A-Za-z]/g, "")
          .slice(0, 3)
          .toUpperCase()}-${months[k].replace("-", "")}-${seq}`,
        subcontractorId: sub.id,
        subcontractorName: sub.name,
        subcontractorNameLower: sub.name.toLowerCase(),
        utrMasked: maskUtr(utr),
        ninoMasked: sub.nino ? maskNino(sub.nino) : null,
        status,
        source: status === "portal_draft" ? "portal" : "staff",
        invoiceDate,
        receivedDate,
        paymentDate,
        description: INVOICE_WORKS[i % INVOICE_WORKS.length],
        // The tax month of the invoice date until paid, then of the payment date.
        taxMonth: taxMonthOfDate(paymentDate ?? invoiceDate).label,
        ...amounts,
        cisRate: rate,
        vatRate,
        reverseCharge,
        materialsJustification: share >= 0.8 ? JUSTIFICATIONS[i % JUSTIFICATIONS.length] : null,
        verificationStatus: settled ? sub.status : null,
        verificationRate: settled ? rate : null,
        verificationReference: settled && sub.method ? `V${String(1_000_000_000 + sub.i * 37).slice(0, 10)}${sub.status === "higher" ? "A" : ""}` : null,
        approvedAt: settled ? created + 86_400_000 : null,
        approvedBy: settled ? "usr_acme_manager" : null,
        lockedAt: settled ? created + 86_400_000 : null,
        paidAt: paymentDate ? Date.parse(`${paymentDate}T15:00:00Z`) : null,
        paidBy: paymentDate ? "usr_acme_admin" : null,
        cancelledAt: status === "cancelled" ? created + 2 * 86_400_000 : null,
        cancelledBy: status === "cancelled" ? "usr_acme_manager" : null,
        statementRequired,
        statementRequestedAt: statementRequired ? created + 86_400_000 : null,
        statementRequestedBy: statementRequired ? "usr_acme_manager" : null,
        statementIssuedAt: statementIssued && paymentDate ? Date.parse(`${paymentDate}T16:00:00Z`) : null,
        statementIssuedMethod: statementIssued ? "email" : null,
        createdAt: created,
        createdBy: status === "portal_draft" ? null : "usr_acme_lead",
        updatedAt: created + 2 * 86_400_000,
        updatedBy: status === "portal_draft" ? null : "usr_acme_lead",
        deletedAt: deleted ? created + 3 * 86_400_000 : null,
        deletedBy: deleted ? "usr_acme_admin" : null,
      })
      .onConflictDoNothing();
    // The approval and payment as the audit log records them (never later than the seed runs).
    const invoiceId = `inv_acme_${seq}`;
    if (settled) {
      await seedAudit(db, `aud_acme_${invoiceId}_approved`, {
        action: "cis.invoice.approved",
        actorId: "usr_acme_manager",
        targetType: "invoice",
        targetId: invoiceId,
        at: Math.min(created + 86_400_000, now - (COUNT - i) * 60_000),
        payload: { cisDeductionP: amounts.cisDeductionP, rate, verificationStatus: sub.status },
      });
    }
    if (paymentDate) {
      await seedAudit(db, `aud_acme_${invoiceId}_paid`, {
        action: "cis.invoice.paid",
        actorId: "usr_acme_admin",
        targetType: "invoice",
        targetId: invoiceId,
        at: Math.min(Date.parse(`${paymentDate}T15:00:00Z`), now - (COUNT - i) * 30_000),
        payload: { paymentDate, taxMonth: taxMonthOfDate(paymentDate).label },
      });
    }
  }
}

// ---------------------------------------------------------------------------
// Chat demo data: acme's site team group and two direct chats, with a morning of messages
// ending half an hour before the seed runs. Fixed ids: a later run adds nothing.

const CHAT_MORNING: { room: "site" | "admin-lead" | "lead-staff"; from: string; minutes: number; text: string }[] = [
  {
    room: "site",
    from: "usr_acme_lead",
    minutes: 0,
    text: "Morning all. Riverside Block B: scaffold inspection at 7:30, nobody on the lift shaft side until it's signed off.",
  },
  { room: "site", from: "usr_acme_staff", minutes: 6, text: "On site. Gate 2 padlock is seized again, using gate 1 for now." },
  { room: "site", from: "usr_acme_manager", minutes: 14, text: "Thanks Sam. Concrete pour for the level 3 slab is confirmed for 10:00, 32 m³ in four wagons." },
  { room: "site", from: "usr_acme_lead", minutes: 31, text: "Scaffold signed off. Tag is on the ladder access, photos in Files under Riverside/inspections." },
  { room: "site", from: "usr_acme_staff", minutes: 48, text: "@Liam Lead the pump operator is asking where to set up, north or east side?" },
  { room: "site", from: "usr_acme_lead", minutes: 52, text: "East side, by the welfare cabins. Keep the north road clear for the steel delivery." },
  { room: "site", from: "usr_acme_admin", minutes: 75, text: "Reminder: timesheets for last week by 12:00 please, payroll runs this afternoon." },
  { room: "site", from: "usr_acme_manager", minutes: 96, text: "Steel delivery is 20 minutes out. Banksman needed at the north gate." },
  { room: "site", from: "usr_acme_staff", minutes: 99, text: "I'll bank it in." },
  { room: "site", from: "usr_acme_lead", minutes: 140, text: "First wagon discharging now. Slump test passed, cubes taken." },
  { room: "site", from: "usr_acme_manager", minutes: 170, text: "Good work everyone. Brew break once wagon 4 is away." },
  { room: "admin-lead", from: "usr_acme_admin", minutes: 20, text: "Liam, can you send me the labour-only hours for the drylining gang before Friday?" },
  { room: "admin-lead", from: "usr_acme_lead", minutes: 44, text: "Will do. Two of them started mid-week so I'll split the days out." },
  { room: "admin-lead", from: "usr_acme_admin", minutes: 120, text: "Perfect, thanks. Their invoices are in CIS waiting for approval." },
  { room: "lead-staff", from: "usr_acme_lead", minutes: 10, text: "Sam, grab the spare harnesses from the container before you go up." },
  { room: "lead-staff", from: "usr_acme_staff", minutes: 12, text: "Done, two in the van as well." },
  { room: "lead-staff", from: "usr_acme_lead", minutes: 160, text: "Can you stay till 4 today? Need a hand striking the edge protection." },
];

export async function seedChat(db: AnyDb, now = Date.now()): Promise<void> {
  const tenantId = "tnt_acme";
  const start = now - 30 * 60_000 - 180 * 60_000;
  const rooms = [
    {
      id: "chr_acme_site",
      kind: "group" as const,
      name: "Riverside site team",
      directKey: null,
      people: ["usr_acme_lead", "usr_acme_admin", "usr_acme_manager", "usr_acme_staff"],
    },
    { id: "chr_acme_admin_lead", kind: "direct" as const, name: null, directKey: "usr_acme_admin:usr_acme_lead", people: ["usr_acme_admin", "usr_acme_lead"] },
    { id: "chr_acme_lead_staff", kind: "direct" as const, name: null, directKey: "usr_acme_lead:usr_acme_staff", people: ["usr_acme_lead", "usr_acme_staff"] },
  ];
  const roomOf = { site: rooms[0]!.id, "admin-lead": rooms[1]!.id, "lead-staff": rooms[2]!.id };
  for (const r of rooms) {
    const last = Math.max(...CHAT_MORNING.filter((m) => roomOf[m.room] === r.id).map((m) => start + m.minutes * 60_000));
    await db
      .insert(chatRooms)
      .values({
        id: r.id,
        tenantId,
        kind: r.kind,
        name: r.name,
        everyone: false,
        directKey: r.directKey,
        createdBy: r.people[0]!,
        createdAt: start - 86_400_000,
        lastActivityAt: last,
      })
      .onConflictDoNothing();
    for (const [i, userId] of r.people.entries()) {
      await db
        .insert(chatMembers)
        .values({ tenantId, roomId: r.id, userId, role: r.kind === "group" && i === 0 ? "admin" : "member", lastReadAt: start, joinedAt: start - 86_400_000 })
        .onConflictDoNothing();
    }
  }
  for (const [i, m] of CHAT_MORNING.entries()) {
    await db
      .insert(chatMessages)
      .values({
        id: `chm_acme_${String(i + 1).padStart(3, "0")}`,
        tenantId,
        roomId: roomOf[m.room],
        senderId: m.from,
        clientId: `seed-${i + 1}`,
        text: m.text,
        createdAt: start + m.minutes * 60_000,
      })
      .onConflictDoNothing();
  }
}

/** Demo notes for acme: site meetings, snagging lists, safety briefings, in three folders, some shared and pinned. */
const DEMO_NOTE_FOLDERS = [
  { id: "nfd_acme_site", name: "Riverside Park site", color: "#3B82F6" },
  { id: "nfd_acme_safety", name: "Health and safety", color: "#EF4444" },
  { id: "nfd_acme_office", name: "Office", color: "#8B5CF6" },
];

const DEMO_NOTES: {
  title: string;
  paras: string[];
  tags: string[];
  folder?: string;
  owner: string;
  shareWith?: string[];
  pinned?: boolean;
  favourite?: boolean;
  color?: string;
}[] = [
  {
    title: "Site meeting: week 12",
    paras: [
      "Attendees: Liam, Maya, groundworks foreman.",
      "Drainage runs to plot 14 finished; CCTV survey booked for Thursday.",
      "Scaffold on block B to be adapted for the roofers by Monday.",
    ],
    tags: ["meeting", "project"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
    shareWith: ["usr_acme_manager", "usr_acme_staff"],
    pinned: true,
  },
  {
    title: "Snagging list: plot 12",
    paras: [
      "Kitchen: door to the tall unit rubs the hinge side.",
      "Bathroom: silicone missing behind the basin.",
      "Bedroom 2: paint run on the window reveal.",
    ],
    tags: ["snagging", "todo"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
    favourite: true,
  },
  {
    title: "Toolbox talk: working at height",
    paras: [
      "Harness checks before each shift; tags in date.",
      "No ladder work above 2 m without a second person footing it.",
      "Report any scaffold tag that is missing or red.",
    ],
    tags: ["safety", "important"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
    shareWith: ["usr_acme_lead", "usr_acme_staff"],
    pinned: true,
    color: "#EF4444",
  },
  {
    title: "Crane lift plan: steel frame",
    paras: [
      "Lift supervisor: appointed person from the crane hire firm.",
      "Exclusion zone around the east gate from 07:30 to 11:00.",
      "Wind limit 20 mph; check the forecast at 06:30.",
    ],
    tags: ["safety", "planning"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
  },
  {
    title: "CIS month end reminders",
    paras: ["Verify the two new subcontractors before paying them.", "Statements go out by the 19th; the return by the 19th too."],
    tags: ["work", "followup"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
    pinned: true,
  },
  {
    title: "Snagging list: plot 9",
    paras: ["Front door threshold loose.", "Garage: consumer unit cover missing a screw.", "Landing: spindle loose at the top of the stairs."],
    tags: ["snagging", "todo"],
    folder: "nfd_acme_site",
    owner: "usr_acme_staff",
  },
  {
    title: "Site meeting: week 11",
    paras: ["Brickwork on plots 15 to 18 behind by three days: extra gang from Monday.", "Skip exchange moved to Tuesdays and Fridays."],
    tags: ["meeting"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
  },
  {
    title: "Near miss: unsecured pallet",
    paras: ["A pallet of blocks slipped on the forklift at the compound gate.", "No one hurt. Forks to be checked and the driver re-briefed."],
    tags: ["safety", "urgent"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_staff",
    shareWith: ["usr_acme_manager"],
  },
  {
    title: "Supplier call: roof tiles",
    paras: ["Delivery moved to the 14th; they will confirm the day before.", "Ask for the colour batch number to match plot 3."],
    tags: ["followup", "work"],
    owner: "usr_acme_lead",
  },
  {
    title: "Fire drill notes",
    paras: ["Assembly point by the site office; roll call took 6 minutes.", "Two visitors were not signed in: remind the gate."],
    tags: ["safety", "review"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
  },
  {
    title: "Plant hire: off-hire list",
    paras: ["Telehandler no. 2 off-hire Friday.", "Keep the 3-tonne dumper until drainage is signed off."],
    tags: ["work", "todo"],
    owner: "usr_acme_lead",
  },
  {
    title: "Client walk-round: show home",
    paras: ["Client happy with the kitchen finish.", "Wants the garden turfed before the launch weekend."],
    tags: ["meeting", "important"],
    folder: "nfd_acme_site",
    owner: "usr_acme_manager",
    favourite: true,
  },
  {
    title: "Weekly safety briefing: manual handling",
    paras: ["Lift with the legs; plasterboard is a two-person carry.", "Use the board trolley in the corridors."],
    tags: ["safety"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
  },
  {
    title: "Ideas for the site office",
    paras: ["Whiteboard with the week's deliveries.", "A drying room for wet gear."],
    tags: ["idea"],
    owner: "usr_acme_staff",
  },
  {
    title: "Subcontractor start: electrical first fix",
    paras: ["First fix on plots 19 to 22 starts Wednesday.", "They need the temporary supply extended to block C."],
    tags: ["project", "planning"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
    shareWith: ["usr_acme_staff"],
  },
  {
    title: "Snagging list: communal areas",
    paras: ["Bin store door closer too strong.", "Stair nosings missing on the second flight."],
    tags: ["snagging"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
  },
  {
    title: "Invoice queries to chase",
    paras: ["Groundworks invoice 118: labour and materials split missing.", "Roofing invoice 42: VAT reverse charge not stated."],
    tags: ["followup", "work"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
  },
  {
    title: "Site meeting: week 10",
    paras: ["Foundations signed off by building control for plots 19 to 22.", "Concrete pour for the garage slabs on Thursday."],
    tags: ["meeting"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
  },
  {
    title: "COSHH: new sealant",
    paras: ["Data sheet filed; gloves and eye protection required.", "Store in the flammables cage."],
    tags: ["safety", "reference"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
  },
  {
    title: "Training booked",
    paras: ["SSSTS for Liam in March.", "First aid refresher for two operatives."],
    tags: ["planning", "personal"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
  },
  {
    title: "Weather plan",
    paras: ["If frost below 2°C, no brickwork or concrete pours.", "Cover fresh brickwork with hessian overnight."],
    tags: ["planning", "reference"],
    owner: "usr_acme_manager",
  },
  {
    title: "Delivery schedule: week 13",
    paras: ["Mon: blocks. Tue: timber. Thu: plasterboard. Fri: kitchens for plots 5 and 6."],
    tags: ["planning"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
  },
  {
    title: "Snagging list: plot 5",
    paras: ["Hall: skirting gap by the meter cupboard.", "Kitchen: extractor not ducted."],
    tags: ["snagging", "todo"],
    folder: "nfd_acme_site",
    owner: "usr_acme_staff",
  },
  {
    title: "Handover checklist",
    paras: ["Certificates: electrical, gas safe, NHBC.", "Keys, manuals and meter readings recorded."],
    tags: ["reference", "todo"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
    favourite: true,
  },
  {
    title: "Site security",
    paras: ["Gate code changes on the 1st.", "CCTV camera 3 needs re-aiming at the compound."],
    tags: ["safety", "work"],
    owner: "usr_acme_manager",
  },
  {
    title: "Traffic management plan review",
    paras: ["One-way route for deliveries through the east gate.", "Banksman on every reversing lorry."],
    tags: ["safety", "review"],
    folder: "nfd_acme_safety",
    owner: "usr_acme_manager",
  },
  {
    title: "Questions for the architect",
    paras: ["Window head detail on plot 22.", "Can the bin store move 2 m west?"],
    tags: ["followup", "research"],
    owner: "usr_acme_lead",
  },
  {
    title: "Site meeting: week 9",
    paras: ["Services diversion complete.", "Hoarding graphics approved by the client."],
    tags: ["meeting"],
    folder: "nfd_acme_site",
    owner: "usr_acme_lead",
  },
  {
    title: "Holiday cover",
    paras: ["Maya covers the office in the first week of April."],
    tags: ["personal", "planning"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
  },
  {
    title: "Waste transfer notes",
    paras: ["File the skip firm's notes each month for the duty of care."],
    tags: ["reference"],
    folder: "nfd_acme_office",
    owner: "usr_acme_admin",
  },
];

export async function seedNotes(db: AnyDb, now = Date.now()): Promise<void> {
  const { noteFolders, notes, noteShares, noteVersions } = await import("./schema");
  const escapeHtml = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const tenantId = "tnt_acme";
  for (const [i, f] of DEMO_NOTE_FOLDERS.entries()) {
    await db
      .insert(noteFolders)
      .values({ ...f, tenantId, createdBy: "usr_acme_admin", createdAt: now - (40 - i) * 86_400_000, updatedAt: now - (40 - i) * 86_400_000 })
      .onConflictDoNothing();
  }
  for (const [i, n] of DEMO_NOTES.entries()) {
    const id = `note_acme_${String(i + 1).padStart(2, "0")}`;
    // Spread over the last six weeks, newest first, so every list heading has notes.
    const at = now - Math.round(i * i * 0.045 * 86_400_000) - i * 3_600_000;
    const content = n.paras.map((p) => `<p>${escapeHtml(p)}</p>`).join("");
    await db
      .insert(notes)
      .values({
        id,
        tenantId,
        title: n.title,
        content,
        text: n.paras.join("\n"),
        tags: n.tags,
        color: n.color ?? null,
        folderId: n.folder ?? null,
        isPinned: n.pinned ?? false,
        isFavorite: n.favourite ?? false,
        ownerId: n.owner,
        updatedBy: n.owner,
        version: 1,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing();
    await db
      .insert(noteVersions)
      .values({ id: `nver_${id}_1`, tenantId, noteId: id, version: 1, title: n.title, content, tags: n.tags, editedBy: n.owner, createdAt: at })
      .onConflictDoNothing();
    for (const userId of n.shareWith ?? []) {
      await db.insert(noteShares).values({ tenantId, noteId: id, userId, sharedBy: n.owner, createdAt: at }).onConflictDoNothing();
    }
  }
}

// ---------------------------------------------------------------------------
// Calendar demo data: acme has the calendar on, two teams, two sites, two calendars and a month
// of shifts, deliveries, toolbox talks and meetings around the day the seed runs.

// eslint-disable-next-line max-lines-per-function -- the schedule's demo data, owned by the calendar work in parallel
export async function seedSchedule(db: AnyDb, now = Date.now()): Promise<void> {
  const { calendarMembers, calendars, events, eventShares, eventTeams, siteMembers, sites, teamMembers, teams } = await import("./schema");
  const { addDays, londonToUtc, startOfWeek, todayYmd } = await import("../features/schedule/domain/time");
  const { seriesEnd, toRrule } = await import("../features/schedule/domain/recurrence");
  const t = "tnt_acme";
  await db
    .insert(tenantModules)
    .values({ tenantId: t, moduleId: "schedule", enabled: true, config: {}, updatedAt: now })
    .onConflictDoUpdate({ target: [tenantModules.tenantId, tenantModules.moduleId], set: { enabled: true } });
  const groups = [
    { table: teams, members: teamMembers, id: "team_acme_ground", name: "Groundworks", people: ["usr_acme_lead", "usr_acme_staff"], key: "teamId" },
    { table: teams, members: teamMembers, id: "team_acme_brick", name: "Brickwork", people: ["usr_acme_staff"], key: "teamId" },
    {
      table: sites,
      members: siteMembers,
      id: "site_acme_leeds",
      name: "Leeds Road",
      people: ["usr_acme_manager", "usr_acme_lead", "usr_acme_staff"],
      key: "siteId",
    },
    { table: sites, members: siteMembers, id: "site_acme_quay", name: "Kirkstall Quay", people: ["usr_acme_manager"], key: "siteId" },
  ] as const;
  for (const g of groups) {
    await db.insert(g.table).values({ id: g.id, tenantId: t, name: g.name, createdAt: now }).onConflictDoNothing();
    for (const userId of g.people) {
      await db
        .insert(g.members)
        .values({ tenantId: t, userId, [g.key]: g.id } as never)
        .onConflictDoNothing();
    }
  }
  const cals = [
    { id: "cal_acme_plant", name: "Plant hire", type: "resource" as const, color: "#F59E0B", people: ["usr_acme_manager", "usr_acme_lead"] },
    {
      id: "cal_acme_deliveries",
      name: "Site deliveries",
      type: "project" as const,
      color: "#3B82F6",
      people: ["usr_acme_manager", "usr_acme_lead", "usr_acme_staff"],
    },
  ];
  for (const c of cals) {
    await db
      .insert(calendars)
      .values({ id: c.id, tenantId: t, name: c.name, type: c.type, color: c.color, createdBy: "usr_acme_manager", createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    for (const userId of c.people) await db.insert(calendarMembers).values({ tenantId: t, calendarId: c.id, userId }).onConflictDoNothing();
  }
  // The Monday of the week the month began in: four and a half weeks of work from there.
  const monday = startOfWeek(`${todayYmd(now).slice(0, 8)}01`);
  type Seeded = {
    id: string;
    title: string;
    day: number;
    from: string;
    to: string;
    type: "shift" | "task" | "delivery" | "training" | "meeting";
    status?: "green" | "amber" | "red";
    visibility: "private" | "users" | "team" | "site" | "org";
    by: string;
    calendarId?: string;
    siteId?: string;
    rrule?: string;
    shares?: string[];
    teamIds?: string[];
  };
  const weekdays = [0, 1, 2, 3, 4];
  const list: Seeded[] = [
    {
      id: "evt_acme_ground_shift",
      title: "Groundworks shift, Leeds Road",
      day: 0,
      from: "07:30",
      to: "16:00",
      type: "shift",
      visibility: "team",
      by: "usr_acme_lead",
      teamIds: ["team_acme_ground"],
      rrule: toRrule({ freq: "weekly", interval: 1, weekdays, until: null, count: 25 }),
    },
    {
      id: "evt_acme_brick_shift",
      title: "Brickwork shift, plots 3-6",
      day: 0,
      from: "08:00",
      to: "16:30",
      type: "shift",
      visibility: "team",
      by: "usr_acme_manager",
      teamIds: ["team_acme_brick"],
      rrule: toRrule({ freq: "weekly", interval: 1, weekdays, until: null, count: 25 }),
    },
    {
      id: "evt_acme_toolbox",
      title: "Toolbox talk",
      day: 0,
      from: "07:00",
      to: "07:30",
      type: "training",
      visibility: "org",
      by: "usr_acme_manager",
      rrule: toRrule({ freq: "weekly", interval: 1, weekdays: [0], until: null, count: 5 }),
    },
    {
      id: "evt_acme_progress",
      title: "Progress meeting with the client",
      day: 3,
      from: "10:00",
      to: "11:00",
      type: "meeting",
      visibility: "site",
      by: "usr_acme_manager",
      siteId: "site_acme_leeds",
      rrule: toRrule({ freq: "weekly", interval: 1, weekdays: [3], until: null, count: 5 }),
    },
    {
      id: "evt_acme_bricks_1",
      title: "Delivery: 6,000 facing bricks",
      day: 1,
      from: "08:00",
      to: "09:00",
      type: "delivery",
      visibility: "org",
      by: "usr_acme_manager",
      calendarId: "cal_acme_deliveries",
    },
    {
      id: "evt_acme_concrete",
      title: "Concrete pour, plot 4 slab (C32/40, 18 m³)",
      day: 4,
      from: "07:30",
      to: "12:00",
      type: "delivery",
      status: "amber",
      visibility: "org",
      by: "usr_acme_lead",
      calendarId: "cal_acme_deliveries",
    },
    {
      id: "evt_acme_timber",
      title: "Delivery: roof trusses, plots 1-2",
      day: 9,
      from: "09:00",
      to: "10:00",
      type: "delivery",
      visibility: "org",
      by: "usr_acme_manager",
      calendarId: "cal_acme_deliveries",
    },
    {
      id: "evt_acme_scaffold",
      title: "Scaffold inspection",
      day: 8,
      from: "13:00",
      to: "14:00",
      type: "task",
      status: "red",
      visibility: "users",
      by: "usr_acme_manager",
      shares: ["usr_acme_lead"],
    },
    {
      id: "evt_acme_digger",
      title: "13 t excavator on hire",
      day: 14,
      from: "07:00",
      to: "17:00",
      type: "task",
      visibility: "org",
      by: "usr_acme_manager",
      calendarId: "cal_acme_plant",
    },
    {
      id: "evt_acme_blocks",
      title: "Delivery: aerated blocks and mortar",
      day: 16,
      from: "08:30",
      to: "09:30",
      type: "delivery",
      visibility: "org",
      by: "usr_acme_lead",
      calendarId: "cal_acme_deliveries",
    },
    {
      id: "evt_acme_cscs",
      title: "CSCS card renewal course",
      day: 17,
      from: "09:00",
      to: "15:00",
      type: "training",
      visibility: "private",
      by: "usr_acme_staff",
      shares: ["usr_acme_staff"],
    },
    {
      id: "evt_acme_handover",
      title: "Plot 1 handover walk-round",
      day: 25,
      from: "14:00",
      to: "15:30",
      type: "meeting",
      status: "amber",
      visibility: "site",
      by: "usr_acme_manager",
      siteId: "site_acme_leeds",
    },
  ];
  for (const e of list) {
    const date = addDays(monday, e.day);
    const startUtc = londonToUtc(date, e.from);
    const endUtc = londonToUtc(date, e.to);
    await db
      .insert(events)
      .values({
        id: e.id,
        tenantId: t,
        title: e.title,
        startUtc,
        endUtc,
        type: e.type,
        status: e.status ?? "green",
        visibility: e.visibility,
        calendarId: e.calendarId ?? null,
        siteId: e.siteId ?? null,
        sharedAll: e.visibility === "org" || e.visibility === "team" || e.visibility === "site",
        rrule: e.rrule ?? null,
        repeatUntil: e.rrule ? seriesEnd({ startUtc, endUtc, rrule: e.rrule }) : null,
        createdBy: e.by,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    for (const userId of e.shares ?? []) await db.insert(eventShares).values({ tenantId: t, eventId: e.id, userId }).onConflictDoNothing();
    for (const teamId of e.teamIds ?? []) await db.insert(eventTeams).values({ tenantId: t, eventId: e.id, teamId }).onConflictDoNothing();
  }
}
