import { describe, expect, it } from "vitest";
import { cisStaff, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { all, page } from "../factories/html";

/**
 * The Worker's entry installs the short-string encoder before React's renderer loads (ADR 0083):
 * pages are encoded by it, and text that is not ASCII still arrives byte for byte.
 */
describe("the Worker's TextEncoder", () => {
  it("is the short-string encoder once the Worker has loaded, and pages keep non-ASCII text intact", async () => {
    const { t, b } = await cisStaff("admin");
    const name = "Ŵelsh Ŵorks & Sŏns “Cyf” 👷";
    const sub = await seedSub(t, { name, email: "welsh-works@example.test" });
    await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: "2026-03-10" });

    const res = await b.get(`${t.origin}/cis/subcontractors`);
    expect(res.status).toBe(200);
    expect(new TextEncoder().constructor.name).toBe("ShortTextEncoder");
    const doc = await page(res);
    const cells = all(doc, "tbody.rows > tr[data-row]").map((row) => row.textContent ?? "");
    expect(cells.some((text) => text.includes(name))).toBe(true);
  });
});
