import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { requireScope } from "~/features/auth/index.server";
import { can, type Scope } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import type { SessionUser } from "~/context";
import { formatDate } from "~/utils/dates";
import type { Toast } from "~/utils/toast";
import { taxMonthFromLabel } from "../../domain/tax-month";
import { requireModule } from "~/features/auth/index.server";
import { InvoiceDetail, type InvoiceDetailView } from "../components/invoice-detail";
import { InvoiceConfirmStep, InvoiceToolbar, type InvoiceActions } from "../components/invoice-toolbar";
import { isConfirmedIntent, type ConfirmedIntent, type DetailIntent } from "../detail-actions";
import { INVALID_DATE, intentFormSchema, invoiceParamsSchema, payFormSchema } from "../schemas";
import {
  approveInvoice,
  cancelInvoice,
  deleteInvoice,
  INVOICE_TRANSITIONS,
  londonToday,
  markInvoicePaid,
  rejectInvoice,
  requestInvoiceStatement,
} from "../transitions.server";
import { startsFrom } from "../rules";
import { getInvoice, getInvoiceDetail } from "../queries.server";
import { emailInvoiceCopy } from "../email.server";
import { FOUR_EYES_CODES, INVOICE_EMAIL_ERROR_MESSAGES, INVOICE_ERROR_MESSAGES, type InvoiceErrorCode } from "../invoice-codes";
import type { Route } from "./+types/detail";
import type { Result } from "~/utils/result";

/** An id that cannot exist is as absent as another tenant's: 404 either way. */
function invoiceId(params: unknown): string {
  const parsed = invoiceParamsSchema.safeParse(params);
  if (!parsed.success) throw data("Not found", { status: 404 });
  return parsed.data.id;
}

/** The scope each button needs. Sending mail to a third party is a write: cis.inv.write, not read. */
const INTENT_SCOPE: Readonly<Record<DetailIntent, Scope>> = {
  approve: "cis.inv.approve",
  reject: "cis.inv.approve",
  pay: "cis.inv.pay",
  cancel: "cis.inv.write",
  delete: "cis.inv.write",
  statement: "cis.inv.write",
  email: "cis.inv.write",
};

type Found = NonNullable<Awaited<ReturnType<typeof getInvoiceDetail>>>;

function actionsFor(user: SessionUser, { invoice, sub }: Found): InvoiceActions {
  const may = (intent: DetailIntent) => can(user, INTENT_SCOPE[intent]);
  // Four eyes: whoever was shown the portal link this invoice came through neither approves nor pays it.
  const revealer = invoice.portalLinkRevealedBy !== null && invoice.portalLinkRevealedBy === user.id;
  const approvable = may("approve") && startsFrom("approve", invoice.status);
  const payable = may("pay") && startsFrom("pay", invoice.status);
  const withheld = !revealer ? null : approvable ? INVOICE_ERROR_MESSAGES.revealer_cannot_approve : payable ? INVOICE_ERROR_MESSAGES.revealer_cannot_pay : null;
  return {
    approve: approvable && !revealer,
    reject: may("reject") && startsFrom("reject", invoice.status),
    pay: payable && !revealer,
    // Only drafts are edited; a portal submission is approved or rejected as it came.
    edit: can(user, "cis.inv.write") && invoice.status === "draft",
    statement: may("statement") && startsFrom("statement", invoice.status),
    // An invoice on a statement keeps its place in the statement's fixed totals.
    cancel: may("cancel") && startsFrom("cancel", invoice.status) && invoice.statementId === null,
    delete: may("delete") && startsFrom("delete", invoice.status),
    email: { show: may("email"), reason: sub?.email?.trim() ? null : INVOICE_EMAIL_ERROR_MESSAGES.no_email },
    withheld,
  };
}

/** The name shown when the person who was shown the link has since left the workspace. */
const LINK_SHOWN_TO_FORMER_USER = "a former user";

