import { formatPence } from "./money";
import type { CisReturn } from "./types";

/** Return totals may differ from the line sums by at most 1 penny. */
export const RETURN_TOTAL_TOLERANCE_P = 1;

export const RETURN_VALID_MESSAGE = "Return validated successfully";

export interface ReturnValidation {
  valid: boolean;
  issues: string[];
  /** 'Return validated successfully', or 'Return validation failed: {issues}'. */
  message: string;
}

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

/** The start of the issue a line gets when its subcontractor's statement for the month is not issued. */
const STATEMENT_NOT_ISSUED = "Statement not issued for ";

export const RETURN_ISSUE_CODES = ["statement_not_issued", "line_amounts", "totals", "no_lines", "other"] as const;
/** What kind of problem a validation issue is, and so where it is fixed. */
export type ReturnIssueCode = (typeof RETURN_ISSUE_CODES)[number];

/**
 * The kind of a stored issue and the line (1-based) it names, read back from the words
 * `validateReturn` wrote (stored returns keep their issues as those words).
 */
export function returnIssueRef(issue: string): { code: ReturnIssueCode; line: number | null } {
  const m = /^Line (\d+): (.*)$/.exec(issue);
  if (m) return { code: m[2]!.startsWith(STATEMENT_NOT_ISSUED) ? "statement_not_issued" : "line_amounts", line: Number(m[1]) };
  if (/total/i.test(issue)) return { code: "totals", line: null };
  if (/at least one line/.test(issue)) return { code: "no_lines", line: null };
  return { code: "other", line: null };
}

/** Every issue is listed, not just the first. */
export function validateReturn(ret: CisReturn | null | undefined): ReturnValidation {
  if (!ret) return fail(["No return data available"]);

  const issues: string[] = [];
  const lines = Array.isArray(ret.lines) ? ret.lines : [];
  const totals = ret.totals ?? { grossP: 0, materialsP: 0, cisDeductedP: 0, subcontractors: 0, invoices: 0 };

  if (!ret.taxMonth) issues.push("Tax month is required");
  if (lines.length === 0 && ret.status !== "nil") issues.push("Return must have at least one line or be marked as nil");
  if (lines.length > 0 && ret.status === "nil") issues.push("A nil return cannot have lines");

  if (isNumber(totals.grossP) && totals.grossP < 0) issues.push("Total gross cannot be negative");
  if (isNumber(totals.materialsP) && totals.materialsP < 0) issues.push("Total materials cannot be negative");
  if (isNumber(totals.cisDeductedP) && totals.cisDeductedP < 0) issues.push("Total CIS deducted cannot be negative");

  let grossSum = 0;
  let materialsSum = 0;
  let cisSum = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line.grossP < 0) issues.push(`Line ${n}: Gross amount cannot be negative`);
    if (line.materialsP < 0) issues.push(`Line ${n}: Materials amount cannot be negative`);
    if (line.cisDeductedP < 0) issues.push(`Line ${n}: CIS deduction cannot be negative`);
    if (line.materialsP > line.grossP) issues.push(`Line ${n}: Materials exceed gross amount`);
    if (line.cisDeductedP > 0 && !line.statementsIssued) issues.push(`Line ${n}: ${STATEMENT_NOT_ISSUED}${line.name}`);
    grossSum += line.grossP;
    materialsSum += line.materialsP;
    cisSum += line.cisDeductedP;
  });

  // "Expected" is what the lines add up to; "got" is what the summary claims.
  let mismatch = false;
  const compare = (label: string, expected: number, got: number) => {
    if (Math.abs(expected - got) > RETURN_TOTAL_TOLERANCE_P) {
      issues.push(`${label} total mismatch: Expected ${formatPence(expected)}, got ${formatPence(got)}`);
      mismatch = true;
    }
  };
  compare("Gross", grossSum, totals.grossP);
  compare("Materials", materialsSum, totals.materialsP);
  compare("CIS Deducted", cisSum, totals.cisDeductedP);
  if (mismatch) issues.push("Line totals do not match summary totals");

  return issues.length === 0 ? { valid: true, issues: [], message: RETURN_VALID_MESSAGE } : fail(issues);
}

function fail(issues: string[]): ReturnValidation {
  return { valid: false, issues, message: `Return validation failed: ${issues.join("; ")}` };
}
