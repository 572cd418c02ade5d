import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { invoiceAmounts, invoiceSchema } from "~/features/cis/domain";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { portalInvoicePdfKey } from "~/features/cis/invoices/portal-invoices.server";
import { PORTAL_PDF_MAX_BYTES } from "~/features/cis/invoices/portal-invoice-codes";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, cisTenant, newEmail, seedSub } from "../factories/cis";
import { all, attr, fieldMessage, isInvalid, one, page, pageText, textOf, valueOf } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";
import { inviteByMail } from "./portal-helpers";

const PORTAL_COOKIE = "__Host-portal";
const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n");

/** Signs the subcontractor into the portal through a real invite link, as their browser would. */
async function portalBrowser(t: TestTenant, staff: Browser, sub: { id: string; email: string | null }): Promise<Browser> {
  const { link } = await inviteByMail(t, staff, sub);
  const browser = new Browser();
  const signed = await browser.post(`${t.origin}/portal/auth`, { token: new URL(link).searchParams.get("token") ?? "" });
  expect(location(signed)).toBe("/portal");
  return browser;
}

/** A tenant, a manager (who invites and approves), and a subcontractor signed into the portal. */
async function setUp(sub: Record<string, string> = {}) {
  const t = await cisTenant({ settings: { companyName: "Portal Contractor Ltd" } });
  const { b: staff } = await cisStaff("manager", { tenant: t });
  const mine = await seedSub(t, { name: "Mine Groundworks", email: newEmail(), ...sub });
  const portal = await portalBrowser(t, staff, mine);
  return { t, staff, sub: mine, portal };
}

let seq = 0;
function fields(extra: Record<string, string> = {}): Record<string, string> {
  seq += 1;
  return {
    invoiceNumber: `PORT-${seq}-${Date.now().toString(36)}`,
    invoiceDate: "2026-03-10",
    description: "Groundworks, plot 4",
    gross: "1,000.00",
    materials: "200.00",
    vatRate: "20",
    ...extra,
  };
}

/** The form as a browser sends it: multipart, the file input last (empty when none was chosen). */
function multipart(values: Record<string, string>, file?: { bytes: Uint8Array<ArrayBuffer>; name?: string; type?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.append(k, v);
  if (file) f.append("attachment", new File([file.bytes], file.name ?? "invoice.pdf", { type: file.type ?? "application/pdf" }));
  else f.append("attachment", new File([], "", { type: "application/octet-stream" }));
  return f;
}

async function row(tenantId: string, invoiceNumber: string) {
  return env.DB.prepare("SELECT * FROM cis_invoices WHERE tenant_id = ? AND invoice_number = ?").bind(tenantId, invoiceNumber).first<Record<string, unknown>>();
}

async function storedUnder(tenantId: string): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: `tenants/${tenantId}/cis/portal-invoices/` });
  return listed.objects.map((o) => o.key);
}

const submitUrl = (t: TestTenant) => `${t.origin}/portal/invoices/new`;

