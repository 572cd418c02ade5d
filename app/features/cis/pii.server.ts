/**
 * Encryption of UTRs and NINOs at rest (AES-256-GCM through WebCrypto).
 *
 * Stored form: `v{keyVersion}.{base64 iv}.{base64 ciphertext+tag}`. A fresh 96-bit IV per value.
 * The tenant, table, record id and field are the additional authenticated data, so a value
 * copied to another row, field or tenant fails to decrypt. Keys come from the PII_KEYS secret
 * (`version:base64key,...`); the highest version encrypts, any listed version decrypts, and
 * `npm run keys:rotate` re-encrypts every row with the newest key.
 */
import { base64ToBytes, bytesToBase64 } from "~/utils/base64";

export class PiiError extends Error {}
export const ENCRYPT_FAILED = "Failed to encrypt sensitive data";
export const DECRYPT_FAILED = "Failed to decrypt sensitive data";

export type PiiContext = { tenantId: string; table: string; recordId: string; field: string };
type Keyring = { current: number; keys: Map<number, CryptoKey> };

const keyringCache = new Map<string, Promise<Keyring>>();

export function parseKeySpec(spec: string): { version: number; raw: Uint8Array }[] {
  const entries = (spec ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [v, k] = entry.split(":");
      const version = Number(v);
      const raw = k ? base64ToBytes(k) : new Uint8Array();
      if (!Number.isInteger(version) || version < 1 || raw.length !== 32) throw new PiiError("PII_KEYS must be `version:base64(32 bytes)` entries");
      return { version, raw };
    });
  if (entries.length === 0) throw new PiiError("PII_KEYS is not configured");
  return entries;
}

async function keyring(spec: string): Promise<Keyring> {
  let ring = keyringCache.get(spec);
  if (!ring) {
    ring = (async () => {
      const entries = parseKeySpec(spec);
      const keys = new Map<number, CryptoKey>();
      for (const e of entries) keys.set(e.version, await crypto.subtle.importKey("raw", e.raw as BufferSource, "AES-GCM", false, ["encrypt", "decrypt"]));
      return { current: Math.max(...entries.map((e) => e.version)), keys };
    })();
    keyringCache.set(spec, ring);
  }
  return ring;
}

function aad(ctx: PiiContext): Uint8Array {
  return new TextEncoder().encode(`${ctx.tenantId}|${ctx.table}|${ctx.recordId}|${ctx.field}`);
}

export async function encryptPii(keySpec: string, plaintext: string, ctx: PiiContext): Promise<string> {
  try {
    const ring = await keyring(keySpec);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: aad(ctx) as BufferSource },
      ring.keys.get(ring.current) as CryptoKey,
      new TextEncoder().encode(plaintext),
    );
    return `v${ring.current}.${bytesToBase64(iv)}.${bytesToBase64(new Uint8Array(ct))}`;
  } catch (err) {
    if (err instanceof PiiError) throw err;
    throw new PiiError(ENCRYPT_FAILED);
  }
}

export function keyVersionOf(stored: string): number | null {
  const m = /^v(\d+)\./.exec(stored);
  return m ? Number(m[1]) : null;
}

export async function decryptPii(keySpec: string, stored: string, ctx: PiiContext): Promise<string> {
  const [v, iv, ct] = stored.split(".");
  const version = Number(v?.slice(1));
  const ring = await keyring(keySpec);
  const key = ring.keys.get(version);
  if (!key || !iv || !ct) throw new PiiError(DECRYPT_FAILED);
  try {
    const pt = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: base64ToBytes(iv) as BufferSource, additionalData: aad(ctx) as BufferSource },
      key,
      base64ToBytes(ct) as BufferSource,
    );
    return new TextDecoder().decode(pt);
  } catch {
    throw new PiiError(DECRYPT_FAILED);
  }
}

export async function currentKeyVersion(keySpec: string): Promise<number> {
  return (await keyring(keySpec)).current;
}

const hmacCache = new Map<string, Promise<CryptoKey>>();

/** Keyed hash of a normalised identifier, scoped to the tenant: equality search without plaintext. */
export async function piiSearchHash(hmacKey: string, tenantId: string, kind: "utr" | "nino", normalised: string): Promise<string> {
  if (!hmacKey || hmacKey.length < 16) throw new PiiError("PII_HMAC_KEY is not configured");
  let key = hmacCache.get(hmacKey);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(hmacKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    hmacCache.set(hmacKey, key);
  }
  const mac = await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(`${tenantId}|${kind}|${normalised}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** ******7890: only the last four shown. */
export function maskUtr(utr: string): string {
  const d = utr.replace(/\s+/g, "");
  return d.length <= 4 ? "****" : `${"*".repeat(d.length - 4)}${d.slice(-4)}`;
}

/** AB****56C: the prefix letters, the last two digits and the suffix letter. */
export function maskNino(nino: string): string {
  const n = nino.replace(/\s+/g, "").toUpperCase();
  if (n.length !== 9) return "*********";
  return `${n.slice(0, 2)}****${n.slice(6)}`;
}

/** j***@e***.com */
export function maskEmail(email: string | null | undefined): string {
  if (!email) return "";
  const [local, domain] = email.split("@");
  if (!domain) return "***";
  const dot = domain.lastIndexOf(".");
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
}

/** ******* 123: the last three digits. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return "";
  const digits = phone.replace(/\D/g, "");
  return digits.length <= 3 ? "***" : `${"*".repeat(digits.length - 3)}${digits.slice(-3)}`;
}
