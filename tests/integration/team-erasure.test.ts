import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { signatureRequests } from "~/db/schema";
import { queueEmail } from "~/features/platform/email/send.server";
import { newId } from "~/utils/ids";
import { createTenant, createUser } from "../factories";
import { withPageKey } from "../factories/submission-keys";
import { seedCisSettings } from "../factories/cis";
import { uploadOk } from "../factories/files";
import { signIn, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";

const USERS = "/settings/users";
const FULL_NAME = "Lena Leaverton";

type Hit = { table: string; column: string; value: string };

/** Every text cell of every table in D1 that contains one of the needles (case-insensitive). */
async function cellsContaining(needles: string[]): Promise<Hit[]> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  const hits: Hit[] = [];
  const lowered = needles.map((n) => n.toLowerCase());
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
    for (const row of rows.results) {
      for (const [column, v] of Object.entries(row)) {
        if (typeof v !== "string") continue;
        if (lowered.some((n) => v.toLowerCase().includes(n))) hits.push({ table: name, column, value: v.slice(0, 200) });
      }
    }
  }
  return hits;
}

describe("erasing a departed user's personal data reaches every copy in D1", () => {
  it("leaves no table holding the old e-mail or full name, and the files export shows neither", async () => {
    const t = await createTenant({ name: "Erasure Builders", modules: ["files"] });
    const admin = await createUser(t, { role: "admin" });
    const colleague = await createUser(t, { role: "lead" });
    const leaver = await createUser(t, { role: "lead" });
    const ab = await signIn(t, admin);
    const lb = await signIn(t, leaver);
    // Their own name, as they set it, and the names on record.
    expect(location(await lb.post(`${t.origin}/account`, { intent: "name", displayName: FULL_NAME }))).toBe("/account");
    await env.DB.prepare("UPDATE users SET first_name = 'Lena', last_name = 'Leaverton' WHERE id = ?").bind(leaver.id).run();
    const lb2 = await signIn(t, leaver);

    // A file they own, shared with a colleague (a notification naming them).
    const fileId = await uploadOk(lb2, t, "site-plan.txt", "plan");
    expect(
      location(
        await lb2.post(
          `${t.origin}/files/file/${fileId}`,
          await withPageKey(lb2, `${t.origin}/files/file/${fileId}`, { intent: "share", userIds: [colleague.id] }),
        ),
      ),
    ).toBe(`/files/file/${fileId}`);
    // An e-mail that names them to someone else, as a signature request does, and one to them.
    const started = Date.now();
    await queueEmail(env, {
      tenantId: t.id,
      to: colleague.email,
      template: "platform.notice",
      data: { subject: `${FULL_NAME} asks you to sign site-plan.pdf`, message: `${FULL_NAME} (${leaver.email}) asks you to review and sign "site-plan.pdf".` },
    });
    await queueEmail(env, { tenantId: t.id, to: leaver.email, template: "platform.notice", data: { subject: "Welcome", message: `Hello ${FULL_NAME}` } });
    await waitForMail(colleague.email, { after: started });
    await waitForMail(leaver.email, { after: started });
    // A document they signed with their typed name.
    const now = Date.now();
    await getDb(env)
      .insert(signatureRequests)
      .values({
        id: newId(),
        tenantId: t.id,
        fileId,
        fileName: "site-plan.pdf",
        originalKey: `tenants/${t.id}/files/x`,
        originalVersion: 1,
        requesterId: colleague.id,
        signerId: leaver.id,
        status: "signed",
        signatureKind: "typed",
        signatureText: FULL_NAME,
        signedAt: now,
        createdAt: now,
        updatedAt: now,
      });
    // The workspace's statement e-mails answer to them.
    await seedCisSettings(t, { replyTo: leaver.email });
    // A failed sign-in on the bare domain (audited and counted under the e-mail).
    await new Browser().post("http://localhost/login", { email: leaver.email, password: "not-the-password" });

    expect((await cellsContaining([leaver.email, FULL_NAME])).length).toBeGreaterThan(0);

    await ab.post(`${t.origin}${USERS}`, { intent: "disable", userId: leaver.id, confirmed: "yes" });
    expect(location(await ab.post(`${t.origin}${USERS}`, { intent: "scrub", userId: leaver.id, confirmed: "yes" }))).toBe(USERS);

    expect(await cellsContaining([leaver.email, FULL_NAME])).toEqual([]);

    const csv = await (await ab.post(`${t.origin}/files/export`, { filter: "all" })).text();
    expect(csv).toContain("site-plan.txt");
    expect(csv).toContain("Former user");
    expect(csv).not.toContain(FULL_NAME);
    expect(csv.toLowerCase()).not.toContain(leaver.email);
    // The colleague's notification still reads, with the placeholder.
    const note = await env.DB.prepare("SELECT title FROM notifications WHERE tenant_id = ? AND target_user_id = ?")
      .bind(t.id, colleague.id)
      .first<{ title: string }>();
    expect(note?.title).toBe("Former user shared a file with you");
  }, 90_000);

  it("leaves the address's platform-level copies alone while another workspace still has an account with it", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const admin = await createUser(a, { role: "admin" });
    const leaver = await createUser(a);
    await createUser(b, { email: leaver.email });
    await new Browser().post("http://localhost/login", { email: leaver.email, password: "not-the-password" });
    const ab = await signIn(a, admin);
    await ab.post(`${a.origin}${USERS}`, { intent: "disable", userId: leaver.id, confirmed: "yes" });
    expect(location(await ab.post(`${a.origin}${USERS}`, { intent: "scrub", userId: leaver.id, confirmed: "yes" }))).toBe(USERS);
    const platformAudit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id IS NULL AND actor_email = ?")
      .bind(leaver.email)
      .first<{ n: number }>();
    expect(platformAudit?.n).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM auth_throttle WHERE key = ?").bind(`acct:${leaver.email}`).first("n")).toBe(1);
  });
});
