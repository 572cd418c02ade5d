import { SubmissionKeyInput } from "~/features/platform";
import { mintSubmissionKey, submitOnce, takePagePrefetch } from "~/features/platform/index.server";
import { STATEMENTS_PATH } from "../../page-prefetch.server";
import { parseStatementsQuery } from "../statement-query";
import { issueSubmissionScope } from "../issue.server";
import type { ChangeEvent } from "react";
import { data, Form, Link, redirect } from "react-router";
import { RefreshWhile } from "~/components/refresh-while";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { Pager } from "~/components/ui/pager";
import { StatCards } from "~/components/ui/stat-cards";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { formatLongDate } from "~/utils/dates";
import { deadlineIndicator, nextTaxMonth, previousTaxMonth, taxMonthFromLabel } from "../../domain/tax-month";
import { requireModule } from "~/features/auth/index.server";
import { BatchPanel, StatementDeadlineBanner } from "../components/statement-panels";
import { StatementList } from "../components/statement-list";
import { generateSubcontractorStatement } from "../generate.server";
import { BATCH_MESSAGES, BATCH_REFRESH_SECONDS, STATEMENT_FILTER_LABELS, STATEMENT_FILTERS, type StatementFilter } from "../statement-codes";
import { loadStatementsPage, startBatchGeneration } from "../statements-page.server";
import { STATEMENT_ERROR_MESSAGES } from "../statements.server";
import { statementsActionSchema } from "../schemas";
import type { Route } from "./+types/list";

/** Reading the screen needs invoice read (coarse read grants it); every statement action needs cis.stmt.issue (coarse write grants it). */
const READ_SCOPE = "cis.inv.read";
const ISSUE_SCOPE = "cis.stmt.issue";

