import { pageUrl } from "~/utils/request-url";
import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { can } from "~/features/auth";
import { redirectWithToast } from "~/features/platform/index.server";
import { InviteToPortalButton } from "../portal-invites/components/invite-to-portal-button";
import { useHydrated } from "~/utils/use-hydrated";
import { useSelection } from "~/utils/use-selection";
import { itemCount, Pager } from "~/components/ui/pager";
import { ExportImportButtons } from "~/components/ui/list-toolbar";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import {
  BulkResults,
  bulkConfirmText,
  ConfirmPanel,
  type BulkKind,
  type BulkOutcome,
  type ConfirmItem,
} from "../subcontractors/components/subcontractor-confirm";
import { SubcontractorTable, SummaryCards } from "../subcontractors/components/subcontractor-table";
import { requireModule } from "~/features/auth/index.server";
import { subcontractorBulkFormSchema, type SubcontractorBulkIntent } from "../subcontractors/schemas";
import { BULK_FAILURE_MESSAGES } from "../subcontractors/subcontractor-messages";
import {
  archiveSubcontractors,
  BULK_LIMIT,
  deleteSubcontractors,
  listSubcontractors,
  type BulkResult,
  parseListQuery,
  subcontractorListItem,
  subcontractorNames,
  type ListQuery,
} from "../subcontractors/subcontractors.server";
import type { Route } from "./+types/subcontractors-list";
import { reportInternalError } from "~/features/platform";
import { requireScope } from "~/features/auth/index.server";
import { VERIFY_SENT_TITLE, verifyRefusalMessage, verifySentMessage } from "../hmrc/codes";
import { startVerification, type StartVerificationResult } from "../hmrc/verification.server";
import { SubmissionKeyInput } from "~/features/platform";
import { SUBMISSION_KEY_FIELD } from "~/features/platform";
import { mintSubmissionKey, submitOnce, takePagePrefetch } from "~/features/platform/index.server";
import { SUBCONTRACTOR_LIST_PATH } from "../page-prefetch.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.sub.read" });
  const query = parseListQuery(new URL(request.url).searchParams);
  const perms = {
    canWrite: can(user, "cis.sub.write"),
    canInvite: can(user, "cis.portal.invite"),
    canExport: can(user, "cis.io.export"),
    // An import creates subcontractors: it needs both.
    canImport: can(user, "cis.io.import") && can(user, "cis.sub.write"),
    canVerify: can(user, "cis.sub.verify"),
  };
  const bulkKey = perms.canWrite || perms.canVerify ? await mintSubmissionKey(env, bulkScope(tenant.id, user.id)) : null;
  try {
    const { summary, ...list } = await listSubcontractors(env, tenant.id, query, takePagePrefetch(context, SUBCONTRACTOR_LIST_PATH, tenant.id));
    return { query, perms, bulkKey, error: null, summary, list: { ...list, rows: list.rows.map(subcontractorListItem) } };
  } catch (err) {
    // The page still renders (toolbar, filters) with the spec's error text; the error's own
    // text (SQL, parameters) is logged under the reference the page shows, never sent.
    return { query, perms, bulkKey, error: reportInternalError(context, err, "cis subcontractors list"), summary: null, list: null };
  }
}

/**
 * The toolbar's bulk actions (verify with HMRC, archive, delete) run once per submission key: a
 * double click or a refreshed result page answers with the first result. One key serves the
 * toolbar's buttons, so the stored answer says which of them it was.
 */
function bulkScope(tenantId: string, userId: string) {
  return { tenantId, userId, action: "cis.subcontractors.bulk" };
}

type BulkAnswer = { step: "verified"; requested: number; res: StartVerificationResult } | { step: "changed"; outcome: BulkOutcome };

type ActionData =
  | { step: "confirm"; kind: BulkKind; intent: Exclude<SubcontractorBulkIntent, "bulk-verify">; items: ConfirmItem[]; key: string | null }
  | { step: "confirm-verify"; items: ConfirmItem[]; key: string }
  | { step: "result"; outcome: BulkOutcome }
  | { step: "error"; message: string };

