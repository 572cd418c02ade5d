// CIS invoice CSV import (issue 10), signed in as admin@acme.test: a file with an invalid row is
// previewed with the row's message and cannot be imported; the corrected file is previewed with
// the server's figures and imported as drafts. Names and numbers are unique per run and mode.
import { Buffer } from "node:buffer";
import { createSubcontractor, expect, expectToast, RUN, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");
const HEADER = "Invoice Number,Subcontractor,Invoice Date,Gross,Materials,VAT Rate,Reverse Charge";

async function upload(page, js, name, text) {
  await page.goto(tenantUrl("acme", "/cis/invoices/import"));
  await page.getByRole("heading", { name: "Import invoices", exact: true }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") });
  await page.getByRole("button", { name: "Check file", exact: true }).click();
  await page.getByRole("heading", { name: `Preview of ${name}` }).waitFor();
}

scenario("CIS invoices: import previews every row, refuses a file with an invalid row, and imports a valid one as drafts", async ({ page, js }) => {
  await signIn(page, { js });
  const sub = await createSubcontractor(page, { name: `Import Builder ${RUN} ${mode(js)}`, js });
  const number = (n) => `IMP-${RUN}-${mode(js)}-${n}`;

  // One bad row (a negative amount): the preview names it and offers no Import.
  await upload(
    page,
    js,
    "with-error.csv",
    [HEADER, `${number(1)},${sub.name},10/05/2026,1000.00,200.00,20,no`, `${number(2)},${sub.name},2026-05-11,-5,,0,`].join("\n"),
  );
  const bad = page.locator('[data-row="2"]');
  expect(await bad.getAttribute("data-status"), "row 2 status").toBe("invalid");
  expect(await bad.innerText(), "row 2 message").toContain("Gross: Enter an amount of £0.00 or more");
  expect(await page.getByRole("button", { name: /^Import \d+ invoice/ }).count(), "no Import button").toBe(0);
  expect(await page.getByRole("alert").filter({ hasText: "all or nothing" }).count(), "all-or-nothing notice").toBe(1);

  // The corrected file: the server's CIS at the subcontractor's 20% (800.00 labour -> 160.00).
  await upload(
    page,
    js,
    "corrected.csv",
    [HEADER, `${number(1)},${sub.name},10/05/2026,1000.00,200.00,20,no`, `${number(2)},${sub.name},2026-05-11,500.00,,0,`].join("\n"),
  );
  const first = page.locator('[data-row="1"]');
  expect(await first.getAttribute("data-status"), "row 1 status").toBe("valid");
  expect(await first.locator('[data-cell="cis"]').innerText(), "row 1 CIS").toContain("£160.00");
  expect(await first.locator('[data-cell="net"]').innerText(), "row 1 net").toContain("£1,040.00");
  await page.getByRole("button", { name: "Import 2 invoices as drafts", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/cis/invoices", { timeout: 15_000 });
  const toast = await expectToast(page, "Import complete");
  expect(await toast.innerText(), "import toast").toContain("2 draft invoices imported");

  // The same file again: both numbers are now on file for this subcontractor.
  await upload(page, js, "corrected.csv", [HEADER, `${number(1)},${sub.name},10/05/2026,1000.00,200.00,20,no`].join("\n"));
  expect(await page.locator('[data-row="1"]').innerText(), "duplicate on file").toContain("This subcontractor already has an invoice with this number");
});
