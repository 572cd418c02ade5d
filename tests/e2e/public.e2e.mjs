// What exists before sign-in: the public site, tenant resolution and the way into a workspace.
import { ACME, BASE, expect, scenario, tenantUrl, waitForMail } from "./helpers.mjs";

const SALES = "sales@workspace.test";

/** Where a section's top sits in the window once scrolling has settled. */
async function settledTop(page, id) {
  const section = page.locator(`#${id}`);
  let last = Number.NaN;
  for (let i = 0; i < 20; i++) {
    const top = Math.round(await section.evaluate((el) => el.getBoundingClientRect().top));
    if (top === last) return top;
    last = top;
    await page.waitForTimeout(100);
  }
  return last;
}

scenario("public site: navigation, anchors 80 px below the top, the FAQ and the footer", async ({ page }) => {
  const res = await page.goto(BASE);
  expect(res?.status(), "status").toBe(200);
  expect(res?.headers()["cache-control"], "cacheable").toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
  expect(await page.title(), "title").toContain("Workspace");
  expect(await page.locator("h1").count(), "one h1").toBe(1);
  expect(await page.locator("h1").innerText(), "headline").toContain("CIS");
  expect(await page.locator("html").getAttribute("lang"), "lang").toBe("en-GB");

  const nav = page.getByRole("navigation", { name: "Main" });
  expect(await nav.getByRole("link", { name: "Contact" }).getAttribute("href"), "contact").toBe("mailto:hello@workspace.test");
  expect(await nav.getByRole("link", { name: "Log in" }).getAttribute("href"), "log in").toBe("/login");

  for (const [label, id] of [
    ["Industries", "industries"],
    ["Process", "process"],
    ["About", "about"],
  ]) {
    const started = Date.now();
    await nav.getByRole("link", { name: label, exact: true }).click();
    expect(new URL(page.url()).hash, `${label} hash`).toBe(`#${id}`);
    const top = await settledTop(page, id);
    expect(Math.abs(top - 80) <= 2, `${label} section sits 80 px from the top (got ${top})`).toBeTruthy();
    expect(Date.now() - started < 3000, `${label} scroll settled quickly`).toBeTruthy();
  }
  await nav.getByRole("link", { name: "Home", exact: true }).click();
  expect(new URL(page.url()).hash, "home hash").toBe("#top");

  const questions = page.locator("details");
  expect(await questions.count(), "six questions").toBe(6);
  const first = questions.first();
  expect(await first.evaluate((d) => d.open), "closed at first").toBe(false);
  await first.locator("summary").click();
  expect(await first.evaluate((d) => d.open), "opens").toBe(true);
  expect(await first.innerText(), "answer").toContain("7–10 business days");

  await page.getByRole("contentinfo").getByRole("link", { name: "Terms of service" }).click();
  await page.waitForURL(`${BASE}/terms`);
  expect(await page.locator("h1").innerText(), "terms heading").toBe("Terms of service");
});

