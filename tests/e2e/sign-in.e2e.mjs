// Sign-in journeys (issue 3): password, e-mailed code, wrong password, sign out, theme,
// tenant isolation, the platform console and the bare-domain hand-over to a tenant host.
/* global document */ // used inside page.waitForFunction callbacks, which run in the browser
import {
  ACCOUNTS,
  ACME,
  BASE,
  expect,
  expectToast,
  GLOBEX,
  openUserMenu,
  PASSWORD,
  scenario,
  signIn,
  submitLogin,
  tenantUrl,
  waitForHydration,
  waitForMail,
} from "./helpers.mjs";

const LOGIN_FAILED = "The email address or password is not right. Check them and try again.";

/** The tenant shell: tenant name in the header and the module navigation. */
async function expectAcmeShell(page) {
  await page.getByTestId("tenant-name").waitFor();
  expect(await page.getByTestId("tenant-name").innerText(), "tenant name in the header").toBe("Acme Construction Ltd");
  const nav = page.getByRole("navigation", { name: "Modules" });
  await nav.getByRole("link", { name: "CIS", exact: true }).waitFor();
}

scenario("admin@acme.test signs in with password and lands in Acme's shell", async ({ page, js }) => {
  await signIn(page, { slug: "acme", email: ACCOUNTS.acmeAdmin, js });
  const url = new URL(page.url());
  expect(url.host, "host").toBe(new URL(ACME).host);
  // A tenant's home is its first module: CIS for Acme.
  expect(url.pathname, "landed on").toBe("/cis");
  await expectAcmeShell(page);
  await page.getByLabel("Account menu for Alice Admin").waitFor();
});

scenario("a wrong password shows an error and keeps the e-mail typed in", async ({ page, js }) => {
  await submitLogin(page, { origin: ACME, email: ACCOUNTS.acmeLead, password: "not-the-password", js });
  const alert = page.getByRole("alert").filter({ hasText: LOGIN_FAILED });
  await alert.waitFor();
  expect(new URL(page.url()).pathname, "still on").toBe("/login");
  expect(await page.getByLabel("Email", { exact: true }).inputValue(), "e-mail kept").toBe(ACCOUNTS.acmeLead);
  // The server never echoes the password back (with JavaScript the page simply keeps what was typed).
  if (!js) expect(await page.getByLabel("Password", { exact: true }).inputValue(), "password not echoed").toBe("");
  // Still signed out: the workspace sends the visitor back to /login.
  await page.goto(tenantUrl("acme", "/welcome"));
  expect(new URL(page.url()).pathname, "workspace without a session").toBe("/login");
});

/** Reads the newest sign-in code e-mailed to `email` since `since` from the dev mailbox. */
async function mailedCode(email, since) {
  const mail = await waitForMail(email, { since, match: (m) => /sign-in code/.test(m.subject), timeout: 20_000 });
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, "6-digit code in the e-mail").toMatch(/^\d{6}$/);
  return code;
}

/** On /login/verify: types the code (six boxes with JavaScript, one field without). */
async function enterCode(page, code, js) {
  await page.getByRole("heading", { name: "Enter your code" }).waitFor();
  if (js) {
    // Six boxes: typing into the first moves along, and the sixth digit submits the form.
    await waitForHydration(page, js);
    const boxes = page.getByRole("group", { name: "6-digit code" }).getByRole("textbox");
    expect(await boxes.count(), "code boxes").toBe(6);
    await page.getByLabel("Digit 1", { exact: true }).pressSequentially(code);
  } else {
    await page.getByLabel("6-digit code").fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
  }
}

scenario("manager@acme.test (two-factor on) enters the e-mailed code and lands signed in", async ({ page, js }) => {
  const since = Date.now();
  await submitLogin(page, { origin: ACME, email: ACCOUNTS.acmeManager, js });
  await page.waitForURL((u) => u.pathname === "/login/verify");
  await enterCode(page, await mailedCode(ACCOUNTS.acmeManager, since), js);
  await page.waitForURL((u) => u.pathname === "/cis", { timeout: 15_000 });
  await expectAcmeShell(page);
  await page.getByLabel("Account menu for Maya Manager").waitFor();
});

/** Signs admin@acme.test in, opens /welcome, and signs out through the user menu. */
async function signInThenSignOut(page, js) {
  await signIn(page, { slug: "acme", email: ACCOUNTS.acmeAdmin, js });
  await page.goto(tenantUrl("acme", "/welcome"));
  await page.getByRole("heading", { name: "Welcome to Acme Construction Ltd" }).waitFor();
  await waitForHydration(page, js);
  const menu = await openUserMenu(page);
  await menu.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/login");
}

scenario("sign out through the user menu ends the session", async ({ page, js }) => {
  await signInThenSignOut(page, js);
  await expectToast(page, "Signed out");
  await page.getByRole("heading", { name: "Sign in to Acme Construction Ltd" }).waitFor();

  // The session is gone on the server, not just hidden: the workspace sends us to /login.
  await page.goto(tenantUrl("acme", "/welcome"));
  expect(new URL(page.url()).pathname, "/welcome after sign-out").toBe("/login");
  expect(await page.getByLabel(/^Account menu for /).count(), "no user menu").toBe(0);
});

