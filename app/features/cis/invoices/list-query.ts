import type { InvoiceListQuery } from "./queries.server";

/**
 * The list's address for a query: defaults left out, so the pager, the export's way back and
 * the filter form all name the same URL for the same view.
 */
export function invoiceListSearch(query: Pick<InvoiceListQuery, "q" | "status" | "period">, page = 1): string {
  const p = new URLSearchParams();
  if (query.q) p.set("q", query.q);
  if (query.status !== "all") p.set("status", query.status);
  if (query.period !== "all") p.set("period", query.period);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Whether the view is narrowed by a search or a filter (the empty state says so). */
export function isFiltered(query: Pick<InvoiceListQuery, "q" | "status" | "period">): boolean {
  return Boolean(query.q) || query.status !== "all" || query.period !== "all";
}
