import { data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { globalDb } from "~/db/client.server";
import { tenants } from "~/db/schema";
import { redirectWithToast } from "~/features/platform/index.server";
import { CSV_CONTENT_TYPE, csvRow, CSV_BOM, unneutraliseCell } from "~/utils/csv";
import { CsvParseError, isBlankRecord, parseCsv } from "~/utils/csv-read.server";
import { newId } from "~/utils/ids";
import { decryptPii, encryptPii, type PiiContext } from "../pii.server";
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_UPLOAD_TTL_MS,
  type ImportColumn,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportOutcome,
  type ImportProblem,
  type ImportRefusal,
  type ImportRowStatus,
} from "./import-kit";
import type { Result } from "~/utils/result";

const MAX_ROWS_TEXT = IMPORT_MAX_ROWS.toLocaleString("en-GB");
const SIZE_MESSAGE = `The file is larger than 1 MB. Split it into files of at most 1 MB and ${MAX_ROWS_TEXT} rows.`;
const EXPIRED_MESSAGE = "This upload has expired or was not found. Please upload the file again.";

/** Header only: a template with sample rows invites importing the samples. */
function importTemplateCsv(columns: readonly ImportColumn<string>[]): string {
  return CSV_BOM + csvRow(columns.map((c) => c.header));
}

const TEMPLATE_QUERY = "template";
/** Where the import page links its template download. */
export const TEMPLATE_HREF = `?${TEMPLATE_QUERY}=csv`;

/**
 * GET ?template=csv downloads the header-only template. It is answered in the page's middleware,
 * before the page renders, because a page loader cannot answer with a file; it reads and writes
 * nothing, but `guard` (the import's own scope check) runs first.
 */
export function templateDownload(
  guard: (request: Request, context: Readonly<RouterContextProvider>) => Promise<unknown>,
  columns: readonly ImportColumn<string>[],
  fileName: string,
): MiddlewareFunction<Response> {
  return async ({ request, context }) => {
    const url = new URL(request.url);
    if (request.method !== "GET" || url.searchParams.get(TEMPLATE_QUERY) !== "csv") return undefined;
    await guard(request, context);
    return new Response(importTemplateCsv(columns), {
      headers: { "Content-Type": CSV_CONTENT_TYPE, "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" },
    });
  };
}

/** Excel's plain "CSV" is Windows-1252; "CSV UTF-8" (and everything else) is UTF-8. */
function decodeCsvBytes(bytes: ArrayBuffer): string {
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

/** A file's data rows, each with the cells of the columns the import reads, by column key. */
export type ImportTable<K extends string> = { ignoredColumns: string[]; rows: { row: number; line: number; cells: Partial<Record<K, string>> }[] };

/**
 * Parses a file and checks what every import checks before judging a row: valid CSV, a header
 * naming each required column once, at least one and at most IMPORT_MAX_ROWS non-blank data rows.
 * Columns are matched by header or alias, ignoring case and spacing; other columns are ignored.
 */
export function readImportTable<K extends string>(text: string, columns: readonly ImportColumn<K>[]): ImportOutcome<ImportTable<K>> {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvParseError) return { ok: false, code: "not_csv", detail: err.message };
    throw err;
  }
  const [header, ...rest] = records;
  if (!header || isBlankRecord(header)) return { ok: false, code: "empty" };
  const columnByHeader = new Map(columns.flatMap((c) => [c.header, ...(c.aliases ?? [])].map((h) => [headerKey(h), c] as const)));
  const columnAt = new Map<number, K>();
  const seen = new Set<K>();
  const ignoredColumns: string[] = [];
  for (const [i, raw] of header.cells.entries()) {
    const col = columnByHeader.get(headerKey(raw));
    if (!col) {
      if (raw.trim()) ignoredColumns.push(raw.trim());
      continue;
    }
    if (seen.has(col.key)) return { ok: false, code: "duplicate_column", column: col.header };
    seen.add(col.key);
    columnAt.set(i, col.key);
  }
  const missing = columns.filter((c) => c.required && !seen.has(c.key)).map((c) => c.header);
  if (missing.length) return { ok: false, code: "missing_columns", columns: missing };

  const data = rest.map((r, i) => ({ record: r, row: i + 1 })).filter((d) => !isBlankRecord(d.record));
  if (data.length === 0) return { ok: false, code: "no_rows" };
  if (data.length > IMPORT_MAX_ROWS) return { ok: false, code: "too_many_rows", rows: data.length };
  const rows = data.map(({ record, row }) => {
    const cells: Partial<Record<K, string>> = {};
    // A cell the export prefixed against formula injection comes back as typed; any other
    // formula-looking text is kept as plain text (it is only ever shown escaped, and exported neutralised).
    for (const [i, key] of columnAt) cells[key] = unneutraliseCell(record.cells[i] ?? "");
    return { row, line: record.line, cells };
  });
  return { ok: true, ignoredColumns, rows };
}

