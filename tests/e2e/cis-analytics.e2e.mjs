// The CIS analytics page (issue 13), signed in as admin@acme.test, with and without JavaScript: the
// charts are SVG drawn by the server, so they are there either way, each beside its table; the
// by-subcontractor CSV downloads with every subcontractor paid in the window.
import { readFile } from "node:fs/promises";
import { expect, parseCsv, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

scenario("Analytics: the server's SVG charts and their tables, then the by-subcontractor CSV", async ({ page, js }) => {
  await signIn(page, { js });
  await page.goto(tenantUrl("acme", "/cis/analytics"));
  await waitForHydration(page, js);
  expect(await page.getByRole("heading", { name: "Analytics", exact: true }).count(), "heading").toBe(1);
  // The seed pays invoices in recent tax months: the month chart has bars, named as an image.
  const chart = page.locator('[data-chart="by-month-chart"] svg[role="img"]');
  expect(await chart.count(), "month chart").toBe(1);
  expect((await chart.locator("rect").count()) > 0, "bars drawn").toBe(true);
  expect(await page.getByRole("table", { name: "Gross, materials and CIS deducted by tax month" }).locator("tbody tr").count(), "12 months").toBe(12);
  const top = await page.locator("[data-subcontractor]").count();
  expect(top > 0 && top <= 10, "top 10").toBe(true);
  expect(await page.locator("[data-filing]").count(), "filing history").toBe(12);

  await waitForHydration(page, js);
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 15_000 }),
    page.getByRole("button", { name: "Export CSV (all subcontractors)", exact: true }).click(),
  ]);
  expect(/^cis-analytics-subcontractors-\d{4}-\d{2}-\d{2}\.csv$/.test(download.suggestedFilename()), "file name").toBe(true);
  const rows = parseCsv((await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, ""));
  expect(rows[0].join(","), "header").toBe("Subcontractor,UTR,Invoices,Gross,Materials,CIS Deducted,Materials Share");
  expect(rows.length - 1 >= top, "at least the top 10").toBe(true);
});
