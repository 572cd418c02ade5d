import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, base64ToBytesOrNull, base64UrlToBytes, bytesToBase64, bytesToBase64Url } from "./base64";

describe("base64", () => {
  it("round-trips every byte value", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64ToBytes(bytesToBase64(all))).toEqual(all);
  });
  it("matches the standard alphabet with padding", () => {
    expect(bytesToBase64(new TextEncoder().encode("Man"))).toBe("TWFu");
    expect(bytesToBase64(Uint8Array.of(0xfb, 0xff))).toBe("+/8=");
  });
  it("matches Node's encoder on random bytes and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
      }),
    );
  });
  it("answers null, not an exception, for text that is not base64", () => {
    for (const bad of ["a b", "TWFu!", "TW=u", "TWFu===", "-_8", "€"]) expect(base64ToBytesOrNull(bad)).toBeNull();
    expect(base64ToBytesOrNull("TWFu")).toEqual(new TextEncoder().encode("Man"));
    expect(base64ToBytesOrNull("")).toEqual(new Uint8Array());
  });
});

describe("base64url", () => {
  it("uses '-' and '_' and drops the padding", () => {
    expect(bytesToBase64Url(Uint8Array.of(0xfb, 0xff))).toBe("-_8");
    expect(bytesToBase64Url(new TextEncoder().encode("Ma"))).toBe("TWE");
    expect(base64UrlToBytes("-_8")).toEqual(Uint8Array.of(0xfb, 0xff));
  });
  it("refuses the standard alphabet, padding and impossible lengths", () => {
    for (const bad of ["+/8", "TWE=", "TWFuT", "a b", "é"]) expect(base64UrlToBytes(bad)).toBeNull();
  });
  it("matches Node's encoder on random bytes and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = bytesToBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(base64UrlToBytes(text)).toEqual(bytes);
      }),
    );
  });
});
