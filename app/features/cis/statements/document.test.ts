import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import {
  RETENTION_NOTICE,
  STATEMENT_TITLE,
  StatementDocumentError,
  TAX_NI_NOTICE,
  statementFileName,
  statementHtml,
  statementPdf,
  type StatementDocument,
  type StatementInvoice,
} from "./document";
import { pdfText, pdfTextRuns } from "./pdf-text.test-support";

function invoice(n: number, over: Partial<StatementInvoice> = {}): StatementInvoice {
  return { invoiceNumber: `INV-${String(n).padStart(4, "0")}`, paymentDate: "2026-04-20", grossP: 100_000, materialsP: 20_000, cisDeductionP: 16_000, ...over };
}

function statement(over: Partial<StatementDocument> = {}, invoices?: StatementInvoice[]): StatementDocument {
  const invs = invoices ?? [
    invoice(1, { grossP: 123_456, materialsP: 23_456, cisDeductionP: 20_000, paymentDate: "2026-04-10" }),
    invoice(2, { grossP: 50_000, materialsP: 0, cisDeductionP: 10_000, paymentDate: "2026-05-02" }),
  ];
  const totals = invs.reduce(
    (t, i) => ({
      grossP: t.grossP + i.grossP,
      materialsP: t.materialsP + i.materialsP,
      labourP: t.labourP + Math.max(0, i.grossP - i.materialsP),
      cisDeductionP: t.cisDeductionP + i.cisDeductionP,
    }),
    { grossP: 0, materialsP: 0, labourP: 0, cisDeductionP: 0 },
  );
  return {
    contractor: { name: "Acme Builders Ltd", employerRef: "123/AB45678" },
    subcontractor: { name: "Jane Roofer", utr: "5334567890", verificationNumber: "V1234567890AB", cisRate: 20 },
    taxMonth: "2026-04",
    statementDate: "2026-05-06",
    invoices: invs,
    totals,
    footer: "Acme Builders Ltd, 1 High Street, Leeds",
    ...over,
  };
}

/** A valid 1x1 PNG. */
const PNG_1X1 = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);

/** How many images the PDF embeds. */
function imageCount(bytes: Uint8Array): number {
  return (new TextDecoder("latin1").decode(bytes).match(/\/Subtype\s*\/Image/g) ?? []).length;
}

const at = (rate: number) => statement({ subcontractor: { ...statement().subcontractor, cisRate: rate } });

