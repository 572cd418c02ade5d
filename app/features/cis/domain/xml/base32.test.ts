import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base32Encode } from "./base32";

describe("base32Encode (RFC 4648 test vectors)", () => {
  it.each([
    ["", ""],
    ["f", "MY======"],
    ["fo", "MZXQ===="],
    ["foo", "MZXW6==="],
    ["foob", "MZXW6YQ="],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI======"],
  ])("%j -> %s", (input, expected) => {
    expect(base32Encode(new TextEncoder().encode(input))).toBe(expected);
  });

  it("a SHA-1 digest is exactly 32 characters, no padding", () => {
    const digest = createHash("sha1").update("x").digest();
    expect(base32Encode(new Uint8Array(digest))).toMatch(/^[A-Z2-7]{32}$/);
  });
});
