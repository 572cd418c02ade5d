import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisSettings, cisStatements, emailOutbox, jobs, type StatementStatus } from "~/db/schema";
import { QUEUE_REFUSED } from "~/features/platform/index.server";
import { enqueue } from "~/features/platform/index.server";
import { forTenant } from "~/db/tenancy";
import type { StatementIssueMethod } from "../domain";
import type { Actor } from "~/features/auth";
import type { EmailFailure } from "./issue-codes";
import type { StatementRowStatus } from "./statement-codes";
import { pendingInvoices, pendingStatementsQuery } from "./statements.server";
import type { Result } from "~/utils/result";

/**
 * What the statements screen reads (one D1 batch per page) and how Generate All starts its job.
 *
 * A subcontractor's tax month has at most one statement. Invoices paid after it was generated
 * still need a statement but can never join that one: the screen lists them under the statement
 * as not on it, and neither Generate nor Generate All offers them (generation would refuse).
 */

/** The job type of Generate All: one job per tenant and tax month at a time. */
export const BATCH_JOB_TYPE = "statements.generate-all";

/**
 * Each Generate All job's idempotency key is this prefix plus the id of the month's job before it
 * ('none' for the first). Two clicks that both see the same latest job compute the same key, and the
 * unique index on (tenant, key) gives them one job; a finished job's successor gets a fresh key.
 */
export function batchJobKeyPrefix(taxMonth: string): string {
  return `cis.statements.generate-all:${taxMonth}:`;
}

export function batchJobKey(taxMonth: string, previousJobId: string | null): string {
  return `${batchJobKeyPrefix(taxMonth)}after:${previousJobId ?? "none"}`;
}