describe("submitting an invoice from the portal", () => {
  it("without a PDF: a portal_draft of the session's subcontractor at their own rate, audited, listed with its status", async () => {
    const { t, sub, portal } = await setUp({ verificationStatus: "higher" });
    const form = await portal.get(submitUrl(t));
    expect(form.status).toBe(200);
    const doc = await page(form);
    const f = one(doc, "form#portal-invoice");
    expect(attr(f, "method")).toBe("post");
    expect(attr(f, "encType")).toBe("multipart/form-data");
    expect(pageText(doc)).toContain("your current rate of 30%");
    // The file input is the form's last field: the server reads every other field first.
    const names = all(f, "input[name],select[name],textarea[name]").map((el) => el.getAttribute("name"));
    expect(names.at(-1)).toBe("attachment");

    const values = fields();
    const res = await portal.post(submitUrl(t), multipart(values));
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/portal/invoices");
    const saved = await row(t.id, values.invoiceNumber);
    const expected = invoiceAmounts({ grossP: 100_000, materialsP: 20_000, cisRate: 30, vatRate: 20, reverseCharge: false });
    expect(saved).toMatchObject({
      subcontractor_id: sub.id,
      status: "portal_draft",
      source: "portal",
      cis_rate: 30,
      cis_deduction_p: 24_000,
      labour_p: 80_000,
      net_payment_p: expected.netPaymentP,
      vat_amount_p: expected.vatAmountP,
      attachment_bytes: null,
      description: "Groundworks, plot 4",
    });
    const audit = await env.DB.prepare("SELECT actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.invoice.created' AND target_id = ?")
      .bind(t.id, saved?.id)
      .first<{ actor_id: string; payload: string }>();
    expect(audit?.actor_id).toBe(sub.id);
    expect(JSON.parse(audit?.payload ?? "{}")).toMatchObject({ source: "portal", subcontractorId: sub.id, cisDeductionP: 24_000 });

    const listed = await portal.follow(res, `${t.origin}/portal/invoices/new`);
    expect(listed.status).toBe(200);
    const list = await page(listed);
    const rowEl = one(list, `[data-invoice-id="${String(saved?.id)}"]`);
    expect(rowEl.textContent).toContain(values.invoiceNumber);
    expect(rowEl.textContent).toContain("Awaiting approval");
    expect(rowEl.textContent).toContain("£240.00 (30%)");
    expect(textOf(list, "[data-toast-type]")).toContain("Invoice submitted");
    // The home shows it too, with the verification details.
    const home = await page(await portal.get(`${t.origin}/portal`));
    expect(all(home, "[data-invoice-id]").map((el) => el.getAttribute("data-invoice-id"))).toEqual([saved?.id]);
    expect(pageText(home)).toContain("Higher (30%)");
    expect(pageText(home)).toMatch(/Verified\s*N\/A/);
  });

  it("a posted subcontractorId is ignored: the invoice is always the session's subcontractor's", async () => {
    const { t, sub, portal } = await setUp();
    const other = await seedSub(t, { name: "Other Scaffolding" });
    const values = fields({ subcontractorId: other.id });
    expect((await portal.post(submitUrl(t), multipart(values))).status).toBe(302);
    expect((await row(t.id, values.invoiceNumber))?.subcontractor_id).toBe(sub.id);
    expect(await count("cis_invoices", "tenant_id = ? AND subcontractor_id = ?", t.id, other.id)).toBe(0);
  });

  it("with a PDF: streamed to R2 under the tenant, downloadable by the subcontractor and by staff as an attachment", async () => {
    const { t, staff, portal } = await setUp();
    const values = fields({ invoiceNumber: 'INV/7 "A"' });
    const res = await portal.post(submitUrl(t), multipart(values, { bytes: PDF }));
    expect(res.status).toBe(302);
    const saved = await row(t.id, values.invoiceNumber);
    const id = String(saved?.id);
    expect(saved?.attachment_bytes).toBe(PDF.length);
    const stored = await env.FILES.get(portalInvoicePdfKey(t.id, id));
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(PDF);
    expect(portalInvoicePdfKey(t.id, id)).toBe(`tenants/${t.id}/cis/portal-invoices/${id}.pdf`);

    const list = await page(await portal.get(`${t.origin}/portal/invoices`));
    const href = one(one(list, `[data-invoice-id="${id}"]`), "a[download]").getAttribute("href");
    expect(href).toBe(`/portal/invoices/${id}.pdf`);
    const own = await portal.get(`${t.origin}${href}`);
    expect(own.status).toBe(200);
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(PDF);

    const detail = await page(await staff.get(`${t.origin}/cis/invoices/${id}`));
    expect(textOf(detail, '[data-field="source"] dd')).toContain("Subcontractor portal");
    const staffHref = one(detail, '[data-field="attachment"] a[download]').getAttribute("href");
    expect(staffHref).toBe(`/cis/invoices/${id}/attachment`);
    const dl = await staff.get(`${t.origin}${staffHref}`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get("Content-Type")).toBe("application/pdf");
    // The number's unsafe characters never reach the header.
    expect(dl.headers.get("Content-Disposition")).toBe('attachment; filename="Invoice_INV_7_A_.pdf"');
    expect(dl.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(PDF);
  });

  it("validation: messages next to the fields, what was typed kept, nothing stored", async () => {
    const { t, portal } = await setUp();
    const before = await count("cis_invoices", "tenant_id = ?", t.id);
    const res = await portal.post(
      submitUrl(t),
      multipart(fields({ invoiceNumber: "", gross: "100.00", materials: "150.00", description: "Kept text" }), { bytes: PDF }),
    );
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(fieldMessage(doc, "invoiceNumber")).toBe("Enter the invoice number");
    expect(isInvalid(doc, "invoiceNumber")).toBe(true);
    expect(fieldMessage(doc, "materials")).toMatch(/materials/i);
    expect(valueOf(doc, "gross")).toBe("100.00");
    expect(valueOf(doc, "description")).toBe("Kept text");
    // A browser never keeps a chosen file: the page says to attach it again.
    expect(pageText(doc)).toContain("attach it again");

    // Materials of 80% or more need a justification of at least 10 characters.
    const high = await portal.post(submitUrl(t), multipart(fields({ gross: "100.00", materials: "85.00" })));
    expect(high.status).toBe(400);
    expect(fieldMessage(await page(high), "materialsJustification")).not.toBe("");
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(before);
    expect(await storedUnder(t.id)).toEqual([]);

    // The same number twice for this subcontractor.
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values))).status).toBe(302);
    const dup = await portal.post(submitUrl(t), multipart({ ...values, gross: "5.00", materials: "" }, { bytes: PDF }));
    expect(dup.status).toBe(409);
    expect(fieldMessage(await page(dup), "invoiceNumber")).toBe("You already have an invoice with this number");
    // The refused submission's PDF does not stay behind.
    expect(await storedUnder(t.id)).toEqual([]);
  });

  it("refuses anything but a PDF (declared type and first bytes) and files over 10 MB; nothing is stored", async () => {
    const { t, portal } = await setUp();
    const tries: { file: { bytes: Uint8Array<ArrayBuffer>; name?: string; type?: string }; message: string }[] = [
      { file: { bytes: new TextEncoder().encode("just text"), name: "notes.txt", type: "text/plain" }, message: "The attachment must be a PDF file" },
      { file: { bytes: new TextEncoder().encode("<html>not a pdf</html>"), type: "application/pdf" }, message: "The attachment must be a PDF file" },
      { file: { bytes: new TextEncoder().encode("%PD"), type: "application/pdf" }, message: "The attachment must be a PDF file" },
      {
        file: {
          bytes: (() => {
            const b = new Uint8Array(PORTAL_PDF_MAX_BYTES + 1);
            b.set(PDF);
            return b;
          })(),
        },
        message: "The attachment must be 10 MB or smaller",
      },
    ];
    for (const { file, message } of tries) {
      const values = fields();
      const res = await portal.post(submitUrl(t), multipart(values, file));
      expect(res.status, message).toBe(400);
      const doc = await page(res);
      expect(fieldMessage(doc, "attachment"), message).toBe(message);
      expect(valueOf(doc, "invoiceNumber")).toBe(values.invoiceNumber);
      expect(await row(t.id, values.invoiceNumber)).toBeNull();
    }
    expect(await storedUnder(t.id)).toEqual([]);
    expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("what a portal session reaches", () => {
  it("lists only its own invoices; another subcontractor's or tenant's PDF is 404", async () => {
    const { t, staff, sub, portal } = await setUp();
    const other = await seedSub(t, { name: "Other Roofing", email: newEmail() });
    const otherPortal = await portalBrowser(t, staff, other);
    const theirs = fields({ invoiceNumber: "THEIRS-1" });
    expect((await otherPortal.post(submitUrl(t), multipart(theirs, { bytes: PDF }))).status).toBe(302);
    const theirsId = String((await row(t.id, theirs.invoiceNumber))?.id);
    // A staff-entered invoice of this subcontractor is theirs too.
    const staffEntered = await createInvoice(
      env,
      t.id,
      invoiceSchema.parse({
        subcontractorId: sub.id,
        invoiceNumber: "STAFF-1",
        invoiceDate: "2026-01-20",
        grossP: 5_000,
        materialsP: 0,
        vatRate: 0,
        reverseCharge: false,
      }),
      SEEDER,
    );
    expect(staffEntered.ok).toBe(true);
    const mine = fields({ invoiceNumber: "MINE-1", invoiceDate: "2026-04-01" });
    expect((await portal.post(submitUrl(t), multipart(mine, { bytes: PDF }))).status).toBe(302);
    const mineId = String((await row(t.id, mine.invoiceNumber))?.id);

    const list = await page(await portal.get(`${t.origin}/portal/invoices`));
    // Newest first.
    expect(all(list, "[data-invoice-id]").map((el) => el.getAttribute("data-invoice-id"))).toEqual([mineId, staffEntered.ok ? staffEntered.id : ""]);
    expect(pageText(list)).not.toContain("THEIRS-1");
    expect((await portal.get(`${t.origin}/portal/invoices/${theirsId}.pdf`)).status).toBe(404);
    expect((await portal.get(`${t.origin}/portal/invoices/${mineId}.pdf`)).status).toBe(200);

    // Another tenant's invoice, by its id, on this host and with this session.
    const b = await setUp();
    const foreign = fields();
    expect((await b.portal.post(submitUrl(b.t), multipart(foreign, { bytes: PDF }))).status).toBe(302);
    const foreignId = String((await row(b.t.id, foreign.invoiceNumber))?.id);
    expect((await portal.get(`${t.origin}/portal/invoices/${foreignId}.pdf`)).status).toBe(404);
    // The same session's cookie on the other tenant's host is nobody.
    const thief = new Browser();
    thief.setCookie(b.t.host, PORTAL_COOKIE, portal.cookie(t.host, PORTAL_COOKIE) ?? "");
    const stolen = await thief.get(`${b.t.origin}/portal/invoices/${foreignId}.pdf`);
    expect(stolen.status).toBe(302);
    expect(location(stolen)).toBe("/portal/login");
    // Staff of this tenant cannot reach the other tenant's PDF either.
    expect((await staff.get(`${t.origin}/cis/invoices/${foreignId}/attachment`)).status).toBe(404);
  });

  it("the home shows the verification with its date (en-GB) and links to the invoice pages", async () => {
    const { t, sub, portal } = await setUp();
    await env.DB.prepare("UPDATE cis_subcontractors SET verified_date = '2026-02-03' WHERE id = ?").bind(sub.id).run();
    const home = await page(await portal.get(`${t.origin}/portal`));
    expect(pageText(home)).toMatch(/Verified\s*03\/02\/2026/);
    expect(pageText(home)).toContain("Standard (20%)");
    expect(all(home, "a[href]").map((el) => el.getAttribute("href"))).toEqual(expect.arrayContaining(["/portal/invoices", "/portal/invoices/new"]));
    expect(pageText(home)).toContain("No invoices yet");
  });

  it("an empty list says so", async () => {
    const { t, portal } = await setUp();
    const res = await portal.get(`${t.origin}/portal/invoices`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    expect(pageText(doc)).toContain("No invoices yet");
    expect(all(doc, "[data-invoice-id]")).toHaveLength(0);
    expect(one(doc, 'a[href="/portal/invoices/new"]')).toBeTruthy();
  });

  it("no portal session (a staff cookie does not count): pages redirect to sign-in and a submission stores nothing", async () => {
    const { t, staff, portal } = await setUp();
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values, { bytes: PDF }))).status).toBe(302);
    const id = String((await row(t.id, values.invoiceNumber))?.id);
    for (const browser of [staff, new Browser()]) {
      for (const path of ["/portal/invoices", "/portal/invoices/new", `/portal/invoices/${id}.pdf`]) {
        const res = await browser.get(`${t.origin}${path}`);
        expect(res.status, path).toBe(302);
        expect(location(res), path).toBe("/portal/login");
      }
      const before = await count("cis_invoices", "tenant_id = ?", t.id);
      const post = await browser.post(submitUrl(t), multipart(fields(), { bytes: PDF }));
      expect(post.status).toBe(302);
      expect(location(post)).toBe("/portal/login");
      expect(await count("cis_invoices", "tenant_id = ?", t.id)).toBe(before);
    }
    expect(await storedUnder(t.id)).toEqual([`tenants/${t.id}/cis/portal-invoices/${id}.pdf`]);
  });

  it("a portal session opens nothing of the staff workspace, including the staff PDF download", async () => {
    const { t, portal } = await setUp();
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values, { bytes: PDF }))).status).toBe(302);
    const id = String((await row(t.id, values.invoiceNumber))?.id);
    for (const path of ["/cis/invoices", `/cis/invoices/${id}`, `/cis/invoices/${id}/attachment`]) {
      const res = await portal.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toContain("/login");
    }
    const approve = await portal.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" });
    expect(approve.status).toBe(302);
    expect((await row(t.id, values.invoiceNumber))?.status).toBe("portal_draft");
  });

  it("a cross-site post is refused", async () => {
    const { t, portal } = await setUp();
    const values = fields();
    const res = await portal.post(submitUrl(t), multipart(values), { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await row(t.id, values.invoiceNumber)).toBeNull();
  });
});

