import { and, asc, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisStatements, cisSubcontractors } from "~/db/schema";
import { auditInsertWhere } from "~/features/platform/index.server";
import { forTenant } from "~/db/tenancy";
import { newId } from "~/utils/ids";
import type { Actor } from "~/features/auth";
import type { Result } from "~/utils/result";

/**
 * Statement data: which invoices still need one, generating one per subcontractor and tax month,
 * and reading them back. An invoice is "in a statement" when its statement_id is set; it is set
 * only while null, in the same batch as the statement's insert, so an invoice is never on two.
 */

export type StatementErrorCode = "already_exists" | "no_pending" | "not_found";
export type GenerateStatementResult = Result<{ id: string }, StatementErrorCode>;

/** The toast each code shows: a title and, where there is one, the message under it. */
export const STATEMENT_ERROR_MESSAGES: Readonly<Record<StatementErrorCode, { title: string; message?: string }>> = {
  already_exists: { title: "Statement Already Exists" },
  no_pending: { title: "No Pending Statements", message: "All subcontractors already have statements for this tax month." },
  not_found: { title: "Generation Failed", message: "Failed to generate statement" },
};
/** What a missing (unknown, or another tenant's) statement shows. */
export const STATEMENT_NOT_FOUND = "Statement not found";

const TAX_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * THE definition of an invoice pending a statement, used by every place that counts or lists them
 * (statements screen, Generate and Generate All, the invoice list's card, the dashboard card, the
 * deadline alerts). A payment and deduction statement reports the payments made in a tax month,
 * so an invoice waits for one only once it is paid, in the tax month of its payment date (the
 * invoice's tax month is moved to the payment date's when it is paid): paid, not deleted, a
 * deduction above zero, statement required (set by the approval itself whenever it deducts), not
 * on a statement and not issued. An approved invoice not yet paid is not pending.
 */
export function pendingInvoices(tenantId: string | SQLWrapper, taxMonth?: string | SQLWrapper, subcontractorId?: string): SQL {
  return sql`${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.deletedAt} IS NULL AND ${cisInvoices.status} = 'paid'
    AND ${cisInvoices.cisDeductionP} > 0 AND ${cisInvoices.statementRequired} = 1 AND ${cisInvoices.statementIssuedAt} IS NULL AND ${cisInvoices.statementId} IS NULL${
      taxMonth === undefined ? sql`` : sql` AND ${cisInvoices.taxMonth} = ${taxMonth}`
    }${subcontractorId === undefined ? sql`` : sql` AND ${cisInvoices.subcontractorId} = ${subcontractorId}`}`;
}

/**
 * The statements a tax month still needs generated: one per subcontractor with invoices pending in
 * it and no statement for it yet, by name. Generate All works on these, the statements screen's
 * Pending Generation card and the dashboard's Pending Statements card count them.
 */
export function pendingStatementsQuery(db: Db, tenantId: string, taxMonth: string) {
  return db
    .select({ subcontractorId: cisInvoices.subcontractorId, name: sql<string>`max(${cisInvoices.subcontractorName})` })
    .from(cisInvoices)
    .where(
      sql`${pendingInvoices(tenantId, taxMonth)} AND NOT EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId}
        AND ${cisStatements.subcontractorId} = ${cisInvoices.subcontractorId} AND ${cisStatements.taxMonth} = ${taxMonth})`,
    )
    .groupBy(cisInvoices.subcontractorId)
    .orderBy(sql`lower(max(${cisInvoices.subcontractorName}))`, cisInvoices.subcontractorId);
}

/**
 * How many statements the tax month still needs generated (the subcontractors `pendingStatementsQuery`
 * lists), for a page's batch. Read through the partial index of invoices pending a statement, by
 * month and subcontractor: only the month's pending invoices are read (left to itself, SQLite picks
 * an index on the statement columns or the subcontractor and reads every invoice of the tenant).
 */
export function pendingStatementsCountQuery(db: Db, tenantId: string | SQLWrapper, taxMonth: string | SQLWrapper) {
  return db
    .select({ count: sql<number>`count(DISTINCT ${cisInvoices.subcontractorId})` })
    .from(sql`${cisInvoices} INDEXED BY cis_invoices_pending_statement_month`)
    .where(
      sql`${pendingInvoices(tenantId, taxMonth)} AND NOT EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId}
        AND ${cisStatements.subcontractorId} = ${cisInvoices.subcontractorId} AND ${cisStatements.taxMonth} = ${taxMonth})`,
    );
}

