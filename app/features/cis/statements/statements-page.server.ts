import type { BatchResponse } from "drizzle-orm/batch";
import type { PagePrefetched } from "~/features/platform/index.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, desc, eq, gte, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisSettings, cisStatements, emailOutbox, jobs, type StatementStatus } from "~/db/schema";
import { QUEUE_REFUSED } from "~/features/platform/index.server";
import { enqueue } from "~/features/platform/index.server";
import { forTenant } from "~/db/tenancy";
import type { StatementIssueMethod } from "../domain";
import type { Actor } from "~/features/auth";
import type { EmailFailure } from "./issue-codes";
import type { StatementFilter, StatementRowStatus } from "./statement-codes";
import { pendingInvoices, pendingStatementsQuery } from "./statements.server";
import type { Result } from "~/utils/result";

/**
 * What the statements screen reads (one D1 batch per page) and how Generate All starts its job.
 *
 * A subcontractor's tax month has at most one statement. Invoices paid after it was generated
 * still need a statement but can never join that one: the screen lists them under the statement
 * as not on it, and neither Generate nor Generate All offers them (generation would refuse).
 */

/** A value in a statement: a string, or a prepared statement's placeholder. */
type Bindable = string | SQLWrapper;

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

/** The range every Generate All key of the month sorts in: from its prefix to the prefix with its final ':' raised to ';'. */
function batchJobKeyRange(taxMonth: string): { from: string; to: string } {
  const prefix = batchJobKeyPrefix(taxMonth);
  return { from: prefix, to: `${prefix.slice(0, -1)};` };
}

