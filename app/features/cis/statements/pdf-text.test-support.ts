import { inflateSync } from "node:zlib";

/**
 * Reads back the text a PDF draws, for tests: finds every stream, inflates the Flate-compressed
 * ones, and collects the string operands of the text-showing operators (Tj, TJ, ' and ") in
 * drawing order, decoded from WinAnsi. One entry per operator, so a wrapped line is one entry.
 */
export function pdfTextRuns(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes);
  const raw = buf.toString("latin1");
  const runs: string[] = [];
  const re = /<<((?:(?!>>\s*stream)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const dict = m[1]!;
    const start = m.index + m[0].length;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const end = length ? start + Number(length[1]) : raw.indexOf("endstream", start);
    let data = buf.subarray(start, end);
    if (/\/FlateDecode/.test(dict)) {
      try {
        data = inflateSync(data);
      } catch {
        continue; // not a content stream we can read (never the case for pdf-lib output)
      }
    }
    if (/\/Subtype\s*\/(Image|XML)/.test(dict)) continue;
    runs.push(...textOperands(data.toString("latin1")));
  }
  return runs;
}

/** All the drawn text joined with newlines, for `toContain` assertions. */
export function pdfText(bytes: Uint8Array): string {
  return pdfTextRuns(bytes).join("\n");
}

// WinAnsiEncoding differs from Latin-1 only in 0x80-0x9F.
const WIN_ANSI_80_9F = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
];

function winAnsi(bytes: number[]): string {
  return bytes.map((b) => String.fromCodePoint(b >= 0x80 && b <= 0x9f ? WIN_ANSI_80_9F[b - 0x80]! : b)).join("");
}

const LITERAL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, "(": 40, ")": 41, "\\": 92 };

function textOperands(src: string): string[] {
  const out: string[] = [];
  let pending: string[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch) || ch === "[" || ch === "]") {
      i++;
    } else if (ch === "%") {
      while (i < src.length && src[i] !== "\n" && src[i] !== "\r") i++;
    } else if (ch === "(") {
      const bytes: number[] = [];
      let depth = 1;
      i++;
      while (i < src.length && depth > 0) {
        const c = src[i]!;
        if (c === "\\") {
          const n = src[i + 1]!;
          if (/[0-7]/.test(n)) {
            const oct = /^[0-7]{1,3}/.exec(src.slice(i + 1))![0];
            bytes.push(parseInt(oct, 8) & 0xff);
            i += 1 + oct.length;
            continue;
          }
          if (n === "\n" || n === "\r") {
            i += n === "\r" && src[i + 2] === "\n" ? 3 : 2;
            continue;
          }
          bytes.push(LITERAL_ESCAPES[n] ?? n.charCodeAt(0));
          i += 2;
          continue;
        }
        if (c === "(") depth++;
        if (c === ")" && --depth === 0) break;
        bytes.push(c.charCodeAt(0));
        i++;
      }
      i++;
      pending.push(winAnsi(bytes));
    } else if (ch === "<" && src[i + 1] === "<") {
      i += 2; // inline dictionary (marked content properties): not text
    } else if (ch === ">" && src[i + 1] === ">") {
      i += 2;
    } else if (ch === "<") {
      const close = src.indexOf(">", i);
      let hex = src.slice(i + 1, close).replace(/\s+/g, "");
      if (hex.length % 2) hex += "0";
      const bytes: number[] = [];
      for (let k = 0; k < hex.length; k += 2) bytes.push(parseInt(hex.slice(k, k + 2), 16));
      pending.push(winAnsi(bytes));
      i = close + 1;
    } else {
      let j = i;
      while (j < src.length && !/[\s()<>[\]{}/%]/.test(src[j]!)) j++;
      if (j === i) j++; // a lone delimiter such as '/' starting a name
      const word = src.slice(i, j);
      if (word === "/") {
        while (j < src.length && !/[\s()<>[\]{}/%]/.test(src[j]!)) j++;
      } else if (word === "Tj" || word === "TJ" || word === "'" || word === '"') {
        out.push(pending.join(""));
        pending = [];
      } else if (!/^[-+.\d]+$/.test(word)) {
        pending = [];
      }
      i = j;
    }
  }
  return out;
}
