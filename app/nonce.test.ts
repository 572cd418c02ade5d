import { describe, expect, it } from "vitest";
import { documentNonce } from "./nonce";

// A browser blanks the nonce attribute of a loaded page and keeps the value in the `nonce`
// property; only the property is read, so these stand-ins have just that.
const doc = (script: { nonce: string } | null) => ({ querySelector: () => script }) as unknown as Pick<Document, "querySelector">;

describe("documentNonce", () => {
  it("is the nonce the page's scripts were served with, so the client renders the same attribute", () => {
    expect(documentNonce(doc({ nonce: "abc123==" }))).toBe("abc123==");
  });

  it("is undefined on a page served without one (a shared, cacheable page)", () => {
    expect(documentNonce(doc(null))).toBeUndefined();
    expect(documentNonce(doc({ nonce: "" }))).toBeUndefined();
  });
});
