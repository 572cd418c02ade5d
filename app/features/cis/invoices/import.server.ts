import { and, inArray, isNull } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import { dbFor } from "~/db/client.server";
import { cisInvoices, cisSubcontractors } from "~/db/schema";
import type { AuditEntry } from "~/features/platform/index.server";
import { auditInsertsOf, importRecordInserts, insertsOf, runImportBatch } from "../csv-import/import-commit.server";
import { countStatuses, readImportTable, type ImportTable } from "../csv-import/import-kit.server";
import { IMPORT_MAX_ROWS, type ImportRefusal, type ImportRowStatus } from "../csv-import/import-kit";
import { invoiceFormSchema, invoiceAmounts, materialsWarning, normalizeUtr, parseMoney, UTR_RE, type InvoiceInput } from "../domain";
import type { Actor } from "~/features/auth";
import { maskUtr, piiSearchHash } from "../pii.server";
import { INVOICE_IMPORT_COLUMNS, type InvoiceImportColumnKey } from "./import-columns";
import { invoiceTreatment, isUniqueNumberViolation, newInvoiceRecords, type InvoiceSubcontractor } from "./form.server";
import { INVOICE_ERROR_MESSAGES } from "./invoice-codes";
import type { Result } from "~/utils/result";

/**
 * One data row as the preview shows it. `row` counts data rows from 1 (the first row under the
 * header); `line` is the spreadsheet line (the header is line 1). Amounts are the server's own
 * calculation at the matched subcontractor's rate, or null while the row cannot be calculated.
 */
export type InvoiceImportRowResult = {
  row: number;
  line: number;
  invoiceNumber: string;
  subcontractor: string;
  invoiceDate: string;
  grossP: number | null;
  materialsP: number | null;
  cisRate: number | null;
  cisDeductionP: number | null;
  netPaymentP: number | null;
  status: ImportRowStatus;
  messages: string[];
  warnings: string[];
};

/** A row ready to be written: the validated input and the subcontractor it was matched to. */
export type InvoiceImportItem = { input: InvoiceInput; sub: InvoiceSubcontractor };

export type InvoiceImportAnalysis =
  | {
      ok: true;
      rows: InvoiceImportRowResult[];
      /** Every row, in file order, when all of them are valid; otherwise empty (an import is all or nothing). */
      items: InvoiceImportItem[];
      ignoredColumns: string[];
      counts: Record<ImportRowStatus, number>;
    }
  | ImportRefusal;

export const IMPORT_ROW_MESSAGES = {
  missingSubcontractor: "Enter the subcontractor's name or 10-digit UTR",
  ambiguous: (name: string) => `More than one active subcontractor is named '${name}': put their UTR in the Subcontractor column instead`,
  notFound: (value: string, byUtr: boolean) =>
    byUtr
      ? `${INVOICE_ERROR_MESSAGES.subcontractor_not_found}: no subcontractor has this UTR`
      : `${INVOICE_ERROR_MESSAGES.subcontractor_not_found}: '${value}'`,
  archived: INVOICE_ERROR_MESSAGES.subcontractor_archived,
  duplicateInFile: (firstRow: number) => `Duplicate invoice number: row ${firstRow} in this file has the same subcontractor and number`,
  duplicateExisting: INVOICE_ERROR_MESSAGES.duplicate_number,
  notDraft: "Imported invoices are always drafts: leave Status blank or write draft",
  reverseCharge: "Reverse Charge must be yes or no",
} as const;

const HEADER_OF: Readonly<Record<string, string>> = {
  ...Object.fromEntries(INVOICE_IMPORT_COLUMNS.map((c) => [c.key, c.header])),
  gross: "Gross",
  materials: "Materials",
};

/** DD/MM/YYYY (a UK spreadsheet's own format) to ISO; anything else is passed on for the schema to judge. */
function isoDate(value: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  return m ? `${m[3]}-${m[2].padStart(2, "0")}-${m[1].padStart(2, "0")}` : value;
}

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0", ""]);

/** The form schema's input for a row; the subcontractor id is filled in once the name or UTR is matched. */
function rowInput(cells: Partial<Record<InvoiceImportColumnKey, string>>, subcontractorId: string) {
  const text = (k: InvoiceImportColumnKey) => {
    const v = cells[k]?.trim();
    return v ? v : undefined;
  };
  const vat = (text("vatRate") ?? "0").replace(/%$/, "").trim();
  const reverse = (text("reverseCharge") ?? "").toLowerCase();
  return {
    value: {
      subcontractorId,
      invoiceNumber: cells.invoiceNumber ?? "",
      invoiceDate: isoDate(text("invoiceDate") ?? ""),
      receivedDate: text("receivedDate") ? isoDate(text("receivedDate") as string) : undefined,
      description: text("description"),
      gross: text("gross"),
      materials: text("materials"),
      vatRate: /^\d+(\.0+)?$/.test(vat) ? Number(vat) : Number.NaN,
      reverseCharge: YES.has(reverse),
      materialsJustification: text("materialsJustification"),
    },
    reverseChargeValid: YES.has(reverse) || NO.has(reverse),
  };
}

