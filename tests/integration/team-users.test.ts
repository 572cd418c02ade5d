import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { activateAccount, checkActivationLink, inviteUser } from "~/features/team/invitations.server";
import { createTenant, createUser, PASSWORD, uid, type TestTenant } from "../factories";
import { count, signIn, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";

const NEW_PASSWORD = "a-brand-new-password";

function linkIn(mail: { text: string }): string {
  const m = mail.text.match(/https?:\/\/\S+\/activate\?token=\S+/);
  if (!m) throw new Error("No activation link in the mail");
  return m[0];
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

async function invited(t: TestTenant, opts: { role?: "standard" | "admin" } = {}) {
  const admin = await createUser(t, { role: "admin" });
  const email = `${uid("inv")}@example.test`;
  const started = Date.now();
  const res = await inviteUser(env, { tenantId: t.id, email, role: opts.role ?? "standard", actor: { id: admin.id, email: admin.email } });
  if (!res.ok) throw new Error(res.code);
  const mail = await waitForMail(email, { after: started });
  return { admin, email, userId: res.userId, mail, link: linkIn(mail) };
}

describe("invitations (inviteUser)", () => {
  it("creates an invited user who cannot sign in, audits user.invited and e-mails a single-use link to the tenant host", async () => {
    const t = await createTenant();
    const { email, userId, mail, link } = await invited(t);
    expect(mail.subject).toContain(t.name);
    expect(new URL(link).hostname).toBe(t.host);
    expect(new URL(link).pathname).toBe("/activate");
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.invited' AND target_id = ?", t.id, userId)).toBe(1);
    // No password yet: the sign-in fails like any wrong password.
    const res = await new Browser().post(`${t.origin}/login`, { email, password: PASSWORD });
    expect(res.status).not.toBe(302);

    const activated = await activateAccount(env, t.id, { token: tokenOf(link), password: NEW_PASSWORD, ip: null });
    expect(activated).toEqual({ ok: true, email });
    await signIn(t, { email, password: NEW_PASSWORD });
    // Single use.
    expect(await activateAccount(env, t.id, { token: tokenOf(link), password: NEW_PASSWORD, ip: null })).toEqual({ ok: false, code: "used" });
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.activated' AND target_id = ?", t.id, userId)).toBe(1);
  });

  it("re-inviting a still-invited user sends a fresh link and voids the previous one; an active account's e-mail is taken", async () => {
    const t = await createTenant();
    const { admin, email, userId, link: first } = await invited(t);
    const again = Date.now();
    const res = await inviteUser(env, { tenantId: t.id, email: email.toUpperCase(), role: "lead", actor: { id: admin.id, email: admin.email } });
    expect(res).toEqual({ ok: true, userId });
    const second = linkIn(await waitForMail(email, { after: again }));
    expect(second).not.toBe(first);
    expect(await checkActivationLink(env, t.id, tokenOf(first))).toEqual({ ok: false, code: "used" });
    expect((await checkActivationLink(env, t.id, tokenOf(second))).ok).toBe(true);
    expect(await count("users", "tenant_id = ? AND email = ? AND role = 'lead'", t.id, email)).toBe(1);

    const actor = { id: admin.id, email: admin.email };
    expect(await inviteUser(env, { tenantId: t.id, email: admin.email, role: "standard", actor })).toEqual({ ok: false, code: "email_taken" });
    expect(await inviteUser(env, { tenantId: t.id, email: "not-an-email", role: "standard", actor })).toEqual({ ok: false, code: "invalid_email" });
    // Another tenant may invite the same address: accounts are per tenant.
    const other = await createTenant();
    expect((await inviteUser(env, { tenantId: other.id, email, role: "standard", actor })).ok).toBe(true);
  });

  it("refuses forged, expired and other-tenant links", async () => {
    const t = await createTenant();
    const { userId, link } = await invited(t);
    const other = await createTenant();
    expect((await checkActivationLink(env, other.id, tokenOf(link))).ok).toBe(false);
    const forged = await new SignJWT({ knd: "user-invite" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setAudience(`tenant:${t.id}`)
      .setJti("x")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-secret-not-the-secret"));
    expect(await checkActivationLink(env, t.id, forged)).toEqual({ ok: false, code: "invalid" });
    const expired = await new SignJWT({ knd: "user-invite" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setAudience(`tenant:${t.id}`)
      .setJti("y")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 8 * 86400)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 86400)
      .sign(new TextEncoder().encode(env.TOKEN_SECRET));
    expect(await checkActivationLink(env, t.id, expired)).toEqual({ ok: false, code: "expired" });
    expect(location(await new Browser().get(`${t.origin}/`))).toContain("/login");
  });
});
