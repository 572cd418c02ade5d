import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { activateAccount, checkActivationLink, inviteUser } from "~/features/team/invitations.server";
import { createTenant, createUser, PASSWORD, uid, type TestTenant } from "../factories";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { all, textOf, visit } from "../factories/html";
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
  const res = await inviteUser(env, { tenantId: t.id, email, role: opts.role ?? "standard", actor: { id: admin.id, email: admin.email, name: "Test Admin" } });
  if (!res.ok) throw new Error(res.code);
  const mail = await waitForMail(email, { after: started });
  return { admin, email, userId: res.userId, mail, link: linkIn(mail) };
}

/** Fresh one-time submission keys for the forms that send e-mail, as the users page renders them. */
const inviteKey = async (t: { id: string }, by: { id: string }) => ({ [SUBMISSION_KEY_FIELD]: await mintKey(t, by, "team.invite") });
const mailKey = async (t: { id: string }, by: { id: string }, memberId: string) => ({
  [SUBMISSION_KEY_FIELD]: await mintKey(t, by, `team.member-mail:${memberId}`),
});

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

    const request = () => new Request(`${t.origin}/activate`, { method: "POST" });
    const activated = await activateAccount(env, request(), t.id, { token: tokenOf(link), password: NEW_PASSWORD, ip: null });
    expect(activated).toEqual({ ok: true, email, setCookie: expect.any(String) });
    // Activation signs the person in: one session row, and the sign-in audited beside the activation.
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND kind = 'staff' AND revoked_at IS NULL", t.id, userId)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.login.success' AND actor_id = ?", t.id, userId)).toBe(1);
    await signIn(t, { email, password: NEW_PASSWORD });
    const sessionsAfterSignIn = await count("sessions", "tenant_id = ? AND user_id = ?", t.id, userId);
    // Single use: a second activation is refused and signs no one in.
    expect(await activateAccount(env, request(), t.id, { token: tokenOf(link), password: NEW_PASSWORD, ip: null })).toEqual({ ok: false, code: "used" });
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.activated' AND target_id = ?", t.id, userId)).toBe(1);
    expect(await count("sessions", "tenant_id = ? AND user_id = ?", t.id, userId)).toBe(sessionsAfterSignIn);
  });

  it("re-inviting a still-invited user sends a fresh link and voids the previous one; an active account's e-mail is taken", async () => {
    const t = await createTenant();
    const { admin, email, userId, link: first } = await invited(t);
    const again = Date.now();
    const res = await inviteUser(env, {
      tenantId: t.id,
      email: email.toUpperCase(),
      role: "lead",
      actor: { id: admin.id, email: admin.email, name: "Test Admin" },
    });
    expect(res).toEqual({ ok: true, userId });
    const second = linkIn(await waitForMail(email, { after: again }));
    expect(second).not.toBe(first);
    expect(await checkActivationLink(env, t.id, tokenOf(first))).toEqual({ ok: false, code: "used" });
    expect((await checkActivationLink(env, t.id, tokenOf(second))).ok).toBe(true);
    expect(await count("users", "tenant_id = ? AND email = ? AND role = 'lead'", t.id, email)).toBe(1);

    const actor = { id: admin.id, email: admin.email, name: "Test Admin" };
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

const USERS = "/settings/users";

/** Is this browser still signed in on the tenant? */
async function signedIn(t: TestTenant, b: Browser): Promise<boolean> {
  const res = await b.get(`${t.origin}/account`);
  return res.status === 200;
}

async function tryLogin(t: TestTenant, email: string, password: string): Promise<boolean> {
  const res = await new Browser().post(`${t.origin}/login`, { email, password });
  return res.status === 302 && location(res) === "/";
}

function resetLinkIn(mail: { text: string }): string {
  const m = mail.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/);
  if (!m) throw new Error("No reset link in the mail");
  return m[0];
}

/** The link's path and query on the tenant's test origin. */
const onTenant = (t: TestTenant, link: string) => `${t.origin}${new URL(link).pathname}${new URL(link).search}`;

describe("/settings/users and /activate through the Worker", () => {
  it("an admin invites from the page; the e-mailed link activates once and signs the person in; forged and reused links get a clear message", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const b = await signIn(t, admin);
    const email = `${uid("new")}@example.test`;

    const bad = await b.post(`${t.origin}${USERS}`, { intent: "invite", email: "nope", role: "standard", ...(await inviteKey(t, admin)) });
    expect(bad.status).toBe(400);
    const started = Date.now();
    const sent = await b.post(`${t.origin}${USERS}`, { intent: "invite", email, role: "lead", displayName: "Nia New", ...(await inviteKey(t, admin)) });
    expect(location(sent)).toBe(USERS);
    const list = await visit(b, `${t.origin}${USERS}`);
    expect(textOf(list.doc, `tr[data-user="${email}"] [data-testid="status"]`)).toBe("Invited");
    expect(textOf(list.doc, `tr[data-user="${email}"]`)).toContain("Nia New");
    const taken = await b.post(`${t.origin}${USERS}`, { intent: "invite", email: admin.email, role: "standard", ...(await inviteKey(t, admin)) });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain("already exists");

    const link = linkIn(await waitForMail(email, { after: started }));
    const visitor = new Browser();
    const form = await visit(visitor, onTenant(t, link));
    expect(form.status).toBe(200);
    expect(form.text).toContain(email);
    const short = await visitor.post(`${t.origin}/activate`, { token: tokenOf(link), password: "short", confirm: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("at least 12");
    // A session this browser held before (someone else's, on a shared machine) is replaced, not kept beside.
    const previous = await createUser(t);
    const shared = await signIn(t, previous);
    for (const pair of shared.cookieHeader(t.host).split("; ")) visitor.setCookie(t.host, pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    const done = await visitor.post(`${t.origin}/activate`, { token: tokenOf(link), password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    // Activated and signed in: the workspace's home (no modules here: Welcome), with the toast.
    expect(location(done)).toBe("/welcome");
    const home = await visit(visitor, `${t.origin}/welcome`);
    expect(home.status).toBe(200);
    expect(home.text).toContain("Signed in as Nia New");
    expect(home.text).toContain("Account activated");
    const person = await env.DB.prepare("SELECT id FROM users WHERE tenant_id = ? AND email = ?").bind(t.id, email).first<{ id: string }>();
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND revoked_at IS NULL", t.id, person!.id)).toBe(1);
    expect(await count("sessions", "tenant_id = ? AND user_id = ? AND revoked_at IS NULL", t.id, previous.id)).toBe(0);
    expect(await tryLogin(t, email, NEW_PASSWORD)).toBe(true);
    expect(textOf((await visit(b, `${t.origin}${USERS}`)).doc, `tr[data-user="${email}"] [data-testid="status"]`)).toBe("Active");

    const again = await visit(new Browser(), onTenant(t, link));
    expect(textOf(again.doc, "[data-testid=link-problem]")).toContain("already been used");
    const reused = await new Browser().post(`${t.origin}/activate`, { token: tokenOf(link), password: "another-password-1", confirm: "another-password-1" });
    expect(reused.status).toBe(400);
    expect(await tryLogin(t, email, "another-password-1")).toBe(false);
    const forged = await visit(new Browser(), `${t.origin}/activate?token=${tokenOf(link).slice(0, -4)}AAAA`);
    expect(textOf(forged.doc, "[data-testid=link-problem]")).toContain("not valid");
    // The same link on another tenant's host is not valid there.
    const other = await createTenant();
    expect(textOf((await visit(new Browser(), `${other.origin}/activate?token=${tokenOf(link)}`)).doc, "[data-testid=link-problem]")).toContain("not valid");
  });

  it("scopes are enforced on the server (403) and another tenant's user is a 404", async () => {
    const t = await createTenant({ bundles: { lead: ["notes.view"] } });
    const admin = await createUser(t, { role: "admin" });
    const standard = await createUser(t);
    const manager = await createUser(t, { role: "manager" });
    const lead = await createUser(t, { role: "lead" });
    const target = await createUser(t);

    const viewer = await signIn(t, standard);
    const seen = await visit(viewer, `${t.origin}${USERS}`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain("Invite a user");
    expect(all(seen.doc, "form[method=post] input[name=intent]").length).toBe(0);
    const refused: Record<string, string>[] = [
      { intent: "invite", email: `${uid("x")}@example.test`, role: "admin" },
      { intent: "disable", userId: target.id, confirmed: "yes" },
      { intent: "role", userId: target.id, role: "admin" },
      { intent: "reset", userId: target.id },
    ];
    for (const form of refused) expect((await viewer.post(`${t.origin}${USERS}`, form)).status).toBe(403);
    expect(await count("users", "tenant_id = ? AND role = 'admin'", t.id)).toBe(1);
    expect((await visit(await signIn(t, lead), `${t.origin}${USERS}`)).status).toBe(403);
    // users.manage without users.scrub_pii cannot erase anyone.
    const mb = await signIn(t, manager);
    expect((await mb.post(`${t.origin}${USERS}`, { intent: "scrub", userId: target.id, confirmed: "yes" })).status).toBe(403);

    const ab = await signIn(t, admin);
    const other = await createTenant();
    const stranger = await createUser(other, { role: "admin" });
    const foreign: Record<string, string>[] = [
      { intent: "disable", userId: stranger.id, confirmed: "yes" },
      { intent: "disable", userId: stranger.id },
      { intent: "role", userId: stranger.id, role: "standard" },
      { intent: "reset", userId: stranger.id },
      { intent: "enable", userId: stranger.id },
    ];
    for (const form of foreign) expect((await ab.post(`${t.origin}${USERS}`, form)).status).toBe(404);
    expect(await tryLogin(other, stranger.email, PASSWORD)).toBe(true);
    expect(textOf((await visit(ab, `${t.origin}${USERS}?q=${stranger.email}`)).doc, "tbody")).toContain("No users found");
  });

  it("no one changes their own role or disables themselves, and the last active admin stays an admin", async () => {
    const t = await createTenant({ bundles: { manager: ["users.view", "users.manage"] } });
    const admin = await createUser(t, { role: "admin" });
    const manager = await createUser(t, { role: "manager" });
    const ab = await signIn(t, admin);
    const self = await ab.post(`${t.origin}${USERS}`, { intent: "role", userId: admin.id, role: "standard" });
    expect(location(self)).toBe(USERS);
    expect(textOf((await visit(ab, `${t.origin}${USERS}`)).doc, "[data-toast-type]")).toContain("your own account");
    await ab.post(`${t.origin}${USERS}`, { intent: "disable", userId: admin.id, confirmed: "yes" });
    expect(await count("users", "id = ? AND role = 'admin' AND disabled = 0", admin.id)).toBe(1);

    const mb = await signIn(t, manager);
    await mb.post(`${t.origin}${USERS}`, { intent: "role", userId: admin.id, role: "standard" });
    expect(textOf((await visit(mb, `${t.origin}${USERS}`)).doc, "[data-toast-type]")).toContain("at least one active admin");
    await mb.post(`${t.origin}${USERS}`, { intent: "disable", userId: admin.id, confirmed: "yes" });
    expect(await count("users", "id = ? AND role = 'admin' AND disabled = 0", admin.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action IN ('user.role_changed', 'user.disabled')", t.id)).toBe(0);

    // With a second admin the first may be demoted, audited in the same batch.
    await mb.post(`${t.origin}${USERS}`, { intent: "role", userId: manager.id, role: "admin" });
    expect(await count("users", "id = ? AND role = 'manager'", manager.id)).toBe(1);
    expect(await signedIn(t, ab)).toBe(true);
    await ab.post(`${t.origin}${USERS}`, { intent: "role", userId: manager.id, role: "admin" });
    await ab.post(`${t.origin}${USERS}`, { intent: "role", userId: admin.id, role: "lead" });
    expect(await count("users", "id = ? AND role = 'admin'", admin.id)).toBe(1);
    const second = await signIn(t, manager);
    await second.post(`${t.origin}${USERS}`, { intent: "role", userId: admin.id, role: "lead" });
    expect(await count("users", "id = ? AND role = 'lead'", admin.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.role_changed'", t.id)).toBe(2);
  });

  it("disable asks first (a server step without JavaScript), then ends every session at once; enable lets the person sign in again", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const victim = await createUser(t);
    const vb1 = await signIn(t, victim);
    const vb2 = await signIn(t, victim);
    const ab = await signIn(t, admin);

    const ask = await visit({ get: (u: string) => ab.post(u, { intent: "disable", userId: victim.id }) }, `${t.origin}${USERS}`);
    expect(ask.status).toBe(200);
    expect(textOf(ask.doc, "[role=alertdialog]")).toContain("Disable this user?");
    expect(await signedIn(t, vb1)).toBe(true);

    const res = await ab.post(`${t.origin}${USERS}`, { intent: "disable", userId: victim.id, confirmed: "yes" });
    expect(location(res)).toBe(USERS);
    expect(await signedIn(t, vb1)).toBe(false);
    expect(await signedIn(t, vb2)).toBe(false);
    expect(await count("sessions", "user_id = ? AND revoked_at IS NULL", victim.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.disabled' AND target_id = ?", t.id, victim.id)).toBe(1);
    expect(textOf((await visit(ab, `${t.origin}${USERS}`)).doc, `tr[data-user="${victim.email}"] [data-testid="status"]`)).toBe("Disabled");
    expect(await tryLogin(t, victim.email, PASSWORD)).toBe(false);

    await ab.post(`${t.origin}${USERS}`, { intent: "enable", userId: victim.id });
    expect(await tryLogin(t, victim.email, PASSWORD)).toBe(true);
  });

  it("a password reset link works once, within the hour, and ends the person's sessions", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const person = await createUser(t);
    const pb = await signIn(t, person);
    const ab = await signIn(t, admin);
    const started = Date.now();
    expect(location(await ab.post(`${t.origin}${USERS}`, { intent: "reset", userId: person.id, ...(await mailKey(t, admin, person.id)) }))).toBe(USERS);
    const link = resetLinkIn(await waitForMail(person.email, { after: started }));
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.password_reset_sent' AND target_id = ?", t.id, person.id)).toBe(1);

    const visitor = new Browser();
    expect((await visit(visitor, onTenant(t, link))).text).toContain(person.email);
    const done = await visitor.post(`${t.origin}/reset-password`, { token: tokenOf(link), password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(location(done)).toBe("/login");
    expect(await signedIn(t, pb)).toBe(false);
    expect(await tryLogin(t, person.email, PASSWORD)).toBe(false);
    expect(await tryLogin(t, person.email, NEW_PASSWORD)).toBe(true);
    const again = await new Browser().post(`${t.origin}/reset-password`, {
      token: tokenOf(link),
      password: "yet-another-password",
      confirm: "yet-another-password",
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("already been used");

    const expired = await new SignJWT({ knd: "password-reset", pca: Date.now() })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(person.id)
      .setAudience(`tenant:${t.id}`)
      .setJti(uid("jti"))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(env.TOKEN_SECRET));
    expect(textOf((await visit(new Browser(), `${t.origin}/reset-password?token=${expired}`)).doc, "[data-testid=link-problem]")).toContain("expired");
    // Invited or disabled people get no reset link.
    await ab.post(`${t.origin}${USERS}`, { intent: "disable", userId: person.id, confirmed: "yes" });
    await ab.post(`${t.origin}${USERS}`, { intent: "reset", userId: person.id, ...(await mailKey(t, admin, person.id)) });
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.password_reset_sent' AND target_id = ?", t.id, person.id)).toBe(1);
  });

  it("erasing a departed user's personal data keeps the audit trail readable as 'Former user'", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const leaver = await createUser(t);
    await signIn(t, leaver);
    const ab = await signIn(t, admin);
    const before = await count("audit_events", "tenant_id = ? AND actor_id = ?", t.id, leaver.id);
    expect(before).toBeGreaterThan(0);

    // Only a disabled account can be erased.
    await ab.post(`${t.origin}${USERS}`, { intent: "scrub", userId: leaver.id, confirmed: "yes" });
    expect(await count("users", "id = ? AND scrubbed_at IS NULL", leaver.id)).toBe(1);
    await ab.post(`${t.origin}${USERS}`, { intent: "disable", userId: leaver.id, confirmed: "yes" });
    const ask = await ab.post(`${t.origin}${USERS}`, { intent: "scrub", userId: leaver.id });
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Yes, erase");
    expect(location(await ab.post(`${t.origin}${USERS}`, { intent: "scrub", userId: leaver.id, confirmed: "yes" }))).toBe(USERS);

    const row = await env.DB.prepare("SELECT email, display_name, first_name FROM users WHERE id = ?").bind(leaver.id).first<Record<string, string | null>>();
    expect(row?.email).not.toContain(leaver.email.split("@")[0]);
    expect(row?.display_name).toBe("Former user");
    expect(row?.first_name).toBeNull();
    expect(await count("sessions", "user_id = ?", leaver.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND actor_id = ?", t.id, leaver.id)).toBe(before);
    expect(await count("audit_events", "actor_email = ?", leaver.email)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.scrubbed' AND target_id = ?", t.id, leaver.id)).toBe(1);

    const list = await visit(ab, `${t.origin}${USERS}`);
    expect(list.text).toContain("Former user");
    expect(list.text).not.toContain(leaver.email);
    const audit = await visit(ab, `${t.origin}/settings/audit`);
    expect(audit.text).toContain("Former user");
    expect(audit.text).not.toContain(leaver.email);
    expect(await tryLogin(t, leaver.email, PASSWORD)).toBe(false);
  });
});
