/** Standard base64 of raw bytes (WebCrypto output, random values, UTF-8 text). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** The bytes of a standard base64 string. Throws on invalid input. */
export function base64ToBytes(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}
