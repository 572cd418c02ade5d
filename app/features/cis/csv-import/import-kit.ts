/** What every CIS CSV import shares, for the page (client) and the server alike. */
export const IMPORT_MAX_BYTES = 1024 * 1024;
export const IMPORT_MAX_ROWS = 1000;
/** An uploaded file waits this long for its 'Import' click; after that it must be uploaded again. */
export const IMPORT_UPLOAD_TTL_MS = 60 * 60 * 1000;

/**
 * One column an import reads, matched by header name (case and spacing ignored). `aliases` are
 * other headers accepted for it, e.g. an export's own, so an exported file can be imported again.
 */
export type ImportColumn<K extends string> = { header: string; key: K; required: boolean; format: string; aliases?: readonly string[] };

export type ImportRowStatus = "valid" | "invalid" | "duplicate";

/** Why a whole file was refused before any row was judged. */
export type ImportProblem =
  | { code: "not_csv"; detail: string }
  | { code: "empty" }
  | { code: "duplicate_column"; column: string }
  | { code: "missing_columns"; columns: string[] }
  | { code: "no_rows" }
  | { code: "too_many_rows"; rows: number };

/** A refused file, in the one result shape (`~/utils/result`): `ok: false` with its problem's code and details. */
export type ImportRefusal = { ok: false } & ImportProblem;

/** A checked file: its rows with what the import needs (`T`), or the problem that refused it. */
export type ImportOutcome<T extends object> = ({ ok: true } & T) | ImportRefusal;

/**
 * The fields of a preview row the page itself reads. `row` counts data rows from 1 (the first row
 * under the header); `line` is the spreadsheet line number (the header is line 1).
 */
export type ImportPreviewRow = { row: number; line: number; status: ImportRowStatus; messages: string[] };

/** The checked file as the page shows it; `importId` names the stored upload the Import button commits. */
export type ImportPreview<Row extends ImportPreviewRow> = {
  kind: "preview";
  importId: string | null;
  fileName: string;
  rows: Row[];
  counts: Record<ImportRowStatus, number>;
  ignoredColumns: string[];
  notice: string | null;
};
