import { describe, expect, it } from "vitest";
import {
  PDF_ALLOCATION_FACTOR,
  SLICE_MAX_STATEMENTS,
  SLICE_MEMORY_BUDGET,
  STATEMENT_BASE_BYTES,
  sliceIsFull,
  sliceMemory,
  statementsPerSlice,
} from "./slice-budget";

describe("Generate All slices sized by memory", () => {
  it("always makes a first statement, however large", () => {
    expect(sliceIsFull({ statements: 0, pdfBytes: 0, heldBytes: SLICE_MEMORY_BUDGET * 2 })).toBe(false);
  });

  it("fits about a budget's worth of small statements, and stops at the count cap", () => {
    const small = 4_000;
    const n = statementsPerSlice(small);
    const each = STATEMENT_BASE_BYTES + small * PDF_ALLOCATION_FACTOR;
    expect(n).toBe(Math.min(SLICE_MAX_STATEMENTS, Math.floor(SLICE_MEMORY_BUDGET / each)));
    expect(sliceMemory({ statements: n, pdfBytes: n * small, heldBytes: 0 })).toBeLessThanOrEqual(SLICE_MEMORY_BUDGET);
  });

  it("makes fewer statements when each renders a larger PDF (a big logo, many invoices)", () => {
    expect(statementsPerSlice(300_000, 250_000)).toBeLessThan(statementsPerSlice(4_000));
    expect(statementsPerSlice(300_000, 250_000)).toBeGreaterThanOrEqual(1);
    expect(statementsPerSlice(0)).toBeLessThanOrEqual(SLICE_MAX_STATEMENTS);
  });
});