/** The month's most recent Generate All job, found by key range so the (tenant, key) index serves it. */
function latestBatchJobQuery(db: Db, tenantId: string, taxMonth: string) {
  const prefix = batchJobKeyPrefix(taxMonth);
  // Every key of the month sorts between 'prefix' and the prefix with its final ':' raised to ';'.
  const upper = `${prefix.slice(0, -1)};`;
  return db
    .select({ id: jobs.id, status: jobs.status, progress: jobs.progress, result: jobs.result, finishedAt: jobs.finishedAt })
    .from(jobs)
    .where(and(forTenant(jobs, tenantId), eq(jobs.type, BATCH_JOB_TYPE), gte(jobs.idempotencyKey, prefix), lt(jobs.idempotencyKey, upper)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
}

/** What a Generate All job returns as its result. */
export const batchResultSchema = z.object({
  taxMonth: z.string(),
  total: z.number().int().min(0),
  generated: z.number().int().min(0),
  failed: z.number().int().min(0),
  skipped: z.number().int().min(0).default(0),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

export type BatchJobView =
  | { id: string; state: "running"; progress: number }
  | { id: string; state: "done"; total: number; generated: number; failed: number }
  | { id: string; state: "failed" };

type BatchJobRow = { id: string; status: string; progress: number; result: Record<string, unknown> | null; finishedAt: number | null };

/** A failed job without a finish time is waiting for its retry: to the person it is still running. */
export function batchJobView(row: BatchJobRow): BatchJobView {
  if (row.status === "done") {
    const parsed = batchResultSchema.safeParse(row.result);
    if (!parsed.success) return { id: row.id, state: "failed" };
    return { id: row.id, state: "done", total: parsed.data.total, generated: parsed.data.generated, failed: parsed.data.failed };
  }
  if (row.status === "failed" && row.finishedAt !== null) return { id: row.id, state: "failed" };
  return { id: row.id, state: "running", progress: row.progress };
}

export async function pendingStatementTargets(env: Env, tenantId: string, taxMonth: string): Promise<{ subcontractorId: string; name: string }[]> {
  return pendingStatementsQuery(dbFor(env, tenantId), tenantId, taxMonth);
}

export type StartBatchResult = Result<{ jobId: string; created: boolean }, "no_pending">;

/**
 * Starts Generate All for a tax month, or hands back the job already under way for it: a double
 * click, or two people at once, never makes two jobs. Nothing to generate makes no job at all.
 */
export async function startBatchGeneration(
  env: Env,
  tenantId: string,
  taxMonth: string,
  actor: Pick<Actor, "id" | "email">,
  opts: { claim?: SubmissionClaim } = {},
): Promise<StartBatchResult> {
  const db = dbFor(env, tenantId);
  const [[latest], targets] = await db.batch([latestBatchJobQuery(db, tenantId, taxMonth), pendingStatementsQuery(db, tenantId, taxMonth)]);
  if (latest && batchJobView(latest).state === "running") return { ok: true, jobId: latest.id, created: false };
  if (targets.length === 0) return { ok: false, code: "no_pending" };
  const res = await enqueue(env, {
    tenantId,
    type: BATCH_JOB_TYPE,
    input: { taxMonth, actorEmail: actor.email },
    performedBy: actor.id,
    idempotencyKey: batchJobKey(taxMonth, latest?.id ?? null),
    alongside: (db) => (opts.claim ? [claimSubmission(db, opts.claim)] : []),
  });
  return { ok: true, ...res };
}

export type StatementInvoiceView = { id: string; invoiceNumber: string; paymentDate: string | null; grossP: number; cisDeductionP: number };

export type StatementSubRow = {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  status: StatementRowStatus;
  invoiceCount: number;
  cisDeductionP: number;
  /** The statement's invoices, or the pending (paid) ones while there is no statement. */
  invoices: StatementInvoiceView[];
  statement: {
    id: string;
    status: StatementStatus;
    generatedAt: number;
    issuedAt: number | null;
    issuedMethod: StatementIssueMethod | null;
    /** Why its latest e-mail was not sent (the outbox row failed), or null. */
    emailFailure: EmailFailure | null;
  } | null;
  /** Invoices paid in the month after its statement was generated: pending, but never on it. */
  notOnStatement: StatementInvoiceView[];
};

export type StatementsPageData = {
  emailStatements: boolean;
  rows: StatementSubRow[];
  counts: { total: number; pending: number; generated: number; issued: number };
  batch: BatchJobView | null;
};

const invoiceFields = {
  id: cisInvoices.id,
  invoiceNumber: cisInvoices.invoiceNumber,
  subcontractorId: cisInvoices.subcontractorId,
  subcontractorName: cisInvoices.subcontractorName,
  utrMasked: cisInvoices.utrMasked,
  paymentDate: cisInvoices.paymentDate,
  grossP: cisInvoices.grossP,
  cisDeductionP: cisInvoices.cisDeductionP,
  statementId: cisInvoices.statementId,
};

function invoiceView(r: { id: string; invoiceNumber: string; paymentDate: string | null; grossP: number; cisDeductionP: number }): StatementInvoiceView {
  return { id: r.id, invoiceNumber: r.invoiceNumber, paymentDate: r.paymentDate, grossP: r.grossP, cisDeductionP: r.cisDeductionP };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// One collator per isolate: `localeCompare` with a locale builds one on every call, and a month's
// rows are sorted with hundreds of comparisons.
let collator: Intl.Collator | undefined;
const byName = () => (collator ??= new Intl.Collator("en-GB", { sensitivity: "base" }));

/**
 * Everything the statements screen shows for one tax month, in ONE D1 batch: the settings' e-mail
 * switch, the month's statements, their invoices, the invoices still pending a statement and the
 * month's latest Generate All job. Every query is bound to the tenant.
 */
// eslint-disable-next-line max-lines-per-function -- issue 31 splits this module
export async function loadStatementsPage(env: Env, tenantId: string, taxMonth: string): Promise<StatementsPageData> {
  const db = dbFor(env, tenantId);
  const monthStatements = sql`SELECT ${cisStatements.id} FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.taxMonth} = ${taxMonth}`;
  const [settings, statements, onStatements, pending, [job]] = await db.batch([
    db.select({ emailStatements: cisSettings.emailStatements }).from(cisSettings).where(forTenant(cisSettings, tenantId)).limit(1),
    db
      .select({
        id: cisStatements.id,
        subcontractorId: cisStatements.subcontractorId,
        subcontractorName: cisStatements.subcontractorName,
        utrMasked: cisStatements.utrMasked,
        invoiceCount: cisStatements.invoiceCount,
        cisDeductionP: cisStatements.cisDeductionP,
        status: cisStatements.status,
        generatedAt: cisStatements.generatedAt,
        issuedAt: cisStatements.issuedAt,
        issuedMethod: cisStatements.issuedMethod,
        // Aliased: inside a batch rows are read by column name, and the statement has its own status.
        emailStatus: sql<string | null>`${emailOutbox.status}`.as("email_status"),
        emailError: sql<string | null>`${emailOutbox.error}`.as("email_error"),
      })
      .from(cisStatements)
      .leftJoin(emailOutbox, and(forTenant(emailOutbox, tenantId), eq(emailOutbox.id, cisStatements.emailOutboxId)))
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.taxMonth, taxMonth))),
    db
      .select(invoiceFields)
      .from(cisInvoices)
      .where(sql`${cisInvoices.tenantId} = ${tenantId} AND ${cisInvoices.statementId} IN (${monthStatements})`)
      .orderBy(asc(cisInvoices.invoiceDate), asc(cisInvoices.invoiceNumber), asc(cisInvoices.id)),
    db
      .select(invoiceFields)
      .from(cisInvoices)
      .where(pendingInvoices(tenantId, taxMonth))
      .orderBy(asc(cisInvoices.invoiceDate), asc(cisInvoices.invoiceNumber), asc(cisInvoices.id)),
    latestBatchJobQuery(db, tenantId, taxMonth),
  ]);

  const byStatement = new Map<string, StatementInvoiceView[]>();
  for (const inv of onStatements) if (inv.statementId) pushTo(byStatement, inv.statementId, invoiceView(inv));
  const pendingBySub = new Map<string, (typeof pending)[number][]>();
  for (const inv of pending) pushTo(pendingBySub, inv.subcontractorId, inv);

  const rows: StatementSubRow[] = statements.map((s) => ({
    subcontractorId: s.subcontractorId,
    name: s.subcontractorName,
    utrMasked: s.utrMasked,
    status: s.status,
    invoiceCount: s.invoiceCount,
    cisDeductionP: s.cisDeductionP,
    invoices: byStatement.get(s.id) ?? [],
    statement: {
      id: s.id,
      status: s.status,
      generatedAt: s.generatedAt,
      issuedAt: s.issuedAt,
      issuedMethod: s.issuedMethod,
      emailFailure: s.emailStatus === "failed" ? (s.emailError === QUEUE_REFUSED ? "not_queued" : "delivery_failed") : null,
    },
    notOnStatement: (pendingBySub.get(s.subcontractorId) ?? []).map(invoiceView),
  }));
  const withStatement = new Set(statements.map((s) => s.subcontractorId));
  for (const [subcontractorId, invoices] of pendingBySub) {
    if (withStatement.has(subcontractorId)) continue;
    const first = invoices[0]!;
    rows.push({
      subcontractorId,
      name: first.subcontractorName,
      utrMasked: first.utrMasked,
      status: "pending",
      invoiceCount: invoices.length,
      cisDeductionP: invoices.reduce((sum, i) => sum + i.cisDeductionP, 0),
      invoices: invoices.map(invoiceView),
      statement: null,
      notOnStatement: [],
    });
  }
  rows.sort((a, b) => byName().compare(a.name, b.name) || a.subcontractorId.localeCompare(b.subcontractorId));

  return {
    emailStatements: settings[0]?.emailStatements ?? true,
    rows,
    counts: {
      total: rows.length,
      pending: rows.filter((r) => r.status === "pending").length,
      generated: rows.filter((r) => r.status === "generated").length,
      issued: rows.filter((r) => r.status === "issued").length,
    },
    batch: job ? batchJobView(job) : null,
  };
}

/** Subcontractors shown per page of the statements list. */
export const STATEMENTS_PAGE_SIZE = 25;

/**
 * One page of the month's rows (already filtered and in name order): the page asked for, or the
 * page holding `sub` when given (a link to one subcontractor's statement), within the pages there are.
 */
export function statementsPageOf<T extends { subcontractorId: string }>(rows: readonly T[], ask: { page: number; sub: string | null }) {
  const pageCount = Math.max(1, Math.ceil(rows.length / STATEMENTS_PAGE_SIZE));
  const at = ask.sub === null ? -1 : rows.findIndex((r) => r.subcontractorId === ask.sub);
  const page = at >= 0 ? Math.floor(at / STATEMENTS_PAGE_SIZE) + 1 : Math.min(Math.max(1, ask.page), pageCount);
  return { page, pageCount, rows: rows.slice((page - 1) * STATEMENTS_PAGE_SIZE, page * STATEMENTS_PAGE_SIZE) };
}
