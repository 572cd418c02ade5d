import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64 } from "./base64";

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
});
