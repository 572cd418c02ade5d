import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, parsePeppers, PasswordConfigError, verifyPassword } from "./password.server";

const OLD = "1:old-pepper-old-pepper-old-pepper-0123";
const NEW = "2:new-pepper-new-pepper-new-pepper-4567";

describe("PASSWORD_PEPPER", () => {
  it("reads version:secret pairs, newest first, and a bare secret as version 1", () => {
    expect(parsePeppers(`${OLD},${NEW}`).map((p) => p.version)).toEqual([2, 1]);
    expect(parsePeppers("a-bare-secret-of-at-least-32-characters")).toEqual([{ version: 1, key: "a-bare-secret-of-at-least-32-characters" }]);
  });

  it("refuses a missing, short or repeated version", () => {
    for (const bad of [undefined, "", " ", "1:short", `${OLD},1:another-pepper-of-enough-length-000000`]) {
      expect(() => parsePeppers(bad)).toThrow(PasswordConfigError);
    }
  });

  it("rotates: an old-version hash verifies while its version is listed, wants a rehash, and fails once it is dropped", async () => {
    const hash = await hashPassword({ PASSWORD_PEPPER: OLD }, "rotate-me");
    const both = { PASSWORD_PEPPER: `${NEW},${OLD}` };
    expect(await verifyPassword(both, "rotate-me", hash)).toBe(true);
    expect(needsRehash(both, hash)).toBe(true);
    const rehashed = await hashPassword(both, "rotate-me");
    expect(rehashed.startsWith("pbkdf2-sha256-hmac$2$")).toBe(true);
    expect(needsRehash(both, rehashed)).toBe(false);
    expect(await verifyPassword({ PASSWORD_PEPPER: NEW }, "rotate-me", hash)).toBe(false);
    expect(await verifyPassword({ PASSWORD_PEPPER: NEW }, "rotate-me", rehashed)).toBe(true);
  });

  it("does not accept a wrong password or an unreadable hash", async () => {
    const env = { PASSWORD_PEPPER: NEW };
    const hash = await hashPassword(env, "right");
    expect(await verifyPassword(env, "wrong", hash)).toBe(false);
    expect(await verifyPassword(env, "right", "garbage")).toBe(false);
    expect(needsRehash(env, "garbage")).toBe(true);
  });
});
