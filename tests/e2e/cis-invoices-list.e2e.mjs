/* global window */ // used inside page.evaluate callbacks, which run in the browser
// The invoice list (issue 10), signed in as admin@acme.test against the seeded invoices (acme has
// invoices in every status): filters in the URL, bulk approve with its confirmation, and the CSV
// export. Each mode approves its own draft, so the two runs never meet.
import { readFile } from "node:fs/promises";
import { expect, expectKeyColumnsOnPhone, londonDate, parseCsv, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

const LIST = "/cis/invoices";

async function openList(page, js, search = "") {
  await page.goto(tenantUrl("acme", `${LIST}${search}`));
  await page.getByRole("table", { name: "Invoices" }).waitFor();
  await waitForHydration(page, js);
}

/** The status words of every row on the page. */
async function statuses(page) {
  return page.locator("tbody tr [data-status]").allInnerTexts();
}

/**
 * The statuses once every row shows `want`, or as they are after 5 s. With JavaScript a filter
 * change is a client-side navigation: the URL changes before the new rows arrive.
 */
async function statusesOnce(page, want) {
  for (let i = 0; i < 50; i++) {
    const now = await statuses(page);
    if (now.length > 0 && now.every((s) => s === want)) return now;
    await page.waitForTimeout(100);
  }
  return statuses(page);
}

scenario("invoice list: status filter and search live in the URL and work without JavaScript", async ({ page, js }) => {
  await signIn(page, { js });
  await openList(page, js, "?status=approved");
  const approved = await statuses(page);
  expect(approved.length > 0, "seeded approved invoices").toBeTruthy();
  expect(
    approved.every((s) => s === "Approved"),
    `statuses under ?status=approved: ${approved.join(", ")}`,
  ).toBe(true);
  const form = page.getByRole("search");
  expect(await form.getByLabel("Status").inputValue(), "status select shows the URL's filter").toBe("approved");

  // The filter form: with JavaScript a changed select applies at once; without it, Apply does.
  await form.getByLabel("Status").selectOption({ label: "Paid" });
  if (!js) await form.getByRole("button", { name: "Apply", exact: true }).click();
  await page.waitForURL((u) => u.pathname === LIST && u.searchParams.get("status") === "paid");
  await page.getByRole("table", { name: "Invoices" }).waitFor();
  const paid = await statusesOnce(page, "Paid");
  expect(paid.length > 0, "seeded paid invoices").toBeTruthy();
  expect(
    paid.every((s) => s === "Paid"),
    `statuses under ?status=paid: ${paid.join(", ")}`,
  ).toBe(true);

  // Search by one row's invoice number, keeping the status filter.
  const firstRow = page.locator("tbody tr").first();
  const id = await firstRow.getAttribute("data-row");
  const number = (await firstRow.locator("th a").first().innerText()).trim();
  await waitForHydration(page, js);
  await page.getByRole("search").getByRole("searchbox", { name: "Search" }).fill(number);
  await page.getByRole("search").getByRole("button", { name: "Apply", exact: true }).click();
  await page.waitForURL((u) => u.pathname === LIST && u.searchParams.get("q") === number && u.searchParams.get("status") === "paid");
  await page.locator(`tbody tr[data-row="${id}"]`).waitFor();
  expect(await page.getByRole("search").getByRole("searchbox", { name: "Search" }).inputValue(), "search kept in the field").toBe(number);

  // A search that matches nothing says so, with the filter hint.
  await page.goto(tenantUrl("acme", `${LIST}?q=no-such-invoice-anywhere`));
  await page.getByText("No invoices found", { exact: true }).waitFor();
  await page.getByText("Try adjusting your filters", { exact: true }).waitFor();
});

scenario("invoice list: a row's link opens the invoice, in the app with JavaScript (no page load) and as a plain link without", async ({ page, js }) => {
  await signIn(page, { js });
  await openList(page, js);
  const firstRow = page.locator("tbody tr").first();
  const id = await firstRow.getAttribute("data-row");
  const link = firstRow.locator("th a").first();
  const number = (await link.innerText()).trim();
  // A mark on the window: a client-side navigation keeps it, a page load drops it.
  await page.evaluate(() => {
    window.__listMark = "kept";
  });
  await link.click();
  await page.waitForURL((u) => u.pathname === `${LIST}/${id}`);
  await page.getByText(number).first().waitFor();
  const mark = await page.evaluate(() => window.__listMark ?? null);
  expect(mark, "the window's mark after following the row's link").toBe(js ? "kept" : null);
});

scenario("invoice list: on a 390 px phone the invoice number, net payment and status show before the table is scrolled", async ({ page, js }) => {
  await signIn(page, { js });
  await openList(page, js);
  await expectKeyColumnsOnPhone(page.getByRole("table", { name: "Invoices" }), ["Invoice", "Net", "Status"], "invoice list");
});

scenario("invoice list: bulk approve asks first, then reports the approved invoice and keeps the filter", async ({ page, js }) => {
  await signIn(page, { js });
  await openList(page, js, "?status=draft");
  const row = page.locator("tbody tr").first();
  const id = await row.getAttribute("data-row");
  expect(Boolean(id), "a seeded draft to approve").toBe(true);
  const number = (await row.locator("th a").first().innerText()).trim();

  await row.getByRole("checkbox", { name: `Select invoice ${number}` }).check();
  if (js) await page.getByText("1 selected").waitFor();

  const question = "Are you sure you want to approve 1 selected items?";
  let dialogText = null;
  if (js) {
    page.once("dialog", (d) => {
      dialogText = d.message();
      d.accept();
    });
  }
  await page.getByRole("form", { name: "Bulk actions" }).getByRole("button", { name: "Approve", exact: true }).click();
  if (!js) {
    // Without JavaScript the server asks, naming the invoice.
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: question }).waitFor();
    expect(await confirm.locator("li").allInnerTexts(), "invoices in the confirmation").toContain(number);
    await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  }

  const result = page.locator('[data-bulk-result="approve"]');
  await result.getByText("Approved 1 of 1 selected items.", { exact: true }).waitFor();
  expect(await result.locator("[data-succeeded-id]").allInnerTexts(), "succeeded").toContain(number);
  expect(await result.locator("[data-failed-id]").count(), "failed").toBe(0);
  if (js) expect(dialogText, "confirm dialog").toBe(question);
  const after = new URL(page.url());
  expect(after.pathname, "still on the list").toBe(LIST);
  expect(after.searchParams.get("status"), "filter kept").toBe("draft");
  // It has left the drafts (with JavaScript, once the list has reloaded), and is listed as approved.
  await page.locator(`tbody tr[data-row="${id}"]`).waitFor({ state: "detached", timeout: 5_000 });
  await openList(page, js, `?status=approved&q=${encodeURIComponent(number)}`);
  expect(await page.locator(`tbody tr[data-row="${id}"] [data-status]`).innerText(), "its status").toBe("Approved");
});

