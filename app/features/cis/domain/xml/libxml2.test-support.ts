// Test-only helpers around libxml2 (compiled to WebAssembly, the libxml2-wasm package):
// an independent C14N implementation and an XSD validator to check our own code against.
// It runs inside Node, so the tests need no system package.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { XmlDocument, XmlLibError, XsdValidator } from "libxml2-wasm";
import { xmlRegisterFsInputProviders } from "libxml2-wasm/lib/nodejs.mjs";

/** HMRC's schemas, sample message and sample answers, vendored unmodified (see its NOTICE). */
export const HMRC_DIR = fileURLToPath(new URL("../../../../../third_party/hmrc/", import.meta.url));
export const SCHEMAS = {
  cisReturn: `${HMRC_DIR}schemas/CISreturn-v1-2.xsd`,
  cisVerification: `${HMRC_DIR}schemas/CISverification-v1-2.xsd`,
};

// Lets libxml2 read the file an XSD includes (core-v2-0.xsd) from disk, relative to the XSD.
xmlRegisterFsInputProviders();

function withDoc<T>(xml: string, use: (doc: XmlDocument) => T, url?: string): T {
  const doc = XmlDocument.fromString(xml, url ? { url } : undefined);
  try {
    return use(doc);
  } finally {
    doc.dispose();
  }
}

/** Canonical XML 1.0 with comments: what `xmllint --c14n` prints. */
export function libxml2C14n(xml: string): string {
  return withDoc(xml, (doc) => doc.canonicalizeToString({ withComments: true }));
}

export interface XsdResult {
  ok: boolean;
  output: string;
}

const validators = new Map<string, XsdValidator>();

function validatorFor(xsdPath: string): XsdValidator {
  let validator = validators.get(xsdPath);
  if (!validator) {
    const xsdDoc = XmlDocument.fromBuffer(readFileSync(xsdPath), { url: xsdPath });
    try {
      validator = XsdValidator.fromDoc(xsdDoc);
    } finally {
      xsdDoc.dispose();
    }
    validators.set(xsdPath, validator);
  }
  return validator;
}

/** Validates `xml` against the schema at `xsdPath`; `output` holds libxml2's messages. */
export function xsdValidate(xml: string, xsdPath: string): XsdResult {
  const validator = validatorFor(xsdPath);
  try {
    withDoc(xml, (doc) => validator.validate(doc));
    return { ok: true, output: "" };
  } catch (err) {
    if (!(err instanceof XmlLibError)) throw err;
    const lines = err.details.map((d) => `line ${d.line}: ${d.message.trim()}`);
    return { ok: false, output: lines.length ? lines.join("\n") : err.message };
  }
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
