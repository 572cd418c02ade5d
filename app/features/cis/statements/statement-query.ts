import { currentTaxMonth, isTaxMonthLabel } from "../domain/tax-month";
import { statementFilterSchema, statementPageSchema } from "./schemas";

/** The statements page's address: an unknown or malformed month is the current London tax month at `now`. */
export function parseStatementsQuery(params: URLSearchParams, now: Date) {
  const month = params.get("month");
  const job = params.get("job");
  const sub = params.get("sub");
  return {
    month: isTaxMonthLabel(month) ? month : currentTaxMonth(now).label,
    filter: statementFilterSchema.parse(params.get("filter") ?? "all"),
    page: statementPageSchema.parse(params.get("page") ?? 1),
    // A link to one subcontractor's statement opens the page that holds it.
    sub: sub && sub.length <= 64 ? sub : null,
    job: job && job.length <= 64 ? job : null,
  };
}
