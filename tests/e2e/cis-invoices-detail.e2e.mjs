// The invoice detail page (issue 10), signed in as admin@acme.test: Approve, then Mark Paid with a
// payment date, with and without JavaScript (the toolbar's forms are real forms); the Print button
// (the browser's print dialog with JavaScript, the printable page without). Each scenario makes
// its own subcontractor and invoice, unique per run and mode. Reject of a portal submission asks
// the same way as Cancel; portal submissions cannot be made from the staff side, so the
// integration tests cover it.
/* global window, document */ // used inside page.evaluate callbacks, which run in the browser
import { createSubcontractor, expect, expectToast, londonDate, RUN, scenario, searchSubcontractors, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");

/**
 * A draft invoice of 1,000.00 gross and 300.00 materials at 20% VAT for a new standard-rate
 * subcontractor, both through their forms (the form page has its own journeys). Returns the
 * invoice's id and number.
 */
async function draftInvoice(page, { js, tag }) {
  const name = `E2E Detail ${tag} ${RUN} ${mode(js)}`;
  await createSubcontractor(page, { name, js });
  await searchSubcontractors(page, { q: name });
  const details = page.locator("tbody tr").filter({ hasText: name }).getByRole("link", { name: "View Details", exact: true });
  const subHref = await details.getAttribute("href");
  const subcontractorId = subHref?.split("/").pop();
  expect(Boolean(subcontractorId), "subcontractor id from its link").toBe(true);

  const number = `E2E-DET-${tag}-${RUN}-${mode(js)}`;
  await page.goto(tenantUrl("acme", `/cis/invoices/new?subcontractorId=${subcontractorId}`));
  await waitForHydration(page, js);
  await page.getByLabel("Invoice Number *", { exact: true }).fill(number);
  await page.getByLabel("Invoice Date *", { exact: true }).fill(londonDate());
  await page.getByLabel("Gross Amount (£) *", { exact: true }).fill("1000.00");
  await page.getByLabel("Materials (£)", { exact: true }).fill("300.00");
  await page.getByLabel("VAT Rate", { exact: true }).selectOption("20");
  await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
  await page.waitForURL((url) => /^\/cis\/invoices\/(?!new$)[^/]+$/.test(url.pathname));
  const id = new URL(page.url()).pathname.split("/").pop();
  return { id, number };
}

async function openInvoice(page, { id, number, js }) {
  await page.goto(tenantUrl("acme", `/cis/invoices/${id}`));
  await page.getByRole("heading", { name: number, exact: true }).waitFor();
  await waitForHydration(page, js);
}

const toolbar = (page) => page.getByRole("toolbar", { name: "Invoice actions" });
const statusOf = (page) => toolbar(page).locator("[data-status]").getAttribute("data-status");
const fieldText = (page, name) => page.locator(`[data-field="${name}"] dd`).innerText();

scenario("Invoice detail: Approve, then Mark Paid with a payment date", async ({ page, js }) => {
  await signIn(page, { js });
  const { id, number } = await draftInvoice(page, { js, tag: "PAY" });
  await openInvoice(page, { id, number, js });

  // Every field is there, and the amounts are the server's.
  expect(await statusOf(page), "status before").toBe("draft");
  expect(await page.locator('[data-amount="cis"] td').innerText(), "CIS deduction").toBe("£140.00");
  expect(await page.locator('[data-amount="net"] td').innerText(), "net payment").toBe("£1,060.00");
  expect(await fieldText(page, "paymentDate"), "no payment date yet").toBe("N/A");
  expect(await toolbar(page).getByRole("button", { name: "Mark Paid", exact: true }).count(), "no Mark Paid on a draft").toBe(0);

  await toolbar(page).getByRole("button", { name: "Approve", exact: true }).click();
  const approved = await expectToast(page, "Invoice approved");
  expect(await approved.innerText(), "approve toast").toContain(number);
  expect(new URL(page.url()).pathname, "still on the invoice").toBe(`/cis/invoices/${id}`);
  await toolbar(page).locator('[data-status="approved"]').waitFor();
  expect(await toolbar(page).getByRole("button", { name: "Approve", exact: true }).count(), "no Approve once approved").toBe(0);
  expect(await fieldText(page, "approved"), "approved by").toMatch(/ by /);

  // The payment date starts at today in London; an earlier day is the one recorded.
  await waitForHydration(page, js);
  const date = page.getByLabel("Payment date", { exact: true });
  expect(await date.inputValue(), "payment date default").toBe(londonDate());
  // A date outside the four-digit years (the field takes up to six) is refused next to the field
  // with the date sent kept and focused, and nothing changes.
  await date.fill("10000-01-01");
  await toolbar(page).getByRole("button", { name: "Mark Paid", exact: true }).click();
  await page.locator("#invoice-pay-paymentDate-error").getByText("Payment date must be a real date", { exact: true }).waitFor();
  expect(await date.getAttribute("aria-invalid"), "field marked invalid").toBe("true");
  expect(await date.getAttribute("aria-describedby"), "field described by its message").toBe("invoice-pay-paymentDate-error");
  expect(await date.inputValue(), "date sent kept").toBe("10000-01-01");
  expect(await statusOf(page), "still approved").toBe("approved");
  if (js) expect(await date.evaluate((el) => el === document.activeElement), "focus moved to the field").toBe(true);
  const paidOn = londonDate(new Date(Date.now() - 86_400_000));
  await date.fill(paidOn);
  await toolbar(page).getByRole("button", { name: "Mark Paid", exact: true }).click();
  const paid = await expectToast(page, "Invoice marked paid");
  const [y, m, d] = paidOn.split("-");
  expect(await paid.innerText(), "pay toast").toContain(`${number} paid on ${d}/${m}/${y}.`);
  await toolbar(page).locator('[data-status="paid"]').waitFor();
  expect(await fieldText(page, "paymentDate"), "payment date shown").toBe(`${d}/${m}/${y}`);
  expect(await fieldText(page, "paid"), "paid by").toMatch(/ by /);
  expect(await toolbar(page).getByRole("button", { name: "Mark Paid", exact: true }).count(), "no Mark Paid once paid").toBe(0);
});

scenario("Invoice detail: Print opens the print dialog with JavaScript, the printable page without", async ({ page, js }) => {
  await signIn(page, { js });
  const { id, number } = await draftInvoice(page, { js, tag: "PRINT" });
  await openInvoice(page, { id, number, js });
  const print = toolbar(page).getByRole("link", { name: "Print", exact: true });
  expect(await print.count(), "Print button").toBe(1);
  expect(await print.getAttribute("href"), "Print without JavaScript").toBe("?print=1");

  if (js) {
    // Stand in for the dialog, which headless Chromium would not show.
    await page.evaluate(() => {
      window.__printed = 0;
      window.print = () => {
        window.__printed += 1;
      };
    });
    await print.click();
    expect(await page.evaluate(() => window.__printed), "window.print() called").toBe(1);
    expect(new URL(page.url()).search, "stays on the page").toBe("");
  } else {
    await print.click();
    await page.waitForURL((u) => u.pathname === `/cis/invoices/${id}` && u.searchParams.get("print") === "1");
    await page.getByRole("heading", { name: `Invoice ${number}`, exact: true }).waitFor();
    expect(await page.getByRole("toolbar", { name: "Invoice actions" }).count(), "no toolbar on the printable page").toBe(0);
    expect(await page.locator('[data-amount="net"] td').innerText(), "net payment").toBe("£1,060.00");
    await page.getByRole("link", { name: "Back to invoice", exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/cis/invoices/${id}` && !u.searchParams.has("print"));
    await page.getByRole("heading", { name: number, exact: true }).waitFor();
  }
  // The stylesheet must have loaded before print media is judged: the heading can be in the DOM of
  // a page still loading its CSS, and an unstyled toolbar is visible on paper.
  await page.waitForLoadState("load");
  // Print media hides the navigation and the toolbar and keeps the amounts.
  await page.emulateMedia({ media: "print" });
  expect(await toolbar(page).isVisible(), "toolbar on paper").toBe(false);
  expect(await page.getByRole("navigation", { name: "CIS sections" }).isVisible(), "CIS navigation on paper").toBe(false);
  expect(await page.locator("[data-amounts]").isVisible(), "amounts on paper").toBe(true);
  await page.emulateMedia({ media: "screen" });
});

scenario("Invoice detail: Cancel asks first (a dialog with JavaScript, a confirmation step without)", async ({ page, js }) => {
  await signIn(page, { js });
  const { id, number } = await draftInvoice(page, { js, tag: "CANCEL" });
  await openInvoice(page, { id, number, js });
  let dialogText = null;
  if (js) {
    page.once("dialog", (dialog) => {
      dialogText = dialog.message();
      dialog.accept();
    });
  }
  await toolbar(page).locator("summary", { hasText: "More actions" }).click();
  await toolbar(page).getByRole("button", { name: "Cancel", exact: true }).click();
  if (!js) {
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: `Cancel invoice ${number}?`, exact: true }).waitFor();
    await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  }
  await expectToast(page, "Invoice cancelled");
  await toolbar(page).locator('[data-status="cancelled"]').waitFor();
  if (js) expect(dialogText, "confirm dialog").toBe(`Cancel invoice ${number}?`);
});