type SubMatch = { ok: true; sub: InvoiceSubcontractor } | { ok: false; message: string };

/**
 * Matches the Subcontractor cells to this tenant's subcontractors (never another tenant's): a
 * 10-digit value by its UTR's keyed hash, anything else by name, case-insensitively. A name held
 * by two active subcontractors is ambiguous; a match that is archived cannot take new invoices.
 * All lookups go to D1 in one batch, each statement within D1's 100 bound parameters.
 */
async function matchSubcontractors(env: Env, tenantId: string, values: string[]): Promise<Map<string, SubMatch>> {
  const utrs = new Map<string, string>();
  const names = new Set<string>();
  for (const v of new Set(values)) {
    const utr = normalizeUtr(v);
    if (UTR_RE.test(utr)) utrs.set(v, await piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", utr));
    else if (v.trim()) names.add(v.trim().toLowerCase());
  }
  const db = dbFor(env, tenantId);
  const columns = {
    id: cisSubcontractors.id,
    name: cisSubcontractors.name,
    nameLower: cisSubcontractors.nameLower,
    utrMasked: cisSubcontractors.utrMasked,
    ninoMasked: cisSubcontractors.ninoMasked,
    verificationRate: cisSubcontractors.verificationRate,
    publicBody: cisSubcontractors.publicBody,
    active: cisSubcontractors.active,
    utrHash: cisSubcontractors.utrHash,
  };
  const live = and(forTenant(cisSubcontractors, tenantId), isNull(cisSubcontractors.deletedAt));
  const queries = [];
  const nameList = [...names];
  const hashList = [...new Set(utrs.values())];
  for (let i = 0; i < nameList.length; i += 90)
    queries.push(
      db
        .select(columns)
        .from(cisSubcontractors)
        .where(and(live, inArray(cisSubcontractors.nameLower, nameList.slice(i, i + 90)))),
    );
  for (let i = 0; i < hashList.length; i += 90)
    queries.push(
      db
        .select(columns)
        .from(cisSubcontractors)
        .where(and(live, inArray(cisSubcontractors.utrHash, hashList.slice(i, i + 90)))),
    );
  const found = queries.length ? (await db.batch(queries as [(typeof queries)[0], ...typeof queries])).flat() : [];
  const byName = new Map<string, typeof found>();
  const byHash = new Map<string, (typeof found)[0]>();
  for (const s of found) {
    if (names.has(s.nameLower)) byName.set(s.nameLower, [...(byName.get(s.nameLower) ?? []).filter((x) => x.id !== s.id), s]);
    if (s.utrHash) byHash.set(s.utrHash, s);
  }
  const pick = ({ active: _a, utrHash: _h, nameLower: _n, ...sub }: (typeof found)[0]): InvoiceSubcontractor => sub;
  const result = new Map<string, SubMatch>();
  for (const v of new Set(values)) {
    const hash = utrs.get(v);
    if (hash) {
      const s = byHash.get(hash);
      result.set(
        v,
        !s
          ? { ok: false, message: IMPORT_ROW_MESSAGES.notFound(v, true) }
          : s.active
            ? { ok: true, sub: pick(s) }
            : { ok: false, message: IMPORT_ROW_MESSAGES.archived },
      );
      continue;
    }
    const candidates = byName.get(v.trim().toLowerCase()) ?? [];
    const active = candidates.filter((s) => s.active);
    if (active.length === 1) result.set(v, { ok: true, sub: pick(active[0]) });
    else if (active.length > 1) result.set(v, { ok: false, message: IMPORT_ROW_MESSAGES.ambiguous(v.trim()) });
    else if (candidates.length > 0) result.set(v, { ok: false, message: IMPORT_ROW_MESSAGES.archived });
    else result.set(v, { ok: false, message: IMPORT_ROW_MESSAGES.notFound(v.trim(), false) });
  }
  return result;
}

const pairKey = (subcontractorId: string, invoiceNumber: string) => `${subcontractorId}\u0000${invoiceNumber}`;

/** Which (subcontractor, number) pairs already belong to a live invoice of this tenant; one D1 batch. */
async function existingNumbers(env: Env, tenantId: string, pairs: { subcontractorId: string; invoiceNumber: string }[]): Promise<Set<string>> {
  const numbers = [...new Set(pairs.map((p) => p.invoiceNumber))];
  if (numbers.length === 0) return new Set();
  const db = dbFor(env, tenantId);
  const queries = [];
  for (let i = 0; i < numbers.length; i += 90)
    queries.push(
      db
        .select({ subcontractorId: cisInvoices.subcontractorId, invoiceNumber: cisInvoices.invoiceNumber })
        .from(cisInvoices)
        .where(and(forTenant(cisInvoices, tenantId), isNull(cisInvoices.deletedAt), inArray(cisInvoices.invoiceNumber, numbers.slice(i, i + 90)))),
    );
  const rows = (await db.batch(queries as [(typeof queries)[0], ...typeof queries])).flat();
  return new Set(rows.map((r) => pairKey(r.subcontractorId, r.invoiceNumber)));
}

type ImportRow = ImportTable<InvoiceImportColumnKey>["rows"][number];
type RowWork = { result: InvoiceImportRowResult; item: InvoiceImportItem | null };

/**
 * Parses and validates a whole file: the header, the row limit, every row against the invoice
 * form's own schema (amounts, materials against gross, the 80% justification note, dates,
 * number length, VAT rate), the subcontractor match, and duplicate numbers within the file and
 * against the tenant's live invoices. Writes nothing. `items` holds the rows to create only when
 * every row is valid: an invoice import is all or nothing.
 */
export async function analyseInvoiceImport(env: Env, tenantId: string, text: string): Promise<InvoiceImportAnalysis> {
  const table = readImportTable(text, INVOICE_IMPORT_COLUMNS);
  if (!table.ok) return table;
  const subs = await matchSubcontractors(
    env,
    tenantId,
    table.rows.map((r) => (r.cells.subcontractor ?? "").trim()),
  );

  const firstRowFor = new Map<string, number>();
  const work = table.rows.map((r) => analyseRow(r, subs, firstRowFor));
  await flagNumbersOnFile(env, tenantId, work);

  const rows = work.map((w) => w.result);
  const counts = countStatuses(rows);
  const allValid = counts.invalid === 0 && counts.duplicate === 0;
  return {
    ok: true,
    rows,
    items: allValid ? work.map((w) => w.item as InvoiceImportItem) : [],
    ignoredColumns: table.ignoredColumns,
    counts,
  };
}

/**
 * One row's own problems: its subcontractor cell and match, the invoice form's schema, Reverse
 * Charge and Status, each message prefixed with its column's header.
 */
function checkRowCells(cells: ImportRow["cells"], subCell: string, match: SubMatch | undefined) {
  const messages: string[] = [];
  if (!subCell) messages.push(`Subcontractor: ${IMPORT_ROW_MESSAGES.missingSubcontractor}`);
  else if (match && !match.ok) messages.push(`Subcontractor: ${match.message}`);
  const sub = match?.ok ? match.sub : null;
  const { value, reverseChargeValid } = rowInput(cells, sub?.id ?? "unmatched");
  const parsed = invoiceFormSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      const text = HEADER_OF[key] ? `${HEADER_OF[key]}: ${issue.message}` : issue.message;
      if (!messages.includes(text)) messages.push(text);
    }
  }
  if (!reverseChargeValid) messages.push(`Reverse Charge: ${IMPORT_ROW_MESSAGES.reverseCharge}`);
  const status = (cells.status ?? "").trim().toLowerCase();
  if (status !== "" && status !== "draft") messages.push(`Status: ${IMPORT_ROW_MESSAGES.notDraft}`);
  return { messages, sub, value, input: parsed.success ? parsed.data : null };
}

