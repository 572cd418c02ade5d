import { data } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { can } from "~/features/auth";
import { devToolsEnabled } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { mintSubmissionKey, redirectWithToast, takePagePrefetch } from "~/features/platform/index.server";
import { RETURNS_PATH } from "../../page-prefetch.server";
import { parseReturnsMonth } from "../month-param";
import { returnSubmitScope } from "../../hmrc/return-submission.server";
import { fileNilReturn, NIL_CONFIRM_REQUIRED } from "../nil-submit.server";
import { formatLongDate, LONDON } from "~/utils/dates";
import { currentTaxMonth, nextTaxMonth, previousTaxMonth, taxMonthFromLabel } from "../../domain/tax-month";
import type { Actor } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import {
  ActionError,
  ConfirmStep,
  CurrentMonthCard,
  FiledPanel,
  HistoricalReturns,
  ReturnActions,
  ReturnLinesTable,
  ReturnTotals,
  ValidationIssuesDialog,
  ValidationPanel,
  type ReturnActionsView,
} from "../components/returns-page";
import {
  amendConfirmText,
  ALREADY_FILED,
  ALREADY_FILED_TITLE,
  amendReturn,
  compileMonthlyReturn,
  nilConfirmText,
  NO_TAX_MONTH,
  RETURN_ERROR_MESSAGES,
  RETURN_HISTORY_LINES_SHOWN,
  RETURN_LINES_SHOWN,
  RETURNS_READ_SCOPES,
  returnsPageData,
  submissionBlocker,
  UNLOCK_CONFIRM_TEXT,
  unlockReturn,
  type ReturnErrorCode,
} from "../returns.server";
import { overdueReturnView, returnIssueViews, returnView } from "../view.server";
import { monthPenalties } from "../penalties-view";
import { OverdueReturns, PenaltiesPanel } from "../components/overdue-returns";
import { NOTICE_ERROR_MESSAGES, NOTICE_MAX_MONTHS, parseNoticeForm, returnsActionSchema, type NoticeField } from "../schemas";
import { deleteNotice, NOTICE_CHANGE_MESSAGES, recordNotice, updateNotice, type NoticeChangeRefusal } from "../notices.server";
import { monthNeedView, noticeMonthOptions, noticeView } from "../notices-view";
import { MonthNeed, NoticesPanel } from "../components/notices";
import { formatInTimeZone } from "date-fns-tz";
import type { Route } from "./+types/returns";
import type { Result } from "~/utils/result";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: RETURNS_READ_SCOPES });
  // The page's batch may have run with the middleware's (ADR 0082): its time decides the month asked for too.
  const prefetched = takePagePrefetch(context, RETURNS_PATH, tenant.id);
  const now = prefetched?.now ?? new Date();
  const params = new URL(request.url).searchParams;
  const month = parseReturnsMonth(params.get("month"), now);
  if (!month) return data({ kind: "no-month" as const, message: NO_TAX_MONTH }, { status: 400 });
  let page;
  try {
    page = await returnsPageData(env, tenant.id, month, now, prefetched);
  } catch (err) {
    const message = reportInternalError(context, err, "cis returns page");
    return data({ kind: "error" as const, message: `Error loading returns: ${message}` }, { status: 500 });
  }
  const current = page.monthReturns.at(-1) ?? null;
  const overdue = page.overdue.map((d) => overdueReturnView(d, now));
  const canCompile = can(user, "cis.ret.compile");
  const showNil = canCompile && !current && page.paymentsInMonth === 0;
  // Who may also send it files the nil return in one step: compiled and handed to HMRC together.
  const oneStep =
    showNil && can(user, "cis.ret.submit") ? { submissionKey: await mintSubmissionKey(env, returnSubmitScope(tenant.id, user.id, month.label)) } : null;
  const view = current ? returnView(current, page.lines, RETURN_LINES_SHOWN) : null;
  const actions: ReturnActionsView = {
    compile: canCompile && !current,
    recompile: canCompile && current !== null && !current.locked,
    nil: { show: showNil, confirm: nilConfirmText(month.displayLabel), oneStep },
    amend: { show: canCompile && current !== null && current.locked, confirm: amendConfirmText(current?.id ?? month.label) },
    unlock: { show: devToolsEnabled(env, request) && can(user, "cis.manage") && current !== null && current.locked, confirm: UNLOCK_CONFIRM_TEXT },
    submit: {
      // A locked return is accepted by HMRC: the page says so instead of offering a disabled Submit.
      show: can(user, "cis.ret.submit") && !current?.locked,
      href: `/cis/returns/${month.label}/submit`,
      reason: current ? submissionBlocker(current) : "Compile the return first",
    },
    exportCsv: can(user, "cis.io.export"),
  };
  return {
    kind: "page" as const,
    month: {
      label: month.label,
      displayLabel: month.displayLabel,
      filingDeadline: formatLongDate(month.deadlines.filing),
      paymentDeadline: formatLongDate(month.deadlines.payment),
      previous: previousTaxMonth(month.label).label,
      next: nextTaxMonth(month.label).label,
      isCurrent: month.label === currentTaxMonth(now).label,
      overdue: overdue.find((o) => o.taxMonth === month.label)?.overdueText ?? null,
    },
    penalties: monthPenalties(month.label, page.monthReturns, page.overdue, now, page.notices),
    need: current ? null : monthNeedView(month.label, page.paymentsInMonth, page.notices),
    notices: page.notices.map((n) => noticeView(n, canCompile)),
    noticeForm: canCompile
      ? {
          months: noticeMonthOptions(now),
          defaultMonth: nextTaxMonth(currentTaxMonth(now).label).label,
          maxMonths: NOTICE_MAX_MONTHS,
          // ?notice={id}: the form corrects that notice (one given another way) instead of recording a new one.
          editing: noticeEditing(page.notices, params.get("notice")),
        }
      : null,
    overdue,
    current: view,
    issues: current ? returnIssueViews(current, page.lines, page.hasEmail) : [],
    actions,
    history: page.history.map((r) => returnView(r, page.historyLines[r.id] ?? [], RETURN_HISTORY_LINES_SHOWN)),
  };
}

