import { and, inArray, isNull, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { auditEvents, cisSubcontractors, tenants } from "~/db/schema";
import { isUniqueUtrViolation } from "./subcontractors.server";
import { activityInsert, auditInsert } from "~/features/platform/audit.server";
import { CsvParseError, csvRow, CSV_BOM, isBlankRecord, parseCsv, unneutraliseCell } from "~/utils/csv";
import { newId } from "~/utils/ids";
import { normalizeUtr, subcontractorCreateSchema, UTR_RE, type SubcontractorCreate } from "./domain";
import { SUBCONTRACTOR_SAVE_MESSAGES } from "./subcontractor-messages";
import type { Actor } from "./module.server";
import { decryptPii, encryptPii, maskNino, maskUtr, piiSearchHash, type PiiContext } from "./pii.server";

/** The product's limits for one import (shown on the page). */
export { IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_TEMPLATE_FILE, IMPORT_UPLOAD_TTL_MS, type ImportColumnKey } from "./import-columns";
import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, IMPORT_UPLOAD_TTL_MS, type ImportColumnKey } from "./import-columns";

/** Header only: a template with sample rows invites importing the samples. */
export function importTemplateCsv(): string {
  return CSV_BOM + csvRow(IMPORT_COLUMNS.map((c) => c.header));
}

export type ImportRowStatus = "valid" | "invalid" | "duplicate";

/**
 * One data row as the preview shows it. `row` counts data rows from 1 (the first row under the
 * header); `line` is the spreadsheet line number (the header is line 1). Identifiers appear
 * masked only: the plaintext never goes back to the browser.
 */
export type ImportRowResult = { row: number; line: number; name: string; type: string; utrMasked: string; status: ImportRowStatus; messages: string[] };

/** Why a whole file was refused before any row was judged. */
export type ImportProblem =
  | { code: "not_csv"; detail: string }
  | { code: "empty" }
  | { code: "duplicate_column"; column: string }
  | { code: "missing_columns"; columns: string[] }
  | { code: "no_rows" }
  | { code: "too_many_rows"; rows: number };

export type ImportAnalysis =
  | { ok: true; rows: ImportRowResult[]; valid: SubcontractorCreate[]; ignoredColumns: string[]; counts: Record<ImportRowStatus, number> }
  | ({ ok: false } & ImportProblem);

/** Excel's plain "CSV" is Windows-1252; "CSV UTF-8" (and everything else) is UTF-8. */
export function decodeCsvBytes(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

const headerKey = (h: string) =>
  h
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");
const COLUMN_BY_HEADER = new Map(IMPORT_COLUMNS.map((c) => [headerKey(c.header), c]));

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
  };
}

export const DUPLICATE_EXISTING = SUBCONTRACTOR_SAVE_MESSAGES.duplicate_utr;
export const VERIFY_IMPORT_MESSAGE = "Verification details need the cis.sub.verify permission: leave the verification columns blank";
const VERIFICATION_COLUMNS: readonly ImportColumnKey[] = ["verificationStatus", "verificationMethod", "verificationReference", "verifiedDate"];
export const duplicateInFile = (firstRow: number) => `Duplicate UTR: same as row ${firstRow} in this file`;

