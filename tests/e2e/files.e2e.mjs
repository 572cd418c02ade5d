// Files (issue 14), signed in as admin@acme.test (Acme has the Files module): upload a file, find
// it in the list, and delete it through the bulk bar, with JavaScript (progress by XMLHttpRequest,
// a confirm dialog) and without (a plain multipart form, the server's confirmation step).
import { Buffer } from "node:buffer";
import { expect, expectToast, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";
import { PDFDocument } from "pdf-lib";

scenario("files: upload a file, see it in the list, delete it", async ({ page, js }) => {
  await signIn(page, { js });
  const name = `e2e-${js ? "js" : "nojs"}-${Date.now()}.txt`;

  await page.goto(tenantUrl("acme", "/files/upload"));
  await page.getByRole("heading", { name: "Upload File" }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from("hello from the browser test\n") });
  await page.getByRole("button", { name: "Upload File", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
  if (!js) await expectToast(page, `Uploaded ${name}`);

  await page.getByRole("table", { name: "Files" }).waitFor();
  await waitForHydration(page, js);
  const row = page.locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) });
  await row.waitFor();

  // The preview shows a text file as text.
  await row.getByRole("link", { name, exact: true }).click();
  await page.getByTestId("text-preview").waitFor();
  expect(await page.getByTestId("text-preview").innerText(), "text preview").toContain("hello from the browser test");
  await page.goto(tenantUrl("acme", "/files/all"));
  await page.getByRole("table", { name: "Files" }).waitFor();
  await waitForHydration(page, js);

  await row.getByRole("checkbox", { name: `Select ${name}` }).check();
  if (js) await page.getByText("1 item(s) selected").waitFor();
  let dialogText = null;
  if (js) {
    page.once("dialog", (d) => {
      dialogText = d.message();
      d.accept();
    });
  }
  await page.getByRole("form", { name: "Bulk actions" }).getByRole("button", { name: "Delete", exact: true }).click();
  if (!js) {
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: "Delete 1 file(s)?" }).waitFor();
    expect(await confirm.innerText(), "confirmation text").toContain("This action cannot be undone.");
    await confirm.getByRole("button", { name: "Confirm delete", exact: true }).click();
  }
  await expectToast(page, "Deleted 1 file(s)");
  if (js) expect(dialogText, "confirm dialog").toBe("Delete 1 file(s)?\nThis action cannot be undone.");
  await page.locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) }).waitFor({ state: "detached", timeout: 5_000 });
});

scenario(
  "files: with JavaScript a file above the multipart threshold goes up in parts and is listed",
  async ({ page, js }) => {
    await signIn(page, { js });
    const name = `e2e-parts-${Date.now()}.txt`;
    // The threshold is lowered (a development-only query parameter) so a small file takes the parts path.
    await page.goto(tenantUrl("acme", "/files/upload?multipartThreshold=1000"));
    await page.getByRole("heading", { name: "Upload File" }).waitFor();
    await waitForHydration(page, js);
    const parts = [];
    page.on("request", (r) => {
      if (r.url().includes("/files/upload/multipart")) parts.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    });
    await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from("in parts\n".repeat(400)) });
    await page.getByRole("button", { name: "Upload File", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
    expect(
      parts.some((p) => /^PUT \/files\/upload\/multipart\/[^/?]+\?part=1$/.test(p)),
      `part request among ${parts.join(", ")}`,
    ).toBe(true);
    await page.getByRole("table", { name: "Files" }).waitFor();
    await page.locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) }).waitFor();
  },
  { modes: [true] },
);

scenario("files: a folder is created and its breadcrumbs lead back", async ({ page, js }) => {
  await signIn(page, { js });
  const folder = `E2E ${js ? "JS" : "No JS"} ${Date.now()}`;
  await page.goto(tenantUrl("acme", "/files/folders"));
  await waitForHydration(page, js);
  const form = page.getByRole("form", { name: "New Folder" });
  await form.getByLabel("Name").fill(folder);
  await form.getByRole("button", { name: "New Folder", exact: true }).click();
  await page.getByRole("heading", { name: folder }).waitFor();
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Folders", exact: true }).click();
  await page.getByRole("link", { name: folder }).waitFor();
});

// Chromium's built-in PDF viewer: the preview's frame hands the PDF to it, even though the file is
// served with the sandbox CSP (which keeps anything else in the upload from running as the app).
const CHROMIUM_PDF_VIEWER = "chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/";

scenario("files: a PDF previews inline in the browser's PDF viewer", async ({ page, js }) => {
  await signIn(page, { js });
  const doc = await PDFDocument.create();
  doc.addPage().drawText("Preview me");
  const name = `preview-${js ? "js" : "nojs"}-${Date.now()}.pdf`;
  await page.goto(tenantUrl("acme", "/files/upload"));
  await page.getByRole("heading", { name: "Upload File" }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(await doc.save()) });
  await page.getByRole("button", { name: "Upload File", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
  await page.getByRole("link", { name, exact: true }).click();
  const preview = page.locator(`iframe[title="${name}"]`);
  await preview.waitFor();
  expect(await preview.getAttribute("src"), "preview source").toMatch(/^\/files\/file\/[^/]+\/content$/);
  const deadline = Date.now() + 10_000;
  while (!page.frames().some((f) => f.url().startsWith(CHROMIUM_PDF_VIEWER)) && Date.now() < deadline) await page.waitForTimeout(200);
  expect(
    page.frames().some((f) => f.url().startsWith(CHROMIUM_PDF_VIEWER)),
    "the PDF viewer opened in the preview",
  ).toBe(true);
  expect(
    page.frames().some((f) => f.url().startsWith("chrome-error:")),
    "a blocked frame",
  ).toBe(false);
});

scenario("files: a download starts from the file page, with the spec's toasts when JavaScript runs", async ({ page, context, js }) => {
  await signIn(page, { js });
  const name = `download-${js ? "js" : "nojs"}-${Date.now()}.txt`;
  await page.goto(tenantUrl("acme", "/files/upload"));
  await page.getByRole("heading", { name: "Upload File" }).waitFor();
  await waitForHydration(page, js);
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from("download me\n") });
  await page.getByRole("button", { name: "Upload File", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
  await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { name }).waitFor();
  await waitForHydration(page, js);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download", exact: true }).click()]);
  expect(download.suggestedFilename(), "file name").toBe(name);
  if (!js) return;
  await expectToast(page, "Download started");

  // An answer that is not the file (here: it is gone) is a failed download, opened in a new tab.
  const link = page.locator("a[data-download-link]").first();
  await link.evaluate((a) => a.setAttribute("href", a.getAttribute("href")?.replace(/\/file\/[^/]+\//, "/file/no-such-file/") ?? ""));
  const [opened] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: "Download", exact: true }).click()]);
  await expectToast(page, "Download failed. Opening in new tab...");
  await opened.waitForLoadState();
  expect(new URL(opened.url()).pathname, "the new tab").toMatch(/^\/files\/file\/no-such-file\/download$/);
  // The error page refused to show in the hidden frame (the app's pages may not be framed): expected here.
  page.problems = page.problems.filter((p) => !/Refused to display .* in a frame|"frame-ancestors 'none'"/.test(p));
});