export function countStatuses(rows: readonly { status: ImportRowStatus }[]): Record<ImportRowStatus, number> {
  const counts: Record<ImportRowStatus, number> = { valid: 0, invalid: 0, duplicate: 0 };
  for (const r of rows) counts[r.status] += 1;
  return counts;
}

function importProblemMessage(problem: ImportProblem): string {
  switch (problem.code) {
    case "not_csv":
      return `The file is not valid CSV: ${problem.detail}.`;
    case "empty":
      return "The file is empty. The first line must be the header row.";
    case "duplicate_column":
      return `The column '${problem.column}' appears more than once in the header.`;
    case "missing_columns":
      return `Missing required column${problem.columns.length > 1 ? "s" : ""}: ${problem.columns.join(", ")}. The header row must name the columns (see the expected header below).`;
    case "no_rows":
      return "The file has a header but no data rows.";
    case "too_many_rows":
      return `The file has ${problem.rows.toLocaleString("en-GB")} data rows; the limit is ${MAX_ROWS_TEXT} rows per import. Split it into smaller files.`;
  }
}

// ---------------------------------------------------------------------------
// The import page's action: the preview's file upload, and the two buttons under a preview.

const importForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("preview"), file: z.instanceof(File).optional().catch(undefined) }),
  z.object({ intent: z.literal("cancel"), importId: z.string().max(100).catch("") }),
  z.object({ intent: z.literal("commit"), importId: z.string().max(100).catch(""), expected: z.coerce.number().int().nonnegative().catch(-1) }),
]);

type ImportPost =
  { intent: "preview"; fileName: string; text: string } | { intent: "cancel"; importId: string } | { intent: "commit"; importId: string; expected: number };

/** Why a posted import form was refused before its file was read, with the answer's message and status. */
const POST_REFUSALS = {
  too_large: { message: SIZE_MESSAGE, status: 413 },
  unknown_action: { message: "Unknown action.", status: 400 },
  no_file: { message: "Choose a CSV file to upload.", status: 400 },
  not_csv_file: { message: "The file must be a CSV file (.csv).", status: 400 },
} as const;
type PostRefusal = keyof typeof POST_REFUSALS;

/** The posted form, with an uploaded file checked (present, within the size limit, CSV) and decoded. */
async function readImportPost(request: Request): Promise<Result<{ post: ImportPost }, PostRefusal>> {
  // Refuse an oversized upload before reading its body (multipart overhead allowed for).
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > IMPORT_MAX_BYTES + 64 * 1024) return { ok: false, code: "too_large" };

  const form = await request.formData();
  const parsed = importForm.safeParse({
    intent: form.get("intent"),
    file: form.get("file") ?? undefined,
    importId: form.get("importId") ?? "",
    expected: form.get("expected") ?? "",
  });
  if (!parsed.success) return { ok: false, code: "unknown_action" };
  const posted = parsed.data;
  if (posted.intent !== "preview") return { ok: true, post: posted };
  const { file } = posted;
  if (!file || file.size === 0) return { ok: false, code: "no_file" };
  if (file.size > IMPORT_MAX_BYTES) return { ok: false, code: "too_large" };
  if (!/\.(csv|txt)$/i.test(file.name) && !/csv|text\/plain/i.test(file.type)) return { ok: false, code: "not_csv_file" };
  return { ok: true, post: { intent: "preview", fileName: file.name, text: decodeCsvBytes(await file.arrayBuffer()) } };
}

