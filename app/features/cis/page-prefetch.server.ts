import type { PagePrefetch } from "~/features/platform/index.server";
import { invoiceListStatements, parseInvoiceListQuery } from "./invoices/queries.server";
import { parseListQuery, subcontractorListStatements } from "./subcontractors/subcontractors.server";

export const INVOICE_LIST_PATH = "/cis/invoices";
export const SUBCONTRACTOR_LIST_PATH = "/cis/subcontractors";

/**
 * The two long lists' batches, run with the tenant middleware's (ADR 0082): the same statements
 * their loaders build, from the same address parsed by the same functions.
 */
export const CIS_PAGE_PREFETCH: readonly PagePrefetch[] = [
  { path: INVOICE_LIST_PATH, statements: (_env, db, tenantId, url, now) => invoiceListStatements(db, tenantId, parseInvoiceListQuery(url.searchParams), now) },
  { path: SUBCONTRACTOR_LIST_PATH, statements: (env, db, tenantId, url) => subcontractorListStatements(env, db, tenantId, parseListQuery(url.searchParams)) },
];
