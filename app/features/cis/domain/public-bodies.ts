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

/**
 * Whether a payment is a contract payment under CIS. `paymentDate` is the London calendar date the
 * payment is (or will be) made; without one (a draft), the invoice date stands in for it.
 */
export function isContractPayment(subcontractor: { publicBody: boolean }, paymentDate: string): boolean {
  if (!subcontractor.publicBody) return true;
  return paymentDate < PUBLIC_BODY_EXEMPTION_FROM;
}
