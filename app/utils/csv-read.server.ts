/**
 * CSV reading for the imports, with Papa Parse. Server-only, so the parser never reaches the
 * browser's bundle; writing (and the formula-injection guard) is in csv.ts.
 */
import Papa from "papaparse";
import { CSV_BOM } from "./csv";

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

/** One line break as a spreadsheet counts lines: CRLF, LF or a lone CR. */
const LINE_BREAK = /\r\n|\r|\n/g;

function lineBreaksIn(text: string, from: number, to: number): number {
  return text.slice(from, to).match(LINE_BREAK)?.length ?? 0;
}

/** Where a quoted field whose text starts at `from` closes: its first quote not doubled. */
function closingQuote(text: string, from: number): number {
  let i = text.indexOf('"', from);
  while (i !== -1 && text[i + 1] === '"') i = text.indexOf('"', i + 2);
  return i === -1 ? from : i;
}

/**
 * Parses RFC 4180 text with Papa Parse: quoted fields with doubled quotes, line breaks inside
 * quotes, CRLF, LF or CR line ends (the file's own, as the first line break shows), a leading BOM,
 * and a missing final line break. Nothing is converted: every cell stays the text it was. Throws
 * CsvParseError for a quote that never closes or text straight after a closing quote.
 * Callers bound the input's size (imports refuse files over their limit before parsing).
 */
export function parseCsv(input: string): CsvRecord[] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  const errors: Papa.ParseError[] = [];
  // Each step reports where its record ended; the next one starts there.
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter: ",",
    quoteChar: '"',
    escapeChar: '"',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
    comments: false,
    step(result) {
      errors.push(...result.errors);
      // The "record" after a final line break is not one.
      if (start < text.length) records.push({ line, cells: result.data });
      const end = result.meta.cursor;
      line += lineBreaksIn(text, start, end);
      start = end;
    },
  });
  // A stray quote is found where it stands; an unclosed one only at the end of the input.
  const misplaced = errors.find((e) => e.code === "InvalidQuotes");
  if (misplaced) {
    // Papa Parse points just past the field's opening quote; the message names the closing one's line.
    const at = 1 + lineBreaksIn(text, 0, closingQuote(text, misplaced.index ?? 0));
    throw new CsvParseError(`Unexpected text after a closing quote on line ${at}`, at);
  }
  const unclosed = errors.find((e) => e.code === "MissingQuotes");
  if (unclosed) {
    const at = 1 + lineBreaksIn(text, 0, unclosed.index ?? 0);
    throw new CsvParseError(`A quoted field opened on line ${at} is never closed`, at);
  }
  return records;
}

/** True for a record whose cells are all blank (a spreadsheet's empty trailing rows). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((c) => c.trim() === "");
}
