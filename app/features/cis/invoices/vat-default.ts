/**
 * The VAT default of a new invoice. Most construction work between VAT-registered businesses
 * under CIS falls under the domestic reverse charge: the contractor, not the subcontractor,
 * accounts for the VAT. It does not apply when the contractor is the end user of the work (or an
 * intermediary supplier). So a new invoice from a VAT-registered subcontractor to a contractor who
 * is not the end user starts with the reverse charge on; the person entering it can turn it off.
 * Client-safe: the form applies it as the subcontractor select changes.
 */
export function defaultReverseCharge(opts: { subcontractorVatRegistered: boolean; contractorEndUser: boolean }): boolean {
  return opts.subcontractorVatRegistered && !opts.contractorEndUser;
}

/** The form's hint under Reverse charge, saying why it starts on or off for the chosen subcontractor. */
export function reverseChargeHint(opts: { subcontractorVatRegistered: boolean | null; contractorEndUser: boolean }): string {
  if (opts.subcontractorVatRegistered === null) return "The contractor accounts for the VAT.";
  if (opts.contractorEndUser) return "Off by default: your CIS settings say you are the end user of the work, so the domestic reverse charge does not apply.";
  if (opts.subcontractorVatRegistered)
    return "On by default: this subcontractor is VAT registered and you are not the end user, so the domestic reverse charge applies to most CIS work and you account for the VAT. Untick it if this work is outside the reverse charge.";
  return "Off by default: this subcontractor has no VAT number on record, so the reverse charge does not apply.";
}
