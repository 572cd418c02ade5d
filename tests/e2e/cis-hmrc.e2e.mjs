/* global document */ // used inside page.waitForFunction callbacks, which run in the browser
// The HMRC gateway in the browser, against the app's fake Transaction Engine (HMRC_TRANSPORT=fake),
// signed in as admin@acme.test, with and without JavaScript: Government Gateway credentials saved
// in CIS settings, a nil return compiled and sent in one step from the returns page (the submit
// page follows HMRC's answer by itself), and Verify with HMRC from a subcontractor's page. Each mode
// works on its own tax month and its own subcontractor.
import { createSubcontractor, expect, expectToast, RUN, scenario, searchSubcontractors, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

const CREDENTIALS = { senderId: "CISUSER123", password: "gg-Secret-password-4821" };

async function saveGatewayCredentials(page, js) {
  await page.goto(tenantUrl("acme", "/cis/settings"));
  await waitForHydration(page, js);
  await page.getByLabel("Government Gateway user ID", { exact: true }).fill(CREDENTIALS.senderId);
  await page.getByLabel("Government Gateway password", { exact: true }).fill(CREDENTIALS.password);
  const field = page.getByLabel("Government Gateway password", { exact: true });
  await page.getByRole("button", { name: /^(Save|Replace) credentials$/ }).click();
  await page.getByRole("button", { name: "Replace credentials", exact: true }).waitFor();
  // Saved credentials make the button 'Replace credentials' before this save: wait for the save
  // itself (the form starts empty again once it is done), then check. Never shown back.
  await page.waitForFunction(() => document.querySelector("#gateway-password")?.value === "", null, { timeout: 10_000 }).catch(() => {});
  expect(await field.inputValue(), "password field after saving").toBe("");
  expect((await page.content()).includes(CREDENTIALS.password), "password in the page").toBe(false);
}

/** Waits until the page, refreshing itself, shows HMRC's final answer in `selector`. */
async function waitForHmrc(page, selector) {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return el && !["Sending", "Waiting for HMRC", ""].includes(el.textContent.trim());
    },
    selector,
    { timeout: 45_000, polling: 250 },
  );
  return (await page.locator(selector).innerText()).trim();
}

scenario(
  "HMRC: Nil Return compiles and sends the nil return in one step; HMRC accepts and it is locked",
  async ({ page, js }) => {
    await signIn(page, { js });
    await saveGatewayCredentials(page, js);
    const month = js ? "2019-08" : "2019-09";
    await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
    await waitForHydration(page, js);
    const actions = page.getByTestId("return-actions");
    // Nil Return in one step: its box confirms it (the browser asks for it, with or without
    // JavaScript), the inactivity declaration is optional; one click compiles and sends it.
    const nil = page.getByTestId("nil-submit");
    await nil.getByLabel(/^No payments were made to subcontractors in this month/).check();
    await nil.getByLabel(/^No payments will be made in the next six months/).check();
    await nil.getByRole("button", { name: "Nil Return", exact: true }).click();
    await expectToast(page, "Nil return sent to HMRC");
    await page.getByRole("heading", { name: /^Submit CIS300 return/ }).waitFor();
    await waitForHydration(page, js);
    const status = await waitForHmrc(page, '[data-testid="hmrc-status"]');
    expect(status, "HMRC's answer").toBe("Accepted by HMRC");
    expect((await page.getByText(/HMRC has received the IR-CIS-CIS300MR document/).count()) > 0, "receipt shown").toBe(true);
    expect(await page.getByRole("button", { name: "Submit Return", exact: true }).count(), "no second submit").toBe(0);

    // The returns page shows the return locked: no Recompile, no Submit.
    await page.goto(tenantUrl("acme", `/cis/returns?month=${month}`));
    await page.locator('[data-field="status"][data-status="nil"]').waitFor();
    expect(await actions.getByRole("button", { name: /^(Compile Return|Recompile)$/ }).count(), "compile buttons on a locked return").toBe(0);
    // Its inactivity declaration is recorded as a notice of no payments for the six months after it.
    expect(await page.getByTestId("notices").getByText(`Inactivity declaration on return ${month}`).count(), "notice recorded").toBe(1);
  },
  { timeout: 90_000 },
);

scenario(
  "HMRC: Verify with HMRC on a subcontractor's page records the online verification",
  async ({ page, js }) => {
    await signIn(page, { js });
    await saveGatewayCredentials(page, js);
    const name = `Verify ${js ? "Js" : "Nojs"} ${RUN}`;
    await createSubcontractor(page, { name, js });
    await searchSubcontractors(page, { q: name });
    await page.getByRole("link", { name, exact: true }).first().click();
    await page.getByRole("heading", { name, exact: true }).waitFor();
    await waitForHydration(page, js);
    await page.getByRole("button", { name: "Verify with HMRC", exact: true }).click();
    await expectToast(page, "Verification sent to HMRC");
    const status = await waitForHmrc(page, '[data-testid="hmrc-verification-status"]');
    expect(status, "HMRC's answer").toBe("Accepted by HMRC");
    // The page shows the answer it applied (it reloads itself while the request is with HMRC).
    await page.reload();
    expect((await page.getByText("Online", { exact: true }).count()) > 0, "verification method Online").toBe(true);
    // V and 10 digits; an unmatched subcontractor's (30%) number ends in one or two letters.
    expect((await page.getByText(/^V\d{10}[A-Z]{0,2}$/).count()) > 0, "verification number shown").toBe(true);
  },
  { timeout: 90_000 },
);
