// The statements screen (issue 11), signed in as admin@acme.test, with and without JavaScript:
// Generate for one subcontractor, and Generate All as a background job whose progress the page
// follows (a <noscript> refresh without JavaScript, loader revalidation with it) until it reports
// 'Batch Generation Complete'. Each scenario makes its own subcontractor and approved invoice dated
// today, unique per run and mode, so its row is pending in the current tax month. Issuing and the
// downloads belong to their own routes; here only their links and forms are checked.
import {
  createSubcontractor,
  expect,
  expectToast,
  londonDate,
  RUN,
  scenario,
  searchSubcontractors,
  signIn,
  tenantUrl,
  waitForHydration,
  waitForMail,
} from "./helpers.mjs";

const mode = (js) => (js ? "js" : "nojs");

/**
 * A subcontractor with one invoice of today (1,000.00 gross, 300.00 materials: CIS 140.00),
 * approved and paid today, so pending its statement, all through the pages. Returns the subcontractor's name.
 */
async function pendingStatement(page, { js, tag, email = "" }) {
  const name = `E2E Statement ${tag} ${RUN} ${mode(js)}`;
  await createSubcontractor(page, { name, email, js });
  await searchSubcontractors(page, { q: name });
  const details = page.locator("tbody tr").filter({ hasText: name }).getByRole("link", { name: "View Details", exact: true });
  const subcontractorId = (await details.getAttribute("href"))?.split("/").pop();
  expect(Boolean(subcontractorId), "subcontractor id from its link").toBe(true);

  await page.goto(tenantUrl("acme", `/cis/invoices/new?subcontractorId=${subcontractorId}`));
  await waitForHydration(page, js);
  await page.getByLabel("Invoice Number *", { exact: true }).fill(`E2E-STMT-${tag}-${RUN}-${mode(js)}`);
  await page.getByLabel("Invoice Date *", { exact: true }).fill(londonDate());
  await page.getByLabel("Gross Amount (£) *", { exact: true }).fill("1000.00");
  await page.getByLabel("Materials (£)", { exact: true }).fill("300.00");
  await page.getByRole("button", { name: "Create Invoice", exact: true }).click();
  await page.waitForURL((url) => /^\/cis\/invoices\/(?!new$)[^/]+$/.test(url.pathname));
  await waitForHydration(page, js);

  const toolbar = page.getByRole("toolbar", { name: "Invoice actions" });
  await toolbar.getByRole("button", { name: "Approve", exact: true }).click();
  await expectToast(page, "Invoice approved");
  await waitForHydration(page, js);
  // The approval itself marked it as needing a statement; it goes on one once paid (today).
  await toolbar.getByRole("button", { name: "Mark Paid", exact: true }).click();
  await expectToast(page, "Invoice marked paid");
  return { name, subcontractorId };
}

async function openStatements(page, js, search = "") {
  await page.goto(tenantUrl("acme", `/cis/statements${search}`));
  await page.getByRole("heading", { name: "Statements by Subcontractor" }).waitFor();
  await waitForHydration(page, js);
}

const rowOf = (page, subcontractorId) => page.locator(`[data-subcontractor="${subcontractorId}"]`);

scenario("statements: Generate makes one subcontractor's statement, with its downloads and issue buttons", async ({ page, js }) => {
  await signIn(page, { js });
  const { name, subcontractorId } = await pendingStatement(page, { js, tag: "ONE" });

  await openStatements(page, js, "?filter=pending");
  const row = rowOf(page, subcontractorId);
  expect(await row.getAttribute("data-row-status"), "pending before").toBe("pending");
  expect(await row.locator("[data-invoice-count]").innerText(), "invoice count").toBe("1 invoice");
  expect(await row.locator("[data-total-cis]").innerText(), "total CIS").toBe("CIS £140.00");
  // The row opens without JavaScript too: it is a <details>.
  await row.locator("summary").click();
  await row.getByRole("button", { name: `Generate statement for ${name}` }).click();
  await expectToast(page, "Statement Generated");
  expect(new URL(page.url()).searchParams.get("filter"), "filter kept").toBe("pending");

  await openStatements(page, js, "?filter=generated");
  const generated = rowOf(page, subcontractorId);
  expect(await generated.getAttribute("data-row-status"), "generated after").toBe("generated");
  await generated.locator("summary").click();
  expect(await generated.getByRole("link", { name: `Download HTML statement for ${name}` }).count(), "HTML download").toBe(1);
  expect(await generated.getByRole("link", { name: `Download PDF statement for ${name}` }).count(), "PDF download").toBe(1);
  const issue = generated.getByRole("group", { name: `Issue statement for ${name}` });
  expect((await issue.getByRole("button").allInnerTexts()).join(", "), "issue buttons").toBe("Email, Portal, Print");
});

