/**
 * CSV writing and reading (RFC 4180), shared by every export and import.
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

export class CsvParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** A parsed record and the spreadsheet line it starts on (1 = the first line of the file). */
export type CsvRecord = { line: number; cells: string[] };

/**
 * Parses RFC 4180 text: quoted fields with doubled quotes, line breaks inside quotes,
 * CRLF, LF or lone CR line ends, a leading BOM, and a missing final line break. Throws
 * CsvParseError for a quote that never closes or text straight after a closing quote.
 * Callers bound the input's size (imports refuse files over their limit before parsing).
 */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let fieldStarted = false;
  const endRecord = () => {
    cells.push(field);
    records.push({ line: recordLine, cells });
    cells = [];
    field = "";
    fieldStarted = false;
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' && !fieldStarted) {
      // Quoted field: runs to the next lone quote.
      const openedOn = line;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new CsvParseError(`A quoted field opened on line ${openedOn} is never closed`, openedOn);
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === "\r" || c === "\n") {
          if (c === "\r" && text[i + 1] === "\n") {
            field += "\r\n";
            i += 2;
          } else {
            field += c;
            i += 1;
          }
          line += 1;
          continue;
        }
        field += c;
        i += 1;
      }
      fieldStarted = true;
      const after = text[i];
      if (after !== undefined && after !== "," && after !== "\r" && after !== "\n") {
        throw new CsvParseError(`Unexpected text after a closing quote on line ${line}`, line);
      }
      continue;
    }
    if (ch === ",") {
      cells.push(field);
      field = "";
      fieldStarted = false;
      i += 1;
      continue;
    }
    if (ch === "\r" || ch === "\n") {
      endRecord();
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    field += ch;
    fieldStarted = true;
    i += 1;
  }
  // A last record without a final line break (but not the empty "record" after one).
  if (fieldStarted || field !== "" || cells.length > 0) endRecord();
  return records;
}

/** True for a record whose cells are all blank (a spreadsheet's empty trailing rows). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((c) => c.trim() === "");
}
