import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { hashPassword, kdf, PasswordConfigError, verifyPassword } from "~/features/auth/password.server";
import { checkBareDomainCredentials } from "~/features/auth/sign-in.server";
import { THROTTLE } from "~/features/auth/throttle.server";
import { changePassword, setUserDisabled } from "~/features/auth/users.server";
import { createTenant, createUser, PASSWORD } from "../factories";
import { pageText, parseHtml, shownText } from "../factories/html";
import { bareSignIn, codeFrom, count, createPlatformAdmin, legacyUnpepperedHash, mailedCode, signIn, waitForMail, wrongCode } from "./auth-helpers";
import { Browser, location } from "./http";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sign-in without JavaScript", () => {
  it("posts the form, gets a session cookie and lands in the shell", async () => {
    const t = await createTenant({ name: "Plain Post Ltd" });
    const u = await createUser(t, { role: "admin" });
    const b = await signIn(t, u);
    const home = await b.get(`${t.origin}/`);
    expect(home.status).toBe(302);
    expect(location(home)).toBe("/welcome");
    const page = await b.get(`${t.origin}/welcome`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Welcome to Plain Post Ltd");
    expect(htmlText).toContain("Sign out");
  });

  it("sets an HttpOnly, SameSite=Lax, host-only __Host- cookie, Secure outside development", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const res = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("gives the same message for an unknown e-mail and a wrong password, and audits both without the password", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = new Browser();
    const wrongPassword = await b.post(`${t.origin}/login`, { email: u.email, password: "wrong-password-123" });
    const unknownEmail = await b.post(`${t.origin}/login`, { email: "nobody@example.test", password: "wrong-password-123" });
    expect(wrongPassword.status).toBe(400);
    expect(unknownEmail.status).toBe(400);
    const a = await wrongPassword.text();
    const c = await unknownEmail.text();
    expect(a).toContain("The email address or password is not right. Check them and try again.");
    expect(c).toContain("The email address or password is not right. Check them and try again.");
    // The e-mail typed is kept; the password is not echoed back.
    expect(a).toContain(u.email);
    expect(a).not.toContain("wrong-password-123");
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.login.failed'", t.id)).toBe(2);
    const payloads = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ?").bind(t.id).all<{ payload: string }>();
    for (const p of payloads.results) expect(p.payload).not.toContain("wrong-password-123");
  });

  it("shows field messages for missing input and refuses the honeypot", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = new Browser();
    const empty = await b.post(`${t.origin}/login`, { email: "", password: "" });
    expect(empty.status).toBe(400);
    expect(await shownText(empty)).toContain("Enter your email address");
    const bot = await b.post(`${t.origin}/login`, { email: u.email, password: u.password, website: "http://spam.test" });
    expect(bot.status).toBe(400);
    expect(bot.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("throttles repeated failures for an account and explains why, even with the right password", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = new Browser();
    for (let i = 0; i < 5; i++) await b.post(`${t.origin}/login`, { email: u.email, password: `nope-${i}` });
    const blocked = await b.post(`${t.origin}/login`, { email: u.email, password: u.password });
    expect(blocked.status).toBe(429);
    expect(await shownText(blocked)).toContain("Too many failed sign-in attempts");
    // Locked for this client address (the test requests carry none); the account is not locked everywhere.
    expect(await count("auth_throttle", "key = ? AND locked_until > ?", `acct-ip:${u.email}|unknown`, Date.now())).toBe(1);
    expect(await count("auth_throttle", "key = ? AND locked_until IS NULL", `acct:${u.email}`)).toBe(1);
  });

  it("counts each attempt before checking the password: of 20 parallel wrong passwords at most the limit get 400, the rest 429", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => new Browser().post(`${t.origin}/login`, { email: u.email, password: `parallel-${i}` })),
    );
    const statuses = attempts.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(THROTTLE.accountLimit);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20 - THROTTLE.accountLimit);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    const refused = attempts.find((r) => r.status === 429);
    expect(await refused?.text()).toContain("Too many failed sign-in attempts");
    // Locked: the right password is refused too.
    expect((await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password })).status).toBe(429);
  });

  it("shares an account's lock between the bare domain and the tenant host, both ways", async () => {
    const t = await createTenant();
    const onBare = await createUser(t);
    const onHost = await createUser(t);
    for (let i = 0; i < THROTTLE.accountLimit; i++) expect((await bareSignIn(onBare.email, `nope-${i}`)).res.status).toBe(400);
    const blockedOnHost = await new Browser().post(`${t.origin}/login`, { email: onBare.email, password: onBare.password });
    expect(blockedOnHost.status).toBe(429);
    for (let i = 0; i < THROTTLE.accountLimit; i++)
      expect((await new Browser().post(`${t.origin}/login`, { email: onHost.email, password: `nope-${i}` })).status).toBe(400);
    const blockedOnBare = await bareSignIn(onHost.email, onHost.password);
    expect(blockedOnBare.res.status).toBe(429);
    expect(await shownText(blockedOnBare.res)).toContain("Too many failed sign-in attempts");
  });

  it("does not clear the account's failures on a right password while the code step is pending", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    for (let i = 0; i < THROTTLE.accountLimit - 1; i++)
      expect((await new Browser().post(`${t.origin}/login`, { email: u.email, password: `nope-${i}` })).status).toBe(400);
    // The attacker knows the password but not the code: this must not wipe the count.
    expect(location(await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password }))).toBe("/login/verify");
    expect((await new Browser().post(`${t.origin}/login`, { email: u.email, password: "one-more-guess" })).status).toBe(400);
    expect((await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password })).status).toBe(429);
  });

  it("clears the account's failures once the whole sign-in succeeds", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    for (let i = 0; i < THROTTLE.accountLimit - 1; i++) await new Browser().post(`${t.origin}/login`, { email: u.email, password: `nope-${i}` });
    const b = new Browser();
    const started = Date.now();
    expect(location(await b.post(`${t.origin}/login`, { email: u.email, password: u.password }))).toBe("/login/verify");
    expect((await b.post(`${t.origin}/login/verify`, { code: await mailedCode(u.email, started) })).status).toBe(302);
    expect(await count("auth_throttle", "key IN (?, ?)", `acct:${u.email}`, `acct-ip:${u.email}|unknown`)).toBe(0);
  });

  it("only follows same-origin redirectTo paths", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    for (const evil of ["//evil.test/x", "https://evil.test/", "/\\evil.test"]) {
      const res = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password, redirectTo: evil });
      expect(location(res)).toBe("/");
    }
    const ok = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password, redirectTo: "/welcome?x=1" });
    expect(location(ok)).toBe("/welcome?x=1");
  });

  it("sends a signed-out visitor to /login with redirectTo", async () => {
    const t = await createTenant();
    const res = await new Browser().get(`${t.origin}/welcome`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/login?redirectTo=%2Fwelcome");
  });

  it("names the page, not React Router's data URL, when a client-side navigation meets a signed-out visitor", async () => {
    const t = await createTenant();
    const res = await new Browser().get(`${t.origin}/welcome.data`);
    const body = await res.text();
    expect(body).toContain("/login?redirectTo=%2Fwelcome");
    expect(body).not.toContain(".data");
    expect(body).not.toContain("_routes");
  });

  it("marks signed-in pages private and uncacheable so Back after sign-out shows nothing stored", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signIn(t, u);
    const res = await b.get(`${t.origin}/welcome`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });
});

