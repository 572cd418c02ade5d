// The monthly returns page (issue 12, without the HMRC transport), signed in as admin@acme.test,
// with and without JavaScript: a nil return for a month without payments (the confirmation is a
// dialog with JavaScript and a server-rendered step without; it then opens the submit page), and compiling one of the seed's
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

/** Clicks a button that asks first: accepts the dialog with JavaScript, confirms the server's step without. */
async function clickConfirmed(page, js, name) {
  if (js) page.once("dialog", (d) => d.accept());
  await actions(page).getByRole("button", { name, exact: true }).click();
  if (!js) {
    await page.getByRole("alertdialog").waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm", exact: true }).click();
  }
}

scenario("Returns: a nil return for a month without payments, which has nothing to export", async ({ page, js }) => {
  await signIn(page, { js });
  const month = js ? "2019-04" : "2019-05";
  await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
  await waitForHydration(page, js);
  expect(await statusText(page), "status before").toBe("Not compiled");
  expect(await page.getByText("No return compiled for this tax month", { exact: true }).count(), "empty state").toBe(1);
  expect(await actions(page).getByRole("button", { name: "Submit Return", exact: true }).isDisabled(), "Submit disabled before").toBe(true);

  await clickConfirmed(page, js, "Nil Return");
  // Straight on to its declarations and sending (an admin may send), then back to the month.
  await expectToast(page, "Nil Return Created");
  await page.waitForURL((u) => u.pathname === `/cis/returns/${month}/submit`);
  await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
  await page.locator('[data-field="status"][data-status="nil"]').waitFor();
  const submit = actions(page).getByRole("link", { name: "Submit Return", exact: true });
  expect(await submit.getAttribute("href"), "Submit Return link").toBe(`/cis/returns/${month}/submit`);

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
      expect(href.startsWith(`/cis/statements?month=${month}#statement-`), "issue links to the statement").toBe(true);
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
