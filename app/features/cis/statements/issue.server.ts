import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { insertWhere } from "~/db/insert-where.server";
import { activityLog, cisInvoices, cisStatements, cisSubcontractors, emailOutbox } from "~/db/schema";
import { auditInsertWhere, type AuditAction } from "~/features/platform/index.server";
import { queueEmailIf } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { formatPence } from "../domain/money";
import { taxMonthFromLabel } from "../domain/tax-month";
import type { Actor } from "~/features/auth";
import { maskEmail } from "../pii.server";
import { getCisSettings } from "../settings/settings.server";
import { ensureStatementPdf } from "./files.server";
import type { IssueErrorCode, IssueMethod, ResendErrorCode } from "./issue-codes";
import { getStatement, type Statement } from "./statements.server";
import type { Result } from "~/utils/result";

export type IssueResult = Result<{ method: IssueMethod; to: string | null }, IssueErrorCode>;

/** The audit action of an issue, whatever the method: the statement was sent to the subcontractor. */
export const STATEMENT_ISSUED_AUDIT = "cis.statement.sent" satisfies AuditAction;
/** The activity-log action the dashboard's Recent Activity shows. */
export const STATEMENT_ISSUED_ACTIVITY = "statement.issue";
/** The audit action of sending an issued statement's e-mail again after it failed. */
export const STATEMENT_RESENT_AUDIT = "cis.statement.resent" satisfies AuditAction;

/**
 * Issues a generated statement by e-mail, portal or print. Freezes its PDF first (so what is issued
 * is what is stored), then one D1 batch: the statement's invoices get the issue date and method,
 * the audit and activity entries are written, and the statement becomes issued. Every statement
 * of the batch is conditional on the statement still being 'generated', so of two concurrent
 * issues exactly one lands and the other changes nothing. By e-mail the outbox row joins that
 * batch under the same condition: the loser sends nothing.
 */
/** Issuing sends (or publishes) the statement: its form is acted on once per submission key, bound to the statement. */
export function issueSubmissionScope(tenantId: string, userId: string, statementId: string) {
  return { tenantId, userId, action: `cis.statement.issue:${statementId}` };
}

export async function issueStatement(
  env: Env,
  tenant: { id: string; name: string },
  id: string,
  method: IssueMethod,
  actor: Actor,
  opts: { ip?: string | null; now?: number; claim?: SubmissionClaim } = {},
): Promise<IssueResult> {
  const statement = await getStatement(env, tenant.id, id);
  if (!statement) return { ok: false, code: "not_found" };
  if (statement.status !== "generated") return { ok: false, code: "already_issued" };

  let to: string | null = null;
  let settings: Settings | null = null;
  if (method === "email") {
    settings = await getCisSettings(env, tenant.id);
    // Defaults stand in when the settings cannot be read; never send mail on a guess.
    if (settings.fellBack) throw new Error("CIS settings could not be read");
    if (!settings.emailStatements) return { ok: false, code: "email_disabled" };
    const [sub] = await dbFor(env, tenant.id)
      .select({ email: cisSubcontractors.email })
      .from(cisSubcontractors)
      .where(and(forTenant(cisSubcontractors, tenant.id), eq(cisSubcontractors.id, statement.subcontractorId)))
      .limit(1);
    to = sub?.email?.trim() || null;
    if (!to) return { ok: false, code: "no_email" };
  }

  const pdf = await ensureStatementPdf(env, tenant.id, id);
  if (!pdf.ok) return { ok: false, code: pdf.code };

  const now = opts.now ?? Date.now();
  const stillGenerated = sql`EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenant.id} AND ${cisStatements.id} = ${id} AND ${cisStatements.status} = 'generated')`;
  const changes = (db: Db, details: Record<string, string>) => issueStatements(db, tenant.id, id, method, actor, now, stillGenerated, details, opts.ip ?? null);

  if (method !== "email" || !to || !settings) {
    const db = dbFor(env, tenant.id);
    // The submission key first: the status change must stay last.
    const results = await db.batch([...(opts.claim ? [claimSubmission(db, opts.claim)] : []), ...changes(db, {})] as [
      BatchItem<"sqlite">,
      ...BatchItem<"sqlite">[],
    ]);
    const won = results[results.length - 1] as { id: string }[];
    return won.length > 0 ? { ok: true, method, to: null } : { ok: false, code: "already_issued" };
  }

  let outboxId: string | null;
  try {
    ({ outboxId } = await queueEmailIf(env, {
      tenantId: tenant.id,
      to,
      template: "cis.statement",
      data: statementEmailData(tenant, statement, settings, pdf),
      onlyIf: stillGenerated,
      alongside: (db, outboxId) => [...changes(db, { to: maskEmail(to), outboxId }), ...(opts.claim ? [claimSubmission(db, opts.claim)] : [])],
    }));
  } catch (err) {
    // The batch landed but the queue refused the message: the statement is issued and its outbox
    // row is marked failed. Anything else (the batch itself failed) is unexpected.
    const after = await getStatement(env, tenant.id, id);
    if (after?.status === "issued" && after.issuedMethod === "email" && after.issuedAt === now) return { ok: false, code: "email_not_queued" };
    throw err;
  }
  return outboxId ? { ok: true, method, to } : { ok: false, code: "already_issued" };
}

