import type { BatchResponse } from "drizzle-orm/batch";
import type { PagePrefetched } from "~/features/platform/index.server";
import { and, asc, between, desc, eq, gte, inArray, isNull, lt, min, ne, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { cisInvoices, cisPaidMonthCounts, cisReturnLines, cisReturns, cisSettings, cisStatements, cisSubcontractors, hmrcSubmissions } from "~/db/schema";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { forTenant, sameTenant } from "~/db/tenancy";
import { toCsv } from "~/utils/csv";
import { newId } from "~/utils/ids";
import { returnLockStub } from "../../../../workers/durable-objects/return-lock";
import {
  compileReturn,
  isCisRate,
  OVERDUE_RETURNS_LOOKBACK_MONTHS,
  previousTaxMonth,
  returnsDue,
  taxMonthOf,
  type DueReturn,
  penceToPoundsString,
  taxMonthFromLabel,
  validateReturn,
  type CisRate,
  type InvoiceRecord,
  type PaidInvoiceGroup,
  type ReturnLine,
  type ReturnStatus,
  type StatementRecord,
  type SubcontractorRecord,
  type TaxMonth,
} from "../domain";
import type { Actor } from "~/features/auth";
import {
  RETURN_EXPORT_HEADER,
  RETURN_HISTORY_LIMIT,
  RETURN_HISTORY_LINES_SHOWN,
  RETURN_LINES_SHOWN,
  returnExportFileName,
  type ReturnErrorCode,
} from "./return-codes";
import type { Result } from "~/utils/result";
import { noticesQuery, toNotices, type NoticeRow } from "./notices.server";

export * from "./return-codes";

export type ReturnRow = typeof cisReturns.$inferSelect;
export type ReturnLineRow = typeof cisReturnLines.$inferSelect;

/** How long a compile may hold the month's lock before another may take it (a crashed holder frees it then). */
export const COMPILE_LEASE_MS = 2 * 60_000;

/**
 * Lines are written as one JSON array per statement (a single bound parameter: D1 allows 100
 * parameters per statement but strings up to 2 MB), this many lines per array. A line is about
 * 250 bytes, so a chunk stays near 250 kB and 1,000 subcontractors take one statement.
 */
export const RETURN_LINES_PER_STATEMENT = 1_000;

/** Pounds with two decimals as a number, for audit payloads. */
function pounds(pence: number): number {
  return Number(penceToPoundsString(pence));
}

function parseMonth(label: string): TaxMonth | null {
  try {
    return taxMonthFromLabel(label);
  } catch {
    return null;
  }
}

/** 'YYYY-MM-DD' London calendar dates of the month's first and last day (6th to 5th). */
function calendarRange(tm: TaxMonth): { from: string; to: string } {
  const [y, m] = tm.label.split("-").map(Number) as [number, number];
  const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
  const pad = (n: number) => String(n).padStart(2, "0");
  return { from: `${y}-${pad(m)}-06`, to: `${next.y}-${pad(next.m)}-05` };
}

/** Paid, live contract payments of the month: labelled with it, or paid on a date inside it. */
function paidInMonth(tenantId: string, tm: TaxMonth): SQL {
  const { from, to } = calendarRange(tm);
  return and(paidInCis(tenantId), or(eq(cisInvoices.taxMonth, tm.label), between(cisInvoices.paymentDate, from, to)))!;
}

/** Paid contract payments of the tenant: live, with a subcontractor, not outside CIS. */
function paidInCis(tenantId: string): SQL {
  return and(
    forTenant(cisInvoices, tenantId),
    isNull(cisInvoices.deletedAt),
    eq(cisInvoices.status, "paid"),
    ne(cisInvoices.subcontractorId, ""),
    // Payments to public bodies from 6 April 2026 are not contract payments: no line, and no payment for the month.
    eq(cisInvoices.outsideCis, false),
  )!;
}

/**
 * The tenant's contract payments per tax month from `oldestMonth` on (count and CIS deducted), as the
 * count table keeps them: an invoice counts in its labelled month and in its payment date's month,
 * exactly as `paidInMonth` selects them, so this reads a row per month, not the months' invoices.
 */
/** A value a query is built with: a string, or a placeholder of a prepared statement. */
type Bindable = string | SQLWrapper;

function paidMonthsQuery(db: Db, tenantId: Bindable, oldestMonth: Bindable) {
  const c = cisPaidMonthCounts;
  return db
    .select({ taxMonth: c.taxMonth, count: c.n, deductionsP: c.cisDeductionP })
    .from(c)
    .where(and(forTenant(c, tenantId), gte(c.taxMonth, oldestMonth), ne(c.n, 0)));
}

/** How many invoices `paidInMonth` holds: the month's row of the count table (none: no payments). */
function paidInMonthCountQuery(db: Db, tenantId: Bindable, taxMonth: Bindable) {
  const c = cisPaidMonthCounts;
  return db
    .select({ n: c.n })
    .from(c)
    .where(and(forTenant(c, tenantId), eq(c.taxMonth, taxMonth)));
}

function monthReturnsQuery(db: Db, tenantId: Bindable, taxMonth: Bindable) {
  return db
    .select()
    .from(cisReturns)
    .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.taxMonth, taxMonth)))
    .orderBy(asc(cisReturns.createdAt), asc(cisReturns.id));
}

