/**
 * How many statements one slice of Generate All makes: as many as fit a memory budget, judged from
 * what the slice has actually rendered, not a fixed count. A Worker isolate may use 128 MB and the
 * app itself holds about half of that at rest, so a slice keeps what it allocates under
 * SLICE_MEMORY_BUDGET. Each statement is charged a fixed share (its D1 results, the PDF objects
 * and the compression buffers, measured with `npm run bench:statements`) plus a multiple of the
 * PDF it produced (larger PDFs: more invoices, a bigger logo, more allocation), and the bytes the
 * slice keeps for all its statements (the logo).
 */

/** Allocation a slice may make before it hands over to the next one. */
export const SLICE_MEMORY_BUDGET = 24 * 1024 * 1024;
/** What one statement allocates besides its PDF's own bytes. */
export const STATEMENT_BASE_BYTES = 1024 * 1024;
/** Bytes allocated per byte of PDF produced (page objects, the content stream and its compression). */
export const PDF_ALLOCATION_FACTOR = 32;
/** The most statements a slice makes whatever their size, so progress keeps moving on the page. */
export const SLICE_MAX_STATEMENTS = 50;
/** The most statements generated together in one pair of D1 round trips (generate.server.ts). */
export const GROUP_MAX_STATEMENTS = 10;

export type SliceUse = { statements: number; pdfBytes: number; heldBytes: number };

/** The estimated allocation of a slice so far. */
export function sliceMemory(use: SliceUse): number {
  return use.statements * STATEMENT_BASE_BYTES + use.pdfBytes * PDF_ALLOCATION_FACTOR + use.heldBytes;
}

/**
 * Whether the slice should stop before its next statement: the next one, priced as the average so
 * far, would take it past the budget, or it has made the most a slice may. A slice always makes at
 * least one statement, so Generate All always moves on.
 */
export function sliceIsFull(use: SliceUse): boolean {
  if (use.statements === 0) return false;
  if (use.statements >= SLICE_MAX_STATEMENTS) return true;
  const used = sliceMemory(use);
  return used + (used - use.heldBytes) / use.statements > SLICE_MEMORY_BUDGET;
}

/** How many statements of `pdfBytes` each one slice makes, the slice holding `heldBytes` for them all. */
export function statementsPerSlice(pdfBytes: number, heldBytes = 0): number {
  let n = 0;
  while (!sliceIsFull({ statements: n, pdfBytes: n * pdfBytes, heldBytes })) n++;
  return n;
}

/**
 * How many statements the slice makes next, together: a slice's first statement is made alone, so
 * that what a statement of this run costs is measured before more are priced; after it, as many
 * as the budget still has room for at the average so far, at most GROUP_MAX_STATEMENTS and never
 * past the slice's cap. 0 when the slice is full.
 */
export function nextGroupSize(use: SliceUse): number {
  if (use.statements === 0) return 1;
  const used = sliceMemory(use);
  const each = (used - use.heldBytes) / use.statements;
  const fits = Math.floor((SLICE_MEMORY_BUDGET - used) / each);
  return Math.max(0, Math.min(GROUP_MAX_STATEMENTS, fits, SLICE_MAX_STATEMENTS - use.statements));
}