const KIND: Record<Exclude<SubcontractorBulkIntent, "bulk-verify">, BulkKind> = { archive: "archive", "bulk-archive": "archive", "bulk-delete": "delete" };
const verifyConfirmText = (n: number) => `Send ${n === 1 ? "1 subcontractor" : `${n} subcontractors`} to HMRC for verification?`;

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis" });
  const form = await request.formData();
  // Verifying with HMRC needs cis.sub.verify; archiving and deleting need cis.sub.write.
  await requireScope(request, context, user, form.get("intent") === "bulk-verify" ? "cis.sub.verify" : "cis.sub.write");
  const parsed = subcontractorBulkFormSchema.safeParse({
    intent: form.get("intent"),
    confirmed: form.get("confirmed") ?? undefined,
    selectAll: form.get("selectAll") ?? undefined,
    ids: form.getAll("ids"),
    pageIds: form.getAll("pageIds"),
  });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const { intent } = parsed.data;
  // 'Select all' stands for every row of the page the user was looking at.
  const ids = parsed.data.selectAll === "page" ? parsed.data.pageIds : parsed.data.ids;
  if (ids.length === 0) return data<ActionData>({ step: "error", message: "Select at least one subcontractor" }, { status: 400 });
  if (ids.length > BULK_LIMIT) return data<ActionData>({ step: "error", message: `Select at most ${BULK_LIMIT} subcontractors at a time` }, { status: 400 });

  if (parsed.data.confirmed !== "yes") {
    const names = await subcontractorNames(env, tenant.id, ids);
    const items = ids.map((id) => ({ id, name: names[id] ?? null }));
    // A bulk confirmation carries its own key (the toolbar's may be spent); one row's Archive needs none.
    const key = intent === "archive" ? null : await mintSubmissionKey(env, bulkScope(tenant.id, user.id));
    if (intent === "bulk-verify") return data<ActionData>({ step: "confirm-verify", items, key: key ?? "" });
    return data<ActionData>({ step: "confirm", kind: KIND[intent], intent, items, key });
  }

  const url = pageUrl(request);
  if (intent === "archive") {
    // One row's own Archive changes that row only (conditionally): no submission key.
    const res = await archiveSubcontractors(env, tenant.id, ids, actor);
    if (res.failed.length === 0)
      return redirectWithToast(env, url.pathname + url.search, { type: "success", title: "Subcontractor archived", message: res.names[ids[0]] });
    return data<ActionData>({ step: "result", outcome: bulkOutcome("archive", ids.length, res) });
  }
  const sent = await submitOnce(env, form, bulkScope(tenant.id, user.id), async (claim): Promise<BulkAnswer> => {
    if (intent === "bulk-verify")
      return { step: "verified", requested: ids.length, res: await startVerification(env, tenant.id, ids, actor, new Date(), claim) };
    const kind = KIND[intent];
    const res =
      kind === "archive" ? await archiveSubcontractors(env, tenant.id, ids, actor, claim) : await deleteSubcontractors(env, tenant.id, ids, actor, claim);
    return { step: "changed", outcome: bulkOutcome(kind, ids.length, res) };
  });
  if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ step: "error", message: sent.message }, { status: 409 });
  const answer = sent.result;
  if (answer.step === "changed") return data<ActionData>({ step: "result", outcome: answer.outcome });
  const { res } = answer;
  if (!res.ok) return data<ActionData>({ step: "error", message: verifyRefusalMessage(res) }, { status: res.code === "not_found" ? 404 : 400 });
  return redirectWithToast(env, url.pathname + url.search, {
    type: "success",
    title: VERIFY_SENT_TITLE,
    message: verifySentMessage(answer.requested, res.created),
  });
}

function bulkOutcome(kind: BulkKind, requested: number, res: BulkResult): BulkOutcome {
  return {
    kind,
    requested,
    succeeded: res.succeeded.map((id) => ({ id, name: res.names[id] ?? null })),
    failed: res.failed.map((f) => ({ id: f.id, error: BULK_FAILURE_MESSAGES[f.code], name: res.names[f.id] ?? null })),
  };
}

function queryString(q: ListQuery, page: number): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.status !== "all") p.set("status", q.status);
  if (q.type !== "all") p.set("type", q.type);
  if (q.utr !== "all") p.set("utr", q.utr);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

const BULK_FORM = "subcontractor-bulk";