scenario("after sign-out the back button does not show the workspace; signing in again returns to it", async ({ page, js }) => {
  await signInThenSignOut(page, js);

  // Back: the signed-out browser must not show the workspace page it had before.
  await page.goBack();
  // With JavaScript the router re-runs the loader and is sent on to /login; give it a moment.
  await page.waitForURL((u) => u.pathname === "/login", { timeout: 5_000 }).catch(() => {});
  await page.waitForLoadState();
  const seen = await page.locator("h1").allInnerTexts();
  expect(seen.join(" | "), "page shown after Back").toBe("Sign in to Acme Construction Ltd");
  expect(await page.getByLabel(/^Account menu for /).count(), "no user menu after Back").toBe(0);
  expect(new URL(page.url()).pathname, "Back lands on").toBe("/login");

  // Signing in from there returns to the page that was asked for.
  await waitForHydration(page, js);
  await page.getByLabel("Email", { exact: true }).fill(ACCOUNTS.acmeAdmin);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => u.pathname !== "/login", { timeout: 15_000 });
  expect(new URL(page.url()).pathname, "returned to").toBe("/welcome");
  await page.getByRole("heading", { name: "Welcome to Acme Construction Ltd" }).waitFor();
});

scenario("the theme form in the user menu switches to Dark and shows the toast", async ({ page, js }) => {
  // lead@acme.test: a theme choice is saved on the user, so keep it off the admin used elsewhere.
  await signIn(page, { slug: "acme", email: ACCOUNTS.acmeLead, js });
  await page.goto(tenantUrl("acme", "/welcome"));
  await waitForHydration(page, js);

  let menu = await openUserMenu(page);
  await menu.getByRole("button", { name: /^dark$/i }).click();
  const toast = await expectToast(page, "Theme updated");
  expect(await toast.innerText(), "toast text").toContain("Theme set to Dark.");
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark", null, { timeout: 10_000 });
  expect(new URL(page.url()).pathname, "stays on the page").toBe("/welcome");
  menu = await openUserMenu(page);
  expect(await menu.getByRole("button", { name: /^dark$/i }).getAttribute("aria-pressed"), "Dark is the pressed choice").toBe("true");

  // Still dark after a full reload (saved, not only shown).
  await page.reload();
  expect(await page.locator("html").getAttribute("data-theme"), "after reload").toBe("dark");

  // Back to System, so later runs start from the default.
  await waitForHydration(page, js);
  menu = await openUserMenu(page);
  await menu.getByRole("button", { name: /^system$/i }).click();
  await expectToast(page, "Theme updated");
  await page.waitForFunction(() => document.documentElement.dataset.theme !== "dark", null, { timeout: 10_000 });
});

scenario("an Acme session does not open Globex", async ({ page, js }) => {
  await signIn(page, { slug: "acme", email: ACCOUNTS.acmeAdmin, js });
  await expectAcmeShell(page);
  await page.goto(tenantUrl("globex", "/welcome"));
  const url = new URL(page.url());
  expect(url.host, "host").toBe(new URL(GLOBEX).host);
  expect(url.pathname, "Globex sends the Acme user to its own login").toBe("/login");
  await page.getByRole("heading", { name: "Sign in to Globex Building Services" }).waitFor();
  expect(await page.getByLabel(/^Account menu for /).count(), "not signed in on Globex").toBe(0);
});

scenario("superadmin@workspace.test signs in on the bare domain with the e-mailed code and lands on /superadmin", async ({ page, js }) => {
  const since = Date.now();
  await submitLogin(page, { origin: BASE, email: ACCOUNTS.superadmin, js });
  // Platform sign-in always takes the second step.
  await page.waitForURL((u) => u.pathname === "/login/verify");
  await enterCode(page, await mailedCode(ACCOUNTS.superadmin, since), js);
  await page.waitForURL((u) => u.pathname === "/superadmin", { timeout: 15_000 });
  expect(new URL(page.url()).host, "bare domain").toBe(new URL(BASE).host);
  await page.getByRole("heading", { name: "Platform administration" }).waitFor();
  await page.getByText("Signed in as superadmin@workspace.test").waitFor();
});

scenario("a staff member signing in on the bare domain is handed to the tenant host", async ({ page, js }) => {
  await submitLogin(page, { origin: BASE, email: ACCOUNTS.globexAdmin, js });
  // The hand-over page names the account and the workspace and waits for a click, with or
  // without JavaScript: a link someone else sent must not sign the visitor in by itself.
  await page.waitForURL((u) => u.host === new URL(GLOBEX).host && u.pathname === "/accept-session");
  await waitForHydration(page, js);
  await page.getByRole("button", { name: `Continue to Globex Building Services as ${ACCOUNTS.globexAdmin}` }).click();
  // Globex has no modules: home is /welcome.
  await page.waitForURL((u) => u.host === new URL(GLOBEX).host && u.pathname === "/welcome", { timeout: 15_000 });
  await page.getByRole("heading", { name: "Welcome to Globex Building Services" }).waitFor();
  expect(await page.getByTestId("tenant-name").innerText(), "tenant name in the header").toBe("Globex Building Services");
  await page.getByLabel("Account menu for Gina Admin").waitFor();
  // The token is single-use and gone from the address bar.
  expect(new URL(page.url()).search, "no token left in the URL").toBe("");
});
