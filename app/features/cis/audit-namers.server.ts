import { and, eq, sql } from "drizzle-orm";
import { cisInvoices, cisReturns, cisStatements, cisSubcontractors, hmrcSubmissions } from "~/db/schema";
import type { AuditRef, ServerFeature } from "~/features/platform/index.server";
import { isTaxMonthLabel, taxMonthFromLabel } from "./domain/tax-month";

type Namers = NonNullable<ServerFeature["auditNamers"]>;

/** "6 October to 5 November 2026" for a stored tax month label; the label itself if it is not one. */
function period(label: unknown): string {
  return typeof label === "string" && isTaxMonthLabel(label) ? taxMonthFromLabel(label).displayLabel : String(label);
}

/** A JSON array the sub-select built, or null when the text is not one. */
function parts(value: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function returnWords(taxMonth: unknown, amendmentOf: unknown): string {
  return `the ${amendmentOf ? "amended " : ""}return for ${period(taxMonth)}`;
}

const subcontractorName = (ref: AuditRef) =>
  sql`SELECT ${cisSubcontractors.name} FROM ${cisSubcontractors} WHERE ${and(eq(cisSubcontractors.id, ref.id), eq(cisSubcontractors.tenantId, ref.tenantId))}`;

/**
 * How the audit log names CIS objects: subcontractors and invoices by name and number (the
 * sentence says which it is), statements and returns by whose and which tax month, HMRC
 * submissions by what was sent. A subcontractor signed in to the portal is named as an actor.
 */
export const CIS_AUDIT_NAMERS: Namers = {
  targets: [
    { targetType: "subcontractor", name: subcontractorName },
    {
      targetType: "invoice",
      name: (t) => sql`SELECT ${cisInvoices.invoiceNumber} FROM ${cisInvoices} WHERE ${and(eq(cisInvoices.id, t.id), eq(cisInvoices.tenantId, t.tenantId))}`,
    },
    {
      targetType: "statement",
      name: (t) =>
        sql`SELECT json_array(${cisStatements.subcontractorName}, ${cisStatements.taxMonth}) FROM ${cisStatements} WHERE ${and(eq(cisStatements.id, t.id), eq(cisStatements.tenantId, t.tenantId))}`,
      format: (value) => {
        const [name, taxMonth] = parts(value) ?? [];
        return `${String(name)}'s statement for ${period(taxMonth)}`;
      },
    },
    {
      targetType: "return",
      name: (t) =>
        sql`SELECT json_array(${cisReturns.taxMonth}, ${cisReturns.amendmentOf}) FROM ${cisReturns} WHERE ${and(eq(cisReturns.id, t.id), eq(cisReturns.tenantId, t.tenantId))}`,
      format: (value) => {
        const [taxMonth, amendmentOf] = parts(value) ?? [];
        return returnWords(taxMonth, amendmentOf);
      },
    },
    {
      // A monthly return by its month; a verification by how many subcontractors it asked about.
      targetType: "hmrc_submission",
      name: (t) =>
        sql`SELECT json_array(h.kind, json_array_length(h.subject_ids), r.tax_month, r.amendment_of)
            FROM ${hmrcSubmissions} h
            LEFT JOIN ${cisReturns} r ON h.kind = 'cis300' AND r.tenant_id = h.tenant_id AND r.id = json_extract(h.subject_ids, '$[0]')
            WHERE h.id = ${t.id} AND h.tenant_id = ${t.tenantId}`,
      format: (value) => {
        const [kind, count, taxMonth, amendmentOf] = parts(value) ?? [];
        if (kind === "cis300") return taxMonth ? returnWords(taxMonth, amendmentOf) : "a monthly return";
        return count === 1 ? "a verification of 1 subcontractor" : `a verification of ${String(count)} subcontractors`;
      },
    },
    // A role's entry names it by its name.
    { targetType: "role_bundle", name: (t) => sql`${t.id}`, format: (name) => `the ${name} role` },
  ],
  actors: [{ name: subcontractorName }],
};