// eslint-disable-next-line max-lines-per-function -- issue 26 changes this list in parallel; split after it lands
export default function SubcontractorsList({ loaderData, actionData }: Route.ComponentProps) {
  const { query, perms, list, summary, error, bulkKey } = loaderData;
  const location = useLocation();
  const hydrated = useHydrated();
  const result = actionData;
  const rows = list?.rows ?? [];

  // A finished action or a new page starts with nothing selected.
  const { selected, toggle, toggleAll } = useSelection(
    rows.map((r) => r.id),
    [result, location.search],
  );

  const filtered = Boolean(query.q) || query.status !== "all" || query.type !== "all" || query.utr !== "all";
  const total = list?.total ?? 0;
  const cancelTo = location.pathname + location.search;

  return (
    <div className="space-y-6">
      <h2 className="sr-only">Subcontractors</h2>
      {summary ? <SummaryCards summary={summary} /> : null}

      <div className="flex flex-wrap items-end gap-3" role="toolbar" aria-label="Subcontractor tools">
        <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
          <label className="sr-only" htmlFor="sub-q">
            Search
          </label>
          <input id="sub-q" type="search" name="q" defaultValue={query.q} placeholder="Search subcontractors..." className={`${inputClass} w-64`} />
          <label className="text-sm">
            <span className="block text-xs opacity-70">Status</span>
            <select name="status" defaultValue={query.status} className={inputClass}>
              <option value="all">All</option>
              <option value="active">Active</option>
              <option value="archived">Archived</option>
            </select>
          </label>
          <label className="text-sm">
            <span className="block text-xs opacity-70">Type</span>
            <select name="type" defaultValue={query.type} className={inputClass}>
              <option value="all">All</option>
              <option value="individual">Individual</option>
              <option value="company">Company</option>
              <option value="partnership">Partnership</option>
            </select>
          </label>
          <label className="text-sm">
            <span className="block text-xs opacity-70">UTR</span>
            <select name="utr" defaultValue={query.utr} className={inputClass}>
              <option value="all">All</option>
              <option value="invalid">Fails HMRC&rsquo;s check</option>
            </select>
          </label>
          <button type="submit" className={buttonClass("secondary")}>
            Apply
          </button>
        </Form>

        <p className="text-sm opacity-70" aria-live="polite">
          <span data-item-count>{itemCount(total, list?.more === true)}</span>
          {perms.canWrite && selected.size > 0 ? <span>{` · ${selected.size} selected`}</span> : null}
        </p>

        <div className="ml-auto flex flex-wrap items-center gap-2">
          {perms.canWrite ? (
            <Form
              method="post"
              id={BULK_FORM}
              className="flex gap-2"
              onSubmit={confirmThenSubmit((submitter) => {
                if (submitter?.value === "bulk-verify") return verifyConfirmText(selected.size);
                const kind = submitter?.value === "bulk-delete" ? "delete" : "archive";
                return bulkConfirmText(kind, selected.size);
              })}
            >
              {bulkKey ? <SubmissionKeyInput value={bulkKey} /> : null}
              {perms.canVerify ? (
                <button type="submit" name="intent" value="bulk-verify" className={buttonClass("secondary")} disabled={hydrated && selected.size === 0}>
                  Verify with HMRC
                </button>
              ) : null}
              <input type="hidden" name="confirmed" value="" />
              <button type="submit" name="intent" value="bulk-archive" className={buttonClass("secondary")} disabled={hydrated && selected.size === 0}>
                Archive selected
              </button>
              <button type="submit" name="intent" value="bulk-delete" className={buttonClass("danger")} disabled={hydrated && selected.size === 0}>
                Delete selected
              </button>
            </Form>
          ) : null}
          <ExportImportButtons
            exportAction="/cis/subcontractors/export"
            filters={{ q: query.q, status: query.status, type: query.type }}
            importTo="/cis/subcontractors/import"
            canExport={perms.canExport}
            canImport={perms.canImport}
          />
          {perms.canInvite && perms.canWrite ? <InviteToPortalButton className={buttonClass("secondary")} /> : null}
          {perms.canWrite ? (
            <Link to="/cis/subcontractors/new" className={buttonClass("primary")}>
              New Subcontractor
            </Link>
          ) : null}
        </div>
      </div>

      {result?.step === "confirm" ? (
        <ConfirmPanel
          title={
            result.intent === "archive"
              ? `Archive ${result.items[0]?.name ?? "this subcontractor"}? It can be made active again from its form.`
              : bulkConfirmText(result.kind, result.items.length)
          }
          intent={result.intent}
          items={result.items}
          cancelTo={cancelTo}
          extra={result.key ? { [SUBMISSION_KEY_FIELD]: result.key } : undefined}
        />
      ) : null}
      {result?.step === "confirm-verify" ? (
        <ConfirmPanel
          title={verifyConfirmText(result.items.length)}
          intent="bulk-verify"
          items={result.items}
          cancelTo={cancelTo}
          extra={{ [SUBMISSION_KEY_FIELD]: result.key }}
        />
      ) : null}
      {result?.step === "result" ? <BulkResults outcome={result.outcome} /> : null}
      {result?.step === "error" ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm">
          {result.message}
        </p>
      ) : null}

      {error ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-4">
          {`Error loading subcontractors: ${error}`}
        </p>
      ) : rows.length === 0 ? (
        <div className="rounded-brand border border-dashed border-line p-10 text-center">
          <p className="font-semibold">No subcontractors found</p>
          <p className="mt-1 text-sm opacity-70">{filtered ? "Try adjusting your filters" : "Get started by adding a new subcontractor"}</p>
        </div>
      ) : (
        <SubcontractorTable rows={rows} perms={perms} bulkFormId={BULK_FORM} selected={selected} onToggle={toggle} onToggleAll={toggleAll} />
      )}

      {list ? <Pager page={list.page} pageCount={list.pageCount} more={list.more} href={(page) => `/cis/subcontractors${queryString(query, page)}`} /> : null}
    </div>
  );
}

export function meta() {
  return [{ title: "Subcontractors · CIS" }];
}
