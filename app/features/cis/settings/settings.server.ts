import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { cisSettings } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { activityInsert, auditInsert } from "~/features/platform/index.server";
import { type CisSettings, DEFAULT_CIS_SETTINGS, type VatScheme } from "../domain";
import { listCisRoleBundles, roleBundlesQuery, toCisRoleBundles, type CisRoleBundle } from "./role-bundles.server";
import { decryptPii, encryptPii, maskUtr, PiiError, type PiiContext } from "../pii.server";
import type { Result } from "~/utils/result";

export type CisSettingsView = {
  active: boolean;
  companyName: string;
  employerRef: string;
  accountsOfficeRef: string;
  utrMasked: string | null;
  hasUtr: boolean;
  vatScheme: VatScheme;
  emailStatements: boolean;
  /** The contractor is the end user of the work: new invoices do not default to the reverse charge. */
  endUser: boolean;
  warningDays: number;
  statementDeadlineDays: number;
  emailFrom: string | null;
  emailReplyTo: string | null;
  statementFooter: string | null;
  /** Whether Government Gateway credentials are stored (their values never leave the server). */
  gatewayCredentials: boolean;
  /** When the credentials were last saved or cleared: the form starts empty again after each change. */
  gatewayCredentialsChangedAt: number | null;
  updatedAt: number | null;
  /** True when the stored document could not be read and the defaults are shown. */
  fellBack: boolean;
};

export function defaultSettingsView(fellBack = false): CisSettingsView {
  return {
    active: false,
    companyName: "",
    employerRef: "",
    accountsOfficeRef: "",
    utrMasked: null,
    hasUtr: false,
    vatScheme: "standard",
    emailStatements: true,
    endUser: false,
    warningDays: DEFAULT_CIS_SETTINGS.warningDays,
    statementDeadlineDays: DEFAULT_CIS_SETTINGS.statementDeadlineDays,
    emailFrom: null,
    emailReplyTo: null,
    statementFooter: null,
    gatewayCredentials: false,
    gatewayCredentialsChangedAt: null,
    updatedAt: null,
    fellBack,
  };
}

type SettingsRow = typeof cisSettings.$inferSelect;

function settingsView(row: SettingsRow | undefined): CisSettingsView {
  if (!row) return defaultSettingsView();
  return {
    active: row.active,
    companyName: row.companyName,
    employerRef: row.employerRef,
    accountsOfficeRef: row.accountsOfficeRef,
    utrMasked: row.utrMasked,
    hasUtr: Boolean(row.utrEnc),
    vatScheme: row.vatScheme,
    emailStatements: row.emailStatements,
    endUser: row.endUser,
    warningDays: row.warningDays,
    statementDeadlineDays: row.statementDeadlineDays,
    emailFrom: row.emailFrom,
    emailReplyTo: row.emailReplyTo,
    statementFooter: row.statementFooter,
    gatewayCredentials: Boolean(row.gatewaySenderIdEnc && row.gatewayPasswordEnc),
    gatewayCredentialsChangedAt: row.gatewayCredentialsUpdatedAt ?? null,
    updatedAt: row.updatedAt,
    fellBack: false,
  };
}

function settingsQuery(db: Db, tenantId: string) {
  return db.select().from(cisSettings).where(eq(cisSettings.tenantId, tenantId)).limit(1);
}

/** The tenant's CIS settings, or the defaults (inactive, 3 and 14 days) when absent or unreadable. */
export async function getCisSettings(env: Env, tenantId: string): Promise<CisSettingsView> {
  try {
    const [row] = await settingsQuery(dbFor(env, tenantId), tenantId);
    return settingsView(row);
  } catch (err) {
    console.error("Failed to load CIS settings", err);
    return defaultSettingsView(true);
  }
}

/**
 * What the settings screen shows, in one D1 round trip: the settings document and the role
 * bundles holding CIS scopes. If the batch fails the settings fall back to the defaults, as a
 * failed settings read always does, and the bundles are read on their own.
 */
export async function getSettingsScreen(env: Env, tenantId: string): Promise<{ settings: CisSettingsView; bundles: CisRoleBundle[] }> {
  const db = dbFor(env, tenantId);
  try {
    const [[row], bundleRows] = await db.batch([settingsQuery(db, tenantId), roleBundlesQuery(db, tenantId)]);
    return { settings: settingsView(row), bundles: toCisRoleBundles(bundleRows) };
  } catch (err) {
    console.error("Failed to load CIS settings", err);
    return { settings: defaultSettingsView(true), bundles: await listCisRoleBundles(env, tenantId) };
  }
}

