import type { ChangeEvent } from "react";
import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { reportInternalError } from "~/features/platform";
import { mintSubmissionKey, submitOnce, takePagePrefetch } from "~/features/platform/index.server";
import { INVOICE_LIST_PATH } from "../../page-prefetch.server";
import { useHydrated } from "~/utils/use-hydrated";
import { useSelection } from "~/utils/use-selection";
import { itemCount, Pager } from "~/components/ui/pager";
import { ExportImportButtons } from "~/components/ui/list-toolbar";
import { isIsoDate } from "../../domain/schemas";
import type { CisScope } from "../../domain/scopes";
import { requireModule } from "~/features/auth/index.server";
import { InvoiceBulkForm, InvoiceBulkResults, InvoiceConfirmPanel, type BulkOutcome, type BulkPerms, type ConfirmItem } from "../components/invoice-bulk";
import { InvoiceStatCards } from "../components/invoice-stats";
import { INVOICE_STATUS_LABELS } from "../components/invoice-status";
import { InvoiceTable } from "../components/invoice-table";
import { bulkInvoiceAction, londonToday } from "../transitions.server";
import { invoiceNumbers, listInvoices, parseInvoiceListQuery } from "../queries.server";
import { INVOICE_BULK_LIMIT, INVOICE_ERROR_MESSAGES, type BulkInvoiceAction, type InvoicePeriod, type InvoiceStatusFilter } from "../invoice-codes";
import { invoiceListSearch, isFiltered } from "../list-query";
import { invoiceBulkFormSchema } from "../schemas";
import type { Route } from "./+types/list";

/** The scope each bulk action needs, checked on the server whatever the page showed. */
const BULK_SCOPES: Readonly<Record<BulkInvoiceAction, CisScope>> = {
  approve: "cis.inv.approve",
  pay: "cis.inv.pay",
  delete: "cis.inv.write",
  statement: "cis.inv.write",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.inv.read" });
  const query = parseInvoiceListQuery(new URL(request.url).searchParams);
  const bulk: BulkPerms = {
    approve: can(user, BULK_SCOPES.approve),
    pay: can(user, BULK_SCOPES.pay),
    delete: can(user, BULK_SCOPES.delete),
    statement: can(user, BULK_SCOPES.statement),
  };
  const perms = {
    canWrite: can(user, "cis.inv.write"),
    canExport: can(user, "cis.io.export"),
    // An import creates invoices: it needs both.
    canImport: can(user, "cis.io.import") && can(user, "cis.inv.write"),
    bulk,
  };
  const today = londonToday();
  const bulkKey = Object.values(bulk).some(Boolean) ? await mintSubmissionKey(env, bulkScope(tenant.id, user.id)) : null;
  try {
    const list = await listInvoices(env, tenant.id, query, new Date(), takePagePrefetch(context, INVOICE_LIST_PATH, tenant.id));
    return { query, perms, today, bulkKey, error: null, list };
  } catch (err) {
    // The page still renders (toolbar, filters) with the list's error sentence; the error's own
    // text (SQL, parameters) is logged under the reference the page shows, never sent.
    return { query, perms, today, bulkKey, error: reportInternalError(context, err, "cis invoices list"), list: null };
  }
}

/** A bulk action runs once per submission key: refreshing its result page shows the same result. */
function bulkScope(tenantId: string, userId: string) {
  return { tenantId, userId, action: "cis.invoices.bulk" };
}