/**
 * One row as the preview shows it, and the invoice to create from it when it is valid. A number
 * already used for the same subcontractor by an earlier row of the file (`firstRowFor`, filled
 * as the rows go) makes it a duplicate.
 */
function analyseRow({ row, line, cells }: ImportRow, subs: Map<string, SubMatch>, firstRowFor: Map<string, number>): RowWork {
  const subCell = (cells.subcontractor ?? "").trim();
  const { messages, sub, value, input } = checkRowCells(cells, subCell, subCell ? subs.get(subCell) : undefined);
  const treatment = input && sub ? invoiceTreatment(sub, input.invoiceDate) : null;
  const amounts = input && treatment ? invoiceAmounts({ ...input, cisRate: treatment.cisRate }) : null;
  // The 60% warning is shown whenever both amounts read, even on a row refused for another reason.
  const grossP = input?.grossP ?? (value.gross === undefined ? null : parseMoney(value.gross));
  const materialsP = input?.materialsP ?? (value.materials === undefined ? 0 : parseMoney(value.materials));
  const warning = grossP !== null && materialsP !== null && materialsP <= grossP ? materialsWarning(grossP, materialsP) : null;
  let rowStatus: ImportRowStatus = messages.length === 0 && input && sub ? "valid" : "invalid";
  const invoiceNumber = (cells.invoiceNumber ?? "").trim();
  if (sub && invoiceNumber) {
    const key = pairKey(sub.id, invoiceNumber);
    const first = firstRowFor.get(key);
    if (first === undefined) firstRowFor.set(key, row);
    else {
      messages.push(IMPORT_ROW_MESSAGES.duplicateInFile(first));
      if (rowStatus === "valid") rowStatus = "duplicate";
    }
  }
  return {
    result: {
      row,
      line,
      invoiceNumber: invoiceNumber.slice(0, 60),
      // A UTR typed in the file goes back to the page masked, like every identifier.
      subcontractor: sub ? sub.name : UTR_RE.test(normalizeUtr(subCell)) ? maskUtr(normalizeUtr(subCell)) : subCell.slice(0, 100),
      invoiceDate: value.invoiceDate.slice(0, 20),
      grossP: input?.grossP ?? null,
      materialsP: input?.materialsP ?? null,
      cisRate: treatment?.cisRate ?? sub?.verificationRate ?? null,
      cisDeductionP: amounts?.cisDeductionP ?? null,
      netPaymentP: amounts?.netPaymentP ?? null,
      status: rowStatus,
      messages,
      warnings: warning ? [warning] : [],
    },
    item: input && sub ? { input: { ...input, subcontractorId: sub.id }, sub } : null,
  };
}