type Settings = Awaited<ReturnType<typeof getCisSettings>>;

/** What the cis.statement e-mail says, with the stored PDF attached by its R2 key. */
function statementEmailData(tenant: { name: string }, statement: Statement, settings: Settings, pdf: { key: string; fileName: string }) {
  return {
    contractorName: settings.companyName.trim() || tenant.name,
    subcontractorName: statement.subcontractorName,
    period: taxMonthFromLabel(statement.taxMonth).displayLabel,
    gross: formatPence(statement.grossP),
    cisDeduction: formatPence(statement.cisDeductionP),
    netPayment: formatPence(statement.grossP - statement.cisDeductionP),
    from: settings.emailFrom?.trim() || null,
    replyTo: settings.emailReplyTo?.trim() || null,
    attachment: { key: pdf.key, filename: pdf.fileName },
  };
}

/** The issue's statements, each conditional on `stillGenerated`; the status change comes last so it can decide the others. */
function issueStatements(
  db: Db,
  tenantId: string,
  id: string,
  method: IssueMethod,
  actor: Actor,
  now: number,
  stillGenerated: SQL,
  details: Record<string, string>,
  ip: string | null,
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const detailPairs = Object.entries(details).map(([k, v]) => sql`, ${k}, ${v}`);
  const generatedRow = sql`${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.id} = ${id} AND ${cisStatements.status} = 'generated'`;
  return [
    db
      .update(cisInvoices)
      .set({ statementIssuedAt: now, statementIssuedMethod: method, updatedAt: now, updatedBy: actor.id })
      .where(and(eq(cisInvoices.tenantId, tenantId), eq(cisInvoices.statementId, id), stillGenerated)),
    auditInsertWhere(
      db,
      {
        tenantId,
        actorId: actor.id,
        actorEmail: actor.email,
        action: STATEMENT_ISSUED_AUDIT,
        targetType: "statement",
        targetId: id,
        payload: sql`json_object('method', ${method}, 'subcontractorId', ${cisStatements.subcontractorId}, 'taxMonth', ${cisStatements.taxMonth},
          'invoiceCount', ${cisStatements.invoiceCount}${sql.join(detailPairs)})`,
        ip,
      },
      generatedRow,
      { from: cisStatements, now },
    ),
    insertWhere(
      db,
      activityLog,
      {
        id: newId(),
        tenantId,
        module: "cis",
        action: STATEMENT_ISSUED_ACTIVITY,
        entityType: "statement",
        entityId: id,
        performedBy: actor.id,
        performedByName: actor.name,
        details: sql`json_object('method', ${method}, 'subcontractorName', ${cisStatements.subcontractorName}, 'taxMonth', ${cisStatements.taxMonth})`,
        performedAt: now,
      },
      generatedRow,
      { from: cisStatements },
    ),
    db
      .update(cisStatements)
      .set({ status: "issued", issuedMethod: method, issuedAt: now, updatedAt: now, emailOutboxId: details.outboxId ?? null })
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.id, id), eq(cisStatements.status, "generated")))
      .returning({ id: cisStatements.id }),
  ];
}

export type ResendResult = Result<{ to: string }, ResendErrorCode>;

/**
 * Sends an issued statement's e-mail again when the last one failed (the queue refused it, or
 * delivery failed for good), to the subcontractor's address now. One D1 batch: the new outbox
 * row, the cis.statement.resent audit entry and the statement pointing at the new row, all only
 * while the statement is issued by e-mail and its latest e-mail has failed, so two resends at
 * once send once. The statement stays issued as it was: only its e-mail goes out again.
 */