/** The return a compile writes to: the month's open amendment if there is one, else the original. */
function compileTarget(rows: ReturnRow[]): { kind: "original"; row: ReturnRow | null } | { kind: "amendment"; row: ReturnRow } {
  const open = rows.filter((r) => r.amendmentOf !== null && !r.locked).at(-1);
  if (open) return { kind: "amendment", row: open };
  return { kind: "original", row: rows.find((r) => r.amendmentOf === null) ?? null };
}

export type CompileResult = Result<
  { id: string; status: ReturnStatus; issues: string[]; lines: number },
  Extract<ReturnErrorCode, "invalid_month" | "compile_running" | "locked" | "has_payments">
>;

export type CompileOptions = {
  now?: Date;
  /** 'nil': the person declared no payments in the month; refused when the month has any. */
  mode?: "compile" | "nil";
  leaseMs?: number;
  /** Runs between the read and the write batch: lets tests land a submission in that window. */
  beforeWrite?: () => Promise<void>;
};

/**
 * Compiles the month's return under the month's ReturnLock: a second compile while one runs is
 * refused at once and writes nothing. Reads the month's paid invoices, runs the rules engine,
 * then writes the return, its lines (replacing the previous ones) and the audit entry in one D1
 * batch. The return row is only overwritten while unlocked, and the lines and audit entry land
 * only when this compile's row write did, so a return locked (submitted) meanwhile is untouched.
 */
export async function compileMonthlyReturn(env: Env, tenantId: string, taxMonth: string, actor: Actor, opts: CompileOptions = {}): Promise<CompileResult> {
  const tm = parseMonth(taxMonth);
  if (!tm) return { ok: false, code: "invalid_month" };
  const lock = returnLockStub(env, tenantId, tm.label);
  const holder = newId();
  const lease = await lock.acquire(holder, opts.leaseMs ?? COMPILE_LEASE_MS);
  if (!lease.acquired) return { ok: false, code: "compile_running" };
  try {
    return await compileHeld(env, tenantId, tm, actor, opts);
  } finally {
    await lock.release(holder);
  }
}