describe("statementPdf", () => {
  it("carries the names, the full UTR, employer reference, period, amounts, notices and footer", async () => {
    const text = pdfText(await statementPdf(statement()));
    for (const expected of [
      STATEMENT_TITLE,
      "Acme Builders Ltd",
      "123/AB45678",
      "Jane Roofer",
      "5334567890",
      "Tax month ending 5 May 2026 (6 April to 5 May 2026)",
      "06/05/2026", // statement date
      "INV-0001",
      "INV-0002",
      "10/04/2026",
      "02/05/2026",
      "£1,234.56",
      "£234.56",
      "£200.00",
      "£500.00",
      "£100.00",
      RETENTION_NOTICE,
      TAX_NI_NOTICE,
      "Acme Builders Ltd, 1 High Street, Leeds",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("carries the contractor's address under its name, and the logo when its bytes are a PNG or JPEG", async () => {
    const logo = { key: "tenants/t/branding/logo-1.png", type: "image/png" as const };
    const doc = statement({ contractor: { name: "Acme Builders Ltd", employerRef: "123/AB45678", address: "1 High Street\n\nLeeds\nLS1 1AA", logo } });
    const bytes = await statementPdf(doc, { logo: PNG_1X1 });
    const runs = pdfTextRuns(bytes);
    expect(runs[runs.indexOf("Contractor address") + 1]).toBe("1 High Street, Leeds, LS1 1AA");
    expect(runs.indexOf("Contractor address")).toBe(runs.indexOf("Contractor") + 2);
    expect(imageCount(bytes)).toBeGreaterThan(0);
    // The HTML download carries the address too.
    expect(statementHtml(doc)).toContain("<dt>Contractor address</dt><dd>1 High Street, Leeds, LS1 1AA</dd>");
  });

  it("leaves out cleanly a logo that is missing, not a PNG or JPEG, or broken, and prints no address line without one", async () => {
    const logo = { key: "tenants/t/branding/logo-1.png", type: "image/png" as const };
    const doc = statement({ contractor: { name: "Acme Builders Ltd", employerRef: "123/AB45678", logo } });
    const gif = new TextEncoder().encode("GIF89a not a png at all");
    const brokenPng = PNG_1X1.slice(0, 20);
    for (const given of [null, gif, brokenPng]) {
      const bytes = await statementPdf(doc, { logo: given });
      expect(imageCount(bytes)).toBe(0);
      expect(pdfText(bytes)).toContain("Acme Builders Ltd");
      expect(pdfTextRuns(bytes)).not.toContain("Contractor address");
    }
    // Bytes without a logo in the document are not drawn either.
    expect(imageCount(await statementPdf(statement(), { logo: PNG_1X1 }))).toBe(0);
  });

  it("shows the five summary rows with the totals, net payment being gross minus deduction", async () => {
    const runs = pdfTextRuns(await statementPdf(statement()));
    const valueAfter = (label: string) => runs[runs.indexOf(label) + 1];
    expect(valueAfter("Gross amount paid (excluding VAT)")).toBe("£1,734.56");
    expect(valueAfter("Cost of materials")).toBe("£234.56");
    expect(valueAfter("Labour (subject to CIS)")).toBe("£1,500.00");
    expect(valueAfter("Amount deducted (CIS)")).toBe("£300.00");
    expect(valueAfter("Net Payment")).toBe("£1,434.56");
  });

  it("shows the UTR exactly as it is given (a document frozen before the full UTR was kept carries the masked one)", async () => {
    const masked = statement({ subcontractor: { ...statement().subcontractor, utr: "******7890" } });
    const text = pdfText(await statementPdf(masked));
    expect(text).toContain("******7890");
    expect(text).not.toContain("5334567890");
  });

  it("shows the verification number at the higher rate (30%) only", async () => {
    expect(pdfText(await statementPdf(at(30)))).toContain("V1234567890AB");
    expect(pdfText(await statementPdf(at(30)))).toContain("Verification number");
    for (const rate of [20, 0]) {
      const text = pdfText(await statementPdf(at(rate)));
      expect(text).not.toContain("V1234567890AB");
      expect(text).not.toContain("Verification number");
    }
  });

  it("is deterministic: the same statement gives the same bytes", async () => {
    const a = await statementPdf(statement());
    const b = await statementPdf(statement());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const loaded = await PDFDocument.load(a, { updateMetadata: false });
    expect(loaded.getTitle()).toBe(STATEMENT_TITLE);
    expect(loaded.getCreationDate()?.toISOString()).toBe("2026-05-06T00:00:00.000Z");
    expect(loaded.getModificationDate()?.toISOString()).toBe("2026-05-06T00:00:00.000Z");
  });

  it("is A4 and runs onto more pages when there are many invoices, every invoice still listed", async () => {
    const one = await PDFDocument.load(await statementPdf(statement()));
    expect(one.getPageCount()).toBe(1);
    const [w, h] = [one.getPage(0).getWidth(), one.getPage(0).getHeight()];
    expect([Math.round(w), Math.round(h)]).toEqual([595, 842]);

    const many = Array.from({ length: 120 }, (_, i) => invoice(i + 1));
    const bytes = await statementPdf(statement({}, many));
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
    const text = pdfText(bytes);
    expect(text).toContain("INV-0001");
    expect(text).toContain("INV-0120");
    expect(text).toContain("£120,000.00"); // the gross total
    expect(text).toContain(RETENTION_NOTICE);
  });

  it("wraps long text instead of running off the page, and draws characters Helvetica lacks as '?'", async () => {
    const long = "Extremely Long Subcontractor Trading Name That Goes On And On Well Past The Edge Of An A4 Page Limited";
    const runs = pdfTextRuns(await statementPdf(statement({ subcontractor: { ...statement().subcontractor, name: `${long} 東京` } })));
    expect(runs.join(" ")).toContain(long);
    expect(runs.join(" ")).toContain("??");
    expect(runs.some((r) => r.startsWith("Extremely Long"))).toBe(true);
    expect(runs.filter((r) => r.length > 0).every((r) => r.length < 110)).toBe(true);
  });

  it("breaks a word too wide for its column, such as a long invoice number, across lines", async () => {
    const number = "INV".concat("9".repeat(57));
    const runs = pdfTextRuns(await statementPdf(statement({}, [invoice(1, { invoiceNumber: number })])));
    expect(runs).not.toContain(number);
    const start = runs.findIndex((r) => r.startsWith("INV9"));
    expect(start).toBeGreaterThan(-1);
    expect(runs.slice(start, start + 4).join("")).toContain(number);
  });

  it("refuses totals that are not the sum of the invoices", async () => {
    const bad = statement();
    bad.totals = { ...bad.totals, cisDeductionP: bad.totals.cisDeductionP - 1 };
    await expect(statementPdf(bad)).rejects.toBeInstanceOf(StatementDocumentError);
    await expect(statementPdf(bad)).rejects.toMatchObject({ code: "totals_mismatch" });
    expect(() => statementHtml(bad)).toThrow(StatementDocumentError);
    for (const key of ["grossP", "materialsP", "labourP"] as const) {
      const off = statement();
      off.totals = { ...off.totals, [key]: off.totals[key] + 1 };
      expect(() => statementHtml(off)).toThrow(expect.objectContaining({ code: "totals_mismatch" }));
    }
  });

  it("refuses an invalid tax month, date or amount", () => {
    expect(() => statementHtml(statement({ taxMonth: "2026-13" }))).toThrow(expect.objectContaining({ code: "invalid_tax_month" }));
    expect(() => statementHtml(statement({ statementDate: "6 May 2026" }))).toThrow(expect.objectContaining({ code: "invalid_date" }));
    expect(() => statementHtml(statement({}, [invoice(1, { grossP: -5 })]))).toThrow(expect.objectContaining({ code: "invalid_amount" }));
  });
});

describe("statementHtml", () => {
  it("is a standalone document with the title, summary table, invoices, notices and footer", () => {
    const html = statementHtml(statement());
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain(`<title>${STATEMENT_TITLE}</title>`);
    expect(html).toContain("<style>");
    expect(html).not.toMatch(/<link|<script|src=/);
    for (const row of ["Gross amount paid (excluding VAT)", "Cost of materials", "Labour (subject to CIS)", "Amount deducted (CIS)", "Net Payment"])
      expect(html).toContain(`<th scope="row">${row}</th>`);
    expect(html).toContain("£1,434.56");
    expect(html).toContain("5334567890");
    expect(html).toContain("6 April to 5 May 2026");
    expect(html).toContain("INV-0002");
    expect(html).toContain("Keep this statement for at least 6 years.");
    expect(html).toContain("The CIS deduction shown counts toward the subcontractor&#39;s tax and National Insurance.");
    expect(html).toContain("<footer>Acme Builders Ltd, 1 High Street, Leeds</footer>");
  });

  it("escapes names, references, invoice numbers and the footer", () => {
    const html = statementHtml(
      statement(
        {
          contractor: { name: "<script>alert(1)</script>", employerRef: '"><img src=x>' },
          subcontractor: { ...statement().subcontractor, name: "<script>alert(2)</script>" },
          footer: "<script>alert(3)</script>",
        },
        [invoice(1, { invoiceNumber: "<b>1</b>" })],
      ),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("<footer>&lt;script&gt;alert(3)&lt;/script&gt;</footer>");
  });

  it("shows the verification number at 30% only, and leaves the footer out when there is none", () => {
    expect(statementHtml(at(30))).toContain("V1234567890AB");
    expect(statementHtml(at(20))).not.toContain("V1234567890AB");
    expect(statementHtml(at(0))).not.toContain("V1234567890AB");
    expect(statementHtml(statement({ footer: null }))).not.toContain("<footer>");
    expect(statementHtml(statement({ footer: "   " }))).not.toContain("<footer>");
  });
});

describe("statementFileName", () => {
  it("is CIS_Statement_{taxMonth}_{name}.{ext}", () => {
    expect(statementFileName(statement(), "html")).toBe("CIS_Statement_2026-04_Jane_Roofer.html");
    expect(statementFileName(statement(), "pdf")).toBe("CIS_Statement_2026-04_Jane_Roofer.pdf");
  });

  it("makes the name safe: no path traversal, quotes or header-breaking characters", () => {
    const doc = statement({ subcontractor: { ...statement().subcontractor, name: `../../etc/"passwd"\r\n'Renée' O'Brien; x` } });
    const name = statementFileName(doc, "pdf");
    expect(name).toBe("CIS_Statement_2026-04_etc_passwd_Renee_O_Brien_x.pdf");
    expect(name).not.toMatch(/\.\.|\/|\\|"|'|\r|\n|;/);
    expect(statementFileName(statement({ subcontractor: { ...statement().subcontractor, name: "東京" } }), "html")).toBe(
      "CIS_Statement_2026-04_Subcontractor.html",
    );
  });
});

describe("statement document purity", () => {
  it("imports no data access, router, runtime, server or Node modules", () => {
    const source = readFileSync(fileURLToPath(new URL("./document.ts", import.meta.url)), "utf8");
    const specs = [...source.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]);
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) {
      expect(spec).not.toMatch(/^(drizzle-orm|react-router|@react-router\/|cloudflare:|node:)|\.server(\.tsx?)?$|\.server\//);
    }
  });
});