export type PendingStatementGroup = {
  subcontractorId: string;
  subcontractorName: string;
  utrMasked: string | null;
  invoiceIds: string[];
  invoiceCount: number;
  grossP: number;
  materialsP: number;
  labourP: number;
  cisDeductionP: number;
};

const idList = z.array(z.string());

function parseIds(json: string): string[] {
  const parsed = idList.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
}

/** Per subcontractor, the invoices of the tax month a statement would cover now, with their totals; by name. */
export async function pendingStatementGroups(env: Env, tenantId: string, taxMonth: string): Promise<PendingStatementGroup[]> {
  if (!TAX_MONTH.test(taxMonth)) return [];
  const rows = await dbFor(env, tenantId)
    .select({
      subcontractorId: cisInvoices.subcontractorId,
      subcontractorName: sql<string>`max(${cisInvoices.subcontractorName})`,
      utrMasked: sql<string | null>`max(${cisInvoices.utrMasked})`,
      invoiceIds: sql<string>`json_group_array(${cisInvoices.id})`,
      invoiceCount: sql<number>`count(*)`,
      grossP: sql<number>`sum(${cisInvoices.grossP})`,
      materialsP: sql<number>`sum(${cisInvoices.materialsP})`,
      labourP: sql<number>`sum(${cisInvoices.labourP})`,
      cisDeductionP: sql<number>`sum(${cisInvoices.cisDeductionP})`,
    })
    .from(cisInvoices)
    .where(pendingInvoices(tenantId, taxMonth))
    .groupBy(cisInvoices.subcontractorId)
    .orderBy(sql`lower(max(${cisInvoices.subcontractorName}))`, cisInvoices.subcontractorId);
  return rows.map((r) => ({
    ...r,
    invoiceIds: parseIds(r.invoiceIds),
    invoiceCount: Number(r.invoiceCount),
    grossP: Number(r.grossP),
    materialsP: Number(r.materialsP),
    labourP: Number(r.labourP),
    cisDeductionP: Number(r.cisDeductionP),
  }));
}

export function isStatementUniqueViolation(err: unknown): boolean {
  const cause = err instanceof Error && err.cause ? String((err.cause as Error).message ?? err.cause) : "";
  const text = `${err instanceof Error ? err.message : String(err)} ${cause}`;
  return /UNIQUE constraint failed/i.test(text) && /cis_statements/i.test(text);
}

/**
 * Generates the statement of one subcontractor's tax month from its pending invoices, in one D1
 * batch (one transaction): the statement with its totals summed in SQL from the invoices' stored
 * pence, the invoices linked to it (only those not yet on a statement), and the
 * cis.statement.generated audit entry, written only if the statement row exists; the same batch
 * reads whether the subcontractor exists and whether the month has its statement, for the refusals. The unique
 * index on (tenant, subcontractor, month) refuses a second statement, so of two racing
 * generations exactly one lands and the other rolls back whole, audit entry included.
 */
export async function generateStatement(
  env: Env,
  tenantId: string,
  subcontractorId: string,
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
  opts: { now?: number } = {},
): Promise<GenerateStatementResult> {
  const db = dbFor(env, tenantId);
  if (!TAX_MONTH.test(taxMonth)) {
    const [sub] = await db.select({ id: cisSubcontractors.id }).from(cisSubcontractors).where(liveSubcontractor(tenantId, subcontractorId)).limit(1);
    return { ok: false, code: sub ? "no_pending" : "not_found" };
  }
  const id = newId();
  const now = opts.now ?? Date.now();
  let results: readonly unknown[];
  try {
    results = await db.batch(generationQueries(db, tenantId, subcontractorId, taxMonth, actor, id, now));
  } catch (err) {
    if (isStatementUniqueViolation(err)) return { ok: false, code: "already_exists" };
    throw err;
  }
  return generationOutcome(results, id);
}

export const GENERATION_QUERIES = 6;

/** What the results of generationQueries say: the statement made, or why not. */
export function generationOutcome(results: readonly unknown[], id: string): GenerateStatementResult {
  const [, , , created, sub, existing] = results as { id: string }[][];
  if (created!.length > 0) return { ok: true, id };
  if (sub!.length === 0) return { ok: false, code: "not_found" };
  // Nothing was pending: say so, unless that is because the month already has its statement.
  return { ok: false, code: existing!.length > 0 ? "already_exists" : "no_pending" };
}

