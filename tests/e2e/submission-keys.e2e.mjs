// One-time submission keys: a double click on the invoice detail page's Email button sends the
// subcontractor one copy, not two. Without JavaScript the browser posts the form twice (the second
// click replaces the first navigation, but the server has both); with it, the page's form may too.
// Both posts carry the key the page rendered, so the second answers as the first did.
import {
  createSubcontractor,
  expect,
  expectToast,
  londonDate,
  readMailbox,
  RUN,
  scenario,
  searchSubcontractors,
  signIn,
  tenantUrl,
  waitForHydration,
  waitForMail,
} from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");

scenario("Double-clicking Email on an invoice sends one e-mail", async ({ page, js }) => {
  await signIn(page, { js });
  const name = `E2E Once ${RUN} ${mode(js)}`;
  const email = `e2e-once-${RUN}-${mode(js)}@example.test`;
  await createSubcontractor(page, { name, email, js });
  await searchSubcontractors(page, { q: name });
  const subHref = await page.locator("tbody tr").filter({ hasText: name }).getByRole("link", { name: "View Details", exact: true }).getAttribute("href");
  const subcontractorId = subHref?.split("/").pop();
  expect(Boolean(subcontractorId), "subcontractor id from its link").toBe(true);

  const number = `E2E-ONCE-${RUN}-${mode(js)}`;
  await page.goto(tenantUrl("acme", `/cis/invoices/new?subcontractorId=${subcontractorId}`));
  await waitForHydration(page, js);
  await page.getByLabel("Invoice Number *", { exact: true }).fill(number);
  await page.getByLabel("Invoice Date *", { exact: true }).fill(londonDate());
  await page.getByLabel("Gross Amount (£) *", { exact: true }).fill("1000.00");
  await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
  await page.waitForURL((url) => /^\/cis\/invoices\/(?!new$)[^/]+$/.test(url.pathname));
  await page.getByRole("heading", { name: number, exact: true }).waitFor();
  await waitForHydration(page, js);

  const since = Date.now();
  await page.getByRole("toolbar", { name: "Invoice actions" }).getByRole("button", { name: "Email", exact: true }).dblclick();
  await expectToast(page, "Invoice emailed");
  await waitForMail(email, { since });
  // Give a second copy, had one been queued, time to arrive.
  await new Promise((r) => setTimeout(r, 3000));
  const copies = (await readMailbox(email)).filter((m) => m.createdAt >= since);
  expect(copies.length, "copies of the invoice e-mailed").toBe(1);
});