type ActionData =
  | { kind: "notice-errors"; errors: Partial<Record<NoticeField, string>>; values: Record<NoticeField, string> }
  | { kind: "error"; title: string; message: string }
  | { kind: "nil-confirm"; message: string }
  | { kind: "issues"; issues: string[] }
  | { kind: "confirm"; intent: "nil" | "amend" | "unlock" | "notice-delete"; text: string; month: string; id?: string };

function refused(code: ReturnErrorCode) {
  if (code === "not_found") throw data("Not found", { status: 404 });
  const { title, message } = RETURN_ERROR_MESSAGES[code];
  return data<ActionData>({ kind: "error", title, message }, { status: code === "invalid_month" ? 400 : 409 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: RETURNS_READ_SCOPES });
  const form = await request.formData();
  if (form.get("intent") === "nil-submit") {
    await requireScope(request, context, user, "cis.ret.compile");
    await requireScope(request, context, user, "cis.ret.submit");
    return nilSubmitAction(env, tenant.id, actor, form);
  }
  if (form.get("intent") === "notice" || form.get("intent") === "notice-delete") {
    await requireScope(request, context, user, "cis.ret.compile");
    return noticeAction(env, tenant.id, actor, form, request.headers.get("CF-Connecting-IP"));
  }
  const parsed = returnsActionSchema.safeParse({
    intent: form.get("intent"),
    month: form.get("month") ?? undefined,
    id: form.get("id") ?? undefined,
    confirmed: form.get("confirmed") ?? undefined,
  });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const { intent, confirmed } = parsed.data;
  if (intent === "unlock") {
    // Outside development and the tests the action does not exist at all.
    if (!devToolsEnabled(env, request)) throw data("Not found", { status: 404 });
    await requireScope(request, context, user, "cis.manage");
  } else {
    await requireScope(request, context, user, "cis.ret.compile");
  }
  const month = parseReturnsMonth(parsed.data.month, new Date());
  if (!month || parsed.data.month.trim() === "") return refused("invalid_month");
  const here = `/cis/returns?month=${month.label}`;

  if (intent !== "compile" && confirmed !== "yes") {
    const text =
      intent === "nil" ? nilConfirmText(month.displayLabel) : intent === "amend" ? amendConfirmText(parsed.data.id ?? month.label) : UNLOCK_CONFIRM_TEXT;
    return data<ActionData>({ kind: "confirm", intent, text, month: month.label, id: parsed.data.id });
  }

  let outcome: Result<{ issues: string[]; toast: { title: string; message: string } }, ReturnErrorCode>;
  try {
    outcome = await run(env, tenant.id, intent, month.label, parsed.data.id ?? "", actor);
  } catch (err) {
    const title = intent === "unlock" ? "Unlock Failed" : "Compilation Failed";
    const message = reportInternalError(context, err, `cis return ${intent}`, intent === "unlock" ? "Failed to unlock return" : "Unknown error occurred");
    return data<ActionData>({ kind: "error", title, message }, { status: 500 });
  }
  if (!outcome.ok && outcome.code === "locked") {
    // A compile from a stale page (or racing the acceptance): HMRC has the return, nothing is wrong.
    return redirectWithToast(env, here, { type: "info", title: ALREADY_FILED_TITLE, message: ALREADY_FILED });
  }
  if (!outcome.ok) return refused(outcome.code);
  if (outcome.issues.length > 0) return data<ActionData>({ kind: "issues", issues: outcome.issues });
  // A nil return goes straight on to its declarations and sending, for those who may send it.
  const next = intent === "nil" && can(user, "cis.ret.submit") ? `/cis/returns/${month.label}/submit` : here;
  return redirectWithToast(env, next, { type: "success", ...outcome.toast });
}

