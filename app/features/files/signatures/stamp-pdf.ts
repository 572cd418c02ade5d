import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import fontkit from "@pdf-lib/fontkit";
import { formatInTimeZone } from "date-fns-tz";

/**
 * Puts a signature on a PDF and appends a signature certificate page. Pure (bytes in, bytes
 * out, no bindings), so the job, the tests and the benchmark run the same code. The output is
 * repeatable for the same input: the document dates are the signing time, so a redelivered job
 * writes the same bytes to the same key.
 */
export type StampSignature = { kind: "drawn"; png: Uint8Array } | { kind: "typed"; name: string; font: string; fontBytes: Uint8Array | null };

export type Certificate = {
  requestId: string;
  fileName: string;
  signerName: string;
  signerEmail: string;
  requesterName: string;
  requesterEmail: string;
  requestedAt: number;
  signedAt: number;
  signerIp: string | null;
  originalSha256: string;
};

export class UnreadablePdfError extends Error {
  override name = "UnreadablePdfError";
}

const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);
const BOX_WIDTH = 200;
const BOX_HEIGHT = 55;
const MARGIN = 36;

export function utc(ms: number): string {
  return `${formatInTimeZone(ms, "UTC", "dd/MM/yyyy HH:mm:ss")} UTC`;
}

export function london(ms: number): string {
  return `${formatInTimeZone(ms, "Europe/London", "dd/MM/yyyy HH:mm:ss zzz")} (Europe/London)`;
}

/** Helvetica draws WinAnsi only: anything else becomes '?' rather than failing the stamp. */
function safe(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.normalize("NFC")].map((c) => (known.has(c.codePointAt(0) ?? 0) ? c : "?")).join("");
}

export async function stampPdf(original: Uint8Array, signature: StampSignature, cert: Certificate): Promise<Uint8Array> {
  let doc: PDFDocument;
  let pages: PDFPage[];
  try {
    doc = await PDFDocument.load(original, { updateMetadata: false });
    pages = doc.getPages();
  } catch (err) {
    // Encrypted, truncated or not a PDF at all: no retry will read it.
    throw new UnreadablePdfError(err instanceof Error ? err.name : "unreadable");
  }
  if (pages.length === 0) throw new UnreadablePdfError("no pages");
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  const last = pages[pages.length - 1]!;
  await drawSignature(doc, last, signature, helvetica, cert);
  const originalPages = pages.length;

  const page = doc.addPage([595.28, 841.89]);
  let y = 780;
  // A long value (a file name may run to 255 characters) wraps onto as many lines as it needs.
  const line = (label: string, value: string) => {
    page.drawText(safe(bold, label), { x: 56, y, size: 10, font: bold, color: INK });
    const rows = wrap(helvetica, safe(helvetica, value), 10, 350);
    rows.forEach((row, i) => page.drawText(row, { x: 190, y: y - i * 13, size: 10, font: helvetica, color: INK }));
    y -= 22 + (rows.length - 1) * 13;
  };
  page.drawText("Signature certificate", { x: 56, y, size: 20, font: bold, color: INK });
  y -= 36;
  line("Document", cert.fileName);
  line("Request ID", cert.requestId);
  line("Pages signed", `${originalPages} (this certificate is page ${originalPages + 1})`);
  line("Signer", `${cert.signerName} <${cert.signerEmail}>`);
  line("Requested by", `${cert.requesterName} <${cert.requesterEmail}>`);
  line("Requested (UTC)", utc(cert.requestedAt));
  line("Requested (London)", london(cert.requestedAt));
  line("Signed (UTC)", utc(cert.signedAt));
  line("Signed (London)", london(cert.signedAt));
  line("Signer IP address", cert.signerIp ?? "N/A");
  line("Signature", signature.kind === "typed" ? `Typed name in ${signature.font}` : "Drawn by hand");
  page.drawText(safe(bold, "Original SHA-256"), { x: 56, y, size: 10, font: bold, color: INK });
  page.drawText(cert.originalSha256, { x: 56, y: y - 16, size: 9, font: helvetica, color: INK });
  y -= 52;
  page.drawText(
    safe(helvetica, "The signer reviewed the document and agreed that this electronic signature is the legal equivalent of their handwritten one."),
    { x: 56, y, size: 9, font: helvetica, color: MUTED, maxWidth: 480, lineHeight: 12 },
  );

  doc.setCreationDate(new Date(cert.signedAt));
  doc.setModificationDate(new Date(cert.signedAt));
  doc.setProducer("Workspace e-signature");
  return doc.save();
}

async function drawSignature(doc: PDFDocument, page: PDFPage, signature: StampSignature, helvetica: PDFFont, cert: Certificate) {
  const { width } = page.getSize();
  const box = { x: Math.max(MARGIN, width - MARGIN - BOX_WIDTH), y: MARGIN + 14, width: Math.min(BOX_WIDTH, width - 2 * MARGIN), height: BOX_HEIGHT };
  page.drawRectangle({ ...box, color: rgb(1, 1, 1), opacity: 0.85, borderColor: MUTED, borderWidth: 0.5 });
  if (signature.kind === "drawn") {
    const image = await doc.embedPng(signature.png);
    const scale = Math.min(box.width / image.width, box.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    page.drawImage(image, { x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h });
  } else {
    let font = helvetica;
    let text = safe(helvetica, signature.name);
    if (signature.fontBytes) {
      doc.registerFontkit(fontkit);
      font = await doc.embedFont(signature.fontBytes, { subset: true });
      text = signature.name;
    }
    let size = 28;
    while (size > 8 && font.widthOfTextAtSize(text, size) > box.width - 12) size -= 1;
    page.drawText(text, { x: box.x + 6, y: box.y + (box.height - size) / 2 + 4, size, font, color: INK });
  }
  page.drawText(safe(helvetica, `Signed electronically by ${cert.signerName}, ${utc(cert.signedAt)}`), {
    x: box.x,
    y: box.y - 10,
    size: 6.5,
    font: helvetica,
    color: MUTED,
    maxWidth: box.width,
  });
}

/** Splits text into lines no wider than `width`: at spaces where it can, inside a word that is too long alone. */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const fits = (t: string) => font.widthOfTextAtSize(t, size) <= width;
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const joined = current ? `${current} ${word}` : word;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current) lines.push(current);
    current = "";
    for (const c of word) {
      if (current && !fits(current + c)) {
        lines.push(current);
        current = "";
      }
      current += c;
    }
  }
  lines.push(current);
  return lines;
}

export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", Uint8Array.from(bytes));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
