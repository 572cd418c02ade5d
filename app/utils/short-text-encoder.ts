/**
 * A TextEncoder whose encode() builds short ASCII strings in JavaScript (ADR 0083).
 *
 * React's streaming renderer for Workers turns every attribute value and text node into bytes
 * with its own `new TextEncoder()`, one encode() call each: about 1,400 calls for a list page
 * of 25 rows. workerd's encode() is a call into C++ that gives each result its own backing
 * store outside the JavaScript heap, which costs more than the copying and makes the garbage
 * collector work for every chunk. A string of at most 64 ASCII characters is copied here into
 * a Uint8Array small enough for V8 to keep on its own heap; anything longer or not ASCII goes
 * to the platform's encoder, so the bytes are always exactly the platform's.
 */
export const SHORT_STRING_LIMIT = 64;

export class ShortTextEncoder extends TextEncoder {
  override encode(input?: string): Uint8Array<ArrayBuffer> {
    // The platform's argument rules: nothing is the empty string, anything else is converted
    // to a string the way a template does (a Symbol throws, as it does in the platform's encoder).
    const text = input === undefined ? "" : `${input}`;
    const length = text.length;
    if (length > SHORT_STRING_LIMIT) return super.encode(text);
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit > 0x7f) return super.encode(text);
      bytes[i] = unit;
    }
    return bytes;
  }
}