/** Hashes of the given normalised UTRs that already belong to a (not deleted) subcontractor of this tenant. */
async function existingUtrHashes(env: Env, tenantId: string, hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const db = getDb(env);
  // D1 allows 100 bound parameters per statement.
  for (let i = 0; i < hashes.length; i += 90) {
    const part = hashes.slice(i, i + 90);
    const rows = await db
      .select({ utrHash: cisSubcontractors.utrHash })
      .from(cisSubcontractors)
      .where(and(eq(cisSubcontractors.tenantId, tenantId), isNull(cisSubcontractors.deletedAt), inArray(cisSubcontractors.utrHash, part)));
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
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvParseError) return { ok: false, code: "not_csv", detail: err.message };
    throw err;
  }
  const [header, ...rest] = records;
  if (!header || isBlankRecord(header)) return { ok: false, code: "empty" };
  const columnAt = new Map<number, ImportColumnKey>();
  const seen = new Set<ImportColumnKey>();
  const ignoredColumns: string[] = [];
  for (const [i, raw] of header.cells.entries()) {
    const col = COLUMN_BY_HEADER.get(headerKey(raw));
    if (!col) {
      if (raw.trim()) ignoredColumns.push(raw.trim());
      continue;
    }
    if (seen.has(col.key)) return { ok: false, code: "duplicate_column", column: col.header };
    seen.add(col.key);
    columnAt.set(i, col.key);
  }
  const missing = IMPORT_COLUMNS.filter((c) => c.required && !seen.has(c.key)).map((c) => c.header);
  if (missing.length) return { ok: false, code: "missing_columns", columns: missing };

  const data = rest.map((r, i) => ({ record: r, row: i + 1 })).filter((d) => !isBlankRecord(d.record));
  if (data.length === 0) return { ok: false, code: "no_rows" };
  if (data.length > IMPORT_MAX_ROWS) return { ok: false, code: "too_many_rows", rows: data.length };

  type Work = { result: ImportRowResult; value: SubcontractorCreate | null; utr: string | null };
  const work: Work[] = [];
  const firstRowForUtr = new Map<string, number>();
  for (const { record, row } of data) {
    const cells: Partial<Record<ImportColumnKey, string>> = {};
    for (const [i, key] of columnAt) cells[key] = unneutraliseCell(record.cells[i] ?? "");
    const parsed = subcontractorCreateSchema.safeParse(rowInput(cells));
    const messages = parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => i.message))];
    const claimsVerification = VERIFICATION_COLUMNS.some((k) => (cells[k] ?? "").trim() !== "");
    if (claimsVerification && !opts.canVerify) messages.push(VERIFY_IMPORT_MESSAGE);
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
        line: record.line,
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

  const counts: Record<ImportRowStatus, number> = { valid: 0, invalid: 0, duplicate: 0 };
  for (const w of work) counts[w.result.status] += 1;
  return {
    ok: true,
    rows: work.map((w) => w.result),
    valid: work.filter((w) => w.result.status === "valid").map((w) => w.value as SubcontractorCreate),
    ignoredColumns,
    counts,
  };
}

// ---------------------------------------------------------------------------
// The uploaded file between preview and commit: in R2 under the tenant's prefix, encrypted
// with the PII key (it holds plaintext UTRs and NINOs) and bound to tenant + upload id.

const UPLOAD_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;

function uploadKey(tenantId: string, id: string): string {
  return `tenants/${tenantId}/imports/${id}.csv`;
}

function uploadCtx(tenantId: string, id: string): PiiContext {
  return { tenantId, table: "cis_imports", recordId: id, field: "csv" };
}

export async function storeUpload(env: Env, tenantId: string, userId: string, text: string, fileName: string, now = Date.now()): Promise<string> {
  const id = newId();
  const sealed = await encryptPii(env.PII_KEYS, text, uploadCtx(tenantId, id));
  await env.FILES.put(uploadKey(tenantId, id), sealed, {
    httpMetadata: { contentType: "application/octet-stream" },
    customMetadata: { tenantId, uploadedBy: userId, uploadedAt: String(now), fileName: fileName.slice(0, 200) },
  });
  return id;
}

/**
 * The stored upload for this tenant and uploader, or null when the id is malformed, unknown
 * under this tenant's prefix, someone else's, expired, or does not decrypt.
 */
export async function loadUpload(env: Env, tenantId: string, userId: string, id: string, now = Date.now()): Promise<{ text: string; fileName: string } | null> {
  if (!UPLOAD_ID_RE.test(id)) return null;
  const object = await env.FILES.get(uploadKey(tenantId, id));
  if (!object) return null;
  const meta = object.customMetadata ?? {};
  const uploadedAt = Number(meta.uploadedAt);
  if (meta.tenantId !== tenantId || meta.uploadedBy !== userId || !Number.isFinite(uploadedAt) || now - uploadedAt > IMPORT_UPLOAD_TTL_MS) {
    await object.body.cancel();
    return null;
  }
  try {
    return { text: await decryptPii(env.PII_KEYS, await object.text(), uploadCtx(tenantId, id)), fileName: meta.fileName ?? "" };
  } catch {
    return null;
  }
}

export async function deleteUpload(env: Env, tenantId: string, id: string): Promise<void> {
  if (UPLOAD_ID_RE.test(id)) await env.FILES.delete(uploadKey(tenantId, id));
}

// ---------------------------------------------------------------------------

/** Why a commit wrote nothing: the rows no longer match what was checked (a UTR taken meanwhile, a repeat, too many). */
export type ImportCommitResult = { ok: true; ids: string[] } | { ok: false; code: "conflict" };

