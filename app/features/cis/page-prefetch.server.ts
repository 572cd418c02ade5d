import type { PagePrefetch } from "~/features/platform/index.server";
import { invoiceListStatements, parseInvoiceListQuery } from "./invoices/queries.server";
import { parseListQuery, subcontractorListStatements } from "./subcontractors/subcontractors.server";
import { parseReturnsMonth } from "./returns/month-param";
import { returnsPageQueries } from "./returns/returns.server";
import { parseStatementsQuery } from "./statements/statement-query";
import { statementsPageQueries } from "./statements/statements-page.server";

export const INVOICE_LIST_PATH = "/cis/invoices";
export const SUBCONTRACTOR_LIST_PATH = "/cis/subcontractors";
export const RETURNS_PATH = "/cis/returns";
export const STATEMENTS_PATH = "/cis/statements";

/**
 * The batches of the lists, the statements page and the returns page, run with the tenant
 * middleware's (ADR 0082): the same statements their loaders build, from the same address parsed by
 * the same functions, at the same time. (The dashboard's depends on the viewer's scopes: not here.)
 */
export const CIS_PAGE_PREFETCH: readonly PagePrefetch[] = [
  { path: INVOICE_LIST_PATH, statements: (_env, db, tenantId, url, now) => invoiceListStatements(db, tenantId, parseInvoiceListQuery(url.searchParams), now) },
  { path: SUBCONTRACTOR_LIST_PATH, statements: (env, db, tenantId, url) => subcontractorListStatements(env, db, tenantId, parseListQuery(url.searchParams)) },
  {
    path: RETURNS_PATH,
    statements: (_env, db, tenantId, url, now) => {
      const month = parseReturnsMonth(url.searchParams.get("month"), now);
      return month ? returnsPageQueries(db, tenantId, month, now) : [];
    },
  },
  {
    path: STATEMENTS_PATH,
    statements: (_env, db, tenantId, url, now) => {
      const query = parseStatementsQuery(url.searchParams, now);
      return statementsPageQueries(db, tenantId, query.month, query);
    },
  },
];