/** Marks the rows whose (subcontractor, number) already belongs to a live invoice of this tenant. */
async function flagNumbersOnFile(env: Env, tenantId: string, work: RowWork[]): Promise<void> {
  const taken = await existingNumbers(
    env,
    tenantId,
    work.flatMap((w) => (w.item ? [{ subcontractorId: w.item.sub.id, invoiceNumber: w.item.input.invoiceNumber }] : [])),
  );
  for (const w of work) {
    if (w.item && taken.has(pairKey(w.item.sub.id, w.item.input.invoiceNumber))) {
      w.result.messages.push(IMPORT_ROW_MESSAGES.duplicateExisting);
      if (w.result.status === "valid") w.result.status = "duplicate";
    }
  }
}

/** Why a commit wrote nothing: the rows no longer hold (a number taken meanwhile, a repeat, too many). */
export type InvoiceImportCommitResult = Result<{ ids: string[] }, "conflict">;

/**
 * An invoice row binds 32 parameters (the columns a draft fills; the others are literal NULLs):
 * 3 rows per INSERT stay within D1's 100 bound parameters per statement.
 */
export const INVOICE_ROWS_PER_INSERT = 3;

/** Null fields left out, so drizzle writes a literal NULL instead of binding a parameter. */
function withoutNulls<T extends Record<string, unknown>>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;
}

/**
 * Creates every row as a draft in ONE D1 batch, all or nothing: each invoice (built by
 * newInvoiceRecords, as the form builds it: amounts computed at the subcontractor's rate) with
 * its 'cis.invoice.created' audit entry, one 'cis.import.invoices' audit entry with the kind and
 * count, and one activity entry. Refuses ({ code: "conflict" }, nothing written) a number repeated
 * for one subcontractor in `items` or already on file, including one taken between the check and
 * the batch (the unique index then fails the whole batch).
 */
export async function importInvoices(
  env: Env,
  tenantId: string,
  items: InvoiceImportItem[],
  actor: Actor,
  opts: { ip?: string | null } = {},
): Promise<InvoiceImportCommitResult> {
  if (items.length === 0) return { ok: true, ids: [] };
  const conflict = { ok: false, code: "conflict" } as const;
  if (items.length > IMPORT_MAX_ROWS) return conflict;
  const keys = items.map((i) => pairKey(i.sub.id, i.input.invoiceNumber));
  if (new Set(keys).size !== keys.length) return conflict;
  const taken = await existingNumbers(
    env,
    tenantId,
    items.map((i) => ({ subcontractorId: i.sub.id, invoiceNumber: i.input.invoiceNumber })),
  );
  if (keys.some((k) => taken.has(k))) return conflict;

  const db = dbFor(env, tenantId);
  const now = Date.now();
  const ids: string[] = [];
  const invoiceRows: (typeof cisInvoices.$inferInsert)[] = [];
  const auditRows: AuditEntry[] = [];
  for (const { input, sub } of items) {
    const { id, row, audit } = newInvoiceRecords(tenantId, input, sub, actor, { via: "import", now });
    ids.push(id);
    invoiceRows.push(withoutNulls(row));
    auditRows.push({ ...audit, ip: opts.ip ?? null });
  }
  const statements = [
    ...insertsOf(invoiceRows, INVOICE_ROWS_PER_INSERT, (chunk) => db.insert(cisInvoices).values(chunk)),
    ...auditInsertsOf(db, auditRows, now),
    ...importRecordInserts(db, "invoices", { tenantId, actor, count: items.length, ip: opts.ip ?? null, now }),
  ];
  if (!(await runImportBatch(db, statements, isUniqueNumberViolation))) return conflict;
  return { ok: true, ids };
}
