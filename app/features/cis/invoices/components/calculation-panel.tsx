import type { ReactNode } from "react";
import { formatPence, parseMoney } from "../../domain/money";
import { invoiceAmounts, isCisRate, isVatRate, type InvoiceAmounts } from "../../domain/calculation";

/** What the panel shows: the stored-amount shape plus the rates it was worked out at. */
export type InvoiceFigures = InvoiceAmounts & { cisRate: number; vatRate: number; reverseCharge: boolean };

/**
 * The figures for what is typed, with the same pure maths the server saves with; null until the
 * amounts read as money (materials no more than gross) and a subcontractor with a rate is chosen.
 */
export function figuresFor(values: {
  gross: unknown;
  materials: unknown;
  vatRate: unknown;
  reverseCharge: boolean;
  cisRate: number | null;
}): InvoiceFigures | null {
  const grossP = typeof values.gross === "string" && !/^\s*-/.test(values.gross) ? parseMoney(values.gross) : null;
  const materialsText = typeof values.materials === "string" ? values.materials : "";
  const materialsP = materialsText.trim() === "" ? 0 : /^\s*-/.test(materialsText) ? null : parseMoney(materialsText);
  const vatRate = typeof values.vatRate === "string" && values.vatRate !== "" ? Number(values.vatRate) : Number.NaN;
  const { cisRate, reverseCharge } = values;
  if (grossP === null || materialsP === null || materialsP > grossP || !isVatRate(vatRate) || cisRate === null || !isCisRate(cisRate)) return null;
  return { ...invoiceAmounts({ grossP, materialsP, cisRate, vatRate, reverseCharge }), cisRate, vatRate, reverseCharge };
}

function Row({ name, label, value, strong }: { name: string; label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex items-baseline justify-between gap-4 py-1.5 ${strong ? "border-t border-line pt-2 font-semibold" : ""}`} data-figure={name}>
      <dt className="text-sm">{label}</dt>
      <dd className="font-mono text-sm tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * Labour, CIS at the subcontractor's rate, VAT and net. With JavaScript the form passes figures
 * worked out as the user types; without it, the figures the server returned for 'Calculate'.
 */
export function CalculationPanel({
  figures,
  emptyMessage,
  live,
  children,
}: {
  figures: InvoiceFigures | null;
  emptyMessage: string;
  live: boolean;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="invoice-calculation-heading" className="space-y-3 rounded-brand border border-line bg-elevated p-4" data-calculation-panel>
      <h3 id="invoice-calculation-heading" className="font-semibold">
        Calculation
      </h3>
      <div aria-live={live ? "polite" : undefined}>
        {figures ? (
          <dl>
            <Row name="gross" label="Gross" value={formatPence(figures.grossP)} />
            <Row name="materials" label={`Materials (${figures.materialsPercentage}%)`} value={formatPence(figures.materialsP)} />
            <Row name="labour" label="Labour (subject to CIS)" value={formatPence(figures.labourP)} />
            <Row name="cis" label={`CIS Deduction at ${figures.cisRate}%`} value={formatPence(figures.cisDeductionP)} />
            <Row name="vat" label={figures.reverseCharge ? "VAT (reverse charge)" : `VAT at ${figures.vatRate}%`} value={formatPence(figures.vatAmountP)} />
            <Row name="net" label="Net Payment" value={formatPence(figures.netPaymentP)} strong />
          </dl>
        ) : (
          <p className="text-sm opacity-80" data-calculation-empty>
            {emptyMessage}
          </p>
        )}
      </div>
      {figures?.reverseCharge ? (
        <p className="text-xs opacity-70">Under reverse charge the contractor accounts for the VAT: none is paid to the subcontractor.</p>
      ) : null}
      {children}
    </section>
  );
}
