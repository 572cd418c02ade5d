/* global document, getComputedStyle */ // used inside page.evaluate and waitForFunction callbacks, which run in the browser
// Tenant settings (branding) and the platform super-admin console, with and without JavaScript.
import { ACCOUNTS, BASE, RUN, expect, expectToast, scenario, signIn, submitLogin, tenantUrl, waitForHydration, waitForMail } from "./helpers.mjs";

/** Signs the seeded super-admin in on the bare domain (password, then the e-mailed code). */
async function signInSuperadmin(page, js) {
  const since = Date.now();
  await submitLogin(page, { origin: BASE, email: ACCOUNTS.superadmin, js });
  await page.waitForURL((u) => u.pathname === "/login/verify");
  const mail = await waitForMail(ACCOUNTS.superadmin, { since, match: (m) => /sign-in code/.test(m.subject), timeout: 20_000 });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, "6-digit code in the e-mail").toMatch(/^\d{6}$/);
  await page.getByRole("heading", { name: "Enter your code" }).waitFor();
  if (js) {
    await waitForHydration(page, js);
    await page.getByLabel("Digit 1", { exact: true }).pressSequentially(code);
  } else {
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
  }
  await page.waitForURL((u) => u.pathname === "/superadmin", { timeout: 15_000 });
}

/** A custom property as the browser computes it on the element (the same with SSR and after React's updates). */
const cssVar = (locator, name) => locator.evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);

// Globex, so no other journey's pages change colour under it; each mode saves its own colour.
scenario("a tenant admin changes the branding: the preview follows and the shell shows it after saving", async ({ page, js }) => {
  const accent = js ? "#1D4ED8" : "#B91C1C";
  const hsl = js ? "224 76% 48%" : "0 74% 42%";
  const font = js ? "Lora" : "Roboto Slab";
  await signIn(page, { slug: "globex", email: ACCOUNTS.globexAdmin, js });
  await page.goto(tenantUrl("globex", "/settings/branding"));
  await page.getByRole("heading", { name: "Branding" }).waitFor();
  await waitForHydration(page, js);
  const preview = page.getByTestId("branding-preview");

  // A malformed colour: the message sits next to the field, and nothing is saved.
  await page.getByLabel("Accent colour", { exact: true }).fill("#12345G");
  await page.getByRole("button", { name: "Save branding" }).click();
  await page.getByText("Enter the accent colour in the correct format: # and 6 hexadecimal digits, like #00D16A").waitFor();

  await page.getByLabel("Accent colour", { exact: true }).fill(accent);
  await page.getByLabel("Corner radius").selectOption("1rem");
  await page.getByLabel("Font").selectOption(font);
  if (js) {
    // The preview follows the form before anything is saved.
    await page.waitForFunction(
      (want) => {
        const el = document.querySelector('[data-testid="branding-preview"]');
        return el ? getComputedStyle(el).getPropertyValue("--accent").trim() === want : false;
      },
      hsl,
      { timeout: 5_000 },
    );
  }
  await page.getByRole("button", { name: "Save branding" }).click();
  await expectToast(page, "Branding saved");
  // Without JavaScript the save is a new page: the toast is in its HTML before its stylesheet has loaded, and a
  // computed font read then is the browser's default. The load event comes after the stylesheets.
  await page.waitForLoadState("load");

  // The server-drawn preview and the tenant's shell both carry the saved branding.
  expect(await cssVar(preview, "--accent"), "preview").toBe(hsl);
  const html = page.locator("html");
  expect(await cssVar(html, "--accent"), "shell accent").toBe(hsl);
  expect(await cssVar(html, "--radius"), "shell radius").toBe("1rem");
  const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(bodyFont, "shell font").toContain(`${font} Variable`);
  expect(await page.getByLabel("Accent colour", { exact: true }).inputValue(), "form shows the saved colour").toBe(accent);
});

scenario("the super-admin creates a tenant, suspends it after confirming, and finds both in the audit log", async ({ page, js }) => {
  const slug = `e2e${RUN}${js ? "j" : "n"}`;
  await signInSuperadmin(page, js);
  await waitForHydration(page, js);

  const create = page.getByRole("region", { name: "Create a tenant" });
  await create.getByLabel("Slug (subdomain)").fill(slug);
  await create.getByLabel("Name", { exact: true }).fill(`E2E Builders ${slug}`);
  await create.getByLabel("Files").check();
  await create.getByLabel("Storage tier").selectOption("custom");
  await create.getByLabel("Custom limit (GiB)").fill("250");
  const firstAdmin = `owner@${slug}.test`;
  await create.getByLabel("First admin's email").fill(firstAdmin);
  const since = Date.now();
  await create.getByRole("button", { name: "Create tenant" }).click();
  await expectToast(page, "Tenant created");
  const invitation = await waitForMail(firstAdmin, { since, timeout: 20_000 });
  expect(invitation.text, "activation link to the new workspace").toMatch(new RegExp(`//${slug}\\.localhost[^/\\s]*/activate\\?token=`));
  const row = page.locator(`tr[data-tenant="${slug}"]`);
  await row.waitFor();
  expect(await row.innerText(), "storage").toContain("Custom: 250 GiB");
  expect(await row.locator("[data-status]").innerText(), "status").toBe("Active");
  expect(await row.locator("td").nth(4).innerText(), "users (the invited admin)").toBe("1");

  // Its host is a workspace now.
  const open = await page.context().newPage();
  expect((await open.goto(tenantUrl(slug, "/login")))?.status(), "tenant host before").toBe(200);

  let dialogText = null;
  if (js) {
    page.once("dialog", (d) => {
      dialogText = d.message();
      d.accept();
    });
  }
  await row.getByRole("button", { name: `Suspend ${slug}` }).click();
  if (!js) {
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: `Suspend E2E Builders ${slug}?` }).waitFor();
    await confirm.getByRole("button", { name: "Yes, suspend" }).click();
  }
  await expectToast(page, "Tenant suspended");
  if (js) expect(dialogText, "confirm dialog").toContain(`Suspend E2E Builders ${slug}?`);
  expect(await page.locator(`tr[data-tenant="${slug}"] [data-status]`).innerText(), "status after").toBe("Suspended");

  const suspended = await open.goto(tenantUrl(slug, "/login"));
  expect(suspended?.status(), "tenant host after").toBe(403);
  await open.getByRole("heading", { name: "This workspace is suspended" }).waitFor();
  await open.close();

  await page.getByRole("link", { name: "Platform audit log" }).click();
  await page.getByRole("heading", { name: "Platform audit log" }).waitFor();
  await page.getByLabel("Tenant", { exact: true }).selectOption({ label: `E2E Builders ${slug} (${slug})` });
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await page.waitForURL((u) => u.searchParams.has("tenant"));
  const expected = "superadmin.tenant.suspended,user.invited,superadmin.tenant.created";
  const shown = () => [...document.querySelectorAll("tr[data-action]")].map((r) => r.getAttribute("data-action")).join(",");
  // With JavaScript the address changes before React has rendered the filtered rows: give the render
  // a moment, then judge what is shown (a wrong filter still fails below).
  // A function, not a string: a string predicate is evaluated as a string in the page, which its CSP
  // forbids (an uncaught EvalError that fails the run whenever the rows were not there at once).
  await page
    .waitForFunction((want) => [...document.querySelectorAll("tr[data-action]")].map((r) => r.getAttribute("data-action")).join(",") === want, expected, {
      timeout: 5_000,
    })
    .catch(() => {});
  const actions = await page.evaluate(shown);
  expect(actions, "the tenant's events and the console's actions on it, newest first").toBe(expected);
});