/** The list's address for a month, filter and page: where actions return and what Issue's returnTo holds. */
function listUrl(month: string, filter: StatementFilter, { job, page = 1 }: { job?: string; page?: number } = {}): string {
  const params = new URLSearchParams({ month, filter });
  if (page > 1) params.set("page", String(page));
  if (job) params.set("job", job);
  return `/cis/statements?${params.toString()}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: READ_SCOPE });
  // The page's batch may have run with the middleware's (ADR 0082): its time decides the default month too.
  const prefetched = takePagePrefetch(context, STATEMENTS_PATH, tenant.id);
  const now = prefetched?.now ?? new Date();
  const query = parseStatementsQuery(new URL(request.url).searchParams, now);
  const tm = taxMonthFromLabel(query.month);
  const indicator = deadlineIndicator(tm.deadlines.statements, now);
  const view = {
    query,
    period: tm.displayLabel,
    prevMonth: previousTaxMonth(query.month).label,
    nextMonth: nextTaxMonth(query.month).label,
    deadline: { date: formatLongDate(tm.deadlines.statements), state: indicator.state, text: indicator.text },
    canIssue: can(user, ISSUE_SCOPE),
  };
  try {
    // One page of subcontractors is read and drawn (the month may hold hundreds); the counts are the month's.
    const page = await loadStatementsPage(env, tenant.id, query.month, query, prefetched);
    const batch = page.batch;
    const keys = view.canIssue ? await submissionKeysFor(env, tenant.id, user.id, query.month, page.rows) : { generateAll: null, issue: {} };
    return {
      ...view,
      returnTo: listUrl(query.month, query.filter, { page: page.page }),
      pages: { page: page.page, pageCount: page.pageCount },
      keys,
      error: null,
      emailStatements: page.emailStatements,
      counts: page.counts,
      rows: page.rows,
      // A finished job's outcome is shown to whoever started it (its id is in the address it was sent
      // to); a running one to everyone, so nobody starts a second.
      batch: batch && (batch.state === "running" || batch.id === query.job) ? batch : null,
    };
  } catch (err) {
    const keys = { generateAll: null, issue: {} };
    return {
      ...view,
      returnTo: listUrl(query.month, query.filter),
      pages: { page: 1, pageCount: 1 },
      keys,
      error: reportInternalError(context, err, "cis statements list"),
      emailStatements: true,
      counts: null,
      rows: [],
      batch: null,
    };
  }
}

/** Generate All starts a job, and issuing sends: each form is acted on once per submission key. */
const generateAllScope = (tenantId: string, userId: string, month: string) => ({ tenantId, userId, action: `cis.statements.generate-all:${month}` });

async function submissionKeysFor(env: Env, tenantId: string, userId: string, month: string, rows: { statement: { id: string; status: string } | null }[]) {
  const issue: Record<string, string> = {};
  for (const { statement } of rows) {
    if (statement?.status === "generated") issue[statement.id] = await mintSubmissionKey(env, issueSubmissionScope(tenantId, userId, statement.id));
  }
  return { generateAll: await mintSubmissionKey(env, generateAllScope(tenantId, userId, month)), issue };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: READ_SCOPE });
  await requireScope(request, context, user, ISSUE_SCOPE);
  const form = await request.formData();
  const parsed = statementsActionSchema.safeParse({
    intent: form.get("intent"),
    subcontractorId: form.get("subcontractorId") ?? undefined,
    month: form.get("month"),
    filter: form.get("filter") ?? "all",
    page: form.get("page") ?? 1,
  });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const { month, filter } = parsed.data;
  const back = listUrl(month, filter, { page: parsed.data.intent === "generate" ? parsed.data.page : 1 });

  if (parsed.data.intent === "generate-all") {
    let sent;
    try {
      sent = await submitOnce(env, form, generateAllScope(tenant.id, user.id, month), (claim) => startBatchGeneration(env, tenant.id, month, actor, { claim }));
    } catch (err) {
      const message = reportInternalError(context, err, "cis statements generate all", `${BATCH_MESSAGES.failed}: Something went wrong.`);
      return data({ error: message }, { status: 503 });
    }
    if (sent.kind === "refused" || sent.kind === "pending") return data({ error: sent.message }, { status: 409 });
    const res = sent.result;
    if (!res.ok) return redirectWithToast(env, back, { type: "info", title: BATCH_MESSAGES.noPendingTitle, message: BATCH_MESSAGES.noPendingMessage });
    if (!res.created) return redirectWithToast(env, listUrl(month, filter, { job: res.jobId }), { type: "info", title: BATCH_MESSAGES.alreadyRunning });
    return redirect(listUrl(month, filter, { job: res.jobId }));
  }

  let res;
  try {
    res = await generateSubcontractorStatement(env, tenant.id, parsed.data.subcontractorId, month, actor);
  } catch (err) {
    const message = reportInternalError(
      context,
      err,
      "cis statement generate",
      `${STATEMENT_ERROR_MESSAGES.not_found.title}: ${STATEMENT_ERROR_MESSAGES.not_found.message}.`,
    );
    return data({ error: message }, { status: 503 });
  }
  if (res.ok) {
    return redirectWithToast(env, back, {
      type: "success",
      title: "Statement Generated",
      message: `The statement for ${taxMonthFromLabel(month).displayLabel} is ready.`,
    });
  }
  // Another tenant's or an unknown subcontractor is simply not there.
  if (res.code === "not_found") throw data("Not found", { status: 404 });
  const { title, message } = STATEMENT_ERROR_MESSAGES[res.code];
  return redirectWithToast(env, back, { type: res.code === "already_exists" ? "error" : "info", title, ...(message ? { message } : {}) });
}

/** With JavaScript a changed filter applies at once; without it, the Apply button does. */
function submitOnChange(event: ChangeEvent<HTMLSelectElement>) {
  event.currentTarget.form?.requestSubmit();
}

// eslint-disable-next-line max-lines-per-function -- issue 31 splits this module
export default function StatementsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { query, period, prevMonth, nextMonth, deadline, canIssue, returnTo, pages, error, emailStatements, counts, rows, batch, keys } = loaderData;
  const running = batch?.state === "running";

  return (
    <div className="space-y-6">
      {/* While Generate All runs, the page reloads its data every few seconds. */}
      <RefreshWhile running={running} seconds={BATCH_REFRESH_SECONDS} token={loaderData} />
      <h2 className="sr-only">Statements</h2>
      <StatementDeadlineBanner period={period} deadline={deadline} />

      {counts ? (
        <StatCards
          cards={[
            { label: "Total Subcontractors", value: counts.total },
            { label: "Pending Generation", value: counts.pending },
            { label: "Generated", value: counts.generated },
            { label: "Issued", value: counts.issued },
          ]}
        />
      ) : null}

      <div className="flex flex-wrap items-end gap-3" role="toolbar" aria-label="Statement tools">
        <nav aria-label="Tax month" className="flex items-center gap-2">
          <Link to={listUrl(prevMonth, query.filter)} className={buttonClass("secondary")} aria-label="Previous tax month" rel="prev">
            ‹ Previous
          </Link>
          <span className="px-2 text-sm font-medium" data-period>
            {period}
          </span>
          <Link to={listUrl(nextMonth, query.filter)} className={buttonClass("secondary")} aria-label="Next tax month" rel="next">
            Next ›
          </Link>
        </nav>

        {/* Keyed by the month and filter so the fields show what is in force after any navigation. */}
        <Form key={`${query.month}:${query.filter}`} method="get" className="flex flex-wrap items-end gap-2">
          <label className="text-sm">
            <span className="block text-xs opacity-70">Tax month</span>
            <input type="month" name="month" defaultValue={query.month} className={inputClass} />
          </label>
          <label className="text-sm">
            <span className="block text-xs opacity-70">Show</span>
            <select name="filter" defaultValue={query.filter} className={inputClass} onChange={submitOnChange}>
              {STATEMENT_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {STATEMENT_FILTER_LABELS[f]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={buttonClass("secondary")}>
            Apply
          </button>
        </Form>

        {canIssue ? (
          <Form method="post" className="ml-auto">
            <input type="hidden" name="intent" value="generate-all" />
            <input type="hidden" name="month" value={query.month} />
            <input type="hidden" name="filter" value={query.filter} />
            {keys.generateAll ? <SubmissionKeyInput value={keys.generateAll} /> : null}
            <SubmitButton pendingText="Starting..." match={{ intent: "generate-all" }} disabled={running}>
              Generate All
            </SubmitButton>
          </Form>
        ) : null}
      </div>

      {batch ? <BatchPanel batch={batch} /> : null}
      {actionData?.error ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm">
          {actionData.error}
        </p>
      ) : null}

      <section aria-labelledby="statements-by-sub" className="space-y-3">
        <h3 id="statements-by-sub" className="text-lg font-semibold">
          Statements by Subcontractor
        </h3>
        {error ? (
          <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-4">
            {`Error loading statements: ${error}`}
          </p>
        ) : rows.length === 0 ? (
          <div className="rounded-brand border border-dashed border-line p-10 text-center" data-empty>
            <p className="font-semibold">No statements to display</p>
          </div>
        ) : (
          <>
            <StatementList
              rows={rows}
              perms={{ canIssue, emailStatements, issueKeys: keys.issue }}
              month={query.month}
              filter={query.filter}
              page={pages.page}
              returnTo={returnTo}
            />
            <Pager page={pages.page} pageCount={pages.pageCount} href={(p) => listUrl(query.month, query.filter, { page: p })} />
          </>
        )}
      </section>
    </div>
  );
}

export function meta() {
  return [{ title: "Statements · CIS" }];
}