scenario("Start a project: the drawer on / with JavaScript, the page form without", async ({ page, js }) => {
  const email = `e2e-${js ? "js" : "nojs"}-${Date.now()}@builder.test`;
  const since = Date.now();
  await page.goto(BASE);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Start a project" }).click();
  if (js) {
    const drawer = page.getByRole("dialog", { name: "Start a project" });
    await drawer.waitFor();
    expect(new URL(page.url()).pathname, "stays on /").toBe("/");
    const state = page.locator("[data-drawer-state]");
    expect(await state.getAttribute("data-drawer-state"), "open").toBe("open");
    // The server refuses a malformed address: its message shows beside the field, the drawer stays
    // open with what was typed, and nothing is sent (the browser carries no schema).
    await drawer.getByLabel("Name").fill("Dana Foreman");
    await drawer.getByLabel("Email").fill("not-an-email");
    await drawer.getByRole("button", { name: "Send request" }).click();
    await drawer.getByText("Enter an email address in the correct format, like name@company.co.uk").waitFor();
    expect(await state.getAttribute("data-drawer-state"), "still open").toBe("open");
    expect(await drawer.getByLabel("Name").inputValue(), "name kept").toBe("Dana Foreman");
    await drawer.getByLabel("Email").fill(email);
    await drawer.getByLabel("Company (optional)").fill("Foreman Groundworks Ltd");
    await drawer.getByLabel("Message (optional)").fill("Monthly CIS for 30 subcontractors.");
    await drawer.getByRole("button", { name: "Send request" }).click();
    await drawer.getByRole("status").waitFor();
    expect(await drawer.getByRole("status").innerText(), "thanks").toContain("Thank you");
    expect(await state.getAttribute("data-drawer-state"), "success").toBe("success");
    // A second submit after success is ignored: the button is disabled with the form.
    expect(await drawer.getByRole("button", { name: "Send request" }).isDisabled(), "disabled after success").toBe(true);
    // Closes after 2 s, and opens again with an empty form.
    await drawer.waitFor({ state: "detached", timeout: 4000 });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Start a project" }).click();
    expect(await page.getByRole("dialog", { name: "Start a project" }).getByLabel("Email").inputValue(), "cleared").toBe("");
  } else {
    await page.waitForURL(`${BASE}/start-a-project`);
    expect(await page.locator("h1").innerText(), "page form").toBe("Start a project");
    await page.getByLabel("Name").fill("Dana Foreman");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Message (optional)").fill("Monthly CIS for 30 subcontractors.");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByRole("status").waitFor();
    expect(await page.getByRole("status").innerText(), "thanks").toContain("Thank you");
  }
  const mail = await waitForMail(SALES, { since, match: (m) => m.text.includes(email) });
  expect(mail.subject, "e-mailed to sales").toContain("New project request from Dana Foreman");
});

scenario("content pages share the layout and need no JavaScript; tenant hosts have none", async ({ page }) => {
  const res = await page.goto(`${BASE}/privacy`);
  expect(res?.status(), "status").toBe(200);
  expect(res?.headers()["cache-control"], "cacheable").toMatch(/^public/);
  expect(await page.title(), "title").toBe("Privacy notice | Workspace");
  expect(await page.locator("h1").count(), "one h1").toBe(1);
  expect(await page.locator("main").innerText(), "content").toContain("UK GDPR");
  await page.getByRole("contentinfo").getByRole("link", { name: "Our vision" }).click();
  await page.waitForURL(`${BASE}/vision`);
  expect(await page.locator("h1").innerText(), "vision").toBe("Our vision");
  // A section link on a content page leads to that section of /.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Process", exact: true }).click();
  await page.waitForURL(`${BASE}/#process`);
  expect(await page.locator("#process h2").innerText(), "process section").toBe("Process");

  const tenantPage = await page.goto(tenantUrl("acme", "/vision"));
  expect(tenantPage?.status(), "no public pages on a tenant host").toBe(404);
});

scenario("an unknown tenant shows 'Workspace not found'", async ({ page }) => {
  const res = await page.goto(tenantUrl("nope"));
  expect(res?.status(), "status").toBe(404);
  expect(await page.locator("h1").innerText(), "heading").toBe("Workspace not found");
});

scenario("a tenant's home sends a signed-out visitor to /login", async ({ page }) => {
  const res = await page.goto(ACME);
  const hop = res?.request().redirectedFrom();
  expect(hop?.url(), "redirected from").toBe(ACME);
  expect((await hop?.response())?.status(), "redirect status").toBe(302);
  const url = new URL(page.url());
  expect(url.host, "stays on the tenant's host").toBe(new URL(ACME).host);
  expect(url.pathname, "landed on").toBe("/login");
  // What the sign-in page shows is for sign-in.e2e.mjs; here it only has to be a page.
  expect(res?.status(), "status of /login").toBe(200);
});
