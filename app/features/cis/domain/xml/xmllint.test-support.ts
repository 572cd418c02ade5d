// Test-only helpers around Debian's xmllint (libxml2-utils): an independent
// C14N implementation and an XSD validator to check our own code against.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const HMRC_DIR = path.resolve(process.cwd(), "../shared/hmrc");
export const SCHEMAS = {
  cisReturn: path.join(HMRC_DIR, "schemas/CISreturn-v1-2.xsd"),
  cisVerification: path.join(HMRC_DIR, "schemas/CISverification-v1-2.xsd"),
};

let dir: string | null = null;
let counter = 0;

export function writeTemp(name: string, content: string): string {
  dir ??= mkdtempSync(path.join(tmpdir(), "cis-xml-"));
  const file = path.join(dir, `${counter++}-${name}`);
  writeFileSync(file, content, "utf8");
  return file;
}

export function xmllintC14n(xml: string): string {
  const file = writeTemp("c14n.xml", xml);
  return execFileSync("xmllint", ["--c14n", file], { encoding: "utf8" });
}

export interface XsdResult {
  ok: boolean;
  output: string;
}

export function xmllintValidate(xml: string, xsd: string): XsdResult {
  const file = writeTemp("doc.xml", xml);
  const res = spawnSync("xmllint", ["--noout", "--schema", xsd, file], { encoding: "utf8" });
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

/**
 * The GovTalk envelope has no schema here; HMRC's XSDs describe the IRenvelope
 * inside Body. Cut it out as its own document (it declares its namespace itself).
 */
export function extractIRenvelope(govTalkXml: string): string {
  const start = govTalkXml.indexOf("<IRenvelope");
  const endTag = "</IRenvelope>";
  const end = govTalkXml.indexOf(endTag);
  if (start < 0 || end < 0) throw new Error("no IRenvelope in message");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${govTalkXml.slice(start, end + endTag.length)}\n`;
}