/**
 * The queries that generate one statement, GENERATION_QUERIES of them, whose results
 * generationOutcome reads: the statement's insert (its totals summed in SQL from the pending
 * invoices, the subcontractor's name and masked UTR read in the same statement, nothing inserted
 * when the subcontractor is gone or nothing is pending), the invoices' link to it, its audit entry
 * and a read of it back; then whether the subcontractor exists and whether the month has its
 * statement, for the refusals.
 */
export function generationQueries(
  db: Db,
  tenantId: string,
  subcontractorId: string,
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
  id: string,
  now: number,
) {
  const pending = pendingInvoices(tenantId, taxMonth, subcontractorId);
  return [
    // Aggregate over no rows still yields one row; HAVING keeps the insert away when nothing is pending.
    db.insert(cisStatements).select(
      sql`SELECT ${tenantId}, ${id}, s.id, s.name, s.utr_masked, ${taxMonth},
          json_group_array(i.id), count(*), sum(i.gross_p), sum(i.materials_p), sum(i.labour_p), sum(i.cis_deduction_p),
          'generated', ${now}, ${actor.id}, NULL, NULL, NULL, NULL, ${now}, ${now}
        FROM (SELECT ${cisInvoices.id} AS id, ${cisInvoices.grossP} AS gross_p, ${cisInvoices.materialsP} AS materials_p,
            ${cisInvoices.labourP} AS labour_p, ${cisInvoices.cisDeductionP} AS cis_deduction_p
          FROM ${cisInvoices} WHERE ${pending} ORDER BY ${cisInvoices.invoiceDate}, ${cisInvoices.id}) AS i,
          (SELECT ${cisSubcontractors.id} AS id, ${cisSubcontractors.name} AS name, ${cisSubcontractors.utrMasked} AS utr_masked FROM ${cisSubcontractors}
            WHERE ${cisSubcontractors.tenantId} = ${tenantId} AND ${cisSubcontractors.id} = ${subcontractorId} AND ${cisSubcontractors.deletedAt} IS NULL) AS s
        HAVING count(*) > 0`,
    ),
    db
      .update(cisInvoices)
      .set({ statementId: id, updatedAt: now, updatedBy: actor.id })
      .where(and(pending, sql`EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.id} = ${id})`)),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "cis.statement.generated",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "statement",
        targetId: id,
        payload: sql`json_object('subcontractorId', ${cisStatements.subcontractorId}, 'taxMonth', ${cisStatements.taxMonth},
            'invoiceCount', ${cisStatements.invoiceCount}, 'grossP', ${cisStatements.grossP}, 'cisDeductionP', ${cisStatements.cisDeductionP})`,
      },
      sql`${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.id} = ${id}`,
      { from: cisStatements, now },
    ),
    db
      .select({ id: cisStatements.id })
      .from(cisStatements)
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, id))),
    db.select({ id: cisSubcontractors.id }).from(cisSubcontractors).where(liveSubcontractor(tenantId, subcontractorId)).limit(1),
    db
      .select({ id: cisStatements.id })
      .from(cisStatements)
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.subcontractorId, subcontractorId), eq(cisStatements.taxMonth, taxMonth)))
      .limit(1),
  ] as const;
}

function liveSubcontractor(tenantId: string, subcontractorId: string) {
  return and(forTenant(cisSubcontractors, tenantId), eq(cisSubcontractors.id, subcontractorId), isNull(cisSubcontractors.deletedAt));
}

export type StatementRow = typeof cisStatements.$inferSelect;
export type Statement = Omit<StatementRow, "invoiceIds"> & { invoiceIds: string[] };

function toStatement(row: StatementRow): Statement {
  return { ...row, invoiceIds: parseIds(row.invoiceIds) };
}

/** The tenant's statements of one tax month, by subcontractor name. */
export async function listStatements(env: Env, tenantId: string, taxMonth: string): Promise<Statement[]> {
  const rows = await dbFor(env, tenantId)
    .select()
    .from(cisStatements)
    .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.taxMonth, taxMonth)))
    .orderBy(asc(cisStatements.subcontractorName), asc(cisStatements.id));
  return rows.map(toStatement);
}

/** Null for an unknown id or another tenant's statement: callers answer 404. */
export async function getStatement(env: Env, tenantId: string, id: string): Promise<Statement | null> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisStatements)
    .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, id)))
    .limit(1);
  return row ? toStatement(row) : null;
}
