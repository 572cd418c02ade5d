// The invoice form (issue 10), signed in as admin@acme.test: with JavaScript the calculation
// panel follows the typing; without it 'Calculate' asks the server for the same figures before
// 'Create Invoice'. Each scenario makes its own subcontractor (standard, 20%), unique per run
// and mode.
import { createSubcontractor, expect, expectToast, RUN, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");

/** The figure the panel shows for `name` (gross, materials, labour, cis, vat, net). */
const figure = (page, name) => page.locator(`[data-figure="${name}"] dd`);
const figureLabel = (page, name) => page.locator(`[data-figure="${name}"] dt`);

/** Waits until the panel shows `text` for `name` (with JavaScript it changes as the user types). */
async function expectFigure(page, name, text) {
  await page.locator(`[data-figure="${name}"] dd`, { hasText: text }).waitFor({ timeout: 5_000 });
  expect(await figure(page, name).innerText(), `${name} figure`).toBe(text);
}

async function openNewInvoice(page, js) {
  await page.goto(tenantUrl("acme", "/cis/invoices/new"));
  await page.getByRole("heading", { name: "New Invoice", exact: true }).waitFor();
  await waitForHydration(page, js);
}

/**
 * Chooses a subcontractor through the picker: the form offers a page of them by name, so the name
 * is searched first (with JavaScript the choices follow the typing; without it Find asks the server).
 */
async function chooseSubcontractor(page, js, search, label) {
  await page.getByLabel("Find a subcontractor", { exact: true }).fill(search);
  const select = page.getByLabel("Subcontractor *", { exact: true });
  if (!js) {
    // The form comes back from the server: wait for that page, not the one the click left.
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Find", exact: true }).click()]);
  }
  await select.locator("option", { hasText: label }).first().waitFor({ state: "attached", timeout: 10_000 });
  await select.selectOption({ label });
}

/** Fills the form's required fields for `subName` (standard rate). */
async function fillInvoice(page, { js, subName, number, gross, materials = "", vat = "20%" }) {
  await chooseSubcontractor(page, js, subName, `${subName} (CIS 20%)`);
  await page.getByLabel("Invoice Number *", { exact: true }).fill(number);
  await page.getByLabel("Gross Amount (£) *", { exact: true }).fill(gross);
  await page.getByLabel("Materials (£)", { exact: true }).fill(materials);
  await page.getByLabel("VAT Rate", { exact: true }).selectOption({ label: vat });
}

/** After 'Create Invoice': the invoice's own page, with the 'Invoice created' toast. */
async function expectCreated(page, number) {
  await page.waitForURL((u) => /^\/cis\/invoices\/[^/]+$/.test(u.pathname) && u.pathname !== "/cis/invoices/new", { timeout: 15_000 });
  const toast = await expectToast(page, "Invoice created");
  expect(await toast.innerText(), "create toast").toContain(`Invoice ${number} has been created.`);
}

scenario(
  "New invoice with JavaScript: the calculation panel follows the typing, then Create Invoice",
  async ({ page, js }) => {
    await signIn(page, { js });
    const subName = `E2E Invoice Sub ${RUN} ${mode(js)}`;
    await createSubcontractor(page, { name: subName, js });
    await openNewInvoice(page, js);
    // The live panel replaces the server round trip.
    expect(await page.getByRole("button", { name: "Calculate", exact: true }).count(), "no Calculate button with JavaScript").toBe(0);

    const number = `E2E-${RUN}-${mode(js)}`;
    await fillInvoice(page, { js, subName, number, gross: "1,000.00", materials: "300" });
    await expectFigure(page, "labour", "£700.00");
    expect(await figureLabel(page, "cis").innerText(), "rate shown").toBe("CIS Deduction at 20%");
    await expectFigure(page, "cis", "£140.00");
    await expectFigure(page, "vat", "£200.00");
    await expectFigure(page, "net", "£1,060.00");

    // 65% materials: the warning appears and the figures move with it.
    await page.getByLabel("Materials (£)", { exact: true }).fill("650");
    await page.getByText("High materials percentage (65%) - please verify this is correct", { exact: true }).waitFor();
    await expectFigure(page, "labour", "£350.00");
    await expectFigure(page, "net", "£1,130.00");

    // Reverse charge: no VAT on the invoice.
    await page.getByLabel("Reverse charge", { exact: true }).check();
    await expectFigure(page, "vat", "£0.00");
    expect(await figureLabel(page, "vat").innerText(), "VAT label").toBe("VAT (reverse charge)");
    await expectFigure(page, "net", "£930.00");

    await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
    await expectCreated(page, number);
  },
  { modes: [true] },
);

scenario(
  "New invoice without JavaScript: Calculate shows the server's figures and keeps the form, then Create Invoice",
  async ({ page, js }) => {
    await signIn(page, { js });
    const subName = `E2E Invoice Sub ${RUN} ${mode(js)}`;
    await createSubcontractor(page, { name: subName, js });
    await openNewInvoice(page, js);
    await page.getByText("press Calculate to see the figures", { exact: false }).waitFor();

    const number = `E2E-${RUN}-${mode(js)}`;
    await fillInvoice(page, { js, subName, number, gross: "2000", materials: "500", vat: "5%" });
    await page.getByRole("button", { name: "Calculate", exact: true }).click();
    await page.locator('[data-figure="net"]').waitFor();
    expect(new URL(page.url()).pathname, "still on the form").toBe("/cis/invoices/new");
    await expectFigure(page, "labour", "£1,500.00");
    expect(await figureLabel(page, "cis").innerText(), "rate shown").toBe("CIS Deduction at 20%");
    await expectFigure(page, "cis", "£300.00");
    expect(await figureLabel(page, "vat").innerText(), "VAT label").toBe("VAT at 5%");
    await expectFigure(page, "vat", "£100.00");
    await expectFigure(page, "net", "£1,800.00");
    // What was typed is still there.
    expect(await page.getByLabel("Invoice Number *", { exact: true }).inputValue(), "number kept").toBe(number);
    expect(await page.getByLabel("Gross Amount (£) *", { exact: true }).inputValue(), "gross kept").toBe("2000");
    expect(await page.getByLabel("VAT Rate", { exact: true }).inputValue(), "VAT kept").toBe("5");

    await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
    await expectCreated(page, number);
  },
  { modes: [false] },
);

scenario("Materials of 80% or more are refused without a justification note of 10 characters", async ({ page, js }) => {
  await signIn(page, { js });
  const subName = `E2E Invoice Note ${RUN} ${mode(js)}`;
  await createSubcontractor(page, { name: subName, js });
  await openNewInvoice(page, js);
  const number = `E2E-NOTE-${RUN}-${mode(js)}`;
  await fillInvoice(page, { js, subName, number, gross: "100", materials: "85" });
  await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
  await page.getByText("Materials are 80% or more of the gross amount: enter a note of at least 10 characters saying why", { exact: true }).waitFor();
  expect(new URL(page.url()).pathname, "still on the form").toBe("/cis/invoices/new");
  expect(await page.getByLabel("Gross Amount (£) *", { exact: true }).inputValue(), "gross kept").toBe("100");

  await page.getByLabel("Materials Justification", { exact: true }).fill("Steel frame supplied");
  await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
  await expectCreated(page, number);
});

scenario(
  "A new invoice defaults the reverse charge from the subcontractor: on for a VAT-registered one, with the reason, and editable",
  async ({ page, js }) => {
    await signIn(page, { js });
    const box = page.getByLabel("Reverse charge", { exact: true });
    const hint = page.locator("[data-reverse-charge-hint]");
    // Hartley Groundworks Ltd is VAT registered in the seed, and acme is not the end user.
    await page.goto(tenantUrl("acme", "/cis/subcontractors/sub_acme_01"));
    await page.getByRole("heading", { name: "Hartley Groundworks Ltd", exact: true }).waitFor();
    await page.getByRole("link", { name: "New Invoice", exact: true }).click();
    await page.getByRole("heading", { name: "New Invoice", exact: true }).waitFor();
    await waitForHydration(page, js);
    expect(await box.isChecked(), "on for a VAT-registered subcontractor").toBe(true);
    expect(await hint.innerText(), "hint").toContain("VAT registered and you are not the end user");
    await box.uncheck();
    expect(await box.isChecked(), "editable").toBe(false);
    if (js) {
      // With JavaScript it follows the select.
      await chooseSubcontractor(page, js, "Tom Barker", "Tom Barker (CIS 30%)");
      await page.locator("[data-reverse-charge-hint]", { hasText: "no VAT number on record" }).waitFor({ timeout: 5_000 });
      expect(await box.isChecked(), "off for one without a VAT number").toBe(false);
      await chooseSubcontractor(page, js, "Northgate", "Northgate Scaffolding Ltd (CIS 0%)");
      await page.locator("[data-reverse-charge-hint]", { hasText: "VAT registered" }).waitFor({ timeout: 5_000 });
      expect(await box.isChecked(), "on again for a VAT-registered one").toBe(true);
    }
  },
);