describe("two-factor code", () => {
  async function startCodeStep(opts: { required?: boolean; toggle?: boolean } = { required: true }) {
    const t = await createTenant({ name: "Two Factor Ltd" });
    const u = await createUser(t, { role: "manager", twoFactorRequired: opts.required });
    const b = new Browser();
    const started = Date.now();
    const form: Record<string, string> = { email: u.email, password: u.password };
    if (opts.toggle) form.twoFactor = "on";
    const res = await b.post(`${t.origin}/login`, form);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/login/verify");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
    const mail = await waitForMail(u.email, { after: started });
    return { t, u, b, code: codeFrom(mail), mail };
  }

  it("signs in with the code read from the dev mailbox", async () => {
    const { t, b, code, mail } = await startCodeStep();
    expect(mail.subject).toContain("Two Factor Ltd");
    const page = await b.get(`${t.origin}/login/verify`);
    expect(page.status).toBe(200);
    expect(await shownText(page)).toContain("Back to login");
    const res = await b.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/");
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(200);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.code.sent'", t.id)).toBe(1);
  });

  it("is also started by the toggle, and stores only a hash of the code", async () => {
    const { t, code } = await startCodeStep({ required: false, toggle: true });
    const rows = await env.DB.prepare("SELECT code_hash FROM login_challenges WHERE tenant_id = ?").bind(t.id).all<{ code_hash: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0].code_hash).not.toContain(code);
    const audit = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ?").bind(t.id).all<{ payload: string }>();
    for (const a of audit.results) expect(a.payload).not.toContain(code);
  });

  it("asks for the full code", async () => {
    const { t, b } = await startCodeStep();
    const res = await b.post(`${t.origin}/login/verify`, { code: "123" });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("Enter the 6-digit code from the e-mail we sent you, like 123456");
  });

  it("refuses an expired code", async () => {
    const { t, b, code } = await startCodeStep();
    await env.DB.prepare("UPDATE login_challenges SET expires_at = ? WHERE tenant_id = ?")
      .bind(Date.now() - 1, t.id)
      .run();
    const res = await b.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("That code is wrong or has expired. Enter the code from the latest e-mail, or send a new one.");
  });

  it("refuses a code used twice", async () => {
    const { t, b, code } = await startCodeStep();
    const challengeCookie = b.cookie(t.host, "__Host-login-challenge");
    expect((await b.post(`${t.origin}/login/verify`, { code })).status).toBe(302);
    const replay = new Browser();
    replay.setCookie(t.host, "__Host-login-challenge", challengeCookie ?? "");
    const res = await replay.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("That code is wrong or has expired. Enter the code from the latest e-mail, or send a new one.");
  });

  it("kills the code after 5 wrong tries", async () => {
    const { t, b, code } = await startCodeStep();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await b.post(`${t.origin}/login/verify`, { code: wrong })).status).toBe(400);
    const res = await b.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("That code is wrong or has expired. Enter the code from the latest e-mail, or send a new one.");
  });

  it("counts a wrong code before comparing it, so parallel guesses at one challenge get 5 tries at most", async () => {
    const { t, b, code } = await startCodeStep();
    const wrong = Array.from({ length: 9 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all([...wrong, code].map((c) => b.post(`${t.origin}/login/verify`, { code: c })));
    expect(results.map((r) => r.status)).not.toContain(302);
    expect(await count("sessions", "tenant_id = ?", t.id)).toBe(0);
  });

  it("caps wrong codes per user across challenges: after the cap even the right code is refused", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    const b = new Browser();
    let code = "";
    // Each round: the right password (a fresh code) and two wrong codes; five rounds make ten.
    for (let round = 0; round < 5; round++) {
      const started = Date.now();
      const res = await b.post(`${t.origin}/login`, { email: u.email, password: u.password });
      expect(location(res), `round ${round}`).toBe("/login/verify");
      if (round === 4) code = await mailedCode(u.email, started);
      for (const guess of ["000000", "999999"]) {
        if (guess === code) continue;
        expect((await b.post(`${t.origin}/login/verify`, { code: guess })).status).toBe(400);
      }
    }
    const right = await b.post(`${t.origin}/login/verify`, { code });
    expect(right.status).toBe(429);
    expect(await shownText(right)).toContain("Too many wrong codes");
    expect(await count("sessions", "tenant_id = ? AND user_id = ?", t.id, u.id)).toBe(0);
    // A new code does not reopen the step while it is locked.
    const again = await b.post(`${t.origin}/login`, { email: u.email, password: u.password });
    expect(again.status).toBe(429);
    expect(await shownText(again)).toContain("Too many wrong codes");
  });

  it("caps the codes sent to a user per window, with a clear message", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    for (let i = 0; i < 5; i++) expect(location(await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password }))).toBe("/login/verify");
    const refused = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password });
    expect(refused.status).toBe(429);
    expect(await shownText(refused)).toContain("Too many sign-in codes requested");
    expect(await count("login_challenges", "tenant_id = ? AND user_id = ?", t.id, u.id)).toBe(5);
  });

  it("cannot be switched off by the toggle when the account requires it", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    const res = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password });
    expect(location(res)).toBe("/login/verify");
  });

  it("returns to the login step with the spec's message when the code cannot be queued", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    const failingEnv = {
      ...env,
      EMAIL: { send: async () => Promise.reject(new Error("queue down")), sendBatch: async () => Promise.reject(new Error("queue down")) },
    };
    const res = await worker.fetch(
      new Request(`${t.origin}/login`, {
        method: "POST",
        headers: { Origin: t.origin },
        body: new URLSearchParams({ email: u.email, password: u.password }),
      }) as Parameters<typeof worker.fetch>[0],
      failingEnv as unknown as Env,
      createExecutionContext(),
    );
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain("We could not send your sign-in code. Try again in a few minutes.");
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.code.failed'", t.id)).toBe(1);
    // Tenant admins read the audit log: it names a reference, never the infrastructure's error text.
    const { payload } = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ? AND action = 'auth.code.failed'")
      .bind(t.id)
      .first<{ payload: string }>()
      .then((r) => r!);
    expect(payload).not.toContain("queue down");
    expect(JSON.parse(payload)).toEqual({ reason: "send_failed", reference: expect.stringMatching(/^[A-Z2-9]{8}$/) });
    expect(await count("login_challenges", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("sessions", () => {
  it("is not signed in when the cookie is replayed on another tenant's host", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const user = await createUser(a);
    const browser = await signIn(a, user);
    const stolen = browser.cookie(a.host, "__Host-session");
    const other = new Browser();
    other.setCookie(b.host, "__Host-session", stolen ?? "");
    const res = await other.get(`${b.origin}/welcome`);
    expect(res.status).toBe(302);
    expect(location(res)).toContain("/login");
  });

  it("issues a new session id on every sign-in and ends the one the browser had", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signIn(t, u);
    const first = b.cookie(t.host, "__Host-session");
    await signIn(t, u, b);
    const second = b.cookie(t.host, "__Host-session");
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await count("sessions", "tenant_id = ? AND user_id = ?", t.id, u.id)).toBe(2);
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND revoked_at IS NOT NULL", t.id, u.id)).toBe(1);
    const old = new Browser();
    old.setCookie(t.host, "__Host-session", first ?? "");
    expect((await old.get(`${t.origin}/welcome`)).status).toBe(302);
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(200);
  });

  it("ends the browser's previous session when a sign-in completes after the code step", async () => {
    const t = await createTenant();
    const u = await createUser(t, { twoFactorRequired: true });
    const b = new Browser();
    const sessionAfterCode = async () => {
      const started = Date.now();
      expect(location(await b.post(`${t.origin}/login`, { email: u.email, password: u.password }))).toBe("/login/verify");
      expect((await b.post(`${t.origin}/login/verify`, { code: await mailedCode(u.email, started) })).status).toBe(302);
      return b.cookie(t.host, "__Host-session");
    };
    const first = await sessionAfterCode();
    const second = await sessionAfterCode();
    expect(second).not.toBe(first);
    const old = new Browser();
    old.setCookie(t.host, "__Host-session", first ?? "");
    expect((await old.get(`${t.origin}/welcome`)).status).toBe(302);
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(200);
  });

  it("logout is a POST that revokes the session row", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signIn(t, u);
    const cookie = b.cookie(t.host, "__Host-session") ?? "";
    expect((await b.get(`${t.origin}/logout`)).status).toBe(404);
    const out = await b.post(`${t.origin}/logout`, {});
    expect(out.status).toBe(302);
    expect(location(out)).toBe("/login");
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND revoked_at IS NOT NULL", t.id, u.id)).toBe(1);
    const replay = new Browser();
    replay.setCookie(t.host, "__Host-session", cookie);
    expect((await replay.get(`${t.origin}/welcome`)).status).toBe(302);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.logout'", t.id)).toBe(1);
  });

  it("ends sessions at once when the user is disabled or the password changes", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const u1 = await createUser(t);
    const u2 = await createUser(t);
    const b1 = await signIn(t, u1);
    const b2 = await signIn(t, u2);
    expect((await b1.get(`${t.origin}/welcome`)).status).toBe(200);
    await setUserDisabled(env, t.id, u1.id, true, { id: admin.id, email: admin.email, name: "Test Actor" });
    expect((await b1.get(`${t.origin}/welcome`)).status).toBe(302);
    await changePassword(env, t.id, u2.id, "a-brand-new-password", { id: admin.id, email: admin.email, name: "Test Actor" });
    expect((await b2.get(`${t.origin}/welcome`)).status).toBe(302);
    // A disabled account cannot sign in again either.
    expect((await new Browser().post(`${t.origin}/login`, { email: u1.email, password: u1.password })).status).toBe(400);
  });

  it("refuses a cookie signed with an unknown secret", async () => {
    const t = await createTenant();
    const b = new Browser();
    b.setCookie(t.host, "__Host-session", "forged.value");
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(302);
  });
});

