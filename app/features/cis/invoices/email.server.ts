/** The e-mailed copy of an invoice: what it says, and sending it to the subcontractor. */
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { auditInsert } from "~/features/platform/index.server";
import { queueEmail } from "~/features/platform/index.server";
import { formatPence, taxMonthFromLabel } from "../domain";
import type { Actor } from "~/features/auth";
import { maskEmail } from "../pii.server";
import { contractorDetails } from "../portal-invites/portal-invites.server";
import { INVOICE_STATUS_LABELS } from "./components/invoice-status";
import type { InvoiceEmailErrorCode } from "./invoice-codes";
import { getInvoiceDetail, type InvoiceRow } from "./queries.server";

export type EmailInvoiceResult = { ok: true; to: string; outboxId: string } | { ok: false; code: InvoiceEmailErrorCode };

/** A stored calendar date 'YYYY-MM-DD' as en-GB, 'N/A' when missing. */
function gbDate(iso: string | null): string {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : "N/A";
}

/** What the e-mailed copy says: formatted here, where the CIS rules live. No tax identifier goes in. */
export function invoiceCopyData(row: InvoiceRow, contractorName: string) {
  let taxMonth = row.taxMonth;
  try {
    taxMonth = `${row.taxMonth} (${taxMonthFromLabel(row.taxMonth).displayLabel})`;
  } catch {
    // A malformed stored label is shown as it is.
  }
  return {
    contractorName,
    subcontractorName: row.subcontractorName,
    invoiceNumber: row.invoiceNumber,
    status: INVOICE_STATUS_LABELS[row.status],
    invoiceDate: gbDate(row.invoiceDate),
    paymentDate: gbDate(row.paymentDate),
    taxMonth,
    gross: formatPence(row.grossP),
    materials: formatPence(row.materialsP),
    labour: formatPence(row.labourP),
    cisDeduction: `${formatPence(row.cisDeductionP)} at ${row.cisRate}%`,
    vat: row.reverseCharge ? "Reverse charge" : `${formatPence(row.vatAmountP)} at ${row.vatRate}%`,
    grossTotal: formatPence(row.grossTotalP),
    netPayment: formatPence(row.netPaymentP),
  };
}

/**
 * Sends the subcontractor a copy of the invoice through the e-mail queue, to the address on the
 * subcontractor now. The outbox row and the cis.invoice.emailed audit entry (address masked)
 * land in one batch.
 */
export async function emailInvoiceCopy(
  env: Env,
  tenant: { id: string; name: string },
  id: string,
  actor: Actor,
  opts: { ip?: string | null; claim?: SubmissionClaim } = {},
): Promise<EmailInvoiceResult> {
  const found = await getInvoiceDetail(env, tenant.id, id);
  if (!found) return { ok: false, code: "not_found" };
  const to = found.sub?.email?.trim();
  if (!to) return { ok: false, code: "no_email" };
  const { contractorName } = await contractorDetails(env, tenant);
  const row = found.invoice;
  const { outboxId } = await queueEmail(env, {
    tenantId: tenant.id,
    to,
    template: "cis.invoice-copy",
    data: invoiceCopyData(row, contractorName),
    alongside: (db, outboxId) => [
      auditInsert(db, {
        tenantId: tenant.id,
        action: "cis.invoice.emailed",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "invoice",
        targetId: row.id,
        payload: { invoiceId: row.id, to: maskEmail(to), outboxId },
        ip: opts.ip ?? null,
      }),
      ...(opts.claim ? [claimSubmission(db, opts.claim)] : []),
    ],
  });
  return { ok: true, to, outboxId };
}