function detailView({ invoice: r, sub, names }: Found): InvoiceDetailView {
  const name = (id: string | null) => (id ? (names[id] ?? null) : null);
  let taxMonthDisplay: string | null = null;
  try {
    taxMonthDisplay = taxMonthFromLabel(r.taxMonth).displayLabel;
  } catch {
    // A malformed stored label is shown as it is.
  }
  return {
    id: r.id,
    invoiceNumber: r.invoiceNumber,
    status: r.status,
    source: r.source,
    linkShownTo: r.portalLinkRevealedBy === null ? null : (name(r.portalLinkRevealedBy) ?? LINK_SHOWN_TO_FORMER_USER),
    attachmentBytes: r.attachmentBytes,
    subcontractorId: r.subcontractorId,
    subcontractorName: r.subcontractorName,
    subcontractorLinked: sub !== null,
    utrMasked: r.utrMasked,
    ninoMasked: r.ninoMasked,
    invoiceDate: r.invoiceDate,
    receivedDate: r.receivedDate,
    paymentDate: r.paymentDate,
    taxMonth: r.taxMonth,
    taxMonthDisplay,
    description: r.description,
    grossP: r.grossP,
    materialsP: r.materialsP,
    materialsPercentage: r.materialsPercentage,
    labourP: r.labourP,
    cisRate: r.cisRate,
    cisDeductionP: r.cisDeductionP,
    outsideCis: r.outsideCis,
    vatBaseP: r.vatBaseP,
    vatRate: r.vatRate,
    vatAmountP: r.vatAmountP,
    reverseCharge: r.reverseCharge,
    grossTotalP: r.grossTotalP,
    netPaymentP: r.netPaymentP,
    materialsJustification: r.materialsJustification,
    verification: r.approvedAt === null ? null : { status: r.verificationStatus, rate: r.verificationRate, reference: r.verificationReference },
    createdAt: r.createdAt,
    createdBy: name(r.createdBy),
    approvedAt: r.approvedAt,
    approvedBy: name(r.approvedBy),
    paidAt: r.paidAt,
    paidBy: name(r.paidBy),
    cancelledAt: r.cancelledAt,
    cancelledBy: name(r.cancelledBy),
    statement: {
      required: r.statementRequired,
      requestedAt: r.statementRequestedAt,
      requestedBy: name(r.statementRequestedBy),
      issuedAt: r.statementIssuedAt,
      issuedMethod: r.statementIssuedMethod,
    },
  };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "cis", scope: "cis.inv.read" });
  const id = invoiceId(params);
  const found = await getInvoiceDetail(env, tenant.id, id);
  if (!found) throw data("Not found", { status: 404 });
  const actions = actionsFor(user, found);
  if (actions.email.show) actions.email.key = await mintSubmissionKey(env, emailScope(tenant.id, user.id, id));
  return {
    invoice: detailView(found),
    actions,
    today: londonToday(),
    print: new URL(request.url).searchParams.get("print") === "1",
  };
}

/** E-mailing a copy is sent once per submission key (bound to the invoice). */
function emailScope(tenantId: string, userId: string, invoiceId: string) {
  return { tenantId, userId, action: `cis.invoice.email:${invoiceId}` };
}

type EmailAnswer = Result<{ to: string }, "no_email" | "not_found">;

type ActionData = { kind: "confirm"; intent: ConfirmedIntent } | { kind: "error"; message: string } | { kind: "pay"; result: SubmissionResult<string[]> };

/**
 * A transition refused: by the invoice's status or a concurrent change (409), or because of who
 * is acting (four eyes, 403); its words either way, or 404 once the invoice is gone.
 */
function refused(code: InvoiceErrorCode) {
  if (code === "not_found") throw data("Not found", { status: 404 });
  return data<ActionData>({ kind: "error", message: INVOICE_ERROR_MESSAGES[code] }, { status: FOUR_EYES_CODES.includes(code) ? 403 : 409 });
}

const DONE: Readonly<Record<Exclude<DetailIntent, "pay" | "email">, string>> = {
  approve: "Invoice approved",
  reject: "Invoice rejected",
  cancel: "Invoice cancelled",
  delete: "Invoice deleted",
  statement: "Statement requested",
};

