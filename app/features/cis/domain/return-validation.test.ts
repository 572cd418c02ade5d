import { describe, expect, it } from "vitest";
import { returnIssueRef, validateReturn } from "./return-validation";
import type { CisReturn, ReturnLine } from "./types";

const line = (over: Partial<ReturnLine> = {}): ReturnLine => ({
  subcontractorId: "s1",
  name: "Jo Bloggs",
  utrMasked: "******7890",
  ninoMasked: null,
  grossP: 100000,
  materialsP: 20000,
  cisDeductedP: 16000,
  cisRate: 20,
  invoiceCount: 1,
  verificationRef: "V1234567890",
  statementsIssued: true,
  lastStatementDate: "2026-05-10T10:00:00.000Z",
  ...over,
});

function ret(lines: ReturnLine[], over: Partial<CisReturn> = {}): CisReturn {
  return {
    taxMonth: "2026-04",
    status: "draft",
    lines,
    totals: {
      subcontractors: lines.length,
      invoices: lines.reduce((a, l) => a + l.invoiceCount, 0),
      grossP: lines.reduce((a, l) => a + l.grossP, 0),
      materialsP: lines.reduce((a, l) => a + l.materialsP, 0),
      cisDeductedP: lines.reduce((a, l) => a + l.cisDeductedP, 0),
    },
    ...over,
  };
}

describe("validateReturn", () => {
  it("valid return", () => {
    expect(validateReturn(ret([line(), line({ subcontractorId: "s2", name: "Ann" })]))).toEqual({
      valid: true,
      issues: [],
      message: "Return validated successfully",
    });
  });

  it("a nil return without lines is valid", () => {
    expect(validateReturn(ret([], { status: "nil" })).valid).toBe(true);
  });

  it("no data", () => {
    expect(validateReturn(null)).toMatchObject({ valid: false, issues: ["No return data available"] });
    expect(validateReturn(undefined).issues).toEqual(["No return data available"]);
  });

  it("tax month and lines required", () => {
    expect(validateReturn(ret([], { taxMonth: "" })).issues).toEqual(["Tax month is required", "Return must have at least one line or be marked as nil"]);
  });

  it("a nil return cannot carry lines", () => {
    expect(validateReturn(ret([line()], { status: "nil" })).issues).toEqual(["A nil return cannot have lines"]);
  });

  it("lists every line problem, numbered from 1", () => {
    const r = validateReturn(
      ret([
        line(),
        line({ name: "Bad Co", grossP: -5, materialsP: -1, cisDeductedP: -2 }),
        line({ name: "Heavy Materials", grossP: 100, materialsP: 200, cisDeductedP: 0 }),
        line({ name: "Ann Other", statementsIssued: false }),
      ]),
    );
    expect(r.valid).toBe(false);
    expect(r.issues).toEqual([
      "Line 2: Gross amount cannot be negative",
      "Line 2: Materials amount cannot be negative",
      "Line 2: CIS deduction cannot be negative",
      "Line 2: Materials exceed gross amount",
      "Line 3: Materials exceed gross amount",
      "Line 4: Statement not issued for Ann Other",
    ]);
    expect(r.message).toBe(`Return validation failed: ${r.issues.join("; ")}`);
  });

  it("no statement needed when nothing was deducted", () => {
    expect(validateReturn(ret([line({ cisDeductedP: 0, statementsIssued: false })])).valid).toBe(true);
  });

  it("negative totals", () => {
    const r = validateReturn(ret([], { status: "nil", totals: { subcontractors: 0, invoices: 0, grossP: -1, materialsP: -1, cisDeductedP: -1 } }));
    // -1p is within the 1p tolerance of the (empty) line sums, so only the sign is reported.
    expect(r.issues).toEqual(["Total gross cannot be negative", "Total materials cannot be negative", "Total CIS deducted cannot be negative"]);
  });

  it("totals may differ from line sums by 1 penny, not 2", () => {
    const base = ret([line()]);
    expect(validateReturn({ ...base, totals: { ...base.totals, grossP: base.totals.grossP + 1 } }).valid).toBe(true);
    expect(validateReturn({ ...base, totals: { ...base.totals, grossP: base.totals.grossP - 1 } }).valid).toBe(true);
    const r = validateReturn({
      ...base,
      totals: { ...base.totals, grossP: 100002, materialsP: 123456, cisDeductedP: 0 },
    });
    expect(r.issues).toEqual([
      "Gross total mismatch: Expected £1,000.00, got £1,000.02",
      "Materials total mismatch: Expected £200.00, got £1,234.56",
      "CIS Deducted total mismatch: Expected £160.00, got £0.00",
      "Line totals do not match summary totals",
    ]);
  });
});

describe("returnIssueRef", () => {
  it("reads back the kind and line of each issue validateReturn writes", () => {
    const issues = validateReturn({
      id: "2026-01",
      taxMonth: "2026-01",
      status: "draft",
      locked: false,
      totals: { grossP: 1, materialsP: 0, cisDeductedP: 2_000, subcontractors: 2, invoices: 2 },
      lines: [
        {
          subcontractorId: "a",
          name: "Ann",
          utrMasked: null,
          ninoMasked: null,
          grossP: 10_000,
          materialsP: 0,
          cisDeductedP: 2_000,
          cisRate: 20,
          invoiceCount: 1,
          verificationRef: null,
          statementsIssued: true,
          lastStatementDate: null,
        },
        {
          subcontractorId: "d",
          name: "Dan Murphy",
          utrMasked: null,
          ninoMasked: null,
          grossP: 100,
          materialsP: 200,
          cisDeductedP: 0,
          cisRate: 20,
          invoiceCount: 1,
          verificationRef: null,
          statementsIssued: false,
          lastStatementDate: null,
        },
      ],
    }).issues;
    expect(issues.map(returnIssueRef)).toEqual([
      { code: "line_amounts", line: 2 },
      { code: "totals", line: null },
      { code: "totals", line: null },
      { code: "totals", line: null },
    ]);
    expect(returnIssueRef("Line 3: Statement not issued for Dan Murphy")).toEqual({ code: "statement_not_issued", line: 3 });
    expect(returnIssueRef("Return must have at least one line or be marked as nil")).toEqual({ code: "no_lines", line: null });
    expect(returnIssueRef("Tax month is required")).toEqual({ code: "other", line: null });
  });
});
