/**
 * The IRmark: SHA-1 of the canonicalised GovTalk Body with the IRmark element
 * itself left out, quoted in base64 inside the message and in base32 on
 * HMRC's receipt. HMRC recomputes it and rejects a mismatch (error 2021).
 */
import { bytesToBase64 } from "~/utils/base64";
import { base32Encode } from "./base32";
import { canonicalize } from "./c14n";
import { child, localNameOf, parseXml, type XmlElement } from "./dom";

export const GOVTALK_ENVELOPE_NS = "http://www.govtalk.gov.uk/CM/envelope";

export interface IRmark {
  /** 28 characters, as written in <IRmark Type="generic">. */
  base64: string;
  /** 32 characters, as quoted on HMRC's receipt. */
  base32: string;
}

export class IRmarkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IRmarkError";
  }
}

const isIRmarkElement = (el: XmlElement): boolean => {
  const parent = el.parentNode as XmlElement | null;
  return localNameOf(el) === "IRmark" && !!parent && localNameOf(parent) === "IRheader";
};

function bodyOf(xml: string): XmlElement {
  const root = parseXml(xml).documentElement;
  if (!root || localNameOf(root) !== "GovTalkMessage") throw new IRmarkError("Not a GovTalk message: no GovTalkMessage root");
  const body = child(root, "Body");
  if (!body) throw new IRmarkError("GovTalk message has no Body");
  return body;
}

/** The exact text that is hashed: the canonical Body without its IRmark. */
export function irmarkCanonicalBody(xml: string): string {
  return canonicalize(bodyOf(xml), { exclude: isIRmarkElement });
}

export async function sha1(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const digest = await crypto.subtle.digest("SHA-1", bytes);
  return new Uint8Array(digest);
}

export async function irmark(xml: string): Promise<IRmark> {
  const canonical = irmarkCanonicalBody(xml);
  const digest = await sha1(new TextEncoder().encode(canonical));
  return { base64: bytesToBase64(digest), base32: base32Encode(digest) };
}

/**
 * Writes the IRmark into the message's (single) IRmark element. Works on the
 * text so nothing else in the message is re-serialised: the bytes HMRC hashes
 * must be the bytes we hashed.
 */
export function setIRmark(xml: string, base64: string): string {
  const re = /(<IRmark\b[^>]*?)(?:\/>|>[^<]*<\/IRmark>)/g;
  const matches = xml.match(re);
  if (!matches || matches.length !== 1) throw new IRmarkError("Expected exactly one IRmark element");
  return xml.replace(re, (_m, open: string) => `${open}>${base64}</IRmark>`);
}

/** Computes and inserts the IRmark. */
export async function withIRmark(xml: string): Promise<{ xml: string; irmark: IRmark }> {
  const mark = await irmark(xml);
  return { xml: setIRmark(xml, mark.base64), irmark: mark };
}

/** Whether the IRmark written in the message is the right one. */
export async function verifyIRmark(xml: string): Promise<boolean> {
  const body = bodyOf(xml);
  const header = child(child(body, "IRenvelope"), "IRheader");
  const written = child(header, "IRmark")?.textContent?.trim();
  if (!written) return false;
  return (await irmark(xml)).base64 === written;
}