const RUN = {
  approve: approveInvoice,
  reject: rejectInvoice,
  cancel: cancelInvoice,
  delete: deleteInvoice,
  statement: requestInvoiceStatement,
} as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.inv.read" });
  const id = invoiceId(params);
  // Another tenant's, an unknown or a deleted invoice is simply not there, whatever the intent.
  const invoice = await getInvoice(env, tenant.id, id);
  if (!invoice) throw data("Not found", { status: 404 });
  const form = await request.formData();
  const parsed = intentFormSchema.safeParse({ intent: form.get("intent"), confirmed: form.get("confirmed") ?? undefined });
  if (!parsed.success) throw data("Unknown action", { status: 400 });
  const { intent } = parsed.data;
  await requireScope(request, context, user, INTENT_SCOPE[intent]);
  const here = `/cis/invoices/${invoice.id}`;
  const name = invoice.invoiceNumber || "Untitled";
  const toast = (title: string, message?: string): Toast => ({ type: "success", title, message: message ?? name });

  if (intent === "email") {
    let sent;
    try {
      // A repeat of the same submission (a double click, a refresh) answers as the first did and sends nothing.
      sent = await submitOnce(env, form, emailScope(tenant.id, user.id, invoice.id), async (claim): Promise<EmailAnswer> => {
        const res = await emailInvoiceCopy(env, tenant, invoice.id, actor, { ip: clientIp(request), claim });
        return res.ok ? { ok: true, to: res.to } : { ok: false, code: res.code };
      });
    } catch (err) {
      // The queue refused the message (the outbox row is marked failed): say so; the details stay in the log.
      const message = reportInternalError(context, err, "cis invoice email", "The email could not be sent. Please try again.");
      return data<ActionData>({ kind: "error", message }, { status: 503 });
    }
    if (sent.kind === "refused" || sent.kind === "pending") return data<ActionData>({ kind: "error", message: sent.message }, { status: 409 });
    const res = sent.result;
    if (!res.ok) {
      if (res.code === "not_found") throw data("Not found", { status: 404 });
      return data<ActionData>({ kind: "error", message: INVOICE_EMAIL_ERROR_MESSAGES[res.code] }, { status: 409 });
    }
    return redirectWithToast(env, here, toast("Invoice emailed", `A copy of ${name} was sent to ${res.to}.`));
  }

  if (intent === "pay") {
    const submission = parseWithZod(form, { schema: payFormSchema });
    if (submission.status !== "success") return data<ActionData>({ kind: "pay", result: submission.reply() }, { status: 400 });
    const res = await markInvoicePaid(env, tenant.id, invoice.id, actor, { paymentDate: submission.value.paymentDate });
    if (!res.ok) {
      if (res.code === "invalid_payment_date")
        return data<ActionData>({ kind: "pay", result: submission.reply({ fieldErrors: { paymentDate: [INVALID_DATE] } }) }, { status: 400 });
      return refused(res.code);
    }
    const paidOn = submission.value.paymentDate ?? londonToday();
    return redirectWithToast(env, here, toast("Invoice marked paid", `${name} paid on ${formatDate(paidOn)}.`));
  }

  if (isConfirmedIntent(intent) && parsed.data.confirmed !== "yes") {
    // Nothing to confirm when the status already refuses it.
    if (!startsFrom(intent, invoice.status)) return refused(INVOICE_TRANSITIONS[intent].refused);
    return data<ActionData>({ kind: "confirm", intent });
  }

  const res = await RUN[intent](env, tenant.id, invoice.id, actor);
  if (!res.ok) return refused(res.code);
  if (intent === "delete") return redirectWithToast(env, "/cis/invoices", toast(DONE.delete));
  return redirectWithToast(env, here, toast(DONE[intent]));
}

export default function InvoiceDetailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { invoice, actions, today, print } = loaderData;
  const title = invoice.invoiceNumber || "Untitled";
  if (print) {
    return (
      <div className="space-y-4" data-print-layout>
        <div className="flex flex-wrap items-center gap-3 print:hidden">
          <Link to={`/cis/invoices/${invoice.id}`} className={buttonClass("ghost")}>
            Back to invoice
          </Link>
          <p className="text-sm opacity-70">Printable copy: use your browser&apos;s Print command.</p>
        </div>
        <h2 className="text-xl font-semibold">{`Invoice ${title}`}</h2>
        <InvoiceDetail invoice={invoice} />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <InvoiceToolbar invoice={invoice} actions={actions} today={today} payResult={actionData?.kind === "pay" ? actionData.result : undefined} />
      {/* The toolbar does not print; the paper copy still says which invoice it is. */}
      <h2 className="hidden text-xl font-semibold print:block">{`Invoice ${title}`}</h2>
      {actionData?.kind === "confirm" ? <InvoiceConfirmStep intent={actionData.intent} invoiceId={invoice.id} invoiceNumber={invoice.invoiceNumber} /> : null}
      {actionData?.kind === "error" ? (
        <p role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm print:hidden" data-action-error>
          {actionData.message}
        </p>
      ) : null}
      <InvoiceDetail invoice={invoice} />
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.invoice.invoiceNumber || "Untitled"} · Invoices · CIS` : "Invoice · CIS" }];
}