/** The month's most recent Generate All job, found by key range (`batchJobKeyRange`) so the (tenant, key) index serves it. */
function latestBatchJobQuery(db: Db, tenantId: string | SQLWrapper, keys: { from: string | SQLWrapper; to: string | SQLWrapper }) {
  return db
    .select({ id: jobs.id, status: jobs.status, progress: jobs.progress, result: jobs.result, finishedAt: jobs.finishedAt })
    .from(jobs)
    .where(and(forTenant(jobs, tenantId), eq(jobs.type, BATCH_JOB_TYPE), gte(jobs.idempotencyKey, keys.from), lt(jobs.idempotencyKey, keys.to)))
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
  const [[latest], targets] = await db.batch([latestBatchJobQuery(db, tenantId, batchJobKeyRange(taxMonth)), pendingStatementsQuery(db, tenantId, taxMonth)]);
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

/** Subcontractors shown per page of the statements list. */
export const STATEMENTS_PAGE_SIZE = 25;

/** Which page to show: `page` (from 1), or the page holding `sub` when it is in the filtered rows. */
export type StatementsPageAsk = { filter: StatementFilter; page: number; sub: string | null };

export type StatementsPage = StatementsPageData & { page: number; pageCount: number };

/**
 * The month's rows, one per subcontractor: each statement of the month, and each subcontractor with
 * invoices pending a statement and none yet (their count, CIS total and masked UTR summed here; the
 * name is the invoices' copy, as Generate All names them). Read through the statements' month index
 * and the partial index of invoices pending a statement: the month's statements and pending invoices,
 * never the month's other payments.
 */
function monthRows(tenantId: Bindable, taxMonth: Bindable): SQL {
  return sql`SELECT ${cisStatements.subcontractorId} AS sub_id, ${cisStatements.subcontractorName} AS name, ${cisStatements.status} AS status,
      ${cisStatements.id} AS statement_id, NULL AS pending_utr, 0 AS pending_count, 0 AS pending_cis
    FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.taxMonth} = ${taxMonth}
    UNION ALL
    SELECT g.sub_id, g.name, 'pending', NULL, g.pending_utr, g.pending_count, g.pending_cis FROM (
      SELECT ${cisInvoices.subcontractorId} AS sub_id, max(${cisInvoices.subcontractorName}) AS name, max(${cisInvoices.utrMasked}) AS pending_utr,
        count(*) AS pending_count, sum(${cisInvoices.cisDeductionP}) AS pending_cis
      FROM ${cisInvoices} INDEXED BY cis_invoices_pending_statement_month
      WHERE ${pendingInvoices(tenantId, taxMonth)}
      GROUP BY ${cisInvoices.subcontractorId}
    ) AS g
    -- One look-up per subcontractor, not per invoice: a subcontractor with a statement is listed by it.
    WHERE NOT EXISTS (SELECT 1 FROM ${cisStatements} WHERE ${cisStatements.tenantId} = ${tenantId} AND ${cisStatements.subcontractorId} = g.sub_id
      AND ${cisStatements.taxMonth} = ${taxMonth})`;
}

/**
 * The page's CTEs. `ranked`: the month's rows, each marked `shown` when it passes the status
 * filter and numbered (`idx`, from 0) among the shown ones in name order (lower-cased name, then
 * id: the subcontractor list's order). `totals`: one row, always, with the month's counts by status,
 * the shown total and the page: the one holding `sub` when it is shown, else `page` kept within the
 * pages there are (an empty list has one page); one pass over `ranked`. `page_rows`: that page's rows.
 */
function pageCte(tenantId: Bindable, taxMonth: Bindable, ask: { filter: Bindable; sub: Bindable; page: Bindable }): SQL {
  // The page size is this module's integer constant, written into the SQL so every division in it is
  // an integer one; the page asked for is bound and cast.
  const size = sql.raw(String(STATEMENTS_PAGE_SIZE));
  const sizeLess1 = sql.raw(String(STATEMENTS_PAGE_SIZE - 1));
  return sql`WITH ranked AS (
      SELECT m.*, row_number() OVER (PARTITION BY m.shown ORDER BY lower(m.name), m.sub_id) - 1 AS idx
      FROM (SELECT mr.*, (${ask.filter} = 'all' OR mr.status = ${ask.filter}) AS shown FROM (${monthRows(tenantId, taxMonth)}) AS mr) AS m
    ),
    totals AS (
      SELECT count(*) AS n_all, coalesce(sum(status = 'pending'), 0) AS n_pending, coalesce(sum(status = 'generated'), 0) AS n_generated,
        coalesce(sum(status = 'issued'), 0) AS n_issued, coalesce(sum(shown), 0) AS n_shown,
        CASE WHEN max(shown AND sub_id = ${ask.sub}) = 1 THEN max(CASE WHEN shown AND sub_id = ${ask.sub} THEN idx END) / ${size} + 1
          ELSE min(CAST(${ask.page} AS INTEGER), max(1, (coalesce(sum(shown), 0) + ${sizeLess1}) / ${size})) END AS page
      FROM ranked
    ),
    page_rows AS (
      SELECT ranked.* FROM ranked, totals
      WHERE ranked.shown AND ranked.idx >= (totals.page - 1) * ${size} AND ranked.idx < totals.page * ${size}
    )`;
}

/** A column of a derived table, read by its name (a batch maps a row's columns in select order). */
const col = <T>(name: string) => sql<T>`${sql.identifier(name)}`;

const pageRowFields = {
  nAll: col<number>("n_all"),
  nPending: col<number>("n_pending"),
  nGenerated: col<number>("n_generated"),
  nIssued: col<number>("n_issued"),
  nShown: col<number>("n_shown"),
  page: col<number>("page"),
  subId: col<string | null>("sub_id"),
  name: col<string>("name"),
  statementId: col<string | null>("statement_id"),
  pendingUtr: col<string | null>("pending_utr"),
  pendingCount: col<number>("pending_count"),
  pendingCis: col<number>("pending_cis"),
  utrMasked: col<string | null>("utr_masked"),
  invoiceCount: col<number | null>("invoice_count"),
  cisDeductionP: col<number | null>("cis_deduction_p"),
  statementStatus: col<StatementStatus | null>("statement_status"),
  generatedAt: col<number | null>("generated_at"),
  issuedAt: col<number | null>("issued_at"),
  issuedMethod: col<StatementIssueMethod | null>("issued_method"),
  emailStatus: col<string | null>("email_status"),
  emailError: col<string | null>("email_error"),
  invoicesJson: col<string | null>("invoices_json"),
};

/**
 * A page row's invoices as one JSON array (`invoices_json`) of `[position, id, invoice number,
 * payment date, gross, CIS, statement id]`: those on its statement and those still pending one, with
 * their position in invoice-date, number and id order. Read per row, by the statement id and by the
 * pending index, so the page's CTE runs once for rows and invoices together.
 */
function rowInvoicesJson(tenantId: Bindable, taxMonth: Bindable): SQL {
  const columns = sql`id, invoice_number, payment_date, gross_p, cis_deduction_p, statement_id, invoice_date`;
  return sql`(SELECT json_group_array(json_array(i.n, i.id, i.invoice_number, i.payment_date, i.gross_p, i.cis_deduction_p, i.statement_id)) FROM (
      SELECT row_number() OVER (ORDER BY invoice_date, invoice_number, id) AS n, * FROM (
        SELECT ${columns} FROM ${cisInvoices} WHERE tenant_id = ${tenantId} AND statement_id = p.statement_id
        UNION ALL
        SELECT ${columns} FROM ${cisInvoices} INDEXED BY cis_invoices_pending_statement_month
          WHERE ${pendingInvoices(tenantId, taxMonth)} AND subcontractor_id = p.sub_id
      )
    ) AS i)`;
}

/** What the statements page's statements are bound to: the tenant, the month, the filter, the linked subcontractor and page asked for. */
type PageValues = { tenantId: string; taxMonth: string; filter: StatementFilter; sub: string | null; page: number; jobKeyFrom: string; jobKeyTo: string };

// Built once per database with the view's values as placeholders (ADR 0077): a view binds its values.
const preparedSettings = preparedStatement((db, p: Placeholders<PageValues>) =>
  db.select({ emailStatements: cisSettings.emailStatements }).from(cisSettings).where(forTenant(cisSettings, p.tenantId)).limit(1),
);
const preparedRows = preparedStatement((db, p: Placeholders<PageValues>) =>
  db
    .select(pageRowFields)
    .from(
      sql`(${pageCte(p.tenantId, p.taxMonth, p)} SELECT t.*, p.sub_id, p.name, p.statement_id, p.pending_utr, p.pending_count, p.pending_cis, p.idx, s.utr_masked, s.invoice_count,
          s.cis_deduction_p, s.status AS statement_status, s.generated_at, s.issued_at, s.issued_method, e.status AS email_status, e.error AS email_error,
          CASE WHEN p.sub_id IS NULL THEN NULL ELSE ${rowInvoicesJson(p.tenantId, p.taxMonth)} END AS invoices_json
        FROM totals t
        LEFT JOIN page_rows p ON 1
        LEFT JOIN ${cisStatements} s ON s.tenant_id = ${p.tenantId} AND s.id = p.statement_id
        LEFT JOIN ${emailOutbox} e ON e.tenant_id = ${p.tenantId} AND e.id = s.email_outbox_id) AS x`,
    )
    .orderBy(sql`idx`),
);
const preparedJob = preparedStatement((db, p: Placeholders<PageValues>) => latestBatchJobQuery(db, p.tenantId, { from: p.jobKeyFrom, to: p.jobKeyTo }));

/** The statements page's batch: see `loadStatementsPage`. */
export function statementsPageQueries(db: Db, tenantId: string, taxMonth: string, ask: StatementsPageAsk) {
  const keys = batchJobKeyRange(taxMonth);
  const v: PageValues = {
    tenantId,
    taxMonth,
    filter: ask.filter,
    sub: ask.sub,
    page: Math.max(1, Math.trunc(ask.page)),
    jobKeyFrom: keys.from,
    jobKeyTo: keys.to,
  };
  return [preparedSettings(db, v), preparedRows(db, v), preparedJob(db, v)] as const;
}

type InvoiceTuple = [
  position: number,
  id: string,
  invoiceNumber: string,
  paymentDate: string | null,
  grossP: number,
  cisDeductionP: number,
  statementId: string | null,
];

/** A row's invoices from its `invoices_json`, in order: on its statement, and pending one (`late`). */
function rowInvoices(json: string | null): { onStatement: StatementInvoiceView[]; late: StatementInvoiceView[] } {
  const onStatement: StatementInvoiceView[] = [];
  const late: StatementInvoiceView[] = [];
  if (json === null) return { onStatement, late };
  const tuples = (JSON.parse(json) as InvoiceTuple[]).sort((a, b) => a[0] - b[0]);
  for (const [, id, invoiceNumber, paymentDate, grossP, cisDeductionP, statementId] of tuples) {
    (statementId === null ? late : onStatement).push({ id, invoiceNumber, paymentDate, grossP, cisDeductionP });
  }
  return { onStatement, late };
}

/**
 * One page of the statements screen for a tax month, in ONE D1 batch (`statementsPageQueries`, run
 * by the tenant middleware when `prefetched`, ADR 0082): the
 * settings' e-mail switch; the month's counts with the page's rows (paged in SQL, one row of counts
 * when the page is empty); the page's invoices, those on its statements and those still pending a
 * statement (for a row with a statement, paid after it was generated: never on it); and the
 * month's latest Generate All job. Every query is bound to the tenant; only the page's invoices are
 * read.
 */
export async function loadStatementsPage(
  env: Env,
  tenantId: string,
  taxMonth: string,
  ask: StatementsPageAsk = { filter: "all", page: 1, sub: null },
  prefetched: PagePrefetched | null = null,
): Promise<StatementsPage> {
  const db = dbFor(env, tenantId);
  const [settings, pageRows, [job]] = prefetched
    ? (prefetched.results as BatchResponse<ReturnType<typeof statementsPageQueries>>)
    : await db.batch(statementsPageQueries(db, tenantId, taxMonth, ask));

  const rows = pageRows.flatMap((r) => (r.subId === null ? [] : [pageRow({ ...r, subId: r.subId })]));
  // The counts ride on every row; the one row there always is when the page is empty.
  const totals = pageRows[0];
  return {
    emailStatements: settings[0]?.emailStatements ?? true,
    rows,
    counts: { total: totals?.nAll ?? 0, pending: totals?.nPending ?? 0, generated: totals?.nGenerated ?? 0, issued: totals?.nIssued ?? 0 },
    batch: job ? batchJobView(job) : null,
    page: totals?.page ?? 1,
    pageCount: Math.max(1, Math.ceil((totals?.nShown ?? 0) / STATEMENTS_PAGE_SIZE)),
  };
}

type PageRow = { [K in keyof typeof pageRowFields]: (typeof pageRowFields)[K]["_"]["type"] } & { subId: string };

/** A page row as the screen draws it, with its invoices: on its statement, or pending one. */
function pageRow(r: PageRow): StatementSubRow {
  const { onStatement, late } = rowInvoices(r.invoicesJson);
  if (r.statementId === null) {
    return {
      subcontractorId: r.subId,
      name: r.name,
      utrMasked: r.pendingUtr,
      status: "pending",
      invoiceCount: r.pendingCount,
      cisDeductionP: r.pendingCis,
      invoices: late,
      statement: null,
      notOnStatement: [],
    };
  }
  const status = r.statementStatus ?? "generated";
  return {
    subcontractorId: r.subId,
    name: r.name,
    utrMasked: r.utrMasked,
    status,
    invoiceCount: r.invoiceCount ?? 0,
    cisDeductionP: r.cisDeductionP ?? 0,
    invoices: onStatement,
    statement: {
      id: r.statementId,
      status,
      generatedAt: r.generatedAt ?? 0,
      issuedAt: r.issuedAt,
      issuedMethod: r.issuedMethod,
      emailFailure: r.emailStatus === "failed" ? (r.emailError === QUEUE_REFUSED ? "not_queued" : "delivery_failed") : null,
    },
    notOnStatement: late,
  };
}
