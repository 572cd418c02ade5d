import { and, inArray, isNull } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import { dbFor } from "~/db/client.server";
import { cisSubcontractors } from "~/db/schema";
import { isUniqueUtrViolation, plainFields } from "./subcontractors.server";
import type { AuditEntry } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { auditInsertsOf, importRecordInserts, insertsOf, runImportBatch } from "../csv-import/import-commit.server";
import { countStatuses, readImportTable } from "../csv-import/import-kit.server";
import { IMPORT_MAX_ROWS, type ImportRefusal, type ImportRowStatus } from "../csv-import/import-kit";
import { hasValidUtrCheckDigit, normalizeUtr, subcontractorCreateSchema, UTR_RE, type SubcontractorCreate } from "../domain";
import { SUBCONTRACTOR_SAVE_MESSAGES } from "./subcontractor-messages";
import type { Actor } from "~/features/auth";
import { encryptPii, maskNino, maskUtr, piiSearchHash, type PiiContext } from "../pii.server";
import { IMPORT_COLUMNS, PUBLIC_BODY_IMPORT_MESSAGE, publicBodyCell, type ImportColumnKey } from "./import-columns";
import type { Result } from "~/utils/result";

// The stored upload and its hourly purge live in the shared import kit; the cron and existing
// callers still reach them here.
export { runCisImportCleanup, storeUpload } from "../csv-import/import-kit.server";

/**
 * One data row as the preview shows it. `row` counts data rows from 1 (the first row under the
 * header); `line` is the spreadsheet line number (the header is line 1). Identifiers appear
 * masked only: the plaintext never goes back to the browser.
 */
export type ImportRowResult = { row: number; line: number; name: string; type: string; utrMasked: string; status: ImportRowStatus; messages: string[] };

export type ImportAnalysis =
  { ok: true; rows: ImportRowResult[]; valid: SubcontractorCreate[]; ignoredColumns: string[]; counts: Record<ImportRowStatus, number> } | ImportRefusal;

/** DD/MM/YYYY (a UK spreadsheet's own format) to ISO; anything else is passed on for the schema to judge. */
function isoDate(value: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  return m ? `${m[3]}-${m[2].padStart(2, "0")}-${m[1].padStart(2, "0")}` : value;
}

/** A CSV row as the create schema's input: blanks are absent, enums lower-cased, always active. */
function rowInput(cells: Partial<Record<ImportColumnKey, string>>): Record<string, unknown> {
  const text = (k: ImportColumnKey) => {
    const v = cells[k]?.trim();
    return v ? v : undefined;
  };
  const lower = (k: ImportColumnKey) => text(k)?.toLowerCase();
  const date = text("verifiedDate");
  return {
    name: cells.name ?? "",
    type: lower("type"),
    utr: cells.utr ?? "",
    nino: text("nino"),
    companyNumber: text("companyNumber"),
    vatNumber: text("vatNumber"),
    email: text("email"),
    phone: text("phone"),
    verificationStatus: lower("verificationStatus"),
    verificationMethod: lower("verificationMethod"),
    verificationReference: text("verificationReference"),
    verifiedDate: date ? isoDate(date) : undefined,
    active: true,
    publicBody: publicBodyCell(cells.publicBody) ?? false,
  };
}

export const DUPLICATE_EXISTING = SUBCONTRACTOR_SAVE_MESSAGES.duplicate_utr;
export const VERIFY_IMPORT_MESSAGE = "Verification details need the cis.sub.verify permission: leave the verification columns blank";
const VERIFICATION_COLUMNS: readonly ImportColumnKey[] = ["verificationStatus", "verificationMethod", "verificationReference", "verifiedDate"];
export const duplicateInFile = (firstRow: number) => `Duplicate UTR: same as row ${firstRow} in this file`;

/** Hashes of the given normalised UTRs that already belong to a (not deleted) subcontractor of this tenant. */
async function existingUtrHashes(env: Env, tenantId: string, hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const db = dbFor(env, tenantId);
  // D1 allows 100 bound parameters per statement.
  for (let i = 0; i < hashes.length; i += 90) {
    const part = hashes.slice(i, i + 90);
    const rows = await db
      .select({ utrHash: cisSubcontractors.utrHash })
      .from(cisSubcontractors)
      .where(and(forTenant(cisSubcontractors, tenantId), isNull(cisSubcontractors.deletedAt), inArray(cisSubcontractors.utrHash, part)));
    for (const r of rows) if (r.utrHash) found.add(r.utrHash);
  }
  return found;
}

/**
 * Parses and validates a whole file: the header, the 1,000-row limit, every row against
 * subcontractorCreateSchema, and duplicate UTRs within the file and against the tenant's
 * existing subcontractors. Without cis.sub.verify (`canVerify` false) a row that fills any
 * verification column is invalid: importing is no way round the verify permission. Writes nothing.
 */
