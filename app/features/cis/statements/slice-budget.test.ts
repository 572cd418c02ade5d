import { describe, expect, it } from "vitest";
import {
  PDF_ALLOCATION_FACTOR,
  GROUP_MAX_STATEMENTS,
  SLICE_MAX_STATEMENTS,
  SLICE_MEMORY_BUDGET,
  STATEMENT_BASE_BYTES,
  sliceIsFull,
  sliceMemory,
  nextGroupSize,
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

describe("Generate All groups within a slice", () => {
  it("makes a slice's first statement alone, then groups priced by what the slice has measured", () => {
    expect(nextGroupSize({ statements: 0, pdfBytes: 0, heldBytes: SLICE_MEMORY_BUDGET * 2 })).toBe(1);
    expect(nextGroupSize({ statements: 1, pdfBytes: 4_000, heldBytes: 0 })).toBe(GROUP_MAX_STATEMENTS);
    // A first statement that cost a third of the budget leaves room for two more like it, not ten.
    const third = Math.ceil((SLICE_MEMORY_BUDGET / 3 - STATEMENT_BASE_BYTES) / PDF_ALLOCATION_FACTOR);
    expect(nextGroupSize({ statements: 1, pdfBytes: third + 1, heldBytes: 0 })).toBe(1);
    expect(nextGroupSize({ statements: 1, pdfBytes: third - 10_000, heldBytes: 0 })).toBe(2);
  });

  it("gives 0 exactly when the slice is full, and never passes the slice's cap", () => {
    for (const pdf of [0, 4_000, 60_000, 300_000]) {
      let use = { statements: 0, pdfBytes: 0, heldBytes: 0 };
      for (;;) {
        const n = nextGroupSize(use);
        expect(n === 0).toBe(sliceIsFull(use));
        if (n === 0) break;
        use = { statements: use.statements + n, pdfBytes: use.pdfBytes + n * pdf, heldBytes: 0 };
      }
      expect(use.statements).toBe(statementsPerSlice(pdf));
      expect(use.statements).toBeLessThanOrEqual(SLICE_MAX_STATEMENTS);
    }
  });
});
