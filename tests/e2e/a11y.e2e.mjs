// Accessibility: axe-core on the key pages of each shell, in the light theme and in the dark one
// (the seeded people follow the system theme, so the browser's colour scheme switches it).
import {
  BASE,
  createSubcontractor,
  expect,
  expectNoAxeViolationsOf,
  expectNoSeriousAxeViolations,
  newContext,
  newPage,
  RUN,
  scenario,
  SHELL_AXE_RULES,
  searchSubcontractors,
  signIn,
  tenantUrl,
  uniqueUtr,
  waitForHydration,
  waitForMail,
  withScreenshotOnFailure,
} from "./helpers.mjs";

const SCHEMES = ["light", "dark"];

/** Opens `url` in each colour scheme and runs axe on it. */
async function scan(page, url, { js = true, only } = {}) {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await page.goto(url);
    await waitForHydration(page, js);
    const theme = await page.locator("html").getAttribute("data-theme");
    // The page must really be in that scheme for the dark run to mean anything.
    expect(theme === "system" || theme === colorScheme, `${url} follows the ${colorScheme} scheme (data-theme=${theme})`).toBe(true);
    const label = `${new URL(url).pathname} (${colorScheme})`;
    await expectNoSeriousAxeViolations(page, { only, label });
    // One main landmark (the skip link's target), at most one banner, and the account menu named by its visible text.
    await expectNoAxeViolationsOf(page, SHELL_AXE_RULES, { label });
  }
}

scenario(
  "the CIS pages and the branding settings have no serious axe violations, light and dark",
  async ({ page, js }) => {
    await signIn(page, { js });
    for (const path of ["/cis", "/cis/invoices", "/cis/subcontractors", "/cis/returns", "/cis/settings", "/settings/branding"]) {
      await scan(page, tenantUrl("acme", path), { js });
    }
  },
  { modes: [true], timeout: 120_000 },
);

scenario(
  "the public home page has no serious axe violations, light and dark",
  async ({ page, js }) => {
    await scan(page, `${BASE}/`, { js });
  },
  { modes: [true], timeout: 60_000 },
);

scenario(
  "the subcontractor portal's home page has no serious axe violations, light and dark",
  async ({ page, browser, js }) => {
    const name = `E2E A11y ${RUN}`;
    const email = `a11y-${RUN}@example.test`;
    await signIn(page, { js });
    await createSubcontractor(page, { name, utr: uniqueUtr(), email, js });
    await searchSubcontractors(page, { q: name });
    const row = page.locator("tbody tr").filter({ hasText: name });
    await row.waitFor();
    await waitForHydration(page, js);
    await row.getByRole("link", { name: "Invite to Portal", exact: true }).click();
    const panel = page.getByRole("dialog");
    const since = Date.now();
    await panel.getByRole("button", { name: "Create & Send Invite", exact: true }).click();
    await panel.getByRole("heading", { name: "Invitation Created" }).waitFor({ timeout: 15_000 });
    // The link goes to the subcontractor by e-mail; staff see it only on the recorded Show link step.
    const mail = await waitForMail(email, { since });
    const link = /https?:\/\/[^\s"'<>]+\/portal\/auth\?token=[^\s"'<>&]+/.exec(mail.text)?.[0];
    expect(Boolean(link), "a portal link in the invitation e-mail").toBe(true);

    const subContext = await newContext(browser, js);
    try {
      const sub = await newPage(subContext);
      await withScreenshotOnFailure(sub, "a11y portal home", async () => {
        await sub.goto(link);
        await waitForHydration(sub, js);
        await sub.getByRole("button", { name: "Continue", exact: true }).click();
        await sub.waitForURL((u) => u.pathname === "/portal");
        await scan(sub, tenantUrl("acme", "/portal"), { js });
        await scan(sub, tenantUrl("acme", "/portal/invoices"), { js });
      });
    } finally {
      await subContext.close();
    }
  },
  { modes: [true], timeout: 120_000 },
);
