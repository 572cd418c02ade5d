import { Form, Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { formatDate } from "~/utils/dates";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { SubmissionKeyInput } from "~/features/platform";
import type { BulkInvoiceAction } from "../invoice-codes";
import { BulkFailures } from "~/components/ui/bulk-failures";

/** The toolbar buttons' words; the server's result and confirmation texts follow the same actions. */
export const BULK_ACTION_LABELS: Readonly<Record<BulkInvoiceAction, string>> = {
  approve: "Approve",
  pay: "Mark Paid",
  delete: "Delete",
  statement: "Request Statements",
};

/** Bulk actions ask before they change anything, naming the count. */
export function bulkConfirmText(action: BulkInvoiceAction, n: number): string {
  switch (action) {
    case "approve":
      return `Are you sure you want to approve ${n} selected items?`;
    case "delete":
      return `Are you sure you want to delete ${n} selected items?`;
    case "pay":
      return `Are you sure you want to mark ${n} selected items as paid?`;
    case "statement":
      return `Are you sure you want to request statements for ${n} selected items?`;
  }
}

/** The line under the question for a payment: the date it will record. */
export function paymentDateText(paymentDate: string): string {
  return `Payment date: ${formatDate(paymentDate)}`;
}

const RESULT_VERBS: Readonly<Record<BulkInvoiceAction, string>> = {
  approve: "Approved",
  pay: "Marked paid",
  delete: "Deleted",
  statement: "Requested statements for",
};

function isBulkAction(value: string | undefined): value is BulkInvoiceAction {
  return value !== undefined && value in BULK_ACTION_LABELS;
}

export type BulkPerms = Readonly<Record<BulkInvoiceAction, boolean>>;

/**
 * The toolbar's bulk form: one button per action the user may run, and the payment date for
 * Mark Paid. With JavaScript a dialog asks first and the post arrives confirmed; without it the
 * server answers with its own confirmation step.
 */
export function InvoiceBulkForm({
  id,
  perms,
  selectedCount,
  hydrated,
  today,
  submissionKey,
  paymentDateError,
}: {
  id: string;
  perms: BulkPerms;
  selectedCount: number;
  hydrated: boolean;
  today: string;
  /** The one-time key a confirmed post (from the dialog) is acted on once with. */
  submissionKey: string | null;
  paymentDateError: string | null;
}) {
  const actions = (Object.keys(BULK_ACTION_LABELS) as BulkInvoiceAction[]).filter((a) => perms[a]);
  return (
    <Form
      method="post"
      id={id}
      className="flex flex-wrap items-end gap-2"
      aria-label="Bulk actions"
      onSubmit={confirmThenSubmit((submitter) => {
        const action = submitter?.value;
        if (!isBulkAction(action)) return null;
        const question = bulkConfirmText(action, selectedCount);
        if (action !== "pay") return question;
        const date = submitter?.form?.elements.namedItem("paymentDate");
        return date instanceof HTMLInputElement && date.value ? `${question}\n${paymentDateText(date.value)}` : question;
      })}
    >
      <input type="hidden" name="confirmed" value="" />
      {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
      {perms.pay ? (
        <label className="text-sm">
          <span className="block text-xs opacity-70">Payment date</span>
          <input
            type="date"
            name="paymentDate"
            defaultValue={today}
            className={inputClass}
            aria-invalid={paymentDateError ? true : undefined}
            aria-describedby={paymentDateError ? "bulk-paymentDate-error" : undefined}
          />
          {paymentDateError ? (
            <span id="bulk-paymentDate-error" role="alert" className="block text-sm text-danger">
              {paymentDateError}
            </span>
          ) : null}
        </label>
      ) : null}
      {actions.map((action) => (
        <button
          key={action}
          type="submit"
          name="intent"
          value={action}
          className={buttonClass(action === "delete" ? "danger" : "secondary")}
          disabled={hydrated && selectedCount === 0}
        >
          {BULK_ACTION_LABELS[action]}
        </button>
      ))}
    </Form>
  );
}

/** `note`: why this item will be refused to this person (four eyes), said before confirming. */
export type ConfirmItem = { id: string; invoiceNumber: string | null; note?: string | null };

/** The server-rendered confirmation step: what will change, then Confirm or Cancel. */
export function InvoiceConfirmPanel({
  action,
  items,
  paymentDate,
  cancelTo,
  submissionKey,
}: {
  action: BulkInvoiceAction;
  items: ConfirmItem[];
  paymentDate: string | null;
  cancelTo: string;
  submissionKey: string;
}) {
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-items"
      className="rounded-brand border border-danger bg-danger/5 p-4"
      data-confirm={action}
    >
      <h2 id="confirm-title" className="font-semibold">
        {bulkConfirmText(action, items.length)}
      </h2>
      {action === "pay" && paymentDate ? <p className="mt-1 text-sm">{paymentDateText(paymentDate)}</p> : null}
      <ul id="confirm-items" className="mt-2 list-disc pl-6 text-sm">
        {items.map((item) => (
          <li key={item.id} data-confirm-id={item.id}>
            {item.invoiceNumber ?? `Unknown invoice (${item.id})`}
            {item.note ? (
              <span className="block text-danger" data-confirm-note>
                {item.note}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <Form method="post" className="mt-4 flex gap-2">
        <input type="hidden" name="intent" value={action} />
        <input type="hidden" name="confirmed" value="yes" />
        <SubmissionKeyInput value={submissionKey} />
        {action === "pay" && paymentDate ? <input type="hidden" name="paymentDate" value={paymentDate} /> : null}
        {items.map((item) => (
          <input key={item.id} type="hidden" name="ids" value={item.id} />
        ))}
        <Button variant={action === "delete" ? "danger" : "primary"}>Confirm</Button>
        <Link to={cancelTo} className="inline-flex items-center rounded-brand border border-line px-4 py-2 text-sm">
          Cancel
        </Link>
      </Form>
    </section>
  );
}

export type BulkOutcome = {
  action: BulkInvoiceAction;
  requested: number;
  succeeded: { id: string; invoiceNumber: string | null }[];
  failed: { id: string; invoiceNumber: string | null; error: string }[];
};

/** After a bulk action: how many worked, which ones, and each failure with its reason. */
export function InvoiceBulkResults({ outcome }: { outcome: BulkOutcome }) {
  return (
    <section aria-live="polite" className="rounded-brand border border-line bg-elevated p-4" data-bulk-result={outcome.action}>
      <p role="status" className="font-medium">
        {`${RESULT_VERBS[outcome.action]} ${outcome.succeeded.length} of ${outcome.requested} selected items.`}
      </p>
      {outcome.succeeded.length > 0 ? (
        <div className="mt-2 text-sm">
          <p>{`${outcome.succeeded.length} succeeded:`}</p>
          <ul className="list-disc pl-6">
            {outcome.succeeded.map((s) => (
              <li key={s.id} data-succeeded-id={s.id}>
                {s.invoiceNumber ?? s.id}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <BulkFailures failed={outcome.failed.map((f) => ({ id: f.id, label: f.invoiceNumber ?? f.id, error: f.error }))} />
    </section>
  );
}
