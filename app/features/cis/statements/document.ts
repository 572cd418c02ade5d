import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { formatDate, formatLongDate } from "~/utils/dates";
import { formatPence, isValidPence } from "../domain/money";
import { isTaxMonthLabel, taxMonthFromLabel } from "../domain/tax-month";
import { imageKind } from "~/utils/image-kind";

/**
 * The CIS payment and deduction statement a contractor gives each subcontractor for a tax month,
 * as a standalone HTML download and as a PDF. Pure: the caller loads the data and stores the
 * result, so the same input always renders the same document (an issued statement never changes).
 */

export const STATEMENT_TITLE = "CIS Payment and Deduction Statement";
export const RETENTION_NOTICE = "Keep this statement for at least 6 years.";
export const TAX_NI_NOTICE = "The CIS deduction shown counts toward the subcontractor's tax and National Insurance.";

export interface StatementInvoice {
  invoiceNumber: string;
  /** 'YYYY-MM-DD'. */
  paymentDate: string;
  grossP: number;
  materialsP: number;
  cisDeductionP: number;
}

export interface StatementTotals {
  grossP: number;
  materialsP: number;
  labourP: number;
  cisDeductionP: number;
}

/** Where the contractor's logo is kept (R2) and what it is; the bytes are handed to the PDF renderer. */
export interface StatementLogo {
  key: string;
  type: "image/png" | "image/jpeg";
}

export interface StatementDocument {
  contractor: {
    name: string;
    employerRef: string;
    /** The contractor's postal address from its branding, lines separated by newlines; absent on documents frozen before it was kept. */
    address?: string | null;
    /** The contractor's logo from its branding. */
    logo?: StatementLogo | null;
  };
  subcontractor: {
    name: string;
    /**
     * The subcontractor's full UTR: the statement is the subcontractor's own record and HMRC
     * requires their UTR on it (lists elsewhere show only the masked form). Statements frozen
     * before the full UTR was kept carry the masked form they were issued with.
     */
    utr: string;
    verificationNumber: string | null;
    cisRate: number;
  };
  /** 'YYYY-MM' of the month the tax period starts in (6th to the 5th of the next month). */
  taxMonth: string;
  /** 'YYYY-MM-DD'. */
  statementDate: string;
  invoices: StatementInvoice[];
  totals: StatementTotals;
  /** The tenant's statement footer, or null when none is set. */
  footer: string | null;
}

export type StatementDocumentErrorCode = "totals_mismatch" | "invalid_amount" | "invalid_tax_month" | "invalid_date";

export class StatementDocumentError extends Error {
  readonly code: StatementDocumentErrorCode;
  constructor(code: StatementDocumentErrorCode, message: string) {
    super(message);
    this.name = "StatementDocumentError";
    this.code = code;
  }
}

const ISO_DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function labourOf(inv: StatementInvoice): number {
  return Math.max(0, inv.grossP - inv.materialsP);
}

/**
 * Refuses anything that would print a wrong statement: the totals must be the sums of the invoices
 * listed, so a caller that mixes up invoices and totals gets an error instead of a document.
 */
export function assertStatementDocument(doc: StatementDocument): void {
  if (!isTaxMonthLabel(doc.taxMonth)) throw new StatementDocumentError("invalid_tax_month", `Invalid tax month: ${JSON.stringify(doc.taxMonth)}`);
  if (!ISO_DATE_RE.test(doc.statementDate)) throw new StatementDocumentError("invalid_date", `Invalid statement date: ${JSON.stringify(doc.statementDate)}`);
  const sums = { grossP: 0, materialsP: 0, labourP: 0, cisDeductionP: 0 };
  for (const inv of doc.invoices) {
    if (!ISO_DATE_RE.test(inv.paymentDate)) throw new StatementDocumentError("invalid_date", `Invalid payment date on invoice ${inv.invoiceNumber}`);
    for (const v of [inv.grossP, inv.materialsP, inv.cisDeductionP]) {
      if (!isValidPence(v)) throw new StatementDocumentError("invalid_amount", `Invalid amount on invoice ${inv.invoiceNumber}`);
    }
    sums.grossP += inv.grossP;
    sums.materialsP += inv.materialsP;
    sums.labourP += labourOf(inv);
    sums.cisDeductionP += inv.cisDeductionP;
  }
  for (const key of ["grossP", "materialsP", "labourP", "cisDeductionP"] as const) {
    if (!Number.isSafeInteger(doc.totals[key]) || doc.totals[key] !== sums[key]) {
      throw new StatementDocumentError("totals_mismatch", `Total ${key} is ${doc.totals[key]} but the invoices sum to ${sums[key]}`);
    }
  }
}