// eslint-disable-next-line max-lines-per-function -- issue 31 splits this module
async function compileHeld(env: Env, tenantId: string, tm: TaxMonth, actor: Actor, opts: CompileOptions): Promise<CompileResult> {
  const db = dbFor(env, tenantId);
  const now = (opts.now ?? new Date()).getTime();
  const where = paidInMonth(tenantId, tm);
  const [existing, invoiceRows, subRows, statementRows] = await db.batch([
    monthReturnsQuery(db, tenantId, tm.label),
    db
      .select({
        id: cisInvoices.id,
        subcontractorId: cisInvoices.subcontractorId,
        subcontractorName: cisInvoices.subcontractorName,
        utrMasked: cisInvoices.utrMasked,
        ninoMasked: cisInvoices.ninoMasked,
        paymentDate: cisInvoices.paymentDate,
        taxMonth: cisInvoices.taxMonth,
        grossP: cisInvoices.grossP,
        materialsP: cisInvoices.materialsP,
        labourP: cisInvoices.labourP,
        cisDeductionP: cisInvoices.cisDeductionP,
        verificationRate: cisInvoices.verificationRate,
        verificationReference: cisInvoices.verificationReference,
        statementRequired: cisInvoices.statementRequired,
        statementIssuedAt: cisInvoices.statementIssuedAt,
        outsideCis: cisInvoices.outsideCis,
      })
      .from(cisInvoices)
      .where(where),
    db
      .select({
        id: cisSubcontractors.id,
        name: cisSubcontractors.name,
        utrMasked: cisSubcontractors.utrMasked,
        ninoMasked: cisSubcontractors.ninoMasked,
        verificationStatus: cisSubcontractors.verificationStatus,
        verificationRate: cisSubcontractors.verificationRate,
        verificationReference: cisSubcontractors.verificationReference,
      })
      .from(cisSubcontractors)
      .where(
        and(
          forTenant(cisSubcontractors, tenantId),
          inArray(cisSubcontractors.id, db.select({ id: cisInvoices.subcontractorId }).from(cisInvoices).where(where)),
        ),
      ),
    db
      .select({ subcontractorId: cisStatements.subcontractorId, taxMonth: cisStatements.taxMonth, issuedAt: cisStatements.issuedAt })
      .from(cisStatements)
      .where(and(forTenant(cisStatements, tenantId), eq(cisStatements.taxMonth, tm.label), eq(cisStatements.status, "issued"))),
  ]);

  const target = compileTarget(existing);
  if (target.row?.locked) return { ok: false, code: "locked" };

  const invoices: InvoiceRecord[] = invoiceRows.map((r) => ({
    id: r.id,
    subcontractorId: r.subcontractorId,
    subcontractorName: r.subcontractorName,
    status: "paid",
    paymentDate: r.paymentDate,
    taxMonth: r.taxMonth,
    amounts: { grossP: r.grossP, materialsP: r.materialsP, labourP: r.labourP, cisDeductionP: r.cisDeductionP },
    piiMasked: { utrMasked: r.utrMasked, ninoMasked: r.ninoMasked },
    verificationSnapshot: { rate: isCisRate(r.verificationRate) ? r.verificationRate : null, reference: r.verificationReference },
    statement: { required: r.statementRequired, issuedAt: r.statementIssuedAt === null ? null : new Date(r.statementIssuedAt) },
    outsideCis: r.outsideCis,
  }));
  const subcontractors: SubcontractorRecord[] = subRows.map((s) => ({
    id: s.id,
    name: s.name,
    utrMasked: s.utrMasked,
    ninoMasked: s.ninoMasked,
    verification: {
      status: s.verificationStatus,
      rate: (isCisRate(s.verificationRate) ? s.verificationRate : 20) as CisRate,
      reference: s.verificationReference,
    },
  }));
  const statements: StatementRecord[] = statementRows.map((s) => ({
    subcontractorId: s.subcontractorId,
    taxMonth: s.taxMonth,
    status: "issued",
    issuedAt: s.issuedAt === null ? null : new Date(s.issuedAt),
  }));
  const compiled = compileReturn({ taxMonth: tm, invoices, subcontractors, statements });
  if (opts.mode === "nil" && compiled.lines.length > 0) return { ok: false, code: "has_payments" };

  const id = target.kind === "amendment" ? target.row.id : tm.label;
  const status: ReturnStatus = target.kind === "amendment" ? "amended" : compiled.status;
  const token = newId();
  const fields = {
    status,
    subcontractorCount: compiled.totals.subcontractors,
    invoiceCount: compiled.totals.invoices,
    grossP: compiled.totals.grossP,
    materialsP: compiled.totals.materialsP,
    cisDeductedP: compiled.totals.cisDeductedP,
    filingDeadline: tm.deadlines.filing.getTime(),
    paymentDeadline: tm.deadlines.payment.getTime(),
    statementsDeadline: tm.deadlines.statements.getTime(),
    issues: compiled.issues,
    compiledBy: actor.id,
    compiledAt: now,
    compileId: token,
    updatedAt: now,
    updatedBy: actor.id,
  };
  const mine = writtenBy(tenantId, id, token);
  const statementsOut: BatchItem<"sqlite">[] = [
    db
      .insert(cisReturns)
      .values({ tenantId, id, taxMonth: tm.label, amendmentOf: target.kind === "amendment" ? target.row.amendmentOf : null, ...fields, createdAt: now })
      .onConflictDoUpdate({ target: [cisReturns.tenantId, cisReturns.id], set: fields, setWhere: eq(cisReturns.locked, false) })
      .returning({ id: cisReturns.id }),
    db.delete(cisReturnLines).where(and(forTenant(cisReturnLines, tenantId), eq(cisReturnLines.returnId, id), sql`EXISTS (${mine})`)),
    ...lineInserts(db, tenantId, id, compiled.lines, mine),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "cis.return.compiled",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "return",
        targetId: id,
        payload: {
          taxMonth: tm.label,
          status,
          subcontractors: compiled.totals.subcontractors,
          invoices: compiled.totals.invoices,
          gross: pounds(compiled.totals.grossP),
          cis: pounds(compiled.totals.cisDeductedP),
          issues: compiled.issues.length,
        },
      },
      sql`EXISTS (${mine})`,
      { now },
    ),
  ];
  await opts.beforeWrite?.();
  const results = (await db.batch(statementsOut as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const written = results[0] as { id: string }[];
  if (written.length === 0) return { ok: false, code: "locked" };
  return { ok: true, id, status, issues: compiled.issues, lines: compiled.lines.length };
}

/** A subquery that finds the return only while it still carries this write's token. */
function writtenBy(tenantId: string, id: string, token: string): SQL {
  return sql`SELECT 1 FROM ${cisReturns} WHERE ${cisReturns.tenantId} = ${tenantId} AND ${cisReturns.id} = ${id} AND ${cisReturns.compileId} = ${token}`;
}

/**
 * The lines as INSERT ... SELECT over json_each of one JSON parameter per chunk, in the column
 * order of cis_return_lines, guarded like the rest of the write.
 */
function lineInserts(db: Db, tenantId: string, returnId: string, lines: readonly ReturnLine[], guard: SQL) {
  const out = [];
  for (let start = 0; start < lines.length; start += RETURN_LINES_PER_STATEMENT) {
    const chunk = lines
      .slice(start, start + RETURN_LINES_PER_STATEMENT)
      .map((l, i) => [
        start + i,
        l.subcontractorId,
        l.name,
        l.utrMasked,
        l.ninoMasked,
        l.grossP,
        l.materialsP,
        l.cisDeductedP,
        l.cisRate,
        l.invoiceCount,
        l.verificationRef,
        l.statementsIssued ? 1 : 0,
        l.lastStatementDate ? Date.parse(l.lastStatementDate) : null,
      ]);
    // Raw SQL only for the column index, an integer literal of this function; the values are bound (json_each).
    const v = (i: number) => {
      if (!Number.isInteger(i) || i < 0) throw new Error("return line column index must be a non-negative integer");
      return sql.raw(`json_extract(j.value, '$[${i}]')`);
    };
    out.push(
      db.insert(cisReturnLines).select(
        sql`SELECT ${tenantId}, ${returnId}, ${v(0)}, ${v(1)}, ${v(2)}, ${v(3)}, ${v(4)}, ${v(5)}, ${v(6)}, ${v(7)}, ${v(8)}, ${v(9)}, ${v(10)}, ${v(11)}, ${v(12)}
            FROM json_each(${JSON.stringify(chunk)}) AS j WHERE EXISTS (${guard})`,
      ),
    );
  }
  return out;
}

export type AmendResult = Result<{ id: string }, Extract<ReturnErrorCode, "invalid_month" | "not_found" | "not_submitted" | "amendment_open">>;

/**
 * Starts an amendment of the month's latest submitted (locked) return: a new row
 * '{taxMonth}-AMD-{epoch ms}' with status amended, pointing at the return it amends, holding that
 * return's figures and lines until it is recompiled. The submitted return is never changed. The
 * database allows one open amendment per month.
 */
export async function amendReturn(env: Env, tenantId: string, taxMonth: string, actor: Actor, opts: { now?: Date } = {}): Promise<AmendResult> {
  const tm = parseMonth(taxMonth);
  if (!tm) return { ok: false, code: "invalid_month" };
  const db = dbFor(env, tenantId);
  const now = (opts.now ?? new Date()).getTime();
  const rows = await monthReturnsQuery(db, tenantId, tm.label);
  if (rows.length === 0) return { ok: false, code: "not_found" };
  if (rows.some((r) => r.amendmentOf !== null && !r.locked)) return { ok: false, code: "amendment_open" };
  const source = rows.filter((r) => r.locked).at(-1);
  if (!source) return { ok: false, code: "not_submitted" };
  const id = `${tm.label}-AMD-${now}`;
  const token = newId();
  const mine = writtenBy(tenantId, id, token);
  try {
    await db.batch([
      db.insert(cisReturns).values({
        tenantId,
        id,
        taxMonth: tm.label,
        amendmentOf: source.id,
        status: "amended",
        subcontractorCount: source.subcontractorCount,
        invoiceCount: source.invoiceCount,
        grossP: source.grossP,
        materialsP: source.materialsP,
        cisDeductedP: source.cisDeductedP,
        filingDeadline: source.filingDeadline,
        paymentDeadline: source.paymentDeadline,
        statementsDeadline: source.statementsDeadline,
        issues: source.issues,
        locked: false,
        compiledBy: source.compiledBy,
        compiledAt: source.compiledAt,
        compileId: token,
        createdAt: now,
        updatedAt: now,
        updatedBy: actor.id,
      }),
      db.insert(cisReturnLines).select(
        sql`SELECT ${cisReturnLines.tenantId}, ${id}, ${cisReturnLines.position}, ${cisReturnLines.subcontractorId}, ${cisReturnLines.name}, ${cisReturnLines.utrMasked},
          ${cisReturnLines.ninoMasked}, ${cisReturnLines.grossP}, ${cisReturnLines.materialsP}, ${cisReturnLines.cisDeductedP}, ${cisReturnLines.cisRate},
          ${cisReturnLines.invoiceCount}, ${cisReturnLines.verificationRef}, ${cisReturnLines.statementsIssued}, ${cisReturnLines.lastStatementDate}
          FROM ${cisReturnLines} WHERE ${cisReturnLines.tenantId} = ${tenantId} AND ${cisReturnLines.returnId} = ${source.id} AND EXISTS (${mine})`,
      ),
      auditInsert(
        db,
        {
          tenantId,
          action: "cis.return.amended",
          actorId: actor.id,
          actorEmail: actor.email,
          targetType: "return",
          targetId: id,
          payload: { taxMonth: tm.label, amendmentOf: source.id, gross: pounds(source.grossP), cis: pounds(source.cisDeductedP) },
        },
        now,
      ),
    ]);
  } catch (err) {
    // Two amends at once: the unique index on the month's open amendment lets one through.
    if (isConstraintViolation(err)) return { ok: false, code: "amendment_open" };
    throw err;
  }
  return { ok: true, id };
}

function isConstraintViolation(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${err.cause instanceof Error ? err.cause.message : ""}` : String(err);
  return /UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(text);
}

export type UnlockResult = Result<void, Extract<ReturnErrorCode, "not_found" | "not_locked" | "amendment_open">>;

/**
 * Testing only (the route offers it behind the development flag and cis.manage): a locked return
 * goes back to draft, unlocked, with its submission fields cleared. One conditional UPDATE and its
 * audit entry in one batch.
 */
export async function unlockReturn(env: Env, tenantId: string, id: string, actor: Actor, opts: { now?: Date } = {}): Promise<UnlockResult> {
  const db = dbFor(env, tenantId);
  const now = (opts.now ?? new Date()).getTime();
  const token = newId();
  let changed: { id: string }[];
  try {
    [changed] = await db.batch([
      db
        .update(cisReturns)
        .set({
          status: "draft",
          locked: false,
          lockedAt: null,
          submittedAt: null,
          submittedBy: null,
          submissionRef: null,
          irmark: null,
          compileId: token,
          updatedAt: now,
          updatedBy: actor.id,
        })
        .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.id, id), eq(cisReturns.locked, true)))
        .returning({ id: cisReturns.id }),
      auditInsertWhere(
        db,
        { tenantId, action: "cis.return.unlocked", actorId: actor.id, actorEmail: actor.email, targetType: "return", targetId: id, payload: { testing: true } },
        sql`EXISTS (${writtenBy(tenantId, id, token)})`,
        { now },
      ),
    ]);
  } catch (err) {
    if (isConstraintViolation(err)) return { ok: false, code: "amendment_open" };
    throw err;
  }
  if (changed.length > 0) return { ok: true };
  const [row] = await db
    .select({ id: cisReturns.id })
    .from(cisReturns)
    .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.id, id)));
  return { ok: false, code: row ? "not_locked" : "not_found" };
}

/**
 * The month's one return that may still be submitted (its open amendment, else the unlocked
 * original), or null: what /cis/returns/{taxMonth}/submit acts on.
 */
export async function openReturnForMonth(env: Env, tenantId: string, taxMonth: string): Promise<{ ret: ReturnRow; lines: ReturnLineRow[] } | null> {
  const db = dbFor(env, tenantId);
  const rows = await monthReturnsQuery(db, tenantId, taxMonth);
  const target = compileTarget(rows);
  if (!target.row || target.row.locked) return null;
  const lines = await linesQuery(db, tenantId, target.row.id);
  return { ret: target.row, lines };
}

/**
 * The month's return the submit page shows: its open amendment, else the original, locked or not
 * (a locked one shows its submission and refuses another). Lines only while it can still be sent.
 */
export async function returnToSubmit(env: Env, tenantId: string, taxMonth: string): Promise<{ ret: ReturnRow; lines: ReturnLineRow[] } | null> {
  const db = dbFor(env, tenantId);
  const target = compileTarget(await monthReturnsQuery(db, tenantId, taxMonth));
  if (!target.row) return null;
  return { ret: target.row, lines: target.row.locked ? [] : await linesQuery(db, tenantId, target.row.id) };
}

/**
 * The submit page's view of the month in one D1 batch: the month's returns, all their lines and
 * their CIS300 submissions, newest first; `latest` is the submission of the return shown.
 */
export async function returnSubmissionView(
  env: Env,
  tenantId: string,
  taxMonth: string,
): Promise<{ ret: ReturnRow; lines: ReturnLineRow[]; latest: typeof hmrcSubmissions.$inferSelect | null } | null> {
  const db = dbFor(env, tenantId);
  const ofMonth = sql`(SELECT ${cisReturns.id} FROM ${cisReturns} WHERE ${cisReturns.tenantId} = ${tenantId} AND ${cisReturns.taxMonth} = ${taxMonth})`;
  const [rows, lines, submissions] = await db.batch([
    monthReturnsQuery(db, tenantId, taxMonth),
    db
      .select()
      .from(cisReturnLines)
      .where(and(forTenant(cisReturnLines, tenantId), sql`${cisReturnLines.returnId} IN ${ofMonth}`))
      .orderBy(asc(cisReturnLines.position)),
    db
      .select()
      .from(hmrcSubmissions)
      .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.kind, "cis300"), sql`substr(${hmrcSubmissions.subjectKey}, 8) IN ${ofMonth}`))
      .orderBy(desc(hmrcSubmissions.createdAt)),
  ]);
  const target = compileTarget(rows);
  if (!target.row) return null;
  const id = target.row.id;
  return {
    ret: target.row,
    lines: target.row.locked ? [] : lines.filter((l) => l.returnId === id),
    latest: submissions.find((s) => s.subjectKey === `cis300:${id}`) ?? null,
  };
}

function linesQuery(db: Db, tenantId: string, returnId: string) {
  return db
    .select()
    .from(cisReturnLines)
    .where(and(forTenant(cisReturnLines, tenantId), eq(cisReturnLines.returnId, returnId)))
    .orderBy(asc(cisReturnLines.position));
}

/**
 * Why a stored return may not be sent yet, or null: it must be unlocked and its last compile must
 * have validated (issues are stored by the compile; an unlocked-for-testing draft is recompiled
 * first). The submit page validates the full lines again with `validateStoredReturn`.
 */
export function submissionBlocker(ret: Pick<ReturnRow, "locked" | "status" | "issues">): string | null {
  if (ret.locked || ret.status === "submitted") return "Return is already locked";
  if (ret.issues.length > 0) return `Return validation failed: ${ret.issues.join("; ")}`;
  if (ret.status === "draft") return "Recompile the return to validate it before submitting";
  return null;
}

/** The rules engine's validation of a stored return and all its lines. */
export function validateStoredReturn(ret: ReturnRow, lines: readonly ReturnLineRow[]) {
  return validateReturn(asDomainReturn(ret, lines));
}

export function asDomainReturn(ret: ReturnRow, lines: readonly ReturnLineRow[]) {
  return {
    id: ret.id,
    taxMonth: ret.taxMonth,
    status: ret.status,
    locked: ret.locked,
    amendmentOf: ret.amendmentOf,
    totals: {
      subcontractors: ret.subcontractorCount,
      invoices: ret.invoiceCount,
      grossP: ret.grossP,
      materialsP: ret.materialsP,
      cisDeductedP: ret.cisDeductedP,
    },
    lines: lines.map((l): ReturnLine => ({
      subcontractorId: l.subcontractorId,
      name: l.name,
      utrMasked: l.utrMasked,
      ninoMasked: l.ninoMasked,
      grossP: l.grossP,
      materialsP: l.materialsP,
      cisDeductedP: l.cisDeductedP,
      cisRate: (isCisRate(l.cisRate) ? l.cisRate : 20) as CisRate,
      invoiceCount: l.invoiceCount,
      verificationRef: l.verificationRef,
      statementsIssued: l.statementsIssued,
      lastStatementDate: l.lastStatementDate === null ? null : new Date(l.lastStatementDate).toISOString(),
    })),
  };
}

/**
 * The reads the overdue-returns list needs, to fold into a page's one D1 batch: when the
 * tenant started (CIS settings created, first invoice), its payments per tax month of the look-back
 * window (a row per month: `paidMonthsQuery`), the months of that window with a return HMRC has
 * (submitted and locked; an accepted amendment or nil return is locked too), and the notices of no
 * payments (a month one covers needs no nil return).
 */
export function overdueReturnsQueries(db: Db, tenantId: string, now: Date) {
  let oldest = taxMonthOf(now);
  for (let i = 0; i < OVERDUE_RETURNS_LOOKBACK_MONTHS; i++) oldest = previousTaxMonth(oldest.label);
  const values = { tenantId, oldest: oldest.label };
  return [firstActivityStatement(db, values), paidMonthsStatement(db, values), filedMonthsStatement(db, values), noticesStatement(db, values)] as const;
}

// Built once per database and bound to each request's values (ADR 0077): the dashboard, the returns
// page and the deadline alerts read these on every view.
type TenantValues = { tenantId: string };
type OverdueValues = { tenantId: string; oldest: string };
type MonthValues = { tenantId: string; month: string };
const firstActivityStatement = preparedStatement((db, p: Placeholders<TenantValues>) =>
  db
    .select({
      firstInvoiceAt: min(cisInvoices.createdAt),
      settingsAt: sql<number | null>`(SELECT ${cisSettings.createdAt} FROM ${cisSettings} WHERE ${cisSettings.tenantId} = ${p.tenantId})`,
    })
    .from(cisInvoices)
    .where(forTenant(cisInvoices, p.tenantId)),
);
const paidMonthsStatement = preparedStatement((db, p: Placeholders<OverdueValues>) => paidMonthsQuery(db, p.tenantId, p.oldest));
const filedMonthsStatement = preparedStatement((db, p: Placeholders<OverdueValues>) =>
  db
    .selectDistinct({ taxMonth: cisReturns.taxMonth })
    .from(cisReturns)
    .where(and(forTenant(cisReturns, p.tenantId), gte(cisReturns.taxMonth, p.oldest), or(eq(cisReturns.locked, true), eq(cisReturns.status, "submitted")))),
);
const noticesStatement = preparedStatement((db, p: Placeholders<TenantValues>) => noticesQuery(db, p.tenantId));

/** The id of the month's latest return, as a sub-select. */
function latestOfMonthQuery(db: Db, tenantId: Bindable, taxMonth: Bindable) {
  return db
    .select({ id: cisReturns.id })
    .from(cisReturns)
    .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.taxMonth, taxMonth)))
    .orderBy(desc(cisReturns.createdAt), desc(cisReturns.id))
    .limit(1);
}

const returnsPage = {
  monthReturns: preparedStatement((db, p: Placeholders<MonthValues>) => monthReturnsQuery(db, p.tenantId, p.month)),
  lines: preparedStatement((db, p: Placeholders<MonthValues>) =>
    db
      .select()
      .from(cisReturnLines)
      .where(
        and(
          forTenant(cisReturnLines, p.tenantId),
          inArray(cisReturnLines.returnId, latestOfMonthQuery(db, p.tenantId, p.month)),
          lt(cisReturnLines.position, RETURN_LINES_SHOWN),
        ),
      )
      .orderBy(asc(cisReturnLines.position)),
  ),
  history: preparedStatement((db, p: Placeholders<TenantValues>) =>
    db
      .select()
      .from(cisReturns)
      .where(forTenant(cisReturns, p.tenantId))
      .orderBy(desc(cisReturns.taxMonth), desc(cisReturns.createdAt), desc(cisReturns.id))
      .limit(RETURN_HISTORY_LIMIT),
  ),
  historyLines: preparedStatement((db, p: Placeholders<TenantValues>) => {
    const recent = db
      .select({ id: cisReturns.id })
      .from(cisReturns)
      .where(forTenant(cisReturns, p.tenantId))
      .orderBy(desc(cisReturns.taxMonth), desc(cisReturns.createdAt), desc(cisReturns.id))
      .limit(RETURN_HISTORY_LIMIT);
    return db
      .select()
      .from(cisReturnLines)
      .where(and(forTenant(cisReturnLines, p.tenantId), inArray(cisReturnLines.returnId, recent), lt(cisReturnLines.position, RETURN_HISTORY_LINES_SHOWN)))
      .orderBy(asc(cisReturnLines.returnId), asc(cisReturnLines.position));
  }),
  paidInMonth: preparedStatement((db, p: Placeholders<MonthValues>) => paidInMonthCountQuery(db, p.tenantId, p.month)),
  // From the shown lines to their subcontractors by key (an IN over the subcontractors would walk all of the tenant's).
  contacts: preparedStatement((db, p: Placeholders<MonthValues>) =>
    db
      .select({ id: cisSubcontractors.id, email: cisSubcontractors.email })
      .from(cisReturnLines)
      .innerJoin(cisSubcontractors, and(eq(cisSubcontractors.id, cisReturnLines.subcontractorId), sameTenant(cisSubcontractors, cisReturnLines)))
      .where(
        and(
          forTenant(cisReturnLines, p.tenantId),
          inArray(cisReturnLines.returnId, latestOfMonthQuery(db, p.tenantId, p.month)),
          lt(cisReturnLines.position, RETURN_LINES_SHOWN),
          eq(cisReturnLines.statementsIssued, false),
        ),
      ),
  ),
};

type OverdueQueryResults = [{ firstInvoiceAt: number | null; settingsAt: number | null }[], PaidInvoiceGroup[], { taxMonth: string }[], NoticeRow[]];

/** The overdue returns from the results of `overdueReturnsQueries`, newest first. */
export function toOverdueReturns(now: Date, [[first], paid, filed, notices]: OverdueQueryResults): DueReturn[] {
  const starts = [first?.firstInvoiceAt, first?.settingsAt].filter((n): n is number => typeof n === "number");
  return returnsDue({
    now,
    firstActivityAt: starts.length > 0 ? new Date(Math.min(...starts)) : null,
    paidInvoices: paid,
    filedMonths: filed.map((f) => f.taxMonth),
    notices: toNotices(notices),
  });
}

export type ReturnsPageData = {
  month: TaxMonth;
  /** The month's returns, oldest first: the original, then its amendments. */
  monthReturns: ReturnRow[];
  /** The first lines of the month's latest return (RETURN_LINES_SHOWN). */
  lines: ReturnLineRow[];
  history: ReturnRow[];
  /** The first lines of each historical return, by return id. */
  historyLines: Record<string, ReturnLineRow[]>;
  /** Paid invoices in the month: none means a nil return is what to file. */
  paymentsInMonth: number;
  /** Returns whose filing deadline has passed unfiled, newest first. */
  overdue: DueReturn[];
  /** Whether each subcontractor of the latest return's shown lines whose statement is not issued has an e-mail address. */
  hasEmail: Record<string, boolean>;
  /** The tenant's notices of no payments, newest first. */
  notices: NoticeRow[];
};

/** Everything /cis/returns shows for a month, in ONE D1 round trip. */
/** The returns page's batch for a month, at `now` (also run by the tenant middleware, ADR 0082). */
export function returnsPageQueries(db: Db, tenantId: string, month: TaxMonth, now: Date) {
  const values = { tenantId, month: month.label };
  return [
    returnsPage.monthReturns(db, values),
    returnsPage.lines(db, values),
    returnsPage.history(db, values),
    returnsPage.historyLines(db, values),
    returnsPage.paidInMonth(db, values),
    returnsPage.contacts(db, values),
    ...overdueReturnsQueries(db, tenantId, now),
  ] as const;
}

/** The returns page's data, from its batch: the one the tenant middleware ran for this request when given (at its time), else its own. */
export async function returnsPageData(
  env: Env,
  tenantId: string,
  month: TaxMonth,
  at: Date = new Date(),
  prefetched: PagePrefetched | null = null,
): Promise<ReturnsPageData> {
  const now = prefetched?.now ?? at;
  const db = dbFor(env, tenantId);
  const [monthReturns, lines, history, historyLineRows, [payments], contacts, ...overdueResults] = prefetched
    ? (prefetched.results as BatchResponse<ReturnType<typeof returnsPageQueries>>)
    : await db.batch(returnsPageQueries(db, tenantId, month, now));
  const historyLines: Record<string, ReturnLineRow[]> = {};
  for (const l of historyLineRows) (historyLines[l.returnId] ??= []).push(l);
  return {
    month,
    monthReturns,
    lines,
    history,
    historyLines,
    paymentsInMonth: payments?.n ?? 0,
    overdue: toOverdueReturns(now, overdueResults as OverdueQueryResults),
    hasEmail: Object.fromEntries(contacts.map((c) => [c.id, Boolean(c.email?.trim())])),
    notices: (overdueResults as OverdueQueryResults)[3],
  };
}

/** The return the month's status badge reports on, for the dashboard: its latest return's status, or null. */
export function latestReturnStatusQuery(db: Db, tenantId: Bindable, taxMonth: Bindable) {
  return db
    .select({ status: cisReturns.status, locked: cisReturns.locked })
    .from(cisReturns)
    .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.taxMonth, taxMonth)))
    .orderBy(desc(cisReturns.createdAt), desc(cisReturns.id))
    .limit(1);
}

export type ExportReturnResult = Result<{ fileName: string; body: string; rows: number }, Extract<ReturnErrorCode, "not_found" | "empty">>;

/**
 * CIS_Return_{id}.csv: one row per line, amounts in pounds with two decimals, identifiers masked,
 * every cell neutralised against formula injection. The audit entry (gross and CIS in pounds, the
 * row count) is written before any data leaves.
 */
export async function exportReturnCsv(env: Env, tenantId: string, id: string, actor: Actor, opts: { ip?: string | null } = {}): Promise<ExportReturnResult> {
  const db = dbFor(env, tenantId);
  const [[ret], lines] = await db.batch([
    db
      .select()
      .from(cisReturns)
      .where(and(forTenant(cisReturns, tenantId), eq(cisReturns.id, id)))
      .limit(1),
    linesQuery(db, tenantId, id),
  ]);
  if (!ret) return { ok: false, code: "not_found" };
  if (lines.length === 0) return { ok: false, code: "empty" };
  const body = toCsv(
    RETURN_EXPORT_HEADER,
    lines.map((l) => [
      l.name,
      l.utrMasked ?? "",
      l.ninoMasked ?? "",
      penceToPoundsString(l.grossP),
      penceToPoundsString(l.materialsP),
      penceToPoundsString(l.cisDeductedP),
      l.cisRate,
      l.invoiceCount,
    ]),
  );
  await auditInsert(db, {
    tenantId,
    action: "cis.return.exported",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "return",
    targetId: ret.id,
    payload: { taxMonth: ret.taxMonth, format: "csv", rows: lines.length, gross: pounds(ret.grossP), cis: pounds(ret.cisDeductedP) },
    ip: opts.ip ?? null,
  });
  return { ok: true, fileName: returnExportFileName(ret.id), body, rows: lines.length };
}