// eslint-disable-next-line max-lines-per-function -- issue 31 splits this module
export async function resendStatementEmail(
  env: Env,
  tenant: { id: string; name: string },
  id: string,
  actor: Actor,
  opts: { ip?: string | null; now?: number } = {},
): Promise<ResendResult> {
  const db = dbFor(env, tenant.id);
  const [rows, subs, outbox] = await db.batch([
    db
      .select()
      .from(cisStatements)
      .where(and(forTenant(cisStatements, tenant.id), eq(cisStatements.id, id)))
      .limit(1),
    db
      .select({ email: cisSubcontractors.email })
      .from(cisSubcontractors)
      .where(
        and(
          forTenant(cisSubcontractors, tenant.id),
          sql`${cisSubcontractors.id} = (SELECT ${cisStatements.subcontractorId} FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenant.id} AND ${cisStatements.id} = ${id})`,
        ),
      )
      .limit(1),
    db
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(
        and(
          forTenant(emailOutbox, tenant.id),
          sql`${emailOutbox.id} = (SELECT ${cisStatements.emailOutboxId} FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenant.id} AND ${cisStatements.id} = ${id})`,
        ),
      )
      .limit(1),
  ]);
  const row = rows[0];
  if (!row) return { ok: false, code: "not_found" };
  if (row.status !== "issued" || row.issuedMethod !== "email" || outbox[0]?.status !== "failed") return { ok: false, code: "not_failed" };
  const statement: Statement = { ...row, invoiceIds: [] };
  const settings = await getCisSettings(env, tenant.id);
  if (settings.fellBack) throw new Error("CIS settings could not be read");
  if (!settings.emailStatements) return { ok: false, code: "email_disabled" };
  const to = subs[0]?.email?.trim();
  if (!to) return { ok: false, code: "no_email" };
  const pdf = await ensureStatementPdf(env, tenant.id, id);
  if (!pdf.ok) return { ok: false, code: pdf.code };

  const now = opts.now ?? Date.now();
  const failedOutbox = row.emailOutboxId!;
  // Still issued by e-mail, and its latest e-mail is the failed one read above.
  const stillFailed = sql`EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenant.id} AND ${cisStatements.id} = ${id}
      AND ${cisStatements.status} = 'issued' AND ${cisStatements.issuedMethod} = 'email' AND ${cisStatements.emailOutboxId} = ${failedOutbox})
    AND EXISTS (SELECT 1 FROM ${emailOutbox} WHERE ${emailOutbox.id} = ${failedOutbox} AND ${emailOutbox.status} = 'failed')`;
  try {
    const { outboxId } = await queueEmailIf(env, {
      tenantId: tenant.id,
      to,
      template: "cis.statement",
      data: statementEmailData(tenant, statement, settings, pdf),
      onlyIf: stillFailed,
      alongside: (db, outboxId) => {
        const thisStatement = sql`${cisStatements.tenantId} = ${tenant.id} AND ${cisStatements.id} = ${id} AND ${cisStatements.emailOutboxId} = ${failedOutbox}
          AND EXISTS (SELECT 1 FROM ${emailOutbox} WHERE ${emailOutbox.id} = ${outboxId})`;
        return [
          auditInsertWhere(
            db,
            {
              tenantId: tenant.id,
              actorId: actor.id,
              actorEmail: actor.email,
              action: STATEMENT_RESENT_AUDIT,
              targetType: "statement",
              targetId: id,
              payload: sql`json_object('subcontractorId', ${cisStatements.subcontractorId}, 'taxMonth', ${cisStatements.taxMonth},
                'to', ${maskEmail(to)}, 'outboxId', ${outboxId}, 'failedOutboxId', ${failedOutbox})`,
              ip: opts.ip ?? null,
            },
            thisStatement,
            { from: cisStatements, now },
          ),
          // Last: the statement points at the new e-mail only once the entry above was written.
          db.update(cisStatements).set({ emailOutboxId: outboxId, updatedAt: now }).where(thisStatement),
        ];
      },
    });
    if (!outboxId) return { ok: false, code: "not_failed" };
  } catch (err) {
    // The batch landed and the queue refused the new message: its row is failed, so Resend stays offered.
    const [after] = await db
      .select({ emailOutboxId: cisStatements.emailOutboxId })
      .from(cisStatements)
      .where(and(forTenant(cisStatements, tenant.id), eq(cisStatements.id, id)))
      .limit(1);
    if (after && after.emailOutboxId !== failedOutbox) return { ok: false, code: "email_not_queued" };
    throw err;
  }
  return { ok: true, to };
}
