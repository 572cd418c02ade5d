import { base64ToBytesOrNull } from "~/utils/base64";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 (upper case, '=' padded). HMRC quotes the IRmark this way on receipts. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    // Keep only the bits not yet emitted, so the accumulator never overflows.
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += "=";
  return out;
}

/** An IRmark stored as written in the message (base64) as HMRC's receipt quotes it (base32); anything unreadable as it is. */
export function irmarkAsOnReceipt(base64: string): string {
  const bytes = base64ToBytesOrNull(base64);
  return bytes && bytes.length > 0 ? base32Encode(bytes) : base64;
}
