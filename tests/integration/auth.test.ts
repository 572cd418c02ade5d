import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { changePassword, setUserDisabled } from "~/features/auth/users.server";
import { createTenant, createUser } from "../factories";
import { codeFrom, count, signIn, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";

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
    expect(html).toContain("Welcome to Plain Post Ltd");
    expect(html).toContain("Sign out");
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
    expect(a).toContain("Login failed. Check your email and password and try again.");
    expect(c).toContain("Login failed. Check your email and password and try again.");
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
    expect(await empty.text()).toContain("Email is required");
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
    expect(await blocked.text()).toContain("Too many failed sign-in attempts");
    expect(await count("auth_throttle", "key = ? AND locked_until > ?", `acct:${t.id}:${u.email}`, Date.now())).toBe(1);
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
    expect(await page.text()).toContain("Back to login");
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
    expect(await res.text()).toContain("Please enter the full 6-digit code");
  });

  it("refuses an expired code", async () => {
    const { t, b, code } = await startCodeStep();
    await env.DB.prepare("UPDATE login_challenges SET expires_at = ? WHERE tenant_id = ?").bind(Date.now() - 1, t.id).run();
    const res = await b.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid or expired code");
  });

  it("refuses a code used twice", async () => {
    const { t, b, code } = await startCodeStep();
    const challengeCookie = b.cookie(t.host, "__Host-login-challenge");
    expect((await b.post(`${t.origin}/login/verify`, { code })).status).toBe(302);
    const replay = new Browser();
    replay.setCookie(t.host, "__Host-login-challenge", challengeCookie ?? "");
    const res = await replay.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid or expired code");
  });

  it("kills the code after 5 wrong tries", async () => {
    const { t, b, code } = await startCodeStep();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await b.post(`${t.origin}/login/verify`, { code: wrong })).status).toBe(400);
    const res = await b.post(`${t.origin}/login/verify`, { code });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid or expired code");
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
    const failingEnv = { ...env, EMAIL: { send: async () => Promise.reject(new Error("queue down")), sendBatch: async () => Promise.reject(new Error("queue down")) } };
    const res = await worker.fetch(
      new Request(`${t.origin}/login`, { method: "POST", headers: { Origin: t.origin }, body: new URLSearchParams({ email: u.email, password: u.password }) }) as Parameters<typeof worker.fetch>[0],
      failingEnv as unknown as Env,
      createExecutionContext(),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Failed to send verification code. Please try again.");
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.code.failed'", t.id)).toBe(1);
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

  it("issues a new session id on every sign-in", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b1 = await signIn(t, u);
    const b2 = await signIn(t, u, b1);
    expect(b1.cookie(t.host, "__Host-session")).toBe(b2.cookie(t.host, "__Host-session"));
    expect(await count("sessions", "tenant_id = ? AND user_id = ?", t.id, u.id)).toBe(2);
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
    await setUserDisabled(env, t.id, u1.id, true, { id: admin.id, email: admin.email });
    expect((await b1.get(`${t.origin}/welcome`)).status).toBe(302);
    await changePassword(env, t.id, u2.id, "a-brand-new-password", { id: admin.id, email: admin.email });
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
  async function bareSignIn(email: string, password: string) {
    const b = new Browser();
    const res = await b.post("http://localhost/login", { email, password });
    return { b, res };
  }

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
    expect(await page.text()).toContain("Continue to Handover Ltd");
    const accept = await b.post(`${tenantOrigin}/accept-session`, { token });
    expect(accept.status).toBe(302);
    expect(accept.headers.getSetCookie().some((c) => c.startsWith("__Host-session="))).toBe(true);
    const again = await new Browser().post(`${tenantOrigin}/accept-session`, { token });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("already been used");
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
    expect(html).toContain("Choose a workspace");
    expect(html).toContain("First Co");
    expect(html).toContain("Second Co");
    const chosen = await b.post("http://localhost/login", { intent: "choose", tenant: c.slug });
    expect(chosen.status).toBe(302);
    expect(location(chosen)).toContain(`http://${c.slug}.localhost:5173/accept-session?token=`);
  });

  it("sends super-admins to /superadmin, where they create tenants and switch modules", async () => {
    const { seedPlatform } = await import("~/db/seed");
    const { getDb } = await import("~/db/client.server");
    await seedPlatform(getDb(env));
    const { b, res } = await bareSignIn("superadmin@workspace.test", "workspace-demo-2026");
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/superadmin");
    const page = await b.get("http://localhost/superadmin");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Platform administration");
    const slug = `sa${Date.now().toString(36)}`;
    const created = await b.post("http://localhost/superadmin", { intent: "create-tenant", slug, name: "Made By Admin Ltd" });
    expect(created.status).toBe(302);
    const row = await env.DB.prepare("SELECT id FROM tenants WHERE slug = ?").bind(slug).first<{ id: string }>();
    expect(row).not.toBeNull();
    const dup = await b.post("http://localhost/superadmin", { intent: "create-tenant", slug, name: "Again" });
    expect(dup.status).toBe(400);
    expect(await dup.text()).toContain("That slug is already taken");
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
