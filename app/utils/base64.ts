/**
 * The one place that converts bytes to and from base64 (RFC 4648 section 4, '+/' with '=' padding)
 * and base64url (section 5, '-_' without padding). Runs alike in Workers, browsers and Node.
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Standard base64 of raw bytes (WebCrypto output, random values, UTF-8 text). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** The bytes of a standard base64 string. Throws on invalid input. */
export function base64ToBytes(s: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

/** The bytes of a standard base64 string, or null when it is not one (other characters, bad length or padding). */
export function base64ToBytesOrNull(s: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64.test(s)) return null;
  try {
    return base64ToBytes(s);
  } catch {
    return null;
  }
}

/** URL-safe base64 of raw bytes, without padding: ids, tokens, signatures in URLs and forms. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of an unpadded base64url string, or null when it is not one. */
export function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(s)) return null;
  const padded = s.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (s.length % 4)) % 4);
  return base64ToBytesOrNull(padded);
}