scenario("invoice list: Export downloads today's CSV of the filtered invoices", async ({ page, js }) => {
  await signIn(page, { js });
  await openList(page, js, "?status=paid");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.getByRole("button", { name: "Export", exact: true }).click()]);
  expect(download.suggestedFilename(), "file name").toBe(`cis-invoices-${londonDate()}.csv`);
  const raw = await readFile(await download.path());
  expect(raw.subarray(0, 3).toString("hex"), "UTF-8 BOM").toBe("efbbbf");
  const [header, ...lines] = parseCsv(raw.subarray(3).toString("utf8")).filter((r) => r.some((f) => f !== ""));
  expect(header.join(","), "header row").toBe("Invoice Number,Subcontractor,Date,Gross,Materials,CIS,Net,Status");
  expect(lines.length > 0, "paid invoices exported").toBeTruthy();
  for (const line of lines) {
    expect(line.length, `columns in ${JSON.stringify(line)}`).toBe(header.length);
    expect(line[7], `status of ${line[0]}`).toBe("Paid");
    expect(line[2], `date of ${line[0]}`).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    for (const col of [3, 4, 5, 6]) expect(line[col], `${header[col]} of ${line[0]}`).toMatch(/^\d+\.\d{2}$/);
  }
  // The download does not navigate away from the list.
  expect(new URL(page.url()).pathname, "still on").toBe(LIST);
});

scenario(
  "invoice list: ticks follow the page's selection without rebuilding the rows, and another page starts with none ticked",
  async ({ page, js }) => {
    await signIn(page, { js });
    await openList(page, js);
    const boxes = page.locator('tbody input[type="checkbox"][name="ids"]');
    const count = await boxes.count();
    expect(count > 1, "rows on the first page").toBe(true);
    // A mark on the first row's element: rebuilding the rows' markup would drop it.
    await page
      .locator("tbody tr")
      .first()
      .evaluate((row) => {
        row.dataset.mark = "kept";
      });

    await boxes.nth(0).check();
    await page.getByText("1 selected").waitFor();
    const all = page.getByRole("checkbox", { name: "Select all invoices on this page" });
    expect(await all.evaluate((box) => box.indeterminate), "select all shows 'some selected'").toBe(true);

    await all.check();
    await page.getByText(`${count} selected`).waitFor();
    const ticked = await boxes.evaluateAll((list) => list.map((box) => box.checked));
    expect(ticked.every(Boolean), `every row ticked: ${ticked.join(", ")}`).toBe(true);
    await boxes.nth(1).uncheck();
    await page.getByText(`${count - 1} selected`).waitFor();
    expect(await page.locator("tbody tr").first().getAttribute("data-mark"), "the rows' markup after ticking").toBe("kept");

    await all.check();
    await page.getByText(`${count} selected`).waitFor();
    await all.uncheck();
    await page.getByText("0 selected").waitFor();
    expect((await boxes.evaluateAll((list) => list.filter((box) => box.checked).length)) === 0, "no row ticked after clearing all").toBe(true);

    // Another page of rows comes with nothing ticked.
    await boxes.nth(0).check();
    await page.getByText("1 selected").waitFor();
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await page.getByText("0 selected").waitFor();
    expect((await boxes.evaluateAll((list) => list.filter((box) => box.checked).length)) === 0, "no row ticked on page 2").toBe(true);
  },
  { modes: [true] },
);
