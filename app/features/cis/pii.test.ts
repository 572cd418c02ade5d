import { describe, expect, it } from "vitest";
import { decryptPii, encryptPii, keyVersionOf, maskEmail, maskNino, maskPhone, maskUtr, piiSearchHash } from "./pii.server";

const K1 = `1:${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
const K2 = `2:${btoa(String.fromCharCode(...new Uint8Array(32).fill(9)))}`;
const ctx = { tenantId: "t1", table: "cis_subcontractors", recordId: "s1", field: "utr" };

describe("PII encryption", () => {
  it("round-trips with a random IV per value and the key version stored", async () => {
    const a = await encryptPii(K1, "5334567890", ctx);
    const b = await encryptPii(K1, "5334567890", ctx);
    expect(a).not.toBe(b);
    expect(a).not.toContain("5334567890");
    expect(keyVersionOf(a)).toBe(1);
    expect(await decryptPii(K1, a, ctx)).toBe("5334567890");
  });

  it("fails to decrypt a value copied to another record, field or tenant", async () => {
    const stored = await encryptPii(K1, "5334567890", ctx);
    await expect(decryptPii(K1, stored, { ...ctx, recordId: "s2" })).rejects.toThrow("Failed to decrypt sensitive data");
    await expect(decryptPii(K1, stored, { ...ctx, tenantId: "t2" })).rejects.toThrow("Failed to decrypt sensitive data");
    await expect(decryptPii(K1, stored, { ...ctx, field: "nino" })).rejects.toThrow("Failed to decrypt sensitive data");
  });

  it("encrypts with the newest key and still reads older versions", async () => {
    const old = await encryptPii(K1, "5334567890", ctx);
    const ring = `${K1},${K2}`;
    expect(await decryptPii(ring, old, ctx)).toBe("5334567890");
    const fresh = await encryptPii(ring, "5334567890", ctx);
    expect(keyVersionOf(fresh)).toBe(2);
    await expect(decryptPii(K1, fresh, ctx)).rejects.toThrow();
  });

  it("hashes identifiers per tenant with a key", async () => {
    const a = await piiSearchHash("a-long-enough-hmac-key", "t1", "utr", "5334567890");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await piiSearchHash("a-long-enough-hmac-key", "t1", "utr", "5334567890")).toBe(a);
    expect(await piiSearchHash("a-long-enough-hmac-key", "t2", "utr", "5334567890")).not.toBe(a);
    expect(await piiSearchHash("another-long-hmac-key!", "t1", "utr", "5334567890")).not.toBe(a);
  });

  it("masks for display", () => {
    expect(maskUtr("5334567890")).toBe("******7890");
    expect(maskNino("AB123456C")).toBe("AB****56C");
    expect(maskEmail("jane@example.com")).toBe("j***@e***.com");
    expect(maskPhone("07700 900123")).toBe("********123");
    expect(maskEmail(null)).toBe("");
  });
});
