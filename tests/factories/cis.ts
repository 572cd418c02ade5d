import { env } from "cloudflare:workers";
import type { Role } from "~/db/schema";
import { subcontractorCreateSchema, utrCheckDigit } from "~/features/cis/domain";
import { archiveSubcontractors, createSubcontractor } from "~/features/cis/subcontractors/subcontractors.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser, type TestTenant } from "./index";
import { signedIn } from "./sessions";

let seq = 0;
/** A valid UTR (HMRC's check digit first) whose other nine digits are `n`'s last nine: distinct n, distinct UTRs. */
export function validUtr(n: number): string {
  const tail = String(Math.abs(Math.trunc(n)) % 1e9).padStart(9, "0");
  return `${utrCheckDigit(tail)}${tail}`;
}

/** A valid UTR unlikely to appear anywhere else (timestamps, ids, hashes). */
export function newUtr(): string {
  seq += 1;
  return validUtr((Math.floor(Math.random() * 9e4) + 1e4) * 1e4 + ((Date.now() + seq) % 1e4));
}

/** A new valid UTR ending in `last` (the local HMRC fake answers by the last digit: 9 is unmatched). */
export function newUtrEndingIn(last: string): string {
  return validUtr(Number(newUtr().slice(1, 9)) * 10 + Number(last));
}

/** An e-mail address no other test uses. */
export function newEmail(prefix = "sub"): string {
  return `${prefix}-${newId(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x")}@example.test`;
}

/** A tenant with the CIS module on; with `settings`, CIS settings stored for it as well. */
export async function cisTenant(opts: { name?: string; settings?: Parameters<typeof seedCisSettings>[1] } = {}) {
  const t = await createTenant({ name: opts.name, modules: ["cis"] });
  if (opts.settings) await seedCisSettings(t, opts.settings);
  return t;
}

/** A tenant with the CIS module on, a user with `role` and a browser signed in as them. */
export async function cisStaff(
  role: Role = "lead",
  opts: { tenant?: TestTenant; tenantOptions?: Parameters<typeof createTenant>[0]; settings?: Parameters<typeof seedCisSettings>[1] } = {},
) {
  const t = opts.tenant ?? (await createTenant({ modules: ["cis"], ...opts.tenantOptions }));
  if (opts.settings) await seedCisSettings(t, opts.settings);
  const u = await createUser(t, { role });
  const b = await signedIn(t, u);
  return { t, u, b };
}

/** CIS settings written straight to D1, so the set-up creates no audit or activity entry. */
export async function seedCisSettings(t: TestTenant, opts: { active?: boolean; warningDays?: number; companyName?: string; replyTo?: string | null } = {}) {
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO cis_settings (tenant_id, active, company_name, employer_ref, accounts_office_ref, warning_days, statement_deadline_days, email_reply_to, created_at, updated_at) VALUES (?, ?, ?, '123/AB12345', '123PG00012345', ?, 14, ?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET active = excluded.active, warning_days = excluded.warning_days, company_name = excluded.company_name, email_reply_to = excluded.email_reply_to",
  )
    .bind(t.id, opts.active === false ? 0 : 1, opts.companyName ?? "Test Co", opts.warningDays ?? 3, opts.replyTo ?? null, now, now)
    .run();
}

type SubSeed = Partial<Record<string, string | boolean | undefined>>;

/** A parsed create input with workable defaults (individual, fresh UTR, standard rate, active). */
export function subInput(input: SubSeed = {}) {
  return subcontractorCreateSchema.parse({
    type: "individual",
    name: `Sub ${newId(4)}`,
    utr: newUtr(),
    verificationStatus: "standard",
    active: true,
    ...input,
  });
}

const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };

type Actor = { id: string; email: string; name: string };

/** Creates straight through the data layer (fast set-up); the form is tested on its own. */
export async function seedSub(t: TestTenant, input: SubSeed = {}, opts: { active?: boolean; archived?: boolean; actor?: Actor } = {}) {
  const value = subInput(input);
  const actor = opts.actor ?? SEEDER;
  const res = await createSubcontractor(env, t.id, value, actor, { canVerify: true, ...(opts.active === undefined ? {} : { active: opts.active }) });
  if (!res.ok) throw new Error(res.code);
  if (opts.archived) await archiveSubcontractors(env, t.id, [res.id], actor);
  return { id: res.id, utr: value.utr, name: value.name, email: value.email ?? null };
}

/** The add-subcontractor form as a browser posts it, valid unless overridden. */
export function subForm(extra: Record<string, string> = {}) {
  return { type: "individual", name: "Valid Builder", utr: newUtr(), verificationStatus: "standard", active: "on", ...extra };
}

export const SETTINGS_UTR = "2234567890";

/** The CIS settings form as a browser posts it; an override of null leaves the field out. */
export function settingsForm(overrides: Record<string, string | null> = {}): Record<string, string> {
  const base: Record<string, string | null> = {
    intent: "settings",
    active: "on",
    companyName: "Acme Builders Ltd",
    employerRef: "123/AB12345",
    accountsOfficeRef: "123PG00012345",
    utr: SETTINGS_UTR,
    vatScheme: "standard",
    emailStatements: "on",
    warningDays: "3",
    statementDeadlineDays: "14",
    emailFrom: "cis@acme.test",
    emailReplyTo: "",
    statementFooter: "Thank you",
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
}
