// `npm run bench:signatures [-- --pages 50 --runs 5]`
//
// Stamps a --pages page PDF (50 by default, A4, a paragraph of text on every page) with the
// e-signature stamping code the JOBS consumer runs (app/features/files/signatures/stamp-pdf.ts:
// pdf-lib load, the signature on the last page, the certificate page, save, and the SHA-256 of
// the original and of the result), once with a typed signature (a script font subset-embedded
// through fontkit) and once with a drawn 800x220 PNG. It runs in Node's V8 (the engine workerd
// uses) rather than under `wrangler dev`, so the figures are the stamping's own: wall time per
// run (median and worst of --runs) and the JavaScript heap, measured after a forced collection
// before the run and sampled every 5 ms during it (peak used heap over the baseline), to compare
// with the 128 MB a Worker isolate may use. Prints the figures and a Markdown summary.
/* global setInterval, clearInterval, gc, performance */
import { readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { Buffer } from "node:buffer";
import zlib from "node:zlib";
import { PDFDocument, StandardFonts } from "pdf-lib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

if (typeof globalThis.gc !== "function") {
  // Re-run with a collectable heap and TypeScript stripping for the app's stamping module.
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", "--experimental-strip-types", "--no-warnings", fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exit(r.status ?? 1);
}

const { stampPdf, sha256 } = await import(path.join(ROOT, "app/features/files/signatures/stamp-pdf.ts"));

function parseArgs(argv) {
  const opts = { pages: 50, runs: 5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = Number(argv[++i]);
    if (a === "--pages") opts.pages = v;
    else if (a === "--runs") opts.runs = v;
    else throw new Error(`Unknown argument ${a}`);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a whole number above 0`);
  }
  return opts;
}

async function samplePdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const para = "The subcontractor shall carry out the works described in the schedule with reasonable skill and care. ".repeat(6);
  for (let i = 0; i < pages; i++) {
    const p = doc.addPage([595.28, 841.89]);
    p.drawText(`Clause ${i + 1}`, { x: 56, y: 780, size: 16, font });
    for (let l = 0; l < 30; l++) p.drawText(para.slice(l * 20, l * 20 + 90), { x: 56, y: 740 - l * 20, size: 10, font });
  }
  return Uint8Array.from(await doc.save());
}

/** A drawn signature as the canvas sends it: an 800x220 PNG (greyscale here, white with one stroke). */
function drawnPng() {
  const width = 800;
  const height = 220;
  const raw = Buffer.alloc((width + 1) * height, 0xff);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  for (let x = 100; x < 700; x++) raw[110 * (width + 1) + 1 + x] = 0x1a;
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      chunk("IDAT", zlib.deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

const mb = (b) => (b / 1024 / 1024).toFixed(1);

async function measure(label, original, signature, runs) {
  const times = [];
  let peak = 0;
  let out = null;
  for (let i = 0; i < runs; i++) {
    gc();
    const base = process.memoryUsage().heapUsed;
    let top = base;
    const timer = setInterval(() => {
      top = Math.max(top, process.memoryUsage().heapUsed);
    }, 5);
    const t0 = performance.now();
    out = await stampPdf(original, signature, {
      requestId: "bench",
      fileName: "bench.pdf",
      signerName: "Liam Lead",
      signerEmail: "lead@acme.test",
      requesterName: "Alice Admin",
      requesterEmail: "admin@acme.test",
      requestedAt: Date.UTC(2026, 10, 1, 9),
      signedAt: Date.UTC(2026, 10, 2, 15, 30),
      signerIp: "203.0.113.9",
      originalSha256: await sha256(original),
    });
    await sha256(out);
    times.push(performance.now() - t0);
    clearInterval(timer);
    top = Math.max(top, process.memoryUsage().heapUsed);
    peak = Math.max(peak, top - base);
  }
  times.sort((a, b) => a - b);
  const pages = (await PDFDocument.load(out)).getPageCount();
  return { label, median: times[Math.floor(times.length / 2)], worst: times[times.length - 1], peak, bytes: out.length, pages };
}

const opts = parseArgs(process.argv.slice(2));
const original = await samplePdf(opts.pages);
const font = new Uint8Array(readFileSync(path.join(ROOT, "node_modules/@fontsource/great-vibes/files/great-vibes-latin-400-normal.woff")));
const results = [
  await measure("typed (Great Vibes, fontkit subset)", original, { kind: "typed", name: "Liam Lead", font: "Great Vibes", fontBytes: font }, opts.runs),
  await measure("drawn (800x220 PNG)", original, { kind: "drawn", png: drawnPng() }, opts.runs),
];
console.log(`Original: ${opts.pages} pages, ${(original.length / 1024).toFixed(0)} kB; ${opts.runs} runs each; Node ${process.version}\n`);
console.log("| Signature | Median | Worst | Peak heap over baseline | Output | Pages |");
console.log("|---|---|---|---|---|---|");
for (const r of results)
  console.log(`| ${r.label} | ${r.median.toFixed(0)} ms | ${r.worst.toFixed(0)} ms | ${mb(r.peak)} MB | ${(r.bytes / 1024).toFixed(0)} kB | ${r.pages} |`);
