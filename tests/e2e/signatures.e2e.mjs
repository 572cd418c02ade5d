// E-signature (issue 15), on Acme: admin@acme.test uploads a PDF and asks lead@acme.test to sign
// it; the lead goes through the three steps with a typed signature (plain forms without
// JavaScript, the Type tab with it), and the stamped PDF becomes the file's version 2.
import { Buffer } from "node:buffer";
import { PDFDocument } from "pdf-lib";
import { ACCOUNTS, expect, expectToast, newContext, newPage, scenario, signIn, tenantUrl, waitForHydration } from "./helpers.mjs";

scenario(
  "signatures: request a signature, sign it with a typed name, see the signed file",
  async ({ page, browser, js }) => {
    await signIn(page, { js });
    const doc = await PDFDocument.create();
    doc.addPage().drawText("Subcontract agreement");
    const name = `sign-${js ? "js" : "nojs"}-${Date.now()}.pdf`;
    await page.goto(tenantUrl("acme", "/files/upload"));
    await page.getByRole("heading", { name: "Upload File" }).waitFor();
    await waitForHydration(page, js);
    await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(await doc.save()) });
    await page.getByRole("button", { name: "Upload File", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
    await page.getByRole("link", { name, exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/files/file/"));
    const filePath = new URL(page.url()).pathname;

    // Request Signature from the lead.
    const request = page.getByRole("form", { name: "Request Signature" });
    await waitForHydration(page, js);
    if (js) await request.getByPlaceholder("Search team members").fill("liam");
    // Chosen and sent with the keyboard. The form sits below the PDF preview, which Chromium draws
    // in a frame of its own process; a mouse click made at once after scrolling the form into view
    // is hit-tested against where that frame was before the scroll and goes to the PDF viewer, so
    // the radio stays unchecked (seen: a click at the radio's centre lost, the same click 300 ms
    // later taken). A person clicks long after scrolling; the test aims at once.
    const lead = request.getByRole("radio", { name: /lead@acme\.test/ });
    await lead.focus();
    await page.keyboard.press("Space");
    expect(await lead.isChecked(), "the lead is chosen as signer").toBe(true);
    await request.getByRole("button", { name: "Send request" }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Signature request sent");
    await page.getByTestId("signature-state").waitFor();

    // The signer, in a browser of their own.
    const signerContext = await newContext(browser, js);
    try {
      const signer = await newPage(signerContext);
      await signIn(signer, { email: ACCOUNTS.acmeLead, js });
      await signer.goto(tenantUrl("acme", "/files/signatures"));
      const row = signer.locator("tbody tr", { has: signer.getByText(name, { exact: true }) });
      await row.getByRole("link", { name: "Sign", exact: true }).click();
      await signer.getByRole("heading", { name: "Review Document" }).waitFor();
      await signer.getByRole("link", { name: "Next", exact: true }).click();
      await signer.getByRole("heading", { name: "Add Signature" }).waitFor();
      await waitForHydration(signer, js);
      if (js) {
        // Next without a signature is refused on the page.
        await signer.getByRole("button", { name: "Next", exact: true }).click();
        await signer.getByText("Please add your signature first").waitFor();
        // Draw: a stroke on the canvas goes to the server as a PNG and comes back in the preview.
        await signer.getByRole("tab", { name: "Draw" }).click();
        const box = await signer.getByTestId("signature-canvas").boundingBox();
        await signer.mouse.move(box.x + 40, box.y + box.height / 2);
        await signer.mouse.down();
        await signer.mouse.move(box.x + box.width / 2, box.y + 20, { steps: 8 });
        await signer.mouse.move(box.x + box.width - 40, box.y + box.height - 20, { steps: 8 });
        await signer.mouse.up();
        await signer.getByRole("button", { name: "Next", exact: true }).click();
        await signer.getByRole("heading", { name: "Review & Confirm" }).waitFor();
        await signer.getByRole("img", { name: "Your signature" }).waitFor();
        // Back clears it; sign with a typed name instead.
        await signer.getByRole("link", { name: "Back", exact: true }).click();
        await signer.getByRole("heading", { name: "Add Signature" }).waitFor();
        await signer.getByRole("tab", { name: "Type" }).click();
      }
      await signer.getByLabel("Type your name").fill("Liam Lead");
      await signer.getByRole("radio", { name: "Great Vibes" }).check();
      await signer.getByRole("button", { name: "Next", exact: true }).click();
      await signer.getByRole("heading", { name: "Review & Confirm" }).waitFor();
      expect(await signer.getByTestId("signature-preview").innerText(), "signature preview").toContain("Liam Lead");
      await signer.getByRole("checkbox").check();
      await signer.getByRole("button", { name: "Sign Document", exact: true }).click();
      await expectToast(signer, "Document signed successfully! ✅");
      await signer.getByRole("heading", { name: "Document Signed Successfully!" }).waitFor();
      // It closes itself after 2 s and lands on the Signed tab, where the stamping shows once done.
      await signer.waitForURL((u) => u.pathname === "/files/signatures" && u.search.includes("tab=signed"), { timeout: 10_000 });
      let status = "";
      for (let i = 0; i < 30 && !status.includes("PDF signed successfully"); i++) {
        if (i) await signer.waitForTimeout(500);
        await signer.goto(tenantUrl("acme", "/files/signatures?tab=signed"));
        status = await signer.locator("tbody tr", { has: signer.getByText(name, { exact: true }) }).innerText();
      }
      expect(status, "signed row").toContain("PDF signed successfully ✔︎");
    } finally {
      await signerContext.close();
    }

    // The requester's file page: signed, version 2, the original kept as version 1.
    await page.goto(tenantUrl("acme", filePath));
    expect(await page.getByTestId("signature-state").innerText(), "file state").toContain("This document is signed.");
    await page.getByRole("link", { name: "Version 2" }).waitFor();
    await page.getByRole("link", { name: "Version 1" }).waitFor();
  },
  { timeout: 60_000 },
);
