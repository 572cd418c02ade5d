import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isStrongPassword } from "~/features/auth/password-strength.server";
import { SEED_PASSWORD, SEED_TENANTS, SEED_USERS } from "~/db/seed";
import { inviteUser } from "~/features/team/invitations.server";
import { createTenant, createUser, uid, type TestTenant } from "../factories";
import { page } from "../factories/html";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { signIn, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";

const STRONG = "Bright-Otter-Lantern-58";
const WEAK_MESSAGE = "Choose a stronger password";

/** Weak for a person at this workspace: a breached favourite, the workspace run together, their own e-mail. */
function weakFor(email: string): string[] {
  return ["password123456", "acmeconstruction", email];
}

const linkIn = (mail: { text: string }, path: string) => {
  const m = mail.text.match(new RegExp(`https?://\\S+${path}\\?token=\\S+`));
  if (!m) throw new Error(`No ${path} link in the mail`);
  return new URL(m[0]).searchParams.get("token") ?? "";
};

// The forms post back to their own address, link included, as a browser does.

/** The refusal: 400, the message beside the password field, the typed password kept in it. */
async function expectRefused(res: Response, typed: string) {
  expect(res.status).toBe(400);
  const doc = await page(res);
  const input = doc.querySelector<HTMLInputElement>('input[name="password"]');
  expect(input?.getAttribute("value")).toBe(typed);
  const describedBy = input?.getAttribute("aria-describedby") ?? "";
  const described = describedBy
    .split(/\s+/)
    .map((id) => doc.getElementById(id)?.textContent ?? "")
    .join(" ");
  expect(described).toContain(WEAK_MESSAGE);
}

async function acme(): Promise<TestTenant> {
  return createTenant({ name: "Acme Construction" });
}

describe("guessable passwords are refused wherever a password is set", () => {
  it("/activate refuses common words, the workspace's name and the person's e-mail, and accepts a strong one", async () => {
    const t = await acme();
    const admin = await createUser(t, { role: "admin" });
    const email = `${uid("new")}@example.test`;
    const started = Date.now();
    const res = await inviteUser(env, {
      tenantId: t.id,
      email,
      role: "standard",
      displayName: "Nia Newcomer",
      actor: { id: admin.id, email: admin.email, name: "Test Admin" },
    });
    expect(res.ok).toBe(true);
    const token = linkIn(await waitForMail(email, { after: started }), "/activate");
    // Without JavaScript the form posts back to the page's own address, link included.
    const form = (await page(await new Browser().get(`${t.origin}/activate?token=${token}`))).querySelector("form[method=post]");
    expect(form?.getAttribute("action")).toBe(`/activate?token=${token}`);
    for (const weak of [...weakFor(email), "NiaNewcomer2026"]) {
      await expectRefused(await new Browser().post(`${t.origin}/activate?token=${token}`, { token, password: weak, confirm: weak }), weak);
    }
    const done = await new Browser().post(`${t.origin}/activate?token=${token}`, { token, password: STRONG, confirm: STRONG });
    expect(done.status).toBe(302);
    expect(location(done)).not.toBe("/login");
  });

  it("/reset-password refuses weak passwords and accepts a strong one", async () => {
    const t = await acme();
    const admin = await createUser(t, { role: "admin" });
    const person = await createUser(t);
    const ab = await signIn(t, admin);
    const started = Date.now();
    await ab.post(`${t.origin}/settings/users`, {
      intent: "reset",
      userId: person.id,
      [SUBMISSION_KEY_FIELD]: await mintKey(t, admin, `team.member-mail:${person.id}`),
    });
    const token = linkIn(await waitForMail(person.email, { after: started }), "/reset-password");
    for (const weak of weakFor(person.email)) {
      await expectRefused(await new Browser().post(`${t.origin}/reset-password?token=${token}`, { token, password: weak, confirm: weak }), weak);
    }
    expect(location(await new Browser().post(`${t.origin}/reset-password?token=${token}`, { token, password: STRONG, confirm: STRONG }))).toBe("/login");
  });

  it("/account refuses a weak new password and accepts a strong one", async () => {
    const t = await acme();
    const person = await createUser(t);
    const b = await signIn(t, person);
    for (const weak of weakFor(person.email)) {
      const res = await b.post(`${t.origin}/account`, { intent: "password", current: person.password, password: weak, confirm: weak });
      await expectRefused(res, weak);
    }
    const done = await b.post(`${t.origin}/account`, { intent: "password", current: person.password, password: STRONG, confirm: STRONG });
    expect(location(done)).toBe("/account");
  });

  it("the seeded demo password passes the same check for every seeded account", async () => {
    for (const u of SEED_USERS) {
      const workspace = SEED_TENANTS.find((x) => x.id === u.tenantId)?.name;
      expect(await isStrongPassword(SEED_PASSWORD, { email: u.email, names: [u.firstName, u.lastName], workspace }), u.email).toBe(true);
    }
  });
});
