import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listSubcontractors } from "~/features/cis/subcontractors/subcontractors.server";
import { cisStaff, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { loaderDataBytes } from "./page-costs";

/**
 * What a page sends as data (the loaders' turbo-stream, which the HTML carries a second time for
 * hydration) stays within a fixed budget however large the tenant grows: a list page holds one
 * page of rows with only the fields it renders, and the invoice form does not list every
 * subcontractor of the tenant.
 */
const LIST_PAGE_BUDGET = 30 * 1024;

/** A long name, so each row weighs as much as a real tenant's worst rows. */
const longName = (prefix: string, i: number) => `${prefix} ${String(i).padStart(3, "0")} ${"Construction and Roofing Services ".repeat(2).trim()} Ltd`;

describe("loader data budget", () => {
  it("keeps the subcontractor and invoice lists' loader data under 30 KB with a full page of long rows", async () => {
    const { t, b } = await cisStaff("admin");
    const subs = [];
    for (let i = 0; i < 30; i++) subs.push(await seedSub(t, { name: longName("Budget", i), email: `budget-${i}@example-construction-services.test` }));
    for (let i = 0; i < 30; i++) await seedInvoice(t, { subcontractorId: subs[i]!.id, subcontractorName: subs[i]!.name, paymentDate: "2026-03-10" });
    for (const path of ["/cis/subcontractors", "/cis/invoices", "/cis/invoices?status=paid&q=budget"]) {
      const bytes = await loaderDataBytes(b, t.origin, path);
      expect(bytes, `${path}: ${bytes} bytes of loader data`).toBeLessThan(LIST_PAGE_BUDGET);
    }
  });

  it("does not grow the new-invoice form with the tenant's subcontractors", async () => {
    const { t, b } = await cisStaff("admin");
    for (let i = 0; i < 26; i++) await seedSub(t, { name: longName("Aardvark", i) });
    const before = await loaderDataBytes(b, t.origin, "/cis/invoices/new");
    // Later in the alphabet: the form's first choices stay the same, and none of these is sent.
    for (let i = 0; i < 25; i++) await seedSub(t, { name: longName("Zebra", i) });
    const after = await loaderDataBytes(b, t.origin, "/cis/invoices/new");
    expect(after).toBe(before);
    expect(after).toBeLessThan(LIST_PAGE_BUDGET);
  });

  it("reads only the subcontractor columns the list shows: no ciphertexts, addresses or notes", async () => {
    const { t } = await cisStaff("admin");
    await seedSub(t, { name: "Column Check Builders", email: "columns@example.test" });
    const list = await listSubcontractors(env, t.id, { q: "", status: "all", type: "all", utr: "all", page: 1 });
    expect(list.rows.length).toBeGreaterThan(0);
    for (const row of list.rows) {
      expect(Object.keys(row).sort()).toEqual(
        [
          "id",
          "type",
          "name",
          "utrMasked",
          "ninoMasked",
          "email",
          "phone",
          "verificationStatus",
          "verificationRate",
          "verificationMethod",
          "active",
          "publicBody",
          "utrInvalid",
        ].sort(),
      );
    }
  });
});
