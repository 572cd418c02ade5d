// Team administration and the account page (issue 16): an invitation activated from the dev
// mailbox's link, disabling a user (their browser is signed out at once) and one's own sessions,
// each with and without JavaScript.
import {
  ACCOUNTS,
  expect,
  expectToast,
  newContext,
  newPage,
  openUserMenu,
  RUN,
  scenario,
  signIn,
  tenantUrl,
  waitForHydration,
  waitForMail,
} from "./helpers.mjs";

const NEW_PASSWORD = "team-e2e-password-2026";
let seq = 0;

/** Invites a fresh person from /settings/users (the admin's page), activates them from the e-mailed link in `other`, returns their e-mail. */
async function inviteAndActivate(page, other, js, name) {
  const email = `team-${RUN}-${js ? "js" : "nojs"}-${++seq}@acme.test`;
  await page.goto(tenantUrl("acme", "/settings/users"));
  await waitForHydration(page, js);
  const since = Date.now();
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Name (optional)").fill(name);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Standard" });
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expectToast(page, "Invitation sent");
  const row = page.locator(`tr[data-user="${email}"]`);
  expect(await row.getByTestId("status").innerText(), "status after invite").toBe("Invited");

  const mail = await waitForMail(email, { since });
  const link = /https?:\/\/\S+\/activate\?token=\S+/.exec(mail.text)?.[0];
  expect(link, "activation link in the e-mail").toBeTruthy();
  await other.goto(link);
  await other.getByRole("heading", { name: "Activate your account" }).waitFor();
  await waitForHydration(other, js);
  await other.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await other.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
  await other.getByRole("button", { name: "Activate account" }).click();
  // Activation signs the person in: they land in the workspace (acme's first module), not on the sign-in page.
  await other.waitForURL((u) => u.pathname === "/cis", { timeout: 15_000 });
  await expectToast(other, "Account activated");
  return { email, link };
}

scenario("an admin invites someone from the Users page; the e-mailed link activates the account once and signs them in", async ({ page, browser, js }) => {
  await signIn(page, { email: ACCOUNTS.acmeAdmin, js });
  const menu = await openUserMenu(page);
  await menu.getByRole("link", { name: "Users" }).click();
  await page.getByRole("heading", { level: 1, name: "Users" }).waitFor();

  const ctx = await newContext(browser, js);
  const invitee = await newPage(ctx);
  const { email, link } = await inviteAndActivate(page, invitee, js, "Ivy Invited");
  // Signed in by the activation itself.
  await invitee.goto(tenantUrl("acme", "/account"));
  expect(await invitee.getByText(`Signed in as ${email}`).count(), "signed in as the new person").toBe(1);

  // The link worked once.
  await invitee.goto(link);
  expect(await invitee.getByTestId("link-problem").innerText(), "reused link").toContain("already been used");
  await page.reload();
  expect(await page.locator(`tr[data-user="${email}"]`).getByTestId("status").innerText(), "status after activation").toBe("Active");
  await ctx.close();
});

scenario("disabling a user asks first and signs them out at once", async ({ page, browser, js }) => {
  await signIn(page, { email: ACCOUNTS.acmeAdmin, js });
  const ctx = await newContext(browser, js);
  const person = await newPage(ctx);
  const { email } = await inviteAndActivate(page, person, js, "Dan Departing");

  await page.goto(tenantUrl("acme", `/settings/users?q=${encodeURIComponent(email)}`));
  await waitForHydration(page, js);
  const row = page.locator(`tr[data-user="${email}"]`);
  if (js) {
    page.once("dialog", (d) => d.accept());
    await row.getByRole("button", { name: "Disable" }).click();
  } else {
    await row.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("alertdialog").getByRole("heading", { name: "Disable this user?" }).waitFor();
    await page.getByRole("button", { name: "Yes, disable" }).click();
  }
  await expectToast(page, "User disabled");
  expect(await page.locator(`tr[data-user="${email}"]`).getByTestId("status").innerText(), "status").toBe("Disabled");

  await person.goto(tenantUrl("acme", "/account"));
  await person.waitForURL((u) => u.pathname === "/login");
  await ctx.close();
});

scenario("the account page lists one's sessions; ending another signs that browser out, ending this one signs out here", async ({ page, browser, js }) => {
  await signIn(page, { email: ACCOUNTS.acmeAdmin, js });
  const ctx = await newContext(browser, js);
  const mine = await newPage(ctx);
  const { email } = await inviteAndActivate(page, mine, js, "Sam Sessions");
  const ctx2 = await newContext(browser, js);
  const elsewhere = await newPage(ctx2);
  await signIn(elsewhere, { email, password: NEW_PASSWORD, js });

  const menu = await openUserMenu(mine);
  await menu.getByRole("link", { name: "Account" }).click();
  await mine.getByRole("heading", { level: 1, name: "Account" }).waitFor();
  await waitForHydration(mine, js);
  expect(await mine.locator("tr[data-session=current]").innerText(), "this session").toContain("This session");
  expect(await mine.locator("tr[data-session=other]").count(), "other sessions").toBe(1);

  await mine.locator("tr[data-session=other]").getByRole("button", { name: "End session" }).click();
  await expectToast(mine, "Session ended");
  expect(await mine.locator("tr[data-session=other]").count(), "other sessions after").toBe(0);
  await elsewhere.reload();
  await elsewhere.waitForURL((u) => u.pathname === "/login");

  await mine.getByRole("button", { name: "Sign out this session" }).click();
  await mine.waitForURL((u) => u.pathname === "/login");
  await mine.goto(tenantUrl("acme", "/account"));
  await mine.waitForURL((u) => u.pathname === "/login");
  await ctx.close();
  await ctx2.close();
});