/** HMRC requires the verification number on the statement only when the deduction is at the higher rate (30%). */
function shownVerificationNumber(doc: StatementDocument): string | null {
  return doc.subcontractor.cisRate === 30 && doc.subcontractor.verificationNumber ? doc.subcontractor.verificationNumber : null;
}

interface Content {
  period: string;
  periodEnd: string;
  details: [string, string][];
  summary: [string, string][];
  invoiceHeader: string[];
  invoiceRows: string[][];
  notices: string[];
  footer: string | null;
}

/** The contractor's address as lines, blank lines dropped. */
function addressLines(doc: StatementDocument): string[] {
  return (doc.contractor.address ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

// One description of the content feeds both renderers, so the HTML and the PDF cannot drift apart.
function contentOf(doc: StatementDocument): Content {
  assertStatementDocument(doc);
  const month = taxMonthFromLabel(doc.taxMonth);
  const vn = shownVerificationNumber(doc);
  const details: [string, string][] = [
    ["Contractor", doc.contractor.name],
    ...(addressLines(doc).length ? [["Contractor address", addressLines(doc).join(", ")] as [string, string]] : []),
    ["Employer reference", doc.contractor.employerRef],
    ["Subcontractor", doc.subcontractor.name],
    ["Subcontractor UTR", doc.subcontractor.utr],
    ...(vn ? [["Verification number", vn] as [string, string]] : []),
    ["Tax month", `Tax month ending ${formatLongDate(month.periodEnd)} (${month.displayLabel})`],
    ["Statement date", formatDate(doc.statementDate)],
    ["Invoices", String(doc.invoices.length)],
    ["CIS rate", `${doc.subcontractor.cisRate}%`],
  ];
  const t = doc.totals;
  return {
    period: month.displayLabel,
    periodEnd: month.periodEnd,
    details,
    summary: [
      ["Gross amount paid (excluding VAT)", formatPence(t.grossP)],
      ["Cost of materials", formatPence(t.materialsP)],
      ["Labour (subject to CIS)", formatPence(t.labourP)],
      ["Amount deducted (CIS)", formatPence(t.cisDeductionP)],
      ["Net Payment", formatPence(t.grossP - t.cisDeductionP)],
    ],
    invoiceHeader: ["Invoice", "Payment date", "Gross (excl. VAT)", "Materials", "CIS deducted"],
    invoiceRows: doc.invoices.map((inv) => [
      inv.invoiceNumber,
      formatDate(inv.paymentDate),
      formatPence(inv.grossP),
      formatPence(inv.materialsP),
      formatPence(inv.cisDeductionP),
    ]),
    notices: [RETENTION_NOTICE, TAX_NI_NOTICE],
    footer: doc.footer?.trim() ? doc.footer.trim() : null,
  };
}

/** CIS_Statement_{taxMonth}_{name}.{ext}, with the name reduced to characters safe in any file system and header. */
export function statementFileName(doc: Pick<StatementDocument, "taxMonth" | "subcontractor">, ext: "html" | "pdf"): string {
  const name =
    doc.subcontractor.name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9-]+/g, "_")
      .replace(/_+/g, "_")
      .replace(/^[_-]+|[_-]+$/g, "")
      .slice(0, 80) || "Subcontractor";
  const month = isTaxMonthLabel(doc.taxMonth) ? doc.taxMonth : "unknown";
  return `CIS_Statement_${month}_${name}.${ext}`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

const CSS = `
body{font-family:Helvetica,Arial,sans-serif;color:#111;margin:2rem auto;max-width:48rem;padding:0 1rem;font-size:14px;line-height:1.4}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #999;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
td.num,th.num{text-align:right;white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:bold}dd{margin:0;overflow-wrap:anywhere}
tr.total td{font-weight:bold}
.notice{border:1px solid #111;padding:.5rem .75rem;margin-top:1.5rem}
footer{margin-top:1.5rem;font-size:.85rem;color:#333;white-space:pre-line}
@page{size:A4;margin:15mm}
@media print{body{margin:0;max-width:none;padding:0}thead{display:table-header-group}tr{break-inside:avoid}}
`;

export function statementHtml(doc: StatementDocument): string {
  const c = contentOf(doc);
  const details = c.details.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  const summary = c.summary
    .map(([k, v], i) => `<tr${i === c.summary.length - 1 ? ' class="total"' : ""}><th scope="row">${esc(k)}</th><td class="num">${esc(v)}</td></tr>`)
    .join("");
  const head = c.invoiceHeader.map((h, i) => `<th scope="col"${i >= 2 ? ' class="num"' : ""}>${esc(h)}</th>`).join("");
  const rows = c.invoiceRows.map((r) => `<tr>${r.map((v, i) => `<td${i >= 2 ? ' class="num"' : ""}>${esc(v)}</td>`).join("")}</tr>`).join("");
  const invoices = c.invoiceRows.length ? `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>` : "<p>No invoices in this tax month.</p>";
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(STATEMENT_TITLE)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${esc(STATEMENT_TITLE)}</h1>
<dl>${details}</dl>
<h2>Payment summary</h2>
<table class="summary"><tbody>${summary}</tbody></table>
<h2>Invoices</h2>
${invoices}
<div class="notice">${c.notices.map((n) => `<p>${esc(n)}</p>`).join("")}</div>
${c.footer ? `<footer>${esc(c.footer)}</footer>` : ""}
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// PDF

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const PRODUCER = "CIS statements (pdf-lib)";

/**
 * The code points each standard font can draw, worked out once per isolate: the same for every
 * statement, and building the set per cell was a measurable share of a statement's render.
 */
const characterSets = new Map<string, ReadonlySet<number>>();
function characterSet(font: PDFFont): ReadonlySet<number> {
  let set = characterSets.get(font.name);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font.name, set);
  }
  return set;
}

