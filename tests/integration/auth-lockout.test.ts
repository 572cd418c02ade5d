import { describe, expect, it } from "vitest";
import { THROTTLE } from "~/features/auth/throttle.server";
import { createTenant, createUser } from "../factories";
import { shownText } from "../factories/html";
import { count, createPlatformAdmin } from "./auth-helpers";
import { Browser, location } from "./http";

/** A sign-in form post from one client address (the Worker reads CF-Connecting-IP). */
function postFrom(ip: string, url: string, form: Record<string, string>) {
  return new Browser().post(url, form, { headers: { "CF-Connecting-IP": ip } });
}

let net = 0;
/** A fresh documentation-range address per call, so tests do not share address counters. */
function address(): string {
  net += 1;
  return `198.51.${Math.floor(net / 250) % 250}.${(net % 250) + 1}`;
}

describe("the account lock cannot be used to keep someone out", () => {
  it("wrong passwords from one address lock the account for that address only", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const attacker = address();
    for (let i = 0; i < THROTTLE.accountLimit; i++)
      expect((await postFrom(attacker, `${t.origin}/login`, { email: u.email, password: `nope-${i}` })).status).toBe(400);
    const blocked = await postFrom(attacker, `${t.origin}/login`, { email: u.email, password: u.password });
    expect(blocked.status).toBe(429);
    expect(await shownText(blocked)).toContain("Too many failed sign-in attempts");
    // The owner, elsewhere, still signs in.
    const owner = await postFrom(address(), `${t.origin}/login`, { email: u.email, password: u.password });
    expect(owner.status).toBe(302);
    expect(location(owner)).toBe("/");
  });

  it("locks the account everywhere only at the high count from many addresses, and e-mails the person once", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    // Spread over many addresses, each address stays under its own limits.
    for (let i = 0; i < THROTTLE.accountGlobalLimit; i++) {
      const res = await postFrom(address(), `${t.origin}/login`, { email: u.email, password: `spread-${i}` });
      expect(res.status, `attempt ${i + 1}`).toBe(400);
    }
    expect(await count("email_outbox", "to_address = ? AND template = 'auth.account-locked'", u.email)).toBe(0);
    // One more, from yet another address: the account is now locked everywhere, right password or not.
    expect((await postFrom(address(), `${t.origin}/login`, { email: u.email, password: "one-too-many" })).status).toBe(429);
    expect((await postFrom(address(), `${t.origin}/login`, { email: u.email, password: u.password })).status).toBe(429);
    expect((await postFrom(address(), "http://localhost/login", { email: u.email, password: u.password })).status).toBe(429);
    // One e-mail for the lock, however many attempts hit it.
    expect(await count("email_outbox", "to_address = ? AND template = 'auth.account-locked'", u.email)).toBe(1);
  });

  it("no e-mail goes to an address that has no account", async () => {
    const t = await createTenant();
    const nobody = `nobody-${Date.now().toString(36)}@example.test`;
    for (let i = 0; i <= THROTTLE.accountGlobalLimit; i++) await postFrom(address(), `${t.origin}/login`, { email: nobody, password: `x-${i}` });
    expect(await count("auth_throttle", "key = ? AND locked_until > ?", `acct:${nobody}`, Date.now())).toBe(1);
    expect(await count("email_outbox", "to_address = ?", nobody)).toBe(0);
  });

  it("the super-admin's sign-in on the bare domain follows the same rule", async () => {
    const admin = await createPlatformAdmin();
    const attacker = address();
    for (let i = 0; i < THROTTLE.accountLimit; i++)
      expect((await postFrom(attacker, "http://localhost/login", { email: admin.email, password: `nope-${i}` })).status).toBe(400);
    expect((await postFrom(attacker, "http://localhost/login", { email: admin.email, password: admin.password })).status).toBe(429);
    const owner = await postFrom(address(), "http://localhost/login", { email: admin.email, password: admin.password });
    expect(owner.status).toBe(302);
    expect(location(owner)).toBe("/login/verify");
  });
});
