// The monthly returns page (issue 12, without the HMRC transport), signed in as admin@acme.test,
// with and without JavaScript: a nil return for a month without payments (Nil Return in one step,
// confirmed by its box), and compiling one of the seed's
// previous tax months (paid invoices), then its CSV download. Each mode works on its own tax month, so the two runs
// never meet on one return.
import { readFile } from "node:fs/promises";
import { expect, expectToast, londonDate, parseCsv, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

/** The tax month label ('YYYY-MM', 6th to 5th) of a London calendar date. */
function taxMonthOf(isoDate) {
  const [y, m, d] = isoDate.split("-").map(Number);
  if (d >= 6) return `${y}-${String(m).padStart(2, "0")}`;
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

/** The label `n` tax months before `label`. */
function monthsBack(label, n) {
  const [y, m] = label.split("-").map(Number);
  const total = y * 12 + (m - 1) - n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
}

const statusText = (page) => page.locator('[data-field="status"]').innerText();
const actions = (page) => page.getByTestId("return-actions");

scenario("Returns: a nil return for a month without payments, which has nothing to export", async ({ page, js }) => {
  await signIn(page, { js });
  const month = js ? "2019-04" : "2019-05";
  await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
  await waitForHydration(page, js);
  expect(await statusText(page), "status before").toBe("Not compiled");
  expect(await page.getByText("No return compiled for this tax month", { exact: true }).count(), "empty state").toBe(1);
  expect(await actions(page).getByRole("button", { name: "Submit Return", exact: true }).isDisabled(), "Submit disabled before").toBe(true);

  // An admin may also send it: Nil Return is one step, confirmed by its box. Whether HMRC's gateway
  // takes it depends on credentials another scenario may have saved; either way the nil return is
  // compiled, and the page says what happened.
  const nil = page.getByTestId("nil-submit");
  await nil.getByLabel(/^No payments were made to subcontractors in this month/).check();
  await nil.getByRole("button", { name: "Nil Return", exact: true }).click();
  await page
    .getByText(/^(Nil return sent to HMRC|Nil Return Not Sent)$/)
    .first()
    .waitFor();
  await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
  await page.locator('[data-field="status"][data-status="nil"]').waitFor();
  expect(await page.getByTestId("nil-submit").count(), "no second Nil Return").toBe(0);

  await waitForHydration(page, js);
  await actions(page)
    .getByRole("button", { name: `Export CSV of return ${month}`, exact: true })
    .click();
  await expectToast(page, "Export Failed");
});

scenario("Returns: compile a month with paid invoices, then download CIS_Return_{month}.csv", async ({ page, js }) => {
  await signIn(page, { js });
  // The seed's previous two tax months hold paid invoices (payments of the month before spill into them).
  const month = monthsBack(taxMonthOf(londonDate()), js ? 1 : 2);
  await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
  await waitForHydration(page, js);
  const compile = actions(page).getByRole("button", { name: /^(Compile Return|Recompile)$/ });
  await compile.first().click();
  // A valid return says so in a toast; one with problems lists them in the 'Validation Issues' dialog.
  await page.locator('[data-field="status"][data-status="ready"], [data-field="status"][data-status="draft"]').waitFor();
  const status = await page.locator('[data-field="status"]').getAttribute("data-status");
  if (status === "ready") expect(await page.locator("[data-valid]").innerText(), "validation").toBe("Return validated successfully");
  else {
    expect(await page.getByRole("alertdialog").getByRole("heading", { name: "Validation Issues", exact: true }).count(), "issues dialog").toBe(1);
    // Each statement not issued links to that subcontractor's statement row for the month.
    const notIssued = page.locator('[data-issues] li[data-issue="statement_not_issued"]');
    for (const item of await notIssued.all()) {
      const href = await item.getByRole("link", { name: "Issue the statement", exact: true }).getAttribute("href");
      expect(href.startsWith(`/cis/statements?month=${month}&sub=`) && href.includes("#statement-"), "issue links to the statement's page and row").toBe(true);
    }
  }
  // The current return's own table: the history below may list the same return again.
  const lines = await page.getByTestId("current-lines").locator("[data-line]").count();
  expect(lines > 0, "the return has lines").toBe(true);

  await waitForHydration(page, js);
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 15_000 }),
    actions(page)
      .getByRole("button", { name: `Export CSV of return ${month}`, exact: true })
      .click(),
  ]);
  expect(download.suggestedFilename(), "file name").toBe(`CIS_Return_${month}.csv`);
  const rows = parseCsv((await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, ""));
  expect(rows[0].join(","), "header").toBe("Subcontractor,UTR,NINO,Gross,Materials,CIS Deducted,CIS Rate,Invoices");
  expect(rows.length - 1, "one row per line").toBe(lines);
});