/** The notice form on a notice given another way, when the page was opened to correct it. */
function noticeEditing(rows: ReturnsPageNotices, id: string | null) {
  const row = id ? rows.find((n) => n.id === id && n.source === "other") : undefined;
  return row ? { id: row.id, givenOn: row.givenOn, firstMonth: row.firstMonth, months: String(row.months) } : null;
}
type ReturnsPageNotices = Awaited<ReturnType<typeof returnsPageData>>["notices"];

function noticeRefused(code: NoticeChangeRefusal) {
  if (code === "not_found") throw data(NOTICE_CHANGE_MESSAGES.not_found, { status: 404 });
  return data<ActionData>({ kind: "error", title: "Notice Not Changed", message: NOTICE_CHANGE_MESSAGES[code] }, { status: 409 });
}

/** Record a notice given another way, correct one (`id`), or delete one (`notice-delete`, confirmed first). */
async function noticeAction(env: Env, tenantId: string, actor: Actor, form: FormData, ip: string | null) {
  const id = typeof form.get("id") === "string" && form.get("id") !== "" ? String(form.get("id")).slice(0, 64) : null;
  if (form.get("intent") === "notice-delete") {
    if (!id) throw data("Unknown action", { status: 400 });
    const back = String(form.get("month") ?? "");
    if (form.get("confirmed") !== "yes") {
      return data<ActionData>({ kind: "confirm", intent: "notice-delete", text: NOTICE_DELETE_CONFIRM, month: back, id });
    }
    const res = await deleteNotice(env, tenantId, actor, id, { ip });
    if (!res.ok) return noticeRefused(res.code);
    return redirectWithToast(env, `/cis/returns${back ? `?month=${back}` : ""}`, {
      type: "success",
      title: "Notice Deleted",
      message: "The notice of no payments is deleted.",
    });
  }
  const values = { givenOn: String(form.get("givenOn") ?? ""), firstMonth: String(form.get("firstMonth") ?? ""), months: String(form.get("months") ?? "") };
  const res = parseNoticeForm(values, formatInTimeZone(new Date(), LONDON, "yyyy-MM-dd"));
  if (!res.ok) {
    const errors = Object.fromEntries(Object.entries(res.errors).map(([field, code]) => [field, NOTICE_ERROR_MESSAGES[code]]));
    return data<ActionData>({ kind: "notice-errors", errors, values }, { status: 400 });
  }
  if (id) {
    const updated = await updateNotice(env, tenantId, actor, id, res.value, { ip });
    if (!updated.ok) return noticeRefused(updated.code);
  } else {
    await recordNotice(env, tenantId, actor, res.value, { ip });
  }
  return redirectWithToast(env, `/cis/returns?month=${res.value.firstMonth}`, {
    type: "success",
    title: id ? "Notice Corrected" : "Notice Recorded",
    message: `No payments from ${taxMonthFromLabel(res.value.firstMonth).displayLabel.replace(/ to .*/, "")} for ${res.value.months} month${res.value.months === 1 ? "" : "s"}.`,
  });
}

const NOTICE_DELETE_CONFIRM = "Delete this notice of no payments? The months it covered will need nil returns again unless another notice covers them.";