describe("bare-domain sign-in and accept-session", () => {
  it("hands over to the tenant host with a single-use token whose audience is that host", async () => {
    const t = await createTenant({ name: "Handover Ltd" });
    const u = await createUser(t, { email: `handover-${t.slug}@example.test` });
    const { res } = await bareSignIn(u.email, u.password);
    expect(res.status).toBe(302);
    const loc = new URL(location(res) ?? "");
    expect(loc.origin).toBe(`http://${t.slug}.localhost:5173`);
    expect(loc.pathname).toBe("/accept-session");
    expect(res.headers.getSetCookie().some((c) => c.includes("session="))).toBe(false);
    const token = loc.searchParams.get("token") ?? "";
    // In tests the tenant host has no port: the token's audience is APP_DOMAIN's host with port.
    const tenantOrigin = `http://${t.slug}.localhost:5173`;
    const b = new Browser();
    const page = await exports.default.fetch(`${tenantOrigin}/accept-session?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(await shownText(page)).toContain("Continue to Handover Ltd");
    expect(await new Browser().post(`${tenantOrigin}/accept-session`, {})).toHaveProperty("status", 400);
    const accept = await b.post(`${tenantOrigin}/accept-session`, { token });
    expect(accept.status).toBe(302);
    expect(accept.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(true);
    const again = await new Browser().post(`${tenantOrigin}/accept-session`, { token });
    expect(again.status).toBe(400);
    expect(await shownText(again)).toContain("already been used");
  });

  it("refuses the token on another tenant's host", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const u = await createUser(t, { email: `foreign-${t.slug}@example.test` });
    const { res } = await bareSignIn(u.email, u.password);
    const token = new URL(location(res) ?? "").searchParams.get("token") ?? "";
    const attempt = await new Browser().post(`http://${other.slug}.localhost:5173/accept-session`, { token });
    expect(attempt.status).toBe(400);
    expect(attempt.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("lets the user pick a tenant when the e-mail exists in several", async () => {
    const a = await createTenant({ name: "First Co" });
    const c = await createTenant({ name: "Second Co" });
    const email = `multi-${a.slug}@example.test`;
    await createUser(a, { email });
    await createUser(c, { email });
    const { b, res } = await bareSignIn(email, "correct-horse-battery");
    expect(res.status).toBe(200);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Choose a workspace");
    expect(htmlText).toContain("First Co");
    expect(htmlText).toContain("Second Co");
    const chosen = await b.post("http://localhost/login", { intent: "choose", tenant: c.slug });
    expect(chosen.status).toBe(302);
    expect(location(chosen)).toContain(`http://${c.slug}.localhost:5173/accept-session?token=`);
  });

  it("takes a tenant user's code on the bare domain, then hands over to the tenant host", async () => {
    const t = await createTenant({ name: "Bare Code Ltd" });
    const u = await createUser(t, { email: `barecode-${t.slug}@example.test`, twoFactorRequired: true });
    const b = new Browser();
    const started = Date.now();
    const { res } = await bareSignIn(u.email, u.password, b);
    expect(location(res)).toBe("/login/verify");
    const verified = await b.post("http://localhost/login/verify", { code: await mailedCode(u.email, started) });
    expect(verified.status).toBe(302);
    expect(location(verified)).toContain(`http://${t.slug}.localhost:5173/accept-session?token=`);
    expect(verified.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("names the account and the workspace on the hand-over page, which changes nothing until clicked", async () => {
    const t = await createTenant({ name: "Named Workspace Ltd" });
    const u = await createUser(t, { email: `named-${t.slug}@example.test` });
    const { res } = await bareSignIn(u.email, u.password);
    const token = new URL(location(res) ?? "").searchParams.get("token") ?? "";
    const tenantOrigin = `http://${t.slug}.localhost:5173`;
    const sessionsBefore = await count("sessions", "tenant_id = ?", t.id);
    const page = await new Browser().get(`${tenantOrigin}/accept-session?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain(`Continue to Named Workspace Ltd as ${u.email}`);
    // No script submits the form for the visitor: the only way on is the button.
    expect(html).not.toContain("requestSubmit");
    expect(await count("sessions", "tenant_id = ?", t.id)).toBe(sessionsBefore);
    expect(await count("used_tokens", "tenant_id = ?", t.id)).toBe(0);
    // The token still works once: the GET did not spend it.
    expect((await new Browser().post(`${tenantOrigin}/accept-session`, { token })).status).toBe(302);
    expect((await new Browser().post(`${tenantOrigin}/accept-session`, { token })).status).toBe(400);
  });

  it("ends the browser's previous session on the tenant host when a hand-over is accepted", async () => {
    const t = await createTenant();
    const u = await createUser(t, { email: `swap-${t.slug}@example.test` });
    const tenantOrigin = `http://${t.slug}.localhost:5173`;
    const b = new Browser();
    const handOver = async () => {
      const { res } = await bareSignIn(u.email, u.password, b);
      const token = new URL(location(res) ?? "").searchParams.get("token") ?? "";
      expect((await b.post(`${tenantOrigin}/accept-session`, { token })).status).toBe(302);
      return b.cookie(`${t.slug}.localhost:5173`, "__Host-session");
    };
    const first = await handOver();
    const second = await handOver();
    expect(first).toBeDefined();
    expect(second).not.toBe(first);
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND revoked_at IS NOT NULL", t.id, u.id)).toBe(1);
  });

  it("asks super-admins for the e-mailed code, and opens the platform session only after it", async () => {
    const admin = await createPlatformAdmin();
    const b = new Browser();
    const started = Date.now();
    const { res } = await bareSignIn(admin.email, admin.password, b);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/login/verify");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
    expect(location(await b.get("http://localhost/superadmin"))).toContain("/login");
    // The code goes through the outbox and the EMAIL queue like a tenant's.
    expect(await count("email_outbox", "tenant_id IS NULL AND to_address = ? AND template = 'auth.login-code'", admin.email)).toBe(1);
    const code = await mailedCode(admin.email, started);
    expect((await b.post("http://localhost/login/verify", { code: wrongCode(code) })).status).toBe(400);
    expect(location(await b.get("http://localhost/superadmin"))).toContain("/login");
    const verified = await b.post("http://localhost/login/verify", { code });
    expect(verified.status).toBe(302);
    expect(location(verified)).toBe("/superadmin");
    expect((await b.get("http://localhost/superadmin")).status).toBe(200);
  });

  it("refuses a platform challenge on a tenant host", async () => {
    const t = await createTenant();
    const admin = await createPlatformAdmin();
    const b = new Browser();
    const started = Date.now();
    await bareSignIn(admin.email, admin.password, b);
    const code = await mailedCode(admin.email, started);
    const onTenant = new Browser();
    onTenant.setCookie(t.host, "__Host-login-challenge", b.cookie("localhost", "__Host-login-challenge") ?? "");
    const res = await onTenant.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("ends the browser's previous platform session on a new platform sign-in", async () => {
    const admin = await createPlatformAdmin();
    const b = new Browser();
    const signInWithCode = async () => {
      const started = Date.now();
      await bareSignIn(admin.email, admin.password, b);
      expect((await b.post("http://localhost/login/verify", { code: await mailedCode(admin.email, started) })).status).toBe(302);
      return b.cookie("localhost", "__Host-session");
    };
    const first = await signInWithCode();
    const second = await signInWithCode();
    expect(second).not.toBe(first);
    const old = new Browser();
    old.setCookie("localhost", "__Host-session", first ?? "");
    expect(location(await old.get("http://localhost/superadmin"))).toContain("/login");
    expect((await b.get("http://localhost/superadmin")).status).toBe(200);
  });

  it("lets the seeded super-admin create tenants and switch modules after the code step", async () => {
    const { seedPlatform } = await import("~/db/seed");
    const { getDb } = await import("~/db/client.server");
    await seedPlatform(getDb(env), { pepper: env.PASSWORD_PEPPER });
    const b = new Browser();
    const started = Date.now();
    const { res } = await bareSignIn("superadmin@workspace.test", "workspace-demo-2026", b);
    expect(location(res)).toBe("/login/verify");
    const verified = await b.post("http://localhost/login/verify", { code: await mailedCode("superadmin@workspace.test", started) });
    expect(location(verified)).toBe("/superadmin");
    const page = await b.get("http://localhost/superadmin");
    expect(page.status).toBe(200);
    expect(await shownText(page)).toContain("Platform administration");
    const slug = `sa${Date.now().toString(36)}`;
    const created = await b.post("http://localhost/superadmin", {
      intent: "create-tenant",
      slug,
      name: "Made By Admin Ltd",
      availableModules: ["cis"],
      adminEmail: `owner@${slug}.test`,
    });
    expect(created.status).toBe(302);
    const row = await env.DB.prepare("SELECT id FROM tenants WHERE slug = ?").bind(slug).first<{ id: string }>();
    expect(row).not.toBeNull();
    const dup = await b.post("http://localhost/superadmin", { intent: "create-tenant", slug, name: "Again", adminEmail: `owner@${slug}.test` });
    expect(dup.status).toBe(400);
    expect(await shownText(dup)).toContain("That slug is already taken");
    const toggled = await b.post("http://localhost/superadmin", { intent: "toggle-module", tenantId: row?.id ?? "", moduleId: "cis", enabled: "true" });
    expect(toggled.status).toBe(302);
    expect(await count("tenant_modules", "tenant_id = ? AND module_id = 'cis' AND enabled = 1", row?.id)).toBe(1);
    expect(await count("audit_events", "action = 'superadmin.tenant.created' AND target_id = ?", row?.id)).toBe(1);
    expect(await count("audit_events", "action = 'superadmin.module.enabled' AND target_id = ?", row?.id)).toBe(1);
  });

  it("keeps tenant staff out of /superadmin", async () => {
    const t = await createTenant();
    const u = await createUser(t, { role: "admin" });
    const b = await signIn(t, u);
    expect((await b.get(`${t.origin}/superadmin`)).status).toBe(404);
    expect((await new Browser().get("http://localhost/superadmin")).status).toBe(302);
  });
});

describe("password hashing", () => {
  it("peppers new hashes: without the pepper the stored hash does not verify", async () => {
    const hash = await hashPassword(env, "pepper-test-password");
    expect(hash.startsWith("pbkdf2-sha256-hmac$")).toBe(true);
    expect(hash).toContain("$100000$");
    expect(await verifyPassword(env, "pepper-test-password", hash)).toBe(true);
    const otherPepper = { PASSWORD_PEPPER: "another-pepper-of-enough-length-0123456789" };
    expect(await verifyPassword(otherPepper, "pepper-test-password", hash)).toBe(false);
  });

  it("still accepts an old unpeppered hash and rehashes it with the pepper on sign-in", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
      .bind(await legacyUnpepperedHash(PASSWORD), u.id)
      .run();
    await signIn(t, u);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(u.id).first<{ password_hash: string }>();
    expect(row?.password_hash.startsWith("pbkdf2-sha256-hmac$")).toBe(true);
    // And the new hash works.
    await signIn(t, u);
  });

  it("rehashes a platform admin's old hash on sign-in too", async () => {
    const admin = await createPlatformAdmin({ passwordHash: await legacyUnpepperedHash(PASSWORD) });
    const { res } = await bareSignIn(admin.email, PASSWORD);
    expect(location(res)).toBe("/login/verify");
    const row = await env.DB.prepare("SELECT password_hash FROM platform_admins WHERE id = ?").bind(admin.id).first<{ password_hash: string }>();
    expect(row?.password_hash.startsWith("pbkdf2-sha256-hmac$")).toBe(true);
  });

  it("fails closed when the pepper is missing or short", async () => {
    for (const bad of [undefined, "", "short"]) {
      await expect(hashPassword({ PASSWORD_PEPPER: bad as string }, "x")).rejects.toBeInstanceOf(PasswordConfigError);
      await expect(verifyPassword({ PASSWORD_PEPPER: bad as string }, "x", await legacyUnpepperedHash("x", 1000))).rejects.toBeInstanceOf(PasswordConfigError);
    }
    const t = await createTenant();
    const u = await createUser(t);
    const res = await worker.fetch(
      new Request(`${t.origin}/login`, {
        method: "POST",
        headers: { Origin: t.origin },
        body: new URLSearchParams({ email: u.email, password: u.password }),
      }) as Parameters<typeof worker.fetch>[0],
      { ...env, PASSWORD_PEPPER: "" } as unknown as Env,
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(false);
  });

  it("spends the same number of derivations on the bare domain whoever owns the e-mail", async () => {
    const a = await createTenant();
    const c = await createTenant();
    const stamp = `${a.slug}@example.test`;
    const tenantOnly = await createUser(a, { email: `tenant-${stamp}` });
    const multi = `multi-${stamp}`;
    await createUser(a, { email: multi });
    await createUser(c, { email: multi });
    const adminOnly = await createPlatformAdmin({ email: `admin-${stamp}` });
    const both = await createPlatformAdmin({ email: `both-${stamp}` });
    await createUser(a, { email: both.email });
    const spy = vi.spyOn(kdf, "derive");
    const counts: Record<string, number> = {};
    const cases: [string, string, string][] = [
      ["nobody", `nobody-${stamp}`, PASSWORD],
      ["tenant user", tenantOnly.email, PASSWORD],
      ["tenant user, wrong password", tenantOnly.email, "wrong-password"],
      ["two tenant accounts", multi, PASSWORD],
      ["platform admin", adminOnly.email, PASSWORD],
      ["platform admin, wrong password", adminOnly.email, "wrong-password"],
      ["both", both.email, PASSWORD],
    ];
    for (const [name, email, password] of cases) {
      spy.mockClear();
      await checkBareDomainCredentials(env, email, password);
      counts[name] = spy.mock.calls.length;
    }
    const expected = counts.nobody;
    expect(expected).toBeGreaterThan(0);
    for (const [name] of cases) expect(counts[name], name).toBe(expected);
  });
});

describe("origin check", () => {
  it("refuses cross-origin and sibling-tenant posts and writes nothing", async () => {
    const t = await createTenant();
    const sibling = await createTenant();
    const u = await createUser(t);
    const before = await count("sessions", "tenant_id = ?", t.id);
    for (const origin of ["http://evil.test", sibling.origin, null]) {
      const res = await new Browser().post(`${t.origin}/login`, { email: u.email, password: u.password }, { origin });
      expect(res.status).toBe(403);
    }
    expect(await count("sessions", "tenant_id = ?", t.id)).toBe(before);
    expect(await count("audit_events", "tenant_id = ?", t.id)).toBe(0);
  });
});