type ActionData =
  | { step: "confirm"; action: BulkInvoiceAction; items: ConfirmItem[]; paymentDate: string | null; key: string }
  | { step: "result"; outcome: BulkOutcome }
  | { step: "error"; message: string; field?: "paymentDate" };

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.inv.read" });
  const form = await request.formData();
  const parsed = invoiceBulkFormSchema.safeParse({
    intent: form.get("intent"),
    confirmed: form.get("confirmed") ?? undefined,
    selectAll: form.get("selectAll") ?? undefined,
    ids: form.getAll("ids"),
    pageIds: form.getAll("pageIds"),
    paymentDate: form.get("paymentDate") ?? undefined,
  });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const { intent } = parsed.data;
  await requireScope(request, context, user, BULK_SCOPES[intent]);

  // 'Select all' stands for every row of the page the user was looking at.
  const ids = parsed.data.selectAll === "page" ? parsed.data.pageIds : parsed.data.ids;
  if (ids.length === 0) return data<ActionData>({ step: "error", message: "Select at least one invoice" }, { status: 400 });
  if (ids.length > INVOICE_BULK_LIMIT) return data<ActionData>({ step: "error", message: INVOICE_ERROR_MESSAGES.too_many }, { status: 400 });
  let paymentDate: string | null = null;
  if (intent === "pay") {
    // A payment is dated today in London unless a date is given.
    paymentDate = parsed.data.paymentDate ?? londonToday();
    if (!isIsoDate(paymentDate)) {
      return data<ActionData>({ step: "error", message: INVOICE_ERROR_MESSAGES.invalid_payment_date, field: "paymentDate" }, { status: 400 });
    }
  }

  // Read before acting: a deleted invoice no longer shows, and the result still names it.
  const { numbers, shownToActor } = await invoiceNumbers(env, tenant.id, ids, user.id);
  const scope = bulkScope(tenant.id, user.id);
  if (parsed.data.confirmed !== "yes") {
    // Four eyes, said before confirming: the transition itself refuses these for this person.
    const fourEyes = intent === "approve" || intent === "pay" ? INVOICE_ERROR_MESSAGES[`revealer_cannot_${intent}`] : null;
    const items = ids.map((id) => ({ id, invoiceNumber: numbers[id] ?? null, note: fourEyes && shownToActor.has(id) ? fourEyes : null }));
    return data<ActionData>({ step: "confirm", action: intent, items, paymentDate, key: await mintSubmissionKey(env, scope) });
  }

  const sent = await submitOnce(env, form, scope, async (claim): Promise<BulkOutcome> => {
    const res = await bulkInvoiceAction(env, tenant.id, intent, ids, actor, { ...(paymentDate ? { paymentDate } : {}), claim });
    return {
      action: intent,
      requested: ids.length,
      succeeded: res.succeeded.map((id) => ({ id, invoiceNumber: numbers[id] ?? null })),
      failed: res.failed.map((f) => ({ id: f.id, invoiceNumber: numbers[f.id] ?? null, error: INVOICE_ERROR_MESSAGES[f.code] })),
    };
  });
  if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ step: "error", message: sent.message }, { status: 409 });
  return data<ActionData>({ step: "result", outcome: sent.result });
}

const PERIOD_LABELS: Readonly<Record<InvoicePeriod, string>> = {
  all: "All",
  current: "Current month",
  previous: "Previous month",
  quarter: "Quarter",
  year: "Tax year",
};

const BULK_FORM = "invoice-bulk";

// The status filter's choices: every status, in the order of its labels. Not the filters' list in
// invoice-codes, which is built from the enums module and would bring every enum to the page.
const STATUS_FILTERS = ["all", ...Object.keys(INVOICE_STATUS_LABELS)] as InvoiceStatusFilter[];

/** With JavaScript a changed filter applies at once; without it, the Apply button does. */
function submitOnChange(event: ChangeEvent<HTMLSelectElement>) {
  event.currentTarget.form?.requestSubmit();
}

