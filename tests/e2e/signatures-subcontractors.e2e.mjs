// Subcontractors who sign (issue 25): admin@acme.test asks a new subcontractor to sign a PDF; the
// subcontractor opens the e-mailed portal link in a browser of their own and signs in the portal
// (a typed name through plain forms without JavaScript, a drawn signature with it); the contractor
// sees the request signed in Signatures.
import { Buffer } from "node:buffer";
import { PDFDocument } from "pdf-lib";
import { createSubcontractor, expect, expectToast, newContext, newPage, RUN, scenario, signIn, tenantUrl, waitForHydration, waitForMail } from "./helpers.mjs";

scenario(
  "signatures: a subcontractor is asked to sign, signs in the portal from the e-mailed link, and the contractor sees it signed",
  async ({ page, browser, js }) => {
    await signIn(page, { js });
    const mode = js ? "js" : "nojs";
    const email = `signer-${RUN}-${mode}@example.test`;
    const subName = `Signing Sub ${RUN} ${mode}`;
    await createSubcontractor(page, { name: subName, email, js });

    const doc = await PDFDocument.create();
    doc.addPage().drawText("Variation 3: extra drainage");
    const name = `variation-${mode}-${Date.now()}.pdf`;
    await page.goto(tenantUrl("acme", "/files/upload"));
    await page.getByRole("heading", { name: "Upload File" }).waitFor();
    await waitForHydration(page, js);
    await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(await doc.save()) });
    await page.getByRole("button", { name: "Upload File", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/files/all", { timeout: 15_000 });
    await page.getByRole("link", { name, exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/files/file/"));

    // Request Signature from the subcontractor (chosen with the keyboard: see signatures.e2e.mjs).
    const request = page.getByRole("form", { name: "Request Signature" });
    await waitForHydration(page, js);
    if (js) await request.getByPlaceholder("Search team members and subcontractors").fill(subName);
    const radio = request.getByRole("radio", { name: new RegExp(email.replace(/[.]/g, "\\.")) });
    await radio.focus();
    await page.keyboard.press("Space");
    expect(await radio.isChecked(), "the subcontractor is chosen as signer").toBe(true);
    const since = Date.now();
    await request.getByRole("button", { name: "Send request" }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Signature request sent");

    const mail = await waitForMail(email, { since, match: (m) => m.subject.includes(name) });
    const link = /https?:\/\/[^\s"'<>]+\/portal\/auth\?token=[^\s"'<>]+/.exec(mail.text)?.[0];
    expect(Boolean(link), "a portal link in the e-mail").toBe(true);

    const subContext = await newContext(browser, js);
    try {
      const sub = await newPage(subContext);
      await sub.goto(link);
      await waitForHydration(sub, js);
      await sub.getByRole("button", { name: "Continue", exact: true }).click();
      await sub.getByRole("heading", { name: "Review Document" }).waitFor();
      expect(new URL(sub.url()).pathname.startsWith("/portal/signatures/"), "lands on the document").toBe(true);
      await sub.getByRole("link", { name: "Next", exact: true }).click();
      await sub.getByRole("heading", { name: "Add Signature" }).waitFor();
      await waitForHydration(sub, js);
      if (js) {
        await sub.getByRole("tab", { name: "Draw" }).click();
        const box = await sub.getByTestId("signature-canvas").boundingBox();
        await sub.mouse.move(box.x + 40, box.y + box.height / 2);
        await sub.mouse.down();
        await sub.mouse.move(box.x + box.width / 2, box.y + 20, { steps: 8 });
        await sub.mouse.move(box.x + box.width - 40, box.y + box.height - 20, { steps: 8 });
        await sub.mouse.up();
        await sub.getByRole("button", { name: "Next", exact: true }).click();
        await sub.getByRole("heading", { name: "Review & Confirm" }).waitFor();
        await sub.getByRole("img", { name: "Your signature" }).waitFor();
      } else {
        await sub.getByLabel("Type your name").fill("Sid Signer");
        await sub.getByRole("radio", { name: "Allura" }).check();
        await sub.getByRole("button", { name: "Next", exact: true }).click();
        await sub.getByRole("heading", { name: "Review & Confirm" }).waitFor();
        expect(await sub.getByTestId("signature-preview").innerText(), "signature preview").toContain("Sid Signer");
      }
      await sub.getByRole("checkbox").check();
      await sub.getByRole("button", { name: "Sign Document", exact: true }).click();
      await sub.getByRole("heading", { name: "Document Signed Successfully!" }).waitFor();
    } finally {
      await subContext.close();
    }

    // The contractor's Signatures list: the subcontractor as signer, stamped once the job ran.
    let status = "";
    for (let i = 0; i < 30 && !status.includes("PDF signed successfully"); i++) {
      if (i) await page.waitForTimeout(500);
      await page.goto(tenantUrl("acme", "/files/signatures?tab=signed"));
      status = await page.locator("tbody tr", { has: page.getByText(name, { exact: true }) }).innerText();
    }
    expect(status, "signed row").toContain(subName);
    expect(status, "signed row").toContain("PDF signed successfully ✔︎");
  },
  { timeout: 90_000 },
);
