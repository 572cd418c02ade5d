import { and, desc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditEvents, cisInvoices, cisStatements, cisSubcontractors, users } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { RECENT_ACTIVITY_LIMIT, type ActivityAction, type ActivityRow } from "./activity";

/**
 * The newest audit entries of `actions` (those the viewer may see), as one statement for the
 * dashboard's D1 batch: each joined, within the tenant, to the actor's current name and to the
 * invoice, statement or subcontractor it is about, so the sentence can name them. Never reads an
 * identifier (UTR, NINO): only names, invoice numbers and tax months.
 */
export function recentCisActivityQuery(db: Db, tenantId: string | SQLWrapper, actions: readonly ActivityAction[], limit = RECENT_ACTIVITY_LIMIT) {
  // A subcontractor row reached either as the target itself or through the invoice or statement.
  const subTarget = sql`CASE ${auditEvents.targetType}
      WHEN 'subcontractor' THEN ${auditEvents.targetId}
      WHEN 'invoice' THEN ${cisInvoices.subcontractorId}
      WHEN 'statement' THEN ${cisStatements.subcontractorId}
    END`;
  return (
    db
      .select({
        id: auditEvents.id,
        action: auditEvents.action,
        at: auditEvents.createdAt,
        targetId: auditEvents.targetId,
        actorName: users.displayName,
        actorErased: sql<boolean>`${users.scrubbedAt} IS NOT NULL`.mapWith(Boolean).as("actor_erased"),
        invoiceNumber: cisInvoices.invoiceNumber,
        subcontractorName: sql<string | null>`coalesce(${cisSubcontractors.name}, ${cisInvoices.subcontractorName}, ${cisStatements.subcontractorName})`.as(
          "about_subcontractor",
        ),
        subcontractorGone: sql<boolean>`${cisSubcontractors.deletedAt} IS NOT NULL`.mapWith(Boolean).as("subcontractor_gone"),
        taxMonth: sql<string | null>`coalesce(${cisStatements.taxMonth}, json_extract(${auditEvents.payload}, '$.taxMonth'))`.as("about_tax_month"),
        verificationStatus: sql<
          string | null
        >`CASE WHEN ${auditEvents.action} = 'cis.subcontractor.verified' THEN json_extract(${auditEvents.payload}, '$.status') END`.as("verified_as"),
      })
      .from(auditEvents)
      .leftJoin(users, and(eq(users.tenantId, auditEvents.tenantId), eq(users.id, auditEvents.actorId)))
      .leftJoin(
        cisInvoices,
        and(eq(cisInvoices.tenantId, auditEvents.tenantId), eq(auditEvents.targetType, "invoice"), eq(cisInvoices.id, auditEvents.targetId)),
      )
      .leftJoin(
        cisStatements,
        and(eq(cisStatements.tenantId, auditEvents.tenantId), eq(auditEvents.targetType, "statement"), eq(cisStatements.id, auditEvents.targetId)),
      )
      .leftJoin(cisSubcontractors, and(eq(cisSubcontractors.tenantId, auditEvents.tenantId), sql`${cisSubcontractors.id} = ${subTarget}`))
      .where(and(forTenant(auditEvents, tenantId), inArray(auditEvents.action, actions.length > 0 ? [...actions] : [""])))
      // Entries of one instant in the order they were written (a batch's rows share its time).
      .orderBy(desc(auditEvents.createdAt), sql`${auditEvents}.rowid DESC`)
      .limit(limit)
  );
}

export type RecentActivityResult = Awaited<ReturnType<typeof recentCisActivityQuery>>;

/** The rows as the sentence builder reads them. */
export function toActivityRows(rows: RecentActivityResult): ActivityRow[] {
  return rows.map((r) => ({ ...r, actorErased: Boolean(r.actorErased), subcontractorGone: Boolean(r.subcontractorGone) }));
}
