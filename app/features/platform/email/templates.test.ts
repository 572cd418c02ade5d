import { describe, expect, it } from "vitest";
import { renderTemplate, SENSITIVE_TEMPLATES } from "./templates";

describe("e-mail templates", () => {
  it("renders a text and an HTML body, escaping data in HTML", () => {
    const m = renderTemplate("portal.invite", {
      recipientName: "Sam <script>",
      subcontractorName: "Sam Builds",
      contractorName: "Acme",
      magicLink: "https://acme.example.com/portal/auth?token=x",
      expiresIn: "15 minutes",
    });
    expect(m.subject).toContain("Acme");
    expect(m.text).toContain("https://acme.example.com/portal/auth?token=x");
    expect(m.html).toContain("Sam &lt;script&gt;");
    expect(m.html).not.toContain("<script>");
  });
  it("refuses bad data and unknown templates", () => {
    expect(() => renderTemplate("auth.login-code", { code: "12", tenantName: "A", expiresInMinutes: 10 })).toThrow();
    expect(() => renderTemplate("nope", {})).toThrow(/Unknown/);
  });
  it("cis.invoice-copy: the invoice's figures in text and escaped HTML, and no secret to scrub", () => {
    const data = {
      contractorName: "Acme & Sons",
      subcontractorName: "Sam <b>",
      invoiceNumber: "INV-7",
      status: "Approved",
      invoiceDate: "10/03/2026",
      paymentDate: "N/A",
      taxMonth: "2026-03 (6 March to 5 April 2026)",
      gross: "£1,000.00",
      materials: "£300.00",
      labour: "£700.00",
      cisDeduction: "£140.00 at 20%",
      vat: "Reverse charge",
      grossTotal: "£1,000.00",
      netPayment: "£860.00",
    };
    const m = renderTemplate("cis.invoice-copy", data);
    expect(m.subject).toBe("Invoice INV-7 from Acme & Sons");
    expect(m.text).toContain("CIS deduction: £140.00 at 20%");
    expect(m.text).toContain("VAT: Reverse charge");
    expect(m.text).toContain("Net payment: £860.00");
    expect(m.html).toContain("Acme &amp; Sons");
    expect(m.html).toContain("Sam &lt;b&gt;");
    expect(m.html).not.toContain("<b>");
    expect(SENSITIVE_TEMPLATES.map((t) => t.name)).not.toContain("cis.invoice-copy");
    expect(() => renderTemplate("cis.invoice-copy", { ...data, gross: undefined })).toThrow();
  });
  it("cis.statement: names the attachment by its R2 key, carries the tenant's From and Reply-To, escapes HTML", () => {
    const data = {
      contractorName: "Acme & Sons",
      subcontractorName: "Sam <b>",
      period: "6 January to 5 February 2026",
      gross: "£1,000.00",
      cisDeduction: "£140.00",
      netPayment: "£860.00",
      from: "cis@acme.test",
      replyTo: "accounts@acme.test",
      attachment: { key: "tenants/t1/cis/statements/s1.pdf", filename: "CIS_Statement_2026-01_Sam.pdf" },
    };
    const m = renderTemplate("cis.statement", data);
    expect(m.subject).toBe("CIS payment and deduction statement for 6 January to 5 February 2026 from Acme & Sons");
    expect(m.text).toContain("CIS deduction: £140.00");
    expect(m.text).toContain("at least 6 years");
    expect(m.html).toContain("Sam &lt;b&gt;");
    expect(m.from).toBe("cis@acme.test");
    expect(m.replyTo).toBe("accounts@acme.test");
    expect(m.attachments).toEqual([{ key: "tenants/t1/cis/statements/s1.pdf", filename: "CIS_Statement_2026-01_Sam.pdf", contentType: "application/pdf" }]);
    const plain = renderTemplate("cis.statement", { ...data, from: null, replyTo: null });
    expect(plain.from).toBeUndefined();
    expect(plain.replyTo).toBeUndefined();
    expect(() => renderTemplate("cis.statement", { ...data, replyTo: "not an address" })).toThrow();
    expect(SENSITIVE_TEMPLATES.map((t) => t.name)).not.toContain("cis.statement");
  });
});
