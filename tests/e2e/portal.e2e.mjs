// Subcontractor portal (issue 5): a contractor invites a subcontractor from the list; the
// subcontractor opens the one-time link in their own browser and lands on their portal page.
// The link goes by e-mail; the invite result shows it only on the recorded 'Show link' step,
// and whoever saw it cannot approve what is submitted through it.
import {
  ACME,
  createSubcontractor,
  expect,
  expectFitsPhone,
  expectKeyColumnsOnPhone,
  newContext,
  newPage,
  RUN,
  scenario,
  searchSubcontractors,
  signIn,
  uniqueUtr,
  waitForHydration,
  waitForMail,
  withScreenshotOnFailure,
} from "./helpers.mjs";

const LINK_LABEL = "Portal access link (expires in 15 minutes)";
// The seeded admin the contractor signs in as.
const ADMIN_NAME = "Alice Admin";

scenario(
  "an invited subcontractor opens the portal link once and sees their masked details",
  async ({ page, browser, js }) => {
    const tag = `${RUN}-${js ? "js" : "nojs"}`;
    const name = `E2E Portal ${RUN} ${js ? "js" : "nojs"}`;
    const email = `portal-${tag}@example.test`;
    const utr = uniqueUtr();

    // The contractor: create a subcontractor with an e-mail, find it, invite it from its row.
    await signIn(page, { js });
    await createSubcontractor(page, { name, utr, email, js });
    await searchSubcontractors(page, { q: name });
    const row = page.locator("tbody tr").filter({ hasText: name });
    await row.waitFor();
    await waitForHydration(page, js);
    await row.getByRole("link", { name: "Invite to Portal", exact: true }).click();

    // With JavaScript a modal dialog; without, the invite page. Same content either way.
    const panel = js ? page.getByRole("dialog") : page.locator("#main");
    if (!js) await page.waitForURL((u) => /^\/cis\/subcontractors\/[^/]+\/invite$/.test(u.pathname));
    await panel.getByRole("heading", { name: "Invite Subcontractor to Portal" }).waitFor();
    await panel.getByText(email, { exact: true }).waitFor();
    const since = Date.now();
    await panel.getByRole("button", { name: "Create & Send Invite", exact: true }).click();
    await panel.getByRole("heading", { name: "Invitation Created" }).waitFor({ timeout: 15_000 });
    await panel.getByText(`Invitation email sent to ${email}`).waitFor();
    // The e-mail went: the result does not show the link until asked, and says what asking means.
    expect(await panel.getByLabel(LINK_LABEL).count(), "no link before Show link").toBe(0);
    await panel.getByText("you will not be able to approve or pay invoices submitted through it", { exact: false }).waitFor();
    await panel.getByRole("button", { name: "Show link", exact: true }).click();
    await panel.getByLabel(LINK_LABEL).waitFor({ timeout: 15_000 });
    const link = await panel.getByLabel(LINK_LABEL).inputValue();
    const linkUrl = new URL(link);
    expect(linkUrl.host, "link host").toBe(new URL(ACME).host);
    expect(linkUrl.pathname, "link path").toBe("/portal/auth");
    expect(Boolean(linkUrl.searchParams.get("token")), "link carries a token").toBe(true);
    await panel.getByText("This link can only be used once.").waitFor();
    await panel.getByText("This link is recorded as shown to you.", { exact: false }).waitFor();
    if (js) expect(await panel.getByRole("button", { name: "Copy Link to Clipboard", exact: true }).count(), "copy button").toBe(1);
    // The link shown is the one e-mailed, not a second one.
    const mail = await waitForMail(email, { since });
    expect(mail.text.includes(link), "the shown link is the e-mailed one").toBe(true);

    // The subcontractor: their own browser, no staff session.
    const subContext = await newContext(browser, js);
    try {
      const sub = await newPage(subContext);
      await withScreenshotOnFailure(sub, `portal subcontractor ${js ? "js" : "no-js"}`, async () => {
        const first = await sub.goto(link);
        expect(first?.status(), "confirm page status").toBe(200);
        await sub.getByRole("heading", { name: "Continue to the Acme Construction Ltd portal" }).waitFor();
        await waitForHydration(sub, js);
        const [answer] = await Promise.all([
          sub.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/portal/auth")),
          sub.getByRole("button", { name: "Continue", exact: true }).click(),
        ]);
        // Fail fast (and say why) when the sign-in POST itself is refused.
        expect(answer.status() === 403 ? `403: ${await answer.text()}` : "accepted", "Continue's POST").toBe("accepted");
        await sub.waitForURL((u) => u.pathname === "/portal", { timeout: 15_000 });

        expect(await sub.getByTestId("portal-subcontractor").innerText(), "portal heading").toBe(name);
        expect(await sub.getByTestId("portal-contractor").innerText(), "contractor").toBe("Acme Construction Ltd");
        const details = sub.getByRole("region", { name: "Your details" });
        const detail = async (label) =>
          (
            await details
              .locator("div")
              .filter({ has: sub.locator("dt", { hasText: label }) })
              .locator("dd")
              .innerText()
          ).trim();
        expect(await detail("UTR"), "UTR shown masked").toBe(`******${utr.slice(-4)}`);
        expect(await detail("Contact e-mail"), "e-mail shown masked").toBe("p***@e***.test");
        expect(await detail("Type"), "type").toBe("Individual");
        expect(await detail("Verification"), "verification").toBe("Standard (20%)");
        const html = await sub.content();
        expect(html.includes(utr), "plaintext UTR in the portal page").toBe(false);
        expect(html.includes(email), "plaintext e-mail in the portal page").toBe(false);
        // Nothing of the staff workspace.
        expect(await sub.getByRole("navigation", { name: "Modules" }).count(), "no staff navigation").toBe(0);
        await sub.getByRole("button", { name: "Sign out", exact: true }).waitFor();
        expect(await detail("Verified"), "verified date").toBe("N/A");

        // Issue 13: the subcontractor submits an invoice; it waits for the contractor's approval.
        const invoiceNumber = `E2E-PORTAL-${tag}`;
        await sub.getByRole("link", { name: "Submit an invoice", exact: true }).click();
        await sub.waitForURL((u) => u.pathname === "/portal/invoices/new");
        await waitForHydration(sub, js);
        await sub.getByLabel("Invoice Number *").fill(invoiceNumber);
        await sub.getByLabel("Gross Amount (£) *").fill("1,000.00");
        await sub.getByLabel("Materials (£)").fill("200.00");
        await sub.getByRole("button", { name: "Submit invoice", exact: true }).click();
        await sub.waitForURL((u) => u.pathname === "/portal/invoices", { timeout: 15_000 });
        const invoiceRow = sub.getByTestId("portal-invoices").locator("tbody tr").filter({ hasText: invoiceNumber });
        await invoiceRow.waitFor();
        expect(await invoiceRow.innerText(), "submitted invoice row").toContain("Awaiting approval");
        expect(await invoiceRow.innerText(), "CIS at the subcontractor's rate").toContain("£160.00 (20%)");
        // Issue 25: with rows in them, the portal's tables scroll inside their own box on a phone.
        await expectFitsPhone(sub, "/portal/invoices with an invoice");
        await expectKeyColumnsOnPhone(sub.getByTestId("portal-invoices"), ["Invoice", "Net", "Status"], "/portal/invoices");
        await sub.goto(`${ACME}portal`);
        await sub.getByTestId("portal-invoices").locator("tbody tr").filter({ hasText: invoiceNumber }).waitFor();
        await expectFitsPhone(sub, "/portal with an invoice");

        // The staff side: the invoice names who saw the link, and they are not offered Approve.
        await page.goto(`${ACME}cis/invoices?q=${encodeURIComponent(invoiceNumber)}`);
        const staffRow = page.locator("tbody tr").filter({ hasText: invoiceNumber });
        await staffRow.waitFor();
        expect(await staffRow.locator("[data-link-revealed]").getAttribute("title"), "list mark").toBe(`Submitted through a link shown to ${ADMIN_NAME}`);
        await waitForHydration(page, js);
        await staffRow.getByRole("link", { name: invoiceNumber, exact: true }).click();
        await page.waitForURL((u) => /^\/cis\/invoices\/[^/]+$/.test(u.pathname));
        await page.getByText(`Submitted through a link shown to ${ADMIN_NAME}`).waitFor();
        await page.getByText("You revealed the portal link this invoice was submitted through, so another person must approve it.").waitFor();
        const toolbar = page.getByRole("toolbar", { name: "Invoice actions" });
        await toolbar.getByRole("button", { name: "Reject", exact: true }).waitFor();
        expect(await toolbar.getByRole("button", { name: "Approve", exact: true }).count(), "no Approve for whoever saw the link").toBe(0);

        // The same link a second time: refused.
        const again = await sub.goto(link);
        expect(again?.status(), "second use status").toBe(410);
        await sub.getByRole("heading", { name: "This link has already been used" }).waitFor();
        expect(await sub.getByRole("button", { name: "Continue", exact: true }).count(), "no Continue button").toBe(0);
        if (sub.problems.length) throw new Error(`the subcontractor's page reported errors:\n      ${sub.problems.join("\n      ")}`);
      });
    } finally {
      await subContext.close().catch(() => {});
    }
  },
  { timeout: 60_000 },
);
