import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/utils/ids";
import { sessionTokenHash, TOKEN_HASH_CACHE_SIZE, tokenHashCacheSize } from "./token-hash.server";

describe("session token hash", () => {
  it("is the token's SHA-256, the first time and from the cache", async () => {
    const token = "abc";
    const expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(await sessionTokenHash(token)).toBe(expected);
    expect(await sessionTokenHash(token)).toBe(expected);
    expect(await sessionTokenHash(`${token}b`)).toBe(await sha256Hex(`${token}b`));
  });

  it("holds at most its bound, dropping the oldest tokens first", async () => {
    for (let i = 0; i < TOKEN_HASH_CACHE_SIZE + 50; i++) await sessionTokenHash(`token-${i}`);
    expect(tokenHashCacheSize()).toBe(TOKEN_HASH_CACHE_SIZE);
    // A dropped token still hashes right.
    expect(await sessionTokenHash("token-0")).toBe(await sha256Hex("token-0"));
  });
});
