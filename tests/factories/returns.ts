import { env } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { calculateCis, taxMonthOfDate } from "~/features/cis/domain";
import { newId } from "~/utils/ids";
import type { TestTenant } from "./index";

let seq = 0;

export type InvoiceSeed = {
  subcontractorId: string;
  subcontractorName?: string;
  status?: "draft" | "approved" | "paid" | "cancelled";
  paymentDate?: string;
  /** Defaults to the payment date's tax month (as marking paid sets it). */
  taxMonth?: string;
  grossP?: number;
  materialsP?: number;
  rate?: 0 | 20 | 30;
  statementRequired?: boolean;
  statementIssuedAt?: number | null;
  deleted?: boolean;
  utrMasked?: string | null;
};

/** One invoice row straight into D1 (amounts from the rules engine), as the invoice pages would leave it. */
export function invoiceRow(t: Pick<TestTenant, "id">, s: InvoiceSeed) {
  seq += 1;
  const grossP = s.grossP ?? 100_000;
  const materialsP = s.materialsP ?? 20_000;
  const rate = s.rate ?? 20;
  const a = calculateCis({ grossP, materialsP, cisRate: rate, vatRate: 0, reverseCharge: true });
  const paymentDate = s.paymentDate ?? "2026-01-10";
  const now = Date.now();
  const name = s.subcontractorName ?? "Seeded Builder";
  return {
    id: newId(),
    tenantId: t.id,
    invoiceNumber: `RET-${seq}-${newId(3)}`,
    subcontractorId: s.subcontractorId,
    subcontractorName: name,
    subcontractorNameLower: name.toLowerCase(),
    utrMasked: s.utrMasked ?? "******7890",
    ninoMasked: null,
    status: s.status ?? "paid",
    invoiceDate: paymentDate,
    paymentDate: (s.status ?? "paid") === "paid" ? paymentDate : null,
    taxMonth: s.taxMonth ?? taxMonthOfDate(paymentDate).label,
    grossP,
    materialsP,
    labourP: a.labourP,
    cisRate: rate,
    cisDeductionP: a.cisDeductionP,
    vatRate: 0,
    vatBaseP: grossP,
    vatAmountP: 0,
    grossTotalP: grossP,
    netPaymentP: a.netPaymentP,
    materialsPercentage: grossP > 0 ? (materialsP / grossP) * 100 : 0,
    reverseCharge: true,
    verificationStatus: "standard" as const,
    verificationRate: rate,
    verificationReference: "V1234567890",
    statementRequired: s.statementRequired ?? false,
    statementIssuedAt: s.statementIssuedAt ?? null,
    createdAt: now,
    updatedAt: now,
    deletedAt: s.deleted ? now : null,
  };
}

export async function seedInvoice(t: Pick<TestTenant, "id">, s: InvoiceSeed) {
  const row = invoiceRow(t, s);
  await getDb(env).insert(cisInvoices).values(row);
  return row;
}
