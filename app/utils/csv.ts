/**
 * CSV (RFC 4180) for every export and import: writing and the cell rules here; reading is in
 * csv-read.server.ts, so that its parser (Papa Parse) stays out of the browser's bundle.
 *
 * Writing: every cell is neutralised against spreadsheet formula injection (a leading
 * =, +, -, @, tab or carriage return gets a single quote in front, so Excel, LibreOffice
 * and Sheets show text instead of running it) and quoted when it holds a comma, quote or
 * line break. Rows end with CRLF as the RFC says. Files start with a UTF-8 BOM so Excel
 * reads £ and accented names correctly.
 */

export const CSV_BOM = "\uFEFF";
export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes a cell that a spreadsheet would treat as a formula with a single quote. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * Undoes neutraliseCell on import: a quote followed by a formula character is the export's
 * own prefix (e.g. a phone '+447700900123). Anything else is kept as typed.
 */
export function unneutraliseCell(value: string): string {
  return value.length > 1 && value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

export type CsvValue = string | number | boolean | null | undefined;

/** One field: neutralised, then quoted (with doubled quotes) when it needs to be. */
export function csvField(value: CsvValue): string {
  const text = neutraliseCell(value === null || value === undefined ? "" : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** A whole document (BOM, header, rows): for small files. Large exports build it row by row. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return CSV_BOM + csvRow(header) + rows.map(csvRow).join("");
}
