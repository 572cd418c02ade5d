import { subcontractorSignatureRequests } from "~/features/files/index.server";
import { and, desc, eq } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { cisSettings, cisStatements } from "~/db/schema";
import { portalInvoicesQuery, type PortalInvoice } from "../invoices/portal-invoices.server";
import { ensureStatementPdf, type StatementFileFailure, type StatementPdf } from "./files.server";

/** What the portal shows of a statement: never another subcontractor's, never an unissued one. */
export type PortalStatement = {
  id: string;
  taxMonth: string;
  invoiceCount: number;
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
  issuedAt: number | null;
};

const PORTAL_STATEMENT_LIMIT = 120;
const PORTAL_HOME_INVOICES = 5;

function ownIssued(tenantId: string, subcontractorId: string) {
  return and(forTenant(cisStatements, tenantId), eq(cisStatements.subcontractorId, subcontractorId), eq(cisStatements.status, "issued"));
}

/**
 * The portal home's data in one D1 round trip: the contractor's name (the settings' company name,
 * else the tenant's), the subcontractor's latest invoices and their issued statements, newest
 * tax month first.
 */
export type PortalSignatureRequest = Awaited<ReturnType<typeof subcontractorSignatureRequests>>[number];

export async function portalHomeData(
  env: Env,
  tenant: { id: string; name: string },
  subcontractorId: string,
): Promise<{ contractorName: string; statements: PortalStatement[]; recentInvoices: PortalInvoice[]; signatureRequests: PortalSignatureRequest[] }> {
  const db = dbFor(env, tenant.id);
  const [settings, statements, recentInvoices, signatureRequests] = await db.batch([
    db.select({ companyName: cisSettings.companyName }).from(cisSettings).where(forTenant(cisSettings, tenant.id)).limit(1),
    db
      .select({
        id: cisStatements.id,
        taxMonth: cisStatements.taxMonth,
        invoiceCount: cisStatements.invoiceCount,
        grossP: cisStatements.grossP,
        materialsP: cisStatements.materialsP,
        cisDeductionP: cisStatements.cisDeductionP,
        issuedAt: cisStatements.issuedAt,
      })
      .from(cisStatements)
      .where(ownIssued(tenant.id, subcontractorId))
      .orderBy(desc(cisStatements.taxMonth), desc(cisStatements.id))
      .limit(PORTAL_STATEMENT_LIMIT),
    portalInvoicesQuery(db, tenant.id, subcontractorId, PORTAL_HOME_INVOICES),
    // Documents the contractor asked this subcontractor to sign (Files owns them).
    subcontractorSignatureRequests(db, tenant.id, subcontractorId),
  ]);
  return { contractorName: settings[0]?.companyName.trim() || tenant.name, statements, recentInvoices, signatureRequests };
}

/** The PDF of one of the subcontractor's own issued statements; anything else is not found. */
export async function portalStatementPdf(
  env: Env,
  tenantId: string,
  subcontractorId: string,
  statementId: string,
): Promise<StatementPdf | StatementFileFailure> {
  const [own] = await dbFor(env, tenantId)
    .select({ id: cisStatements.id })
    .from(cisStatements)
    .where(and(ownIssued(tenantId, subcontractorId), eq(cisStatements.id, statementId)))
    .limit(1);
  if (!own) return { ok: false, code: "not_found" };
  return ensureStatementPdf(env, tenantId, own.id);
}
