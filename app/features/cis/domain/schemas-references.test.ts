import { describe, expect, it } from "vitest";
import { isValidUtr, REFERENCE_CHECK_MESSAGES, settingsSchema, subcontractorCreateSchema, subcontractorUpdateSchema } from "./schemas";

/** The message each field carries, for a value that fails. */
function fieldErrors(r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of r.error?.issues ?? []) (out[issue.path.join(".")] ??= []).push(issue.message);
  return out;
}

const sub = { type: "individual", name: "Jo Bloggs" };
const settings = { active: true, companyName: "Acme Builders Ltd", employerRef: "123/AB12345", accountsOfficeRef: "754PT00002240", utr: "2234567890" };

describe("references are checked by HMRC's check characters", () => {
  it("a subcontractor's UTR of the right shape but a wrong check digit is refused with its own message, on create and edit", () => {
    expect(fieldErrors(subcontractorCreateSchema.safeParse({ ...sub, utr: "1234567890" })).utr).toEqual([REFERENCE_CHECK_MESSAGES.subcontractorUtr]);
    expect(fieldErrors(subcontractorUpdateSchema.safeParse({ ...sub, utr: "12345 67890" })).utr).toEqual([REFERENCE_CHECK_MESSAGES.subcontractorUtr]);
    expect(subcontractorCreateSchema.safeParse({ ...sub, utr: "22345 67890" }).success).toBe(true);
    expect(isValidUtr("1234567890")).toBe(false);
    expect(isValidUtr("2234 567 890")).toBe(true);
  });

  it("the contractor's UTR and Accounts Office reference in the settings", () => {
    expect(settingsSchema.safeParse(settings).success).toBe(true);
    const bad = fieldErrors(settingsSchema.safeParse({ ...settings, utr: "1234567890", accountsOfficeRef: "123PA00012345" }));
    expect(bad.utr).toEqual([REFERENCE_CHECK_MESSAGES.contractorUtr]);
    expect(bad.accountsOfficeRef).toEqual([REFERENCE_CHECK_MESSAGES.accountsOfficeRef]);
    // Lower case is upper-cased before the check letter is computed.
    expect(settingsSchema.safeParse({ ...settings, accountsOfficeRef: "754pt00002240" }).success).toBe(true);
  });

  it("the example in the message passes its own check", () => {
    const example = /like (\d{3}P[A-Z]\d{8})/.exec(REFERENCE_CHECK_MESSAGES.accountsOfficeRef)?.[1];
    expect(example).toBeDefined();
    expect(settingsSchema.safeParse({ ...settings, accountsOfficeRef: example }).success).toBe(true);
  });
});
