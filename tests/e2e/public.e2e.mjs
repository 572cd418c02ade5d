// What exists before sign-in: the public site, tenant resolution and the way into a workspace.
import { ACME, BASE, expect, scenario, tenantUrl } from "./helpers.mjs";

scenario("public landing page renders on the bare domain", async ({ page }) => {
  const res = await page.goto(BASE);
  expect(res?.status(), "status").toBe(200);
  expect(await page.title(), "title").toContain("Workspace");
  const h1 = page.locator("h1");
  expect(await h1.count(), "one h1").toBe(1);
  expect(await h1.innerText(), "headline").toContain("CIS");
  expect(await page.locator("html").getAttribute("lang"), "lang").toBe("en-GB");
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