/** Nil Return in one step: confirmed by its box (no JavaScript needed), compiled and sent, then HMRC's answer on the submit page. */
async function nilSubmitAction(env: Env, tenantId: string, actor: Actor, form: FormData) {
  const month = parseReturnsMonth(String(form.get("month") ?? ""), new Date());
  if (!month || String(form.get("month") ?? "").trim() === "") return refused("invalid_month");
  if (form.get("confirmed") !== "yes") return data<ActionData>({ kind: "nil-confirm", message: NIL_CONFIRM_REQUIRED }, { status: 400 });
  const res = await fileNilReturn(env, tenantId, month.label, actor, { form, inactivity: form.get("inactivity") === "yes" });
  const here = `/cis/returns?month=${month.label}`;
  if (res.kind === "compile_refused" && res.code === "locked")
    return redirectWithToast(env, here, { type: "info", title: ALREADY_FILED_TITLE, message: ALREADY_FILED });
  if (res.kind === "compile_refused") return refused(res.code);
  if (res.kind === "issues") return data<ActionData>({ kind: "issues", issues: res.issues });
  if (res.kind === "not_sent") return data<ActionData>({ kind: "error", title: "Nil Return Not Sent", message: res.message }, { status: 409 });
  return redirectWithToast(env, `/cis/returns/${month.label}/submit`, {
    type: "success",
    title: "Nil return sent to HMRC",
    message: res.created ? "HMRC's answer will appear on this page." : "This return is already with HMRC.",
  });
}

async function run(env: Env, tenantId: string, intent: "compile" | "nil" | "amend" | "unlock", month: string, id: string, actor: Actor) {
  if (intent === "compile" || intent === "nil") {
    const res = await compileMonthlyReturn(env, tenantId, month, actor, { mode: intent });
    if (!res.ok) return res;
    const title = res.status === "nil" ? "Nil Return Created" : "Return Compiled";
    return { ok: true as const, issues: res.issues, toast: { title, message: "Return validated successfully" } };
  }
  if (intent === "amend") {
    const res = await amendReturn(env, tenantId, month, actor);
    if (!res.ok) return res;
    return { ok: true as const, issues: [], toast: { title: "Amendment Created", message: `Return ${res.id}` } };
  }
  const res = await unlockReturn(env, tenantId, id, actor);
  if (!res.ok) return res;
  return { ok: true as const, issues: [], toast: { title: "Return Unlocked", message: `Return ${id} is a draft again.` } };
}

export default function ReturnsPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.kind !== "page") {
    return (
      <div className="space-y-6">
        <h2 className="text-2xl font-bold">CIS Returns</h2>
        <p role={loaderData.kind === "error" ? "alert" : undefined} data-empty="month">
          {loaderData.message}
        </p>
      </div>
    );
  }
  const { month, current, actions, history, overdue, issues, penalties, need, notices, noticeForm } = loaderData;
  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold">CIS Returns</h2>
      {actionData?.kind === "error" ? <ActionError title={actionData.title} message={actionData.message} /> : null}
      {actionData?.kind === "issues" ? <ValidationIssuesDialog issues={actionData.issues} views={issues} /> : null}
      {actionData?.kind === "confirm" ? <ConfirmStep intent={actionData.intent} text={actionData.text} month={actionData.month} id={actionData.id} /> : null}
      <OverdueReturns items={overdue} />
      <CurrentMonthCard month={month} ret={current} />
      {need ? <MonthNeed need={need} /> : null}
      {penalties ? <PenaltiesPanel penalties={penalties} /> : null}
      {current?.locked ? <FiledPanel ret={current} /> : null}
      <ReturnActions month={month.label} ret={current} actions={actions} nilError={actionData?.kind === "nil-confirm" ? actionData.message : null} />
      {current ? (
        <>
          <ReturnTotals ret={current} />
          <ValidationPanel ret={current} issues={issues} />
          {current.lines.length > 0 ? (
            <div data-testid="current-lines">
              <ReturnLinesTable lines={current.lines} caption={`Lines of return ${current.id}`} />
            </div>
          ) : null}
          {current.moreLines > 0 ? <p className="text-sm opacity-80">{`and ${current.moreLines} more in the CSV export`}</p> : null}
        </>
      ) : null}
      <NoticesPanel notices={notices} form={noticeForm} submitted={actionData?.kind === "notice-errors" ? actionData : null} month={month.label} />
      <HistoricalReturns items={history} canExport={actions.exportCsv} />
    </div>
  );
}

export function meta() {
  return [{ title: "Returns · CIS" }];
}
