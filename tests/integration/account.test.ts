import { describe, expect, it } from "vitest";
import { createTenant, createUser, PASSWORD, type TestTenant } from "../factories";
import { all, attr, fieldMessage, one, textOf, visit } from "../factories/html";
import { count, signIn } from "./auth-helpers";
import { Browser, location } from "./http";

const NEW_PASSWORD = "a-long-new-password";

async function signedIn(t: TestTenant, b: Browser): Promise<boolean> {
  return (await b.get(`${t.origin}/account`)).status === 200;
}

async function tryLogin(t: TestTenant, email: string, password: string): Promise<boolean> {
  const res = await new Browser().post(`${t.origin}/login`, { email, password });
  return res.status === 302 && location(res) === "/";
}

/** The session ids the account page offers to end, this browser's first. */
async function sessionIds(t: TestTenant, b: Browser): Promise<{ current: string; others: string[] }> {
  const { doc } = await visit(b, `${t.origin}/account`);
  const idOf = (row: Element) => attr(one(row, "input[name=session]"), "value") ?? "";
  return { current: idOf(one(doc, "tr[data-session=current]")), others: all(doc, "tr[data-session=other]").map(idOf) };
}

describe("/account", () => {
  it("changing the password needs the current one, keeps this browser signed in and ends every other session", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const here = await signIn(t, u);
    const elsewhere = await signIn(t, u);

    const wrong = await here.post(`${t.origin}/account`, { intent: "password", current: "not-it", password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    const { doc } = await visit({ get: async () => wrong }, `${t.origin}/account`);
    expect(fieldMessage(doc, "current")).toContain("not correct");
    const mismatch = await here.post(`${t.origin}/account`, {
      intent: "password",
      current: PASSWORD,
      password: NEW_PASSWORD,
      confirm: "something-else-entirely",
    });
    expect(mismatch.status).toBe(400);

    const done = await here.post(`${t.origin}/account`, { intent: "password", current: PASSWORD, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(location(done)).toBe("/account");
    expect(await signedIn(t, here)).toBe(true);
    expect(await signedIn(t, elsewhere)).toBe(false);
    expect(await tryLogin(t, u.email, PASSWORD)).toBe(false);
    expect(await tryLogin(t, u.email, NEW_PASSWORD)).toBe(true);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.password_changed' AND target_id = ?", t.id, u.id)).toBe(1);
  });

  it("sets the display name and lists the person's own sessions, marking this one; ending another signs that browser out, ending this one signs out here", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const someoneElse = await createUser(t);
    const here = await signIn(t, u);
    const elsewhere = await signIn(t, u);
    const theirs = await signIn(t, someoneElse);

    expect(location(await here.post(`${t.origin}/account`, { intent: "name", displayName: "Robin Renamed" }))).toBe("/account");
    const page = await visit(here, `${t.origin}/account`);
    expect(textOf(page.doc, "header")).toContain("Robin Renamed");
    expect(textOf(page.doc, "tr[data-session=current]")).toContain("This session");
    expect((await here.post(`${t.origin}/account`, { intent: "name", displayName: "  " })).status).toBe(400);

    const mine = await sessionIds(t, here);
    expect(mine.others).toHaveLength(1);
    // Another person's session id matches nothing of mine.
    const other = await sessionIds(t, theirs);
    await here.post(`${t.origin}/account`, { intent: "revoke", session: other.current });
    expect(await signedIn(t, theirs)).toBe(true);

    await here.post(`${t.origin}/account`, { intent: "revoke", session: mine.others[0] });
    expect(await signedIn(t, elsewhere)).toBe(false);
    expect(await signedIn(t, here)).toBe(true);
    expect(await count("audit_events", "tenant_id = ? AND action = 'user.session_revoked' AND actor_id = ?", t.id, u.id)).toBe(1);

    const out = await here.post(`${t.origin}/account`, { intent: "revoke", session: mine.current });
    expect(location(out)).toBe("/login");
    expect(await signedIn(t, here)).toBe(false);
    // Signed out, the page sends people to sign in.
    expect(location(await new Browser().get(`${t.origin}/account`))).toContain("/login");
  });
});
