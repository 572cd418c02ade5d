import type { SubmissionResult } from "@conform-to/react";
import { type MouseEvent, useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import type { InvoiceStatus } from "../../domain/types";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { confirmText, type ConfirmedIntent } from "../detail-actions";
import { replyField } from "~/utils/forms";
import { SubmissionKeyInput } from "~/features/platform";
import { InvoiceStatusBadge } from "./invoice-status";

/** What this person may do to this invoice now: their scopes and its status, both decided on the server. */
export type InvoiceActions = {
  approve: boolean;
  reject: boolean;
  pay: boolean;
  edit: boolean;
  statement: boolean;
  cancel: boolean;
  delete: boolean;
  /** Shown to those who may send; `reason` says why it is disabled; `key` is its one-time submission key. */
  email: { show: boolean; reason: string | null; key?: string };
  /**
   * Why Approve or Mark Paid is not offered although scope and status allow it: this person was
   * shown the portal link the invoice came through (four eyes). Null otherwise.
   */
  withheld: string | null;
};

const PAY_FORM = "invoice-pay";

type ToolbarInvoice = { id: string; invoiceNumber: string; status: InvoiceStatus };

/** A form holding one intent button; confirmed intents ask first (dialog with JavaScript, server step without). */
function IntentForm({
  intent,
  label,
  pendingText,
  confirm,
  variant = "secondary",
  disabled,
  describedBy,
  className,
  submissionKey,
}: {
  intent: string;
  label: string;
  pendingText: string;
  /** The question asked before posting, for the intents that confirm. */
  confirm?: string;
  variant?: "primary" | "secondary" | "danger" | "ghost";
  disabled?: boolean;
  describedBy?: string;
  className?: string;
  /** For intents with an effect beyond the invoice (an e-mail): acted on once. */
  submissionKey?: string;
}) {
  return (
    <Form method="post" className={className} onSubmit={confirm ? confirmThenSubmit(() => confirm) : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
      {confirm ? <input type="hidden" name="confirmed" value="" /> : null}
      <SubmitButton variant={variant} pendingText={pendingText} match={{ intent }} disabled={disabled} aria-describedby={describedBy}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** An item of the 'More actions' menu that asks before posting; a danger item is shown in red. */
function ConfirmedMenuItem({
  intent,
  label,
  pendingText,
  invoiceNumber,
  danger = false,
}: {
  intent: "cancel" | "delete";
  label: string;
  pendingText: string;
  invoiceNumber: string;
  danger?: boolean;
}) {
  return (
    <IntentForm
      intent={intent}
      label={label}
      pendingText={pendingText}
      confirm={confirmText(intent, invoiceNumber)}
      variant="ghost"
      className={danger ? "[&>button]:w-full [&>button]:justify-start [&>button]:text-danger" : "[&>button]:w-full [&>button]:justify-start"}
    />
  );
}

/**
 * Mark Paid with its payment date (today in London unless changed); an invalid date is shown next
 * to the field with the date sent kept. One field beside an action button, so it reads the action's
 * conform reply by hand (`replyField`) instead of loading conform on the detail page; the markup
 * (ids, `form`, `noValidate`, aria) is what conform's helpers give, and with JavaScript a new error
 * moves focus to the field as conform does.
 */
function MarkPaidForm({ today, lastResult }: { today: string; lastResult: SubmissionResult<string[]> | null | undefined }) {
  const { errors, value } = replyField(lastResult, "paymentDate");
  const input = useRef<HTMLInputElement>(null);
  const shown = useRef(lastResult);
  useEffect(() => {
    if (lastResult === shown.current) return;
    shown.current = lastResult;
    if (errors) input.current?.focus();
  }, [lastResult, errors]);
  const id = `${PAY_FORM}-paymentDate`;
  const errorId = `${id}-error`;
  return (
    <Form method="post" id={PAY_FORM} noValidate className="flex flex-wrap items-start gap-2">
      <input type="hidden" name="intent" value="pay" />
      <div>
        <label htmlFor={id} className="sr-only">
          Payment date
        </label>
        <input
          ref={input}
          type="date"
          id={id}
          name="paymentDate"
          form={PAY_FORM}
          defaultValue={value ?? today}
          className={`${inputClass} w-40`}
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? errorId : undefined}
        />
        {errors ? (
          <p id={errorId} role="alert" className="mt-1 text-sm text-danger">
            {errors[0]}
          </p>
        ) : null}
      </div>
      <SubmitButton variant="primary" pendingText="Saving..." match={{ intent: "pay" }}>
        Mark Paid
      </SubmitButton>
    </Form>
  );
}

/** Opens the browser's print dialog; without JavaScript, the printable page. */
function onPrint(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  window.print();
}

/**
 * The detail toolbar: Back, title, status, Print, Email, Approve (and Reject for portal
 * submissions), Mark Paid, Edit, and a menu with Generate Statement, Cancel and Delete. It shows
 * only what `actions` allows; the action checks both again.
 */
export function InvoiceToolbar({
  invoice,
  actions,
  today,
  payResult,
}: {
  invoice: ToolbarInvoice;
  actions: InvoiceActions;
  today: string;
  payResult: SubmissionResult<string[]> | null | undefined;
}) {
  const number = invoice.invoiceNumber;
  const menu = actions.statement || actions.cancel || actions.delete;
  return (
    <div className="space-y-2 print:hidden">
      <div className="flex min-h-14 flex-wrap items-center gap-3 print:hidden" role="toolbar" aria-label="Invoice actions" data-toolbar>
        <Link to="/cis/invoices" className={buttonClass("ghost")}>
          Back
        </Link>
        <h2 className="text-xl font-semibold">{number || "Untitled"}</h2>
        <InvoiceStatusBadge status={invoice.status} />
        <div className="ml-auto flex flex-wrap items-start gap-2">
          <a href="?print=1" onClick={onPrint} className={buttonClass("secondary")} data-print>
            Print
          </a>
          {actions.email.show ? (
            <>
              <IntentForm
                intent="email"
                label="Email"
                pendingText="Sending..."
                disabled={actions.email.reason !== null}
                describedBy={actions.email.reason ? "email-disabled-reason" : undefined}
                submissionKey={actions.email.key}
              />
              {actions.email.reason ? (
                <p id="email-disabled-reason" className="self-center text-xs opacity-70">
                  {actions.email.reason}
                </p>
              ) : null}
            </>
          ) : null}
          {actions.approve ? <IntentForm intent="approve" label="Approve" pendingText="Approving..." variant="primary" /> : null}
          {actions.reject ? (
            <IntentForm intent="reject" label="Reject" pendingText="Rejecting..." confirm={confirmText("reject", number)} variant="danger" />
          ) : null}
          {actions.pay ? <MarkPaidForm today={today} lastResult={payResult} /> : null}
          {actions.edit ? (
            <Link to={`/cis/invoices/${invoice.id}/edit`} className={buttonClass("secondary")}>
              Edit
            </Link>
          ) : null}
          {menu ? (
            <details className="relative" data-menu>
              <summary className={`${buttonClass("secondary")} cursor-pointer list-none`}>More actions</summary>
              <div className="absolute right-0 z-10 mt-1 flex w-56 flex-col gap-1 rounded-brand border border-line bg-elevated p-2 shadow-lg">
                {actions.statement ? (
                  <IntentForm
                    intent="statement"
                    label="Generate Statement"
                    pendingText="Requesting..."
                    variant="ghost"
                    className="[&>button]:w-full [&>button]:justify-start"
                  />
                ) : null}
                {actions.cancel ? <ConfirmedMenuItem intent="cancel" label="Cancel" pendingText="Cancelling..." invoiceNumber={number} /> : null}
                {actions.delete ? <ConfirmedMenuItem intent="delete" label="Delete" pendingText="Deleting..." invoiceNumber={number} danger /> : null}
              </div>
            </details>
          ) : null}
        </div>
      </div>
      {actions.withheld ? (
        <p role="note" className="rounded-brand border border-amber-500 bg-amber-500/10 p-3 text-sm" data-four-eyes>
          {actions.withheld}
        </p>
      ) : null}
    </div>
  );
}

/** The server-rendered confirmation step (no JavaScript): what will happen, then Confirm or Cancel. */
export function InvoiceConfirmStep({ intent, invoiceId, invoiceNumber }: { intent: ConfirmedIntent; invoiceId: string; invoiceNumber: string }) {
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-title"
      className="rounded-brand border border-danger bg-danger/5 p-4 print:hidden"
      data-confirm={intent}
    >
      <h3 id="confirm-title" className="font-semibold">
        {confirmText(intent, invoiceNumber)}
      </h3>
      <Form method="post" className="mt-4 flex gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className={buttonClass("danger")}>
          Confirm
        </button>
        <Link to={`/cis/invoices/${invoiceId}`} className={buttonClass("secondary")}>
          Go back
        </Link>
      </Form>
    </section>
  );
}
