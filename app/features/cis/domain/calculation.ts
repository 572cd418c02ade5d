import { isValidPence } from "./money";
import { VERIFICATION_STATUSES } from "~/db/enums";

export { VERIFICATION_STATUSES } from "~/db/enums";

export const CIS_RATES = [0, 20, 30] as const;
export type CisRate = (typeof CIS_RATES)[number];

export const VAT_RATES = [0, 5, 20] as const;
export type VatRate = (typeof VAT_RATES)[number];

export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const RATE_FOR_VERIFICATION_STATUS: Readonly<Record<VerificationStatus, CisRate>> = {
  gross: 0,
  standard: 20,
  higher: 30,
};

export function rateForVerificationStatus(status: VerificationStatus): CisRate {
  return RATE_FOR_VERIFICATION_STATUS[status];
}

export function isCisRate(n: unknown): n is CisRate {
  return (CIS_RATES as readonly unknown[]).includes(n);
}

export function isVatRate(n: unknown): n is VatRate {
  return (VAT_RATES as readonly unknown[]).includes(n);
}

export class CisCalculationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CisCalculationError";
  }
}

export interface CisCalculationInput {
  grossP: number;
  materialsP: number;
  cisRate: number;
  vatRate: number;
  reverseCharge: boolean;
}

export interface CisCalculation {
  labourP: number;
  cisDeductionP: number;
  vatAmountP: number;
  netPaymentP: number;
  /** materials / gross x 100, two decimals; 0 when gross is 0. */
  materialsPercentage: number;
}

/** Everything an invoice stores under `amounts`. */
export interface InvoiceAmounts extends CisCalculation {
  grossP: number;
  materialsP: number;
  vatBaseP: number;
  grossTotalP: number;
}

// Half-up rounding of a x b / 100 on exact integers. BigInt keeps it exact even
// when a x b passes 2^53, which plain number maths would silently round.
function percentOf(amountP: number, rate: number): number {
  const result = (BigInt(amountP) * BigInt(rate) + 50n) / 100n;
  return Number(result);
}

function requireSafe(name: string, n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new CisCalculationError(`${name} is too large to represent in pence`);
  }
  return Number(n);
}

/**
 * labour = max(0, gross - materials); deduction = round(labour x rate / 100); VAT = round(gross x
 * VAT rate / 100), or 0 under reverse charge; net = gross + VAT - deduction (gross - deduction
 * under reverse charge), never below 0.
 */
export function calculateCis(input: CisCalculationInput): CisCalculation {
  const { grossP, materialsP, cisRate, vatRate, reverseCharge } = input;
  if (!isValidPence(grossP)) throw new CisCalculationError(`grossP must be a non-negative whole number of pence, got ${String(grossP)}`);
  if (!isValidPence(materialsP)) throw new CisCalculationError(`materialsP must be a non-negative whole number of pence, got ${String(materialsP)}`);
  if (!isCisRate(cisRate)) throw new CisCalculationError(`cisRate must be 0, 20 or 30, got ${String(cisRate)}`);
  if (!isVatRate(vatRate)) throw new CisCalculationError(`vatRate must be 0, 5 or 20, got ${String(vatRate)}`);

  const labourP = Math.max(0, grossP - materialsP);
  const cisDeductionP = Math.max(0, percentOf(labourP, cisRate));
  const vatAmountP = reverseCharge ? 0 : percentOf(grossP, vatRate);
  const net = BigInt(grossP) + BigInt(vatAmountP) - BigInt(cisDeductionP);
  const netPaymentP = Math.max(0, requireSafe("Net payment", net));

  return {
    labourP,
    cisDeductionP,
    vatAmountP,
    netPaymentP,
    materialsPercentage: materialsPercentage(grossP, materialsP),
  };
}

/** The full `amounts` object stored on an invoice. */
export function invoiceAmounts(input: CisCalculationInput): InvoiceAmounts {
  const calc = calculateCis(input);
  return {
    grossP: input.grossP,
    materialsP: input.materialsP,
    // Under reverse charge the customer self-accounts for VAT on the same base.
    vatBaseP: input.grossP,
    grossTotalP: requireSafe("Gross total", BigInt(input.grossP) + BigInt(calc.vatAmountP)),
    ...calc,
  };
}

/** materials / gross x 100 rounded half-up to 2 decimals, on integers; 0 when gross is 0. */
export function materialsPercentage(grossP: number, materialsP: number): number {
  if (grossP <= 0) return 0;
  const g = BigInt(grossP);
  const hundredths = (BigInt(materialsP) * 20000n + g) / (2n * g);
  return Number(hundredths) / 100;
}