function importError(error: string, status = 400) {
  return data({ kind: "error" as const, error }, { status });
}

/** A file's checked rows, as every import's analysis returns them. */
export type ImportChecked<Row extends ImportPreviewRow> = { ok: true; rows: Row[]; counts: Record<ImportRowStatus, number>; ignoredColumns: string[] };

/** The preview of a checked file: `importId` names the stored upload the Import button commits, if any. */
export function importPreview<A extends ImportChecked<ImportPreviewRow>>(
  { rows, counts, ignoredColumns }: A,
  shown: { importId: string | null; fileName: string; notice: string | null },
  status = 200,
) {
  const { importId, fileName, notice } = shown;
  return data<ImportPreview<A["rows"][number]>>({ kind: "preview", importId, fileName, rows, counts, ignoredColumns, notice }, { status });
}

export type ImportFlow<A extends ImportChecked<ImportPreviewRow>> = {
  env: Env;
  tenantId: string;
  userId: string;
  /** The import page, where Cancel returns to. */
  page: string;
  /** The import's own checks of a whole file; writes nothing. */
  analyse: (text: string) => Promise<A | ImportRefusal>;
  /** Whether a checked file is kept for the Import click; `notImportable` is the preview's notice when it is not. */
  importable: (analysis: A) => boolean;
  notImportable: string | null;
};

/**
 * The steps every import takes alike: the preview (the file checked and, if importable, stored),
 * Cancel, and for Import the stored upload loaded and checked again. Answers with the response
 * (`done`), or with what the import's own commit needs.
 */
export async function importStep<A extends ImportChecked<ImportPreviewRow>>(request: Request, flow: ImportFlow<A>) {
  const { env, tenantId, userId } = flow;
  const read = await readImportPost(request);
  if (!read.ok) return { done: importError(POST_REFUSALS[read.code].message, POST_REFUSALS[read.code].status) } as const;
  const posted = read.post;

  if (posted.intent === "preview") {
    const analysis = await flow.analyse(posted.text);
    if (!analysis.ok) return { done: importError(importProblemMessage(analysis)) } as const;
    const importId = flow.importable(analysis) ? await storeUpload(env, tenantId, userId, posted.text, posted.fileName) : null;
    return { done: importPreview(analysis, { importId, fileName: posted.fileName, notice: importId ? null : flow.notImportable }) } as const;
  }

  if (posted.intent === "cancel") {
    await deleteUpload(env, tenantId, posted.importId);
    return { done: await redirectWithToast(env, flow.page, { type: "info", title: "Import cancelled", message: "Nothing was imported." }) } as const;
  }

  const { importId, expected } = posted;
  // The id only ever names an object under this tenant's own prefix, uploaded by this user.
  const upload = await loadUpload(env, tenantId, userId, importId);
  if (!upload) return { done: importError(EXPIRED_MESSAGE, 404) } as const;
  // Everything is checked again: the tenant's data or the person's permissions may have changed since the preview.
  const analysis = await flow.analyse(upload.text);
  if (!analysis.ok) return { done: importError(importProblemMessage(analysis)) } as const;
  return { done: null, importId, expected, fileName: upload.fileName, analysis } as const;
}

// ---------------------------------------------------------------------------
// The uploaded file between preview and commit: in R2 under the tenant's prefix, encrypted
// with the PII key (it may hold plaintext UTRs and NINOs) and bound to tenant + upload id.

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

/**
 * Housekeeping: uploads whose 'Import' click never came are unusable after the TTL; delete
 * them so no encrypted copy of an imported file lingers in R2.
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
  const rows = await globalDb(env).select({ id: tenants.id }).from(tenants);
  return {
    deleted: await purgeStaleImports(
      env,
      rows.map((r) => r.id),
      now,
    ),
  };
}