/** Characters Helvetica (WinAnsi) cannot draw become '?' instead of failing the whole statement. */
function drawable(font: PDFFont, text: string): string {
  const supported = characterSet(font);
  let out = "";
  for (const ch of text.normalize("NFC").replace(/[\r\n\t]+/g, " ")) {
    out += supported.has(ch.codePointAt(0)!) ? ch : "?";
  }
  return out;
}

/** Splits text into lines no wider than maxWidth, breaking inside words only when one word is too wide. */
function wrap(font: PDFFont, size: number, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= maxWidth;
  for (const word of text.split(" ").filter((w) => w.length > 0)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (!fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

interface Cell {
  text: string;
  width: number;
  align?: "left" | "right";
  bold?: boolean;
}

class PdfWriter {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  get width() {
    return A4[0] - 2 * MARGIN;
  }

  newPage() {
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  ensure(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  paragraph(text: string, size = 10, opts: { bold?: boolean; gapAfter?: number } = {}) {
    const font = opts.bold ? this.bold : this.font;
    const lead = size * 1.3;
    for (const line of wrap(font, size, drawable(font, text), this.width)) {
      this.ensure(lead);
      this.y -= lead;
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font });
    }
    this.y -= opts.gapAfter ?? 0;
  }

  /** One table row; each cell wraps within its column, and the row never splits across pages. */
  row(cells: Cell[], size = 9, opts: { rule?: boolean } = {}) {
    const lead = size * 1.3;
    const pad = 4;
    const wrapped = cells.map((c) => {
      const font = c.bold ? this.bold : this.font;
      return { c, font, lines: wrap(font, size, drawable(font, c.text), c.width - 2 * pad) };
    });
    const height = Math.max(...wrapped.map((w) => w.lines.length)) * lead + 4;
    this.ensure(height);
    let x = MARGIN;
    for (const { c, font, lines } of wrapped) {
      lines.forEach((line, i) => {
        const lineX = c.align === "right" ? x + c.width - pad - font.widthOfTextAtSize(line, size) : x + pad;
        this.page.drawText(line, { x: lineX, y: this.y - (i + 1) * lead, size, font });
      });
      x += c.width;
    }
    this.y -= height;
    if (opts.rule) {
      this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + this.width, y: this.y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    }
  }

  gap(h: number) {
    this.y -= h;
  }
}

/** The largest box the logo is scaled into, in points (top right of the first page). */
const LOGO_BOX = { width: 140, height: 56 };

/**
 * Embeds the logo when its bytes really are a PNG or JPEG (read from their signature, whatever the
 * stored type says) and draws it top right; anything else is left out and the statement renders
 * without it. Returns the lowest point the logo reaches, or null when there is none.
 */
async function drawLogo(pdf: PDFDocument, page: PDFPage, bytes: Uint8Array | null | undefined): Promise<number | null> {
  if (!bytes) return null;
  const kind = imageKind(bytes);
  if (!kind) return null;
  let image;
  try {
    image = kind === "png" ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  } catch {
    // A file with the right signature but broken inside: no logo rather than no statement.
    return null;
  }
  const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height, 1);
  const width = image.width * scale;
  const height = image.height * scale;
  const top = A4[1] - MARGIN;
  page.drawImage(image, { x: A4[0] - MARGIN - width, y: top - height, width, height });
  return top - height;
}

/** The statement as a PDF; `assets.logo` is the contractor's logo file (PNG or JPEG), if any. */
export async function statementPdf(doc: StatementDocument, assets: { logo?: Uint8Array | null } = {}): Promise<Uint8Array> {
  const c = contentOf(doc);
  // Fixed metadata, dated by the statement, so the same statement always produces the same bytes.
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const date = new Date(`${doc.statementDate}T00:00:00Z`);
  pdf.setTitle(STATEMENT_TITLE);
  pdf.setSubject(`${doc.subcontractor.name}, ${c.period}`);
  pdf.setAuthor(doc.contractor.name);
  pdf.setCreator(PRODUCER);
  pdf.setProducer(PRODUCER);
  pdf.setLanguage("en-GB");
  pdf.setCreationDate(date);
  pdf.setModificationDate(date);

  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const w = new PdfWriter(pdf, font, bold);
  const logoBottom = doc.contractor.logo ? await drawLogo(pdf, w.page, assets.logo) : null;

  w.paragraph(STATEMENT_TITLE, 16, { bold: true, gapAfter: 10 });
  // The details start below the logo, so no row runs under it.
  if (logoBottom !== null && w.y > logoBottom - 8) w.gap(w.y - (logoBottom - 8));
  for (const [k, v] of c.details)
    w.row(
      [
        { text: k, width: 150, bold: true },
        { text: v, width: w.width - 150 },
      ],
      10,
    );
  w.gap(12);

  w.paragraph("Payment summary", 12, { bold: true, gapAfter: 4 });
  c.summary.forEach(([k, v], i) => {
    const last = i === c.summary.length - 1;
    w.row(
      [
        { text: k, width: 250, bold: last },
        { text: v, width: 150, align: "right", bold: last },
      ],
      10,
      { rule: true },
    );
  });
  w.gap(12);

  w.paragraph("Invoices", 12, { bold: true, gapAfter: 4 });
  const widths = [w.width - 4 * 86, 86, 86, 86, 86];
  const cells = (texts: string[], bold = false): Cell[] => texts.map((text, i) => ({ text, width: widths[i]!, align: i >= 2 ? "right" : "left", bold }));
  if (c.invoiceRows.length === 0) w.paragraph("No invoices in this tax month.");
  else {
    w.row(cells(c.invoiceHeader, true), 9, { rule: true });
    for (const r of c.invoiceRows) {
      // Repeat the header on each new page so a long list stays readable on paper.
      if (w.y - 20 < MARGIN) {
        w.newPage();
        w.row(cells(c.invoiceHeader, true), 9, { rule: true });
      }
      w.row(cells(r), 9, { rule: true });
    }
  }
  w.gap(14);

  for (const n of c.notices) w.paragraph(n, 10, { bold: true, gapAfter: 2 });
  if (c.footer) {
    w.gap(10);
    for (const part of c.footer.split(/\r?\n/)) w.paragraph(part, 8);
  }

  return pdf.save({ useObjectStreams: false });
}