// eslint-disable-next-line max-lines-per-function -- issue 26 changes this list in parallel; split after it lands
export default function InvoiceList({ loaderData, actionData }: Route.ComponentProps) {
  const { query, perms, today, list, error, bulkKey } = loaderData;
  const location = useLocation();
  const hydrated = useHydrated();
  const result = actionData;
  const rows = list?.rows ?? [];
  const canSelect = Object.values(perms.bulk).some(Boolean);

  // A finished action or a new page starts with nothing selected.
  const { selected, toggle, toggleAll } = useSelection(
    rows.map((r) => r.id),
    [result, location.search],
  );

  const total = list?.total ?? 0;
  const cancelTo = location.pathname + location.search;

  return (
    <div className="space-y-6">
      <h2 className="sr-only">Invoices</h2>
      {list ? <InvoiceStatCards stats={list.stats} /> : null}

      <div className="flex flex-wrap items-end gap-3" role="toolbar" aria-label="Invoice tools">
        {/* Keyed by the address so the fields show the filters in force after any navigation. */}
        <Form key={location.search} method="get" className="flex flex-wrap items-end gap-2" role="search">
          <label className="sr-only" htmlFor="inv-q">
            Search
          </label>
          <input id="inv-q" type="search" name="q" defaultValue={query.q} placeholder="Search invoices..." className={`${inputClass} w-64`} />
          <label className="text-sm">
            <span className="block text-xs opacity-70">Status</span>
            <select name="status" defaultValue={query.status} className={inputClass} onChange={submitOnChange}>
              {STATUS_FILTERS.map((s) => (
                <option key={s} value={s}>
                  {s === "all" ? "All" : INVOICE_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="block text-xs opacity-70">Period</span>
            <select name="period" defaultValue={query.period} className={inputClass} onChange={submitOnChange}>
              {(Object.keys(PERIOD_LABELS) as InvoicePeriod[]).map((p) => (
                <option key={p} value={p}>
                  {PERIOD_LABELS[p]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClass("secondary")}>
            Apply
          </button>
        </Form>

        <p className="text-sm opacity-70" aria-live="polite">
          <span data-item-count>{itemCount(total, list?.more === true)}</span>
          {hydrated && canSelect ? <span data-selected-count>{` · ${selected.size} selected`}</span> : null}
        </p>

        <div className="ml-auto flex flex-wrap items-end gap-2">
          {canSelect ? (
            <InvoiceBulkForm
              id={BULK_FORM}
              perms={perms.bulk}
              selectedCount={selected.size}
              hydrated={hydrated}
              today={today}
              submissionKey={bulkKey}
              paymentDateError={result?.step === "error" && result.field === "paymentDate" ? result.message : null}
            />
          ) : null}
          <ExportImportButtons
            exportAction="/cis/invoices/export"
            filters={{ q: query.q, status: query.status, period: query.period }}
            importTo="/cis/invoices/import"
            canExport={perms.canExport}
            canImport={perms.canImport}
          />
          {perms.canWrite ? (
            <Link to="/cis/invoices/new" className={buttonClass("primary")}>
              New Invoice
            </Link>
          ) : null}
        </div>
      </div>

      {result?.step === "confirm" ? (
        <InvoiceConfirmPanel action={result.action} items={result.items} paymentDate={result.paymentDate} cancelTo={cancelTo} submissionKey={result.key} />
      ) : null}
      {result?.step === "result" ? <InvoiceBulkResults outcome={result.outcome} /> : null}
      {result?.step === "error" && result.field === undefined ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm">
          {result.message}
        </p>
      ) : null}

      {error ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-4">
          {`Error loading invoices: ${error}`}
        </p>
      ) : rows.length === 0 ? (
        <div className="rounded-brand border border-dashed border-line p-10 text-center" data-empty>
          <p className="font-semibold">No invoices found</p>
          <p className="mt-1 text-sm opacity-70">{isFiltered(query) ? "Try adjusting your filters" : "Get started by creating a new invoice"}</p>
        </div>
      ) : (
        <InvoiceTable
          rows={rows}
          canSelect={canSelect}
          canWrite={perms.canWrite}
          bulkFormId={BULK_FORM}
          selected={selected}
          onToggle={toggle}
          onToggleAll={toggleAll}
        />
      )}

      {list ? <Pager page={list.page} pageCount={list.pageCount} more={list.more} href={(page) => `/cis/invoices${invoiceListSearch(query, page)}`} /> : null}
    </div>
  );
}

export function meta() {
  return [{ title: "Invoices · CIS" }];
}
