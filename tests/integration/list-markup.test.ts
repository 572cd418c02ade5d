import { describe, expect, it } from "vitest";
import { cisStaff, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { all, page, type Doc } from "../factories/html";

/**
 * The long lists render 25 rows on every request, and the server writes every attribute of every
 * element of them: their rows stay plain markup styled by the stylesheet (tbody.rows pads the
 * cells and rules the rows), within a number of attributes per row, and the subcontractor rows'
 * Invite to Portal is a plain link that the table's one dialog opens, not a router Link with its
 * fetchers per row.
 */
const ATTRIBUTES_PER_ROW = { "/cis/subcontractors": 31, "/cis/invoices": 32 } as const;

function attributeCount(el: Element): number {
  return [el, ...Array.from(el.querySelectorAll("*"))].reduce((n, e) => n + e.attributes.length, 0);
}

function rows(doc: Doc, path: string): Element[] {
  const found = all(doc, "tbody.rows > tr[data-row]");
  expect(found.length, `${path}: rows`).toBeGreaterThan(0);
  return found;
}

describe("the list rows' markup", () => {
  it("gives rows and cells no classes of their own and keeps each row within its attribute budget", async () => {
    const { t, b } = await cisStaff("admin");
    for (let i = 0; i < 3; i++) {
      const sub = await seedSub(t, { name: `Markup ${i} Roofing Ltd`, email: `markup-${i}@example.test` });
      await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: sub.name, paymentDate: "2026-03-10" });
    }
    for (const [path, budget] of Object.entries(ATTRIBUTES_PER_ROW)) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      for (const row of rows(await page(res), path)) {
        expect(row.hasAttribute("class"), `${path}: a row's class`).toBe(false);
        const padded = Array.from(row.children).filter((cell) => /\bp[xy]?-/.test(cell.getAttribute("class") ?? ""));
        expect(padded.length, `${path}: cells padded by a class of their own`).toBe(0);
        expect(attributeCount(row), `${path}: attributes in row ${row.getAttribute("data-row")}`).toBeLessThanOrEqual(budget);
      }
    }
  });

  it("renders each subcontractor row's Invite to Portal as a plain link to the invite page", async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Plain Invite Ltd", email: "plain-invite@example.test" });
    const doc = await page(await b.get(`${t.origin}/cis/subcontractors`));
    const row = rows(doc, "/cis/subcontractors").find((r) => r.getAttribute("data-row") === sub.id);
    const invite = row ? all(row, "a[data-dialog]") : [];
    expect(invite.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("data-dialog"), a.getAttribute("aria-haspopup")])).toEqual([
      ["Invite to Portal", `/cis/subcontractors/${sub.id}/invite`, sub.id, "dialog"],
    ]);
    // A router Link marks itself for route discovery; a plain link does not.
    expect(row?.querySelector("[data-discover]") ?? null).toBeNull();
  });

  it("writes a name with markup characters in it as text: the rows hold no element the name brought", async () => {
    const { t, b } = await cisStaff("admin");
    const name = `O'Brien & "Sons" <img src=x onerror="alert(1)"></td><script>alert(2)</script>`;
    const sub = await seedSub(t, { name, email: "markup-name@example.test" });
    const invoice = await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: name, status: "draft" });

    const subs = await page(await b.get(`${t.origin}/cis/subcontractors`));
    expect(all(subs, "tbody.rows img, tbody.rows script").length, "elements from the name").toBe(0);
    const row = rows(subs, "/cis/subcontractors").find((r) => r.getAttribute("data-row") === sub.id);
    expect(row?.querySelector("th a")?.textContent).toBe(name);
    expect(row?.querySelector('input[type="checkbox"]')?.getAttribute("aria-label")).toBe(`Select ${name}`);
    expect(row?.querySelector("button[data-confirm]")?.getAttribute("data-confirm")).toBe(`Archive ${name}? It can be made active again from its form.`);
    expect(row?.children.length, "cells in the row").toBe(8);

    const invoices = await page(await b.get(`${t.origin}/cis/invoices`));
    expect(all(invoices, "tbody.rows img, tbody.rows script").length, "elements from the name").toBe(0);
    const invoiceRow = rows(invoices, "/cis/invoices").find((r) => r.getAttribute("data-row") === invoice.id);
    expect(invoiceRow?.children[4]?.textContent, "the subcontractor cell").toBe(name);
    expect(invoiceRow?.children.length, "cells in the row").toBe(9);
  });
});