describe("staff and portal submissions", () => {
  it("staff see the source; approve scope approves, the subcontractor sees Approved; without it 403", async () => {
    const { t, staff, portal } = await setUp();
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values))).status).toBe(302);
    const id = String((await row(t.id, values.invoiceNumber))?.id);

    const listed = await page(await staff.get(`${t.origin}/cis/invoices?status=portal_draft`));
    expect(one(listed, '[data-source="portal"]').textContent).toContain("Portal");

    const lead = await signedIn(t, await createUser(t, { role: "lead" }));
    expect((await lead.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" })).status).toBe(403);
    expect((await row(t.id, values.invoiceNumber))?.status).toBe("portal_draft");

    const ok = await staff.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" });
    expect(ok.status).toBe(302);
    expect((await row(t.id, values.invoiceNumber))?.status).toBe("approved");
    const mine = await page(await portal.get(`${t.origin}/portal/invoices`));
    expect(one(mine, `[data-invoice-id="${id}"] [data-status]`).getAttribute("data-status")).toBe("approved");
  });

  it("reject: confirmed by staff with approve, then Cancelled in the portal", async () => {
    const { t, staff, portal } = await setUp();
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values))).status).toBe(302);
    const id = String((await row(t.id, values.invoiceNumber))?.id);
    const ask = await staff.post(`${t.origin}/cis/invoices/${id}`, { intent: "reject" });
    expect(ask.status).toBe(200);
    expect((await row(t.id, values.invoiceNumber))?.status).toBe("portal_draft");
    expect((await staff.post(`${t.origin}/cis/invoices/${id}`, { intent: "reject", confirmed: "yes" })).status).toBe(302);
    expect((await row(t.id, values.invoiceNumber))?.status).toBe("cancelled");
    const mine = await page(await portal.get(`${t.origin}/portal/invoices`));
    expect(one(mine, `[data-invoice-id="${id}"]`).textContent).toContain("Cancelled");
  });

  it("the staff PDF download needs invoice read: 403 without it, 404 for an invoice without a PDF", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { admin: ["cis.inv.write"] } });
    const { b: manager } = await cisStaff("manager", { tenant: t });
    const sub = await seedSub(t, { email: newEmail() });
    const portal = await portalBrowser(t, manager, sub);
    const values = fields();
    expect((await portal.post(submitUrl(t), multipart(values, { bytes: PDF }))).status).toBe(302);
    const id = String((await row(t.id, values.invoiceNumber))?.id);
    const writeOnly = await signedIn(t, await createUser(t, { role: "admin" }));
    expect((await writeOnly.get(`${t.origin}/cis/invoices/${id}/attachment`)).status).toBe(403);
    expect((await manager.get(`${t.origin}/cis/invoices/${id}/attachment`)).status).toBe(200);
    const plain = fields();
    expect((await portal.post(submitUrl(t), multipart(plain))).status).toBe(302);
    expect((await manager.get(`${t.origin}/cis/invoices/${String((await row(t.id, plain.invoiceNumber))?.id)}/attachment`)).status).toBe(404);
  });
});
