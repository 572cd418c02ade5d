// HMRC references are checked by their check characters where they are typed or imported: a UTR of
// the right shape with a wrong check digit is refused next to its field, with what was typed kept.
import { describe, expect, it } from "vitest";
import { REFERENCE_CHECK_MESSAGES } from "~/features/cis/domain";
import { cisStaff, settingsForm, subForm } from "../factories/cis";
import { describedBy, page, pageText, parseHtml, valueOf } from "../factories/html";
import { count } from "./auth-helpers";

describe("HMRC check characters", () => {
  it("a new subcontractor with a mistyped UTR is refused next to the field, the input kept, nothing written", async () => {
    const { t, b } = await cisStaff("lead");
    const res = await b.post(`${t.origin}/cis/subcontractors/new`, subForm({ name: "Typo Builder", utr: "1234567890" }));
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(describedBy(doc, "utr")).toContain(REFERENCE_CHECK_MESSAGES.subcontractorUtr);
    expect(valueOf(doc, "utr")).toBe("1234567890");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);

    // HMRC's own sample UTR has the right check digit.
    const ok = await b.post(`${t.origin}/cis/subcontractors/new`, subForm({ name: "Sample Builder", utr: "2234567890" }));
    expect(ok.status).toBe(302);
  });

  it("an imported row with a mistyped UTR is marked invalid with the same words", async () => {
    const { t, b } = await cisStaff("admin");
    const form = new FormData();
    form.set("intent", "preview");
    form.set("file", new File(["Name,Type,UTR\nTypo Person,individual,1234567890\n"], "subs.csv", { type: "text/csv" }));
    const res = await b.post(`${t.origin}/cis/subcontractors/import`, form);
    expect(res.status).toBe(200);
    expect(pageText(parseHtml(await res.text()))).toContain(REFERENCE_CHECK_MESSAGES.subcontractorUtr);
  });

  it("the contractor's UTR and Accounts Office reference in the CIS settings", async () => {
    const { t, b } = await cisStaff("admin");
    const res = await b.post(`${t.origin}/cis/settings`, settingsForm({ utr: "1234567890", accountsOfficeRef: "123PA00012345" }));
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(describedBy(doc, "utr")).toContain(REFERENCE_CHECK_MESSAGES.contractorUtr);
    expect(describedBy(doc, "accountsOfficeRef")).toContain(REFERENCE_CHECK_MESSAGES.accountsOfficeRef);
    expect(valueOf(doc, "accountsOfficeRef")).toBe("123PA00012345");
  });
});
