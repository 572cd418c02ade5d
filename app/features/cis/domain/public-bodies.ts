/**
 * Payments to public bodies. From 6 April 2026 a payment under a construction contract made to a
 * local authority or another public body the regulations list (the bodies that are themselves
 * "deemed contractors": government departments, NHS bodies, housing bodies and the like) is not a
 * contract payment: no deduction, no line on the CIS300, no payment and deduction statement.
 * Payments made before that date keep the treatment they had.
 */

/** The first London calendar date ('YYYY-MM-DD') on which a payment to a public body is outside CIS. */
export const PUBLIC_BODY_EXEMPTION_FROM = "2026-04-06";

/** What the invoice form says when a payment is outside the scheme for this reason. */
export const PUBLIC_BODY_NOT_CIS_MESSAGE = "Not a CIS payment: public body";

/** What the invoice form says for any public body: the payment date, not the invoice date, decides. */
export const PUBLIC_BODY_PAYMENT_DATE_HINT =
  "A public body: the payment date decides. Paid on or after 6 April 2026 it is not a CIS payment; paid before, the deduction applies.";

/**
 * Whether a payment is a contract payment under CIS. `paymentDate` is the London calendar date the
 * payment is (or will be) made; without one (a draft), the invoice date stands in for it.
 */
export function isContractPayment(subcontractor: { publicBody: boolean }, paymentDate: string): boolean {
  if (!subcontractor.publicBody) return true;
  return paymentDate < PUBLIC_BODY_EXEMPTION_FROM;
}

/**
 * The rate a payment is made at: the subcontractor's verified rate, or none when it is not a
 * contract payment (a public body paid on or after 6 April 2026).
 */
export function cisTreatment(verificationRate: number, publicBody: boolean, paymentDate: string): { cisRate: number; outsideCis: boolean } {
  const outsideCis = !isContractPayment({ publicBody }, paymentDate);
  return { cisRate: outsideCis ? 0 : verificationRate, outsideCis };
}