export async function analyseImport(env: Env, tenantId: string, text: string, opts: { canVerify: boolean }): Promise<ImportAnalysis> {
  const table = readImportTable(text, IMPORT_COLUMNS);
  if (!table.ok) return table;

  type Work = { result: ImportRowResult; value: SubcontractorCreate | null; utr: string | null };
  const work: Work[] = [];
  const firstRowForUtr = new Map<string, number>();
  for (const { row, line, cells } of table.rows) {
    const parsed = subcontractorCreateSchema.safeParse(rowInput(cells));
    const messages = parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => i.message))];
    const claimsVerification = VERIFICATION_COLUMNS.some((k) => (cells[k] ?? "").trim() !== "");
    if (claimsVerification && !opts.canVerify) messages.push(VERIFY_IMPORT_MESSAGE);
    if (publicBodyCell(cells.publicBody) === null) messages.push(PUBLIC_BODY_IMPORT_MESSAGE);
    const rawUtr = normalizeUtr(cells.utr ?? "");
    if (!parsed.success && /^\d(\.\d+)?e\+\d+$/i.test(rawUtr))
      messages.push("The UTR looks like a number a spreadsheet shortened: format the column as text and save again");
    const utr = UTR_RE.test(rawUtr) ? rawUtr : null;
    let status: ImportRowStatus = parsed.success && messages.length === 0 ? "valid" : "invalid";
    if (utr) {
      const first = firstRowForUtr.get(utr);
      if (first === undefined) firstRowForUtr.set(utr, row);
      else {
        messages.push(duplicateInFile(first));
        if (status === "valid") status = "duplicate";
      }
    }
    work.push({
      result: {
        row,
        line,
        name: (cells.name ?? "").trim().slice(0, 100),
        type: (cells.type ?? "").trim().toLowerCase().slice(0, 20),
        utrMasked: utr ? maskUtr(utr) : "",
        status,
        messages,
      },
      value: status === "valid" && parsed.success ? parsed.data : null,
      utr,
    });
  }

  const hashOf = new Map<string, string>();
  for (const utr of firstRowForUtr.keys()) hashOf.set(utr, await piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", utr));
  const existing = await existingUtrHashes(env, tenantId, [...hashOf.values()]);
  for (const w of work) {
    if (w.utr && existing.has(hashOf.get(w.utr) as string)) {
      w.result.messages.push(DUPLICATE_EXISTING);
      if (w.result.status === "valid") w.result.status = "duplicate";
    }
  }

  const rows = work.map((w) => w.result);
  return {
    ok: true,
    rows,
    valid: work.filter((w) => w.result.status === "valid").map((w) => w.value as SubcontractorCreate),
    ignoredColumns: table.ignoredColumns,
    counts: countStatuses(rows),
  };
}

/** Why a commit wrote nothing: the rows no longer match what was checked (a UTR taken meanwhile, a repeat, too many). */
export type ImportCommitResult = Result<{ ids: string[] }, "conflict">;

/** 29 columns x 3 stay under D1's 100 bound parameters per statement. */
const SUB_ROWS_PER_INSERT = 3;

/** A created subcontractor's row: its UTR and NINO encrypted for this row, masked and (UTR) hashed for search. */
async function newSubcontractorRow(
  env: Env,
  tenantId: string,
  id: string,
  r: SubcontractorCreate,
  utrHash: string,
  actor: Actor,
  now: number,
): Promise<typeof cisSubcontractors.$inferInsert> {
  const ctx = (field: "utr" | "nino"): PiiContext => ({ tenantId, table: "cis_subcontractors", recordId: id, field });
  const nino = r.type === "individual" ? r.nino : undefined;
  return {
    ...plainFields(r),
    id,
    tenantId,
    utrEnc: await encryptPii(env.PII_KEYS, r.utr, ctx("utr")),
    utrMasked: maskUtr(r.utr),
    utrHash,
    utrInvalid: !hasValidUtrCheckDigit(r.utr),
    ninoEnc: nino ? await encryptPii(env.PII_KEYS, nino, ctx("nino")) : null,
    ninoMasked: nino ? maskNino(nino) : null,
    companyNumber: r.type === "individual" ? null : (r.companyNumber ?? null),
    verifiedBy: r.verifiedDate || r.verificationReference ? actor.id : null,
    active: true,
    createdAt: now,
    updatedAt: now,
    createdBy: actor.id,
    updatedBy: actor.id,
  };
}

/**
 * Creates the rows in ONE D1 batch (all or nothing): each subcontractor with its encrypted
 * UTR/NINO, masks and search hash, a 'cis.subcontractor.created' audit entry per row, one
 * 'cis.import.subcontractors' audit entry with the count and one activity entry. Refuses
 * ({ code: "conflict" }, nothing written) a UTR repeated in `rows` or already on file.
 */
export async function importSubcontractors(
  env: Env,
  tenantId: string,
  rows: SubcontractorCreate[],
  actor: Actor,
  opts: { ip?: string | null } = {},
): Promise<ImportCommitResult> {
  if (rows.length === 0) return { ok: true, ids: [] };
  const conflict = { ok: false, code: "conflict" } as const;
  if (rows.length > IMPORT_MAX_ROWS) return conflict;
  const hashes = await Promise.all(rows.map((r) => piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", r.utr)));
  if (new Set(hashes).size !== hashes.length) return conflict;
  if ((await existingUtrHashes(env, tenantId, hashes)).size > 0) return conflict;

  const db = dbFor(env, tenantId);
  const now = Date.now();
  const ids: string[] = [];
  const subRows: (typeof cisSubcontractors.$inferInsert)[] = [];
  const auditRows: AuditEntry[] = [];
  for (const [i, r] of rows.entries()) {
    const id = newId();
    ids.push(id);
    subRows.push(await newSubcontractorRow(env, tenantId, id, r, hashes[i], actor, now));
    auditRows.push({
      tenantId,
      action: "cis.subcontractor.created",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "subcontractor",
      targetId: id,
      payload: { type: r.type, verificationStatus: r.verificationStatus, source: "import" },
      ip: opts.ip ?? null,
    });
  }
  const statements = [
    ...auditInsertsOf(db, auditRows, now),
    ...insertsOf(subRows, SUB_ROWS_PER_INSERT, (chunk) => db.insert(cisSubcontractors).values(chunk)),
    ...importRecordInserts(db, "subcontractors", { tenantId, actor, count: rows.length, ip: opts.ip ?? null, now }),
  ];
  // Someone created one of these UTRs between the check above and the batch: nothing was written.
  if (!(await runImportBatch(db, statements, isUniqueUtrViolation))) return conflict;
  return { ok: true, ids };
}
