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
    if (line.cisDeductedP > 0 && !line.statementsIssued) issues.push(`Line ${n}: Statement not issued for ${line.name}`);
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
