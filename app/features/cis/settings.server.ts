import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cisSettings } from "~/db/schema";
import { DEFAULT_CIS_SETTINGS } from "./domain";

export type CisSettingsView = {
  active: boolean;
  companyName: string;
  employerRef: string;
  accountsOfficeRef: string;
  utrMasked: string | null;
  hasUtr: boolean;
  vatScheme: "standard" | "reduced" | "zero" | "flat";
  emailStatements: boolean;
  warningDays: number;
  statementDeadlineDays: number;
  emailFrom: string | null;
  emailReplyTo: string | null;
  statementFooter: string | null;
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
    warningDays: DEFAULT_CIS_SETTINGS.warningDays,
    statementDeadlineDays: DEFAULT_CIS_SETTINGS.statementDeadlineDays,
    emailFrom: null,
    emailReplyTo: null,
    statementFooter: null,
    updatedAt: null,
    fellBack,
  };
}

/** The tenant's CIS settings, or the defaults (inactive, 3 and 14 days) when absent or unreadable. */
export async function getCisSettings(env: Env, tenantId: string): Promise<CisSettingsView> {
  try {
    const [row] = await getDb(env).select().from(cisSettings).where(eq(cisSettings.tenantId, tenantId)).limit(1);
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
      warningDays: row.warningDays,
      statementDeadlineDays: row.statementDeadlineDays,
      emailFrom: row.emailFrom,
      emailReplyTo: row.emailReplyTo,
      statementFooter: row.statementFooter,
      updatedAt: row.updatedAt,
      fellBack: false,
    };
  } catch (err) {
    console.error("Failed to load CIS settings", err);
    return defaultSettingsView(true);
  }
}