scenario(
  "statements: Generate All runs in the background, shows its progress, and ends with 'Batch Generation Complete'",
  async ({ page, js }) => {
    await signIn(page, { js });
    const { subcontractorId } = await pendingStatement(page, { js, tag: "ALL" });

    await openStatements(page, js);
    expect(await rowOf(page, subcontractorId).getAttribute("data-row-status"), "pending before").toBe("pending");
    await page.getByRole("button", { name: "Generate All", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/cis/statements" && u.searchParams.has("job"));

    // The page follows the job by itself (no reload from the test), whichever state it finds first.
    const done = page.locator('[data-batch="complete"], [data-batch="warning"]');
    await done.waitFor({ timeout: 30_000 });
    expect(await done.locator("p").first().innerText(), "outcome").toBe("Batch Generation Complete");
    expect(Number((await done.locator("[data-batch-generated]").innerText()).split(" ")[0]) >= 1, "generated at least ours").toBe(true);
    await page.locator(`[data-subcontractor="${subcontractorId}"][data-row-status="generated"]`).waitFor();

    // Nothing is left to generate for the month now.
    await waitForHydration(page, js);
    await page.getByRole("button", { name: "Generate All", exact: true }).click();
    const none = await expectToast(page, "No Pending Statements");
    expect(await none.innerText(), "no pending message").toContain("All subcontractors already have statements for this tax month.");
  },
  { timeout: 60_000 },
);

scenario("statements: issue by e-mail sends the subcontractor the PDF, the row shows it issued, and the PDF downloads", async ({ page, js }) => {
  await signIn(page, { js });
  const email = `e2e-statement-${RUN}-${mode(js)}@example.test`.toLowerCase();
  const { name, subcontractorId } = await pendingStatement(page, { js, tag: "MAIL", email });

  await openStatements(page, js, "?filter=pending");
  const row = rowOf(page, subcontractorId);
  await row.locator("summary").click();
  await row.getByRole("button", { name: `Generate statement for ${name}` }).click();
  await expectToast(page, "Statement Generated");

  await openStatements(page, js, "?filter=generated");
  const generated = rowOf(page, subcontractorId);
  await generated.locator("summary").click();
  const download = page.waitForEvent("download");
  await generated.getByRole("link", { name: `Download PDF statement for ${name}` }).click();
  const file = await download;
  expect(/^CIS_Statement_\d{4}-\d{2}_.+\.pdf$/.test(file.suggestedFilename()), `file name ${file.suggestedFilename()}`).toBe(true);

  const since = Date.now() - 1_000;
  await generated
    .getByRole("group", { name: `Issue statement for ${name}` })
    .getByRole("button", { name: `Issue statement for ${name} by email`, exact: true })
    .click();
  await expectToast(page, "Statement issued by e-mail");
  const mail = await waitForMail(email, { since });
  expect(mail.subject, "subject").toContain("CIS payment and deduction statement for");
  expect(JSON.stringify(mail.attachments ?? []), "PDF attached").toContain(".pdf");

  await openStatements(page, js, "?filter=issued");
  expect(await rowOf(page, subcontractorId).getAttribute("data-row-status"), "issued after").toBe("issued");
});