// ---------------------------------------------------------------------------
// Saving

/** "encrypt_failed": the UTR could not be encrypted; "save_failed": anything else (nothing was written). */
export type SaveSettingsResult = Result<{ changedFields: string[]; activated: boolean; deactivated: boolean }, "encrypt_failed" | "save_failed">;

/** Fields compared for the audit entry; the UTR is compared separately (it is stored encrypted). */
const PLAIN_FIELDS = [
  "active",
  "companyName",
  "employerRef",
  "accountsOfficeRef",
  "vatScheme",
  "emailStatements",
  "endUser",
  "warningDays",
  "statementDeadlineDays",
  "emailFrom",
  "emailReplyTo",
  "statementFooter",
] as const;

export function utrPiiContext(tenantId: string): PiiContext {
  return { tenantId, table: "cis_settings", recordId: tenantId, field: "utr" };
}

/**
 * Writes the tenant's settings document together with its audit and activity entries in one
 * D1 batch. A blank UTR keeps the stored one; a new one is encrypted (bound to this tenant's
 * settings row) and only its mask is stored in the clear. Audit payloads name the changed
 * fields, never their values.
 */
export async function saveCisSettings(env: Env, tenantId: string, input: CisSettings, actor: ActorAt, now = Date.now()): Promise<SaveSettingsResult> {
  try {
    const db = dbFor(env, tenantId);
    const [existing] = await db.select().from(cisSettings).where(eq(cisSettings.tenantId, tenantId)).limit(1);

    const values = {
      active: input.active,
      companyName: input.companyName,
      employerRef: input.employerRef,
      accountsOfficeRef: input.accountsOfficeRef,
      vatScheme: input.vatScheme,
      emailStatements: input.emailStatements,
      endUser: input.endUser,
      warningDays: input.warningDays,
      statementDeadlineDays: input.statementDeadlineDays,
      emailFrom: input.emailFrom ?? null,
      emailReplyTo: input.emailReplyTo ?? null,
      statementFooter: input.statementFooter ?? null,
    };

    const changedFields: string[] = PLAIN_FIELDS.filter((f) => !existing || existing[f] !== values[f]);
    let utr: { utrEnc: string; utrMasked: string } | null = null;
    if (input.utr !== undefined) {
      const same = existing?.utrEnc ? await storedUtrEquals(env, tenantId, existing.utrEnc, input.utr) : false;
      if (!same) {
        utr = { utrEnc: await encryptPii(env.PII_KEYS, input.utr, utrPiiContext(tenantId)), utrMasked: maskUtr(input.utr) };
        changedFields.push("utr");
      }
    }

    const wasActive = existing?.active ?? false;
    const activated = input.active && !wasActive;
    const deactivated = !input.active && wasActive;
    const audit = { tenantId, actorId: actor.id, actorEmail: actor.email, targetType: "cis_settings", targetId: tenantId, ip: actor.ip };

    const upsert = db
      .insert(cisSettings)
      .values({ tenantId, ...values, ...(utr ?? {}), createdAt: now, updatedAt: now, updatedBy: actor.id })
      .onConflictDoUpdate({ target: cisSettings.tenantId, set: { ...values, ...(utr ?? {}), updatedAt: now, updatedBy: actor.id } });

    const statements: BatchItem<"sqlite">[] = [
      upsert,
      auditInsert(db, { ...audit, action: "cis.settings.updated", payload: { changedFields } }, now),
      activityInsert(
        db,
        {
          tenantId,
          module: "cis",
          action: "settings.updated",
          entityType: "settings",
          entityId: tenantId,
          performedBy: actor.id,
          performedByName: actor.name,
          details: { changedFields },
        },
        now,
      ),
    ];
    if (activated) statements.push(auditInsert(db, { ...audit, action: "cis.module.activated" }, now));
    if (deactivated) statements.push(auditInsert(db, { ...audit, action: "cis.module.deactivated" }, now));
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return { ok: true, changedFields, activated, deactivated };
  } catch (err) {
    console.error("Failed to save CIS settings", err);
    // Only a code leaves: key and database details stay in the log.
    return { ok: false, code: err instanceof PiiError ? "encrypt_failed" : "save_failed" };
  }
}

async function storedUtrEquals(env: Env, tenantId: string, utrEnc: string, utr: string): Promise<boolean> {
  try {
    return (await decryptPii(env.PII_KEYS, utrEnc, utrPiiContext(tenantId))) === utr;
  } catch {
    // An unreadable stored value is replaced by the new one.
    return false;
  }
}