/** 29 columns x 3 and 10 columns x 9 stay under D1's 100 bound parameters per statement. */
const SUB_ROWS_PER_INSERT = 3;
const AUDIT_ROWS_PER_INSERT = 9;

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

  const db = getDb(env);
  const now = Date.now();
  const ids: string[] = [];
  const subRows: (typeof cisSubcontractors.$inferInsert)[] = [];
  const auditRows: (typeof auditEvents.$inferInsert)[] = [];
  for (const [i, r] of rows.entries()) {
    const id = newId();
    ids.push(id);
    const ctx = (field: "utr" | "nino"): PiiContext => ({ tenantId, table: "cis_subcontractors", recordId: id, field });
    const nino = r.type === "individual" ? r.nino : undefined;
    subRows.push({
      id,
      tenantId,
      type: r.type,
      name: r.name,
      nameLower: r.name.toLowerCase(),
      utrEnc: await encryptPii(env.PII_KEYS, r.utr, ctx("utr")),
      utrMasked: maskUtr(r.utr),
      utrHash: hashes[i],
      ninoEnc: nino ? await encryptPii(env.PII_KEYS, nino, ctx("nino")) : null,
      ninoMasked: nino ? maskNino(nino) : null,
      companyNumber: r.type === "individual" ? null : (r.companyNumber ?? null),
      vatNumber: r.vatNumber ?? null,
      email: r.email ?? null,
      phone: r.phone ?? null,
      verificationStatus: r.verificationStatus,
      verificationRate: r.verificationRate,
      verificationMethod: r.verificationMethod ?? null,
      verificationReference: r.verificationReference ?? null,
      verificationNotes: r.verificationNotes ?? null,
      verifiedDate: r.verifiedDate ?? null,
      verifiedBy: r.verifiedDate || r.verificationReference ? actor.id : null,
      active: true,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.id,
      updatedBy: actor.id,
    });
    auditRows.push({
      id: newId(),
      tenantId,
      action: "cis.subcontractor.created",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "subcontractor",
      targetId: id,
      payload: { type: r.type, verificationStatus: r.verificationStatus, source: "import" },
      ip: opts.ip ?? null,
      createdAt: now,
    });
  }
  // Several rows per INSERT (within D1's 100 bound parameters per statement) keeps a
  // 1,000-row import to a few hundred statements in the one batch.
  const statements = [];
  for (let i = 0; i < auditRows.length; i += AUDIT_ROWS_PER_INSERT)
    statements.push(db.insert(auditEvents).values(auditRows.slice(i, i + AUDIT_ROWS_PER_INSERT)));
  for (let i = 0; i < subRows.length; i += SUB_ROWS_PER_INSERT) statements.push(db.insert(cisSubcontractors).values(subRows.slice(i, i + SUB_ROWS_PER_INSERT)));
  statements.push(
    auditInsert(
      db,
      {
        tenantId,
        action: "cis.import.subcontractors",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "subcontractor",
        payload: { entity: "subcontractors", format: "csv", count: rows.length },
        ip: opts.ip ?? null,
      },
      now,
    ),
    activityInsert(
      db,
      {
        tenantId,
        module: "cis",
        action: "subcontractors.imported",
        entityType: "subcontractor",
        performedBy: actor.id,
        performedByName: actor.name,
        details: { count: rows.length },
      },
      now,
    ),
  );
  try {
    await db.batch(statements as [(typeof statements)[0], ...typeof statements]);
  } catch (err) {
    // Someone created one of these UTRs between the check above and the batch: nothing was written.
    if (isUniqueUtrViolation(err)) return conflict;
    throw err;
  }
  return { ok: true, ids };
}

/**
 * Housekeeping: uploads whose 'Import' click never came are unusable after the TTL; delete
 * them so no encrypted copy of a subcontractor file lingers in R2.
 */
export async function purgeStaleImports(env: Env, tenantIds: string[], now = Date.now()): Promise<number> {
  let deleted = 0;
  for (const tenantId of tenantIds) {
    let cursor: string | undefined;
    do {
      const page = await env.FILES.list({ prefix: `tenants/${tenantId}/imports/`, cursor, limit: 500 });
      const stale = page.objects.filter((o) => now - o.uploaded.getTime() > IMPORT_UPLOAD_TTL_MS).map((o) => o.key);
      if (stale.length) {
        await env.FILES.delete(stale);
        deleted += stale.length;
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return deleted;
}

/** The hourly cron's entry point: every tenant's stale uploads. */
export async function runCisImportCleanup(env: Env, now = Date.now()): Promise<{ deleted: number }> {
  const rows = await getDb(env).select({ id: tenants.id }).from(tenants);
  return {
    deleted: await purgeStaleImports(
      env,
      rows.map((r) => r.id),
      now,
    ),
  };
}
