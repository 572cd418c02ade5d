import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { authThrottle, devMailbox, emailOutbox, jobs, loginChallenges, sessions, usedTokens } from "~/db/schema";
import { createTenant, uid } from "../factories";
import worker from "../../workers/app";
import { CRON_REGISTRY } from "../../workers/cron";

const HOURLY = "15 * * * *";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function runCron(cron: string, scheduledTime = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** A spent and a live row in every table housekeeping looks after; returns their ids. */
async function seed(now: number) {
  const t = await createTenant();
  const db = getDb(env);
  const ids = {
    session: { expired: uid("s"), idle: uid("s"), revoked: uid("s"), live: uid("s") },
    token: { spent: uid("tok"), live: uid("tok") },
    challenge: { old: uid("c"), recent: uid("c") },
    throttle: { old: uid("th"), recent: uid("th") },
    mail: { old: uid("mail"), fresh: uid("mail") },
    job: { old: uid("job"), recent: uid("job"), failed: uid("job") },
  };
  const session = (idHash: string, o: Partial<typeof sessions.$inferInsert>) => ({
    idHash,
    kind: "staff" as const,
    tenantId: t.id,
    userId: "u1",
    createdAt: now - DAY,
    lastSeenAt: now - HOUR,
    idleExpiresAt: now + HOUR,
    absoluteExpiresAt: now + DAY,
    ...o,
  });
  await db
    .insert(sessions)
    .values([
      session(ids.session.expired, { absoluteExpiresAt: now - 1 }),
      session(ids.session.idle, { idleExpiresAt: now - 1 }),
      session(ids.session.revoked, { revokedAt: now - 2 * DAY }),
      session(ids.session.live, {}),
    ]);
  await db.insert(usedTokens).values([
    { jti: ids.token.spent, kind: "accept", tenantId: t.id, usedAt: now - 2 * HOUR, expiresAt: now - HOUR },
    { jti: ids.token.live, kind: "accept", tenantId: t.id, usedAt: now - HOUR, expiresAt: now + HOUR },
  ]);
  const challenge = (id: string, expiresAt: number) => ({ id, tenantId: t.id, userId: "u1", codeHash: "x", createdAt: expiresAt - 600_000, expiresAt });
  await db.insert(loginChallenges).values([challenge(ids.challenge.old, now - 2 * DAY), challenge(ids.challenge.recent, now - HOUR)]);
  await db.insert(authThrottle).values([
    { key: ids.throttle.old, failures: 3, windowStartedAt: now - 2 * DAY },
    { key: ids.throttle.recent, failures: 3, windowStartedAt: now - HOUR },
  ]);
  const mail = (id: string, createdAt: number) => ({
    id,
    outboxId: id,
    tenantId: t.id,
    toAddress: "a@example.test",
    fromAddress: "no-reply@workspace.test",
    subject: "s",
    text: "t",
    html: "<p>t</p>",
    createdAt,
  });
  await db.insert(devMailbox).values([mail(ids.mail.old, now - 7 * DAY - HOUR), mail(ids.mail.fresh, now - 6 * DAY)]);
  const job = (id: string, status: "done" | "failed", finishedAt: number | null) => ({
    id,
    tenantId: t.id,
    type: "notifications.send",
    inputs: {},
    status,
    idempotencyKey: id,
    createdAt: now - 40 * DAY,
    updatedAt: now - 40 * DAY,
    finishedAt,
  });
  await db.insert(jobs).values([job(ids.job.old, "done", now - 31 * DAY), job(ids.job.recent, "done", now - DAY), job(ids.job.failed, "failed", null)]);
  return ids;
}

async function remaining(ids: Awaited<ReturnType<typeof seed>>) {
  const db = getDb(env);
  const s = await db
    .select({ id: sessions.idHash })
    .from(sessions)
    .where(inArray(sessions.idHash, Object.values(ids.session)));
  const tk = await db
    .select({ id: usedTokens.jti })
    .from(usedTokens)
    .where(inArray(usedTokens.jti, Object.values(ids.token)));
  const c = await db
    .select({ id: loginChallenges.id })
    .from(loginChallenges)
    .where(inArray(loginChallenges.id, Object.values(ids.challenge)));
  const th = await db
    .select({ id: authThrottle.key })
    .from(authThrottle)
    .where(inArray(authThrottle.key, Object.values(ids.throttle)));
  const m = await db
    .select({ id: devMailbox.id })
    .from(devMailbox)
    .where(inArray(devMailbox.id, Object.values(ids.mail)));
  const j = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(inArray(jobs.id, Object.values(ids.job)));
  const sorted = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
  return { sessions: sorted(s), tokens: sorted(tk), challenges: sorted(c), throttles: sorted(th), mail: sorted(m), jobs: sorted(j) };
}

const added: [string, number][] = [];
afterEach(() => {
  for (const [cron, count] of added.splice(0)) CRON_REGISTRY[cron].splice(-count, count);
});

describe("scheduled()", () => {
  it("runs housekeeping on the hourly cron: spent rows go, live ones stay", async () => {
    const now = Date.now();
    const ids = await seed(now);
    await runCron(HOURLY, now);
    expect(await remaining(ids)).toEqual({
      sessions: [ids.session.live],
      tokens: [ids.token.live],
      challenges: [ids.challenge.recent],
      throttles: [ids.throttle.recent],
      mail: [ids.mail.fresh],
      jobs: [ids.job.failed, ids.job.recent].sort(),
    });
  });

  it("scrubs e-mail secrets past their lifetime and purges month-old outbox rows on the hourly cron", async () => {
    const now = Date.now();
    const MINUTE = 60_000;
    const code = { code: "919191", tenantName: "Acme", expiresInMinutes: 10 };
    const invite = {
      recipientName: "Sam",
      subcontractorName: "Sam Ltd",
      contractorName: "Acme",
      magicLink: "https://acme.example.test/portal/auth?token=secret-link",
      expiresIn: "15 minutes",
    };
    const notice = { subject: "Hello", message: "Statement ready" };
    const ids = {
      codeExpired: uid("ob"),
      codeLive: uid("ob"),
      inviteExpired: uid("ob"),
      inviteLive: uid("ob"),
      noticeOld: uid("ob"),
      sentOld: uid("ob"),
      failedOld: uid("ob"),
      noticeMonth: uid("ob"),
    };
    type Row = typeof emailOutbox.$inferInsert;
    const row = (id: string, template: string, data: Record<string, unknown>, createdAt: number, status: Row["status"] = "queued"): Row => ({
      id,
      idempotencyKey: id,
      tenantId: null,
      template,
      toAddress: "a@example.test",
      data,
      status,
      createdAt,
    });
    await getDb(env)
      .insert(emailOutbox)
      .values([
        row(ids.codeExpired, "auth.login-code", code, now - 11 * MINUTE),
        row(ids.codeLive, "auth.login-code", code, now - 9 * MINUTE),
        row(ids.inviteExpired, "portal.invite", invite, now - 16 * MINUTE),
        row(ids.inviteLive, "portal.invite", invite, now - 14 * MINUTE),
        row(ids.noticeOld, "platform.notice", notice, now - 2 * DAY),
        row(ids.sentOld, "platform.notice", notice, now - 31 * DAY, "sent"),
        row(ids.failedOld, "auth.login-code", { scrubbed: true }, now - 31 * DAY, "failed"),
        row(ids.noticeMonth, "platform.notice", notice, now - 29 * DAY),
      ]);
    await runCron(HOURLY, now);
    const rows = await getDb(env)
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, Object.values(ids)));
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    // A month on, every row goes, whatever its status.
    expect(Object.keys(byId).sort()).toEqual([ids.codeExpired, ids.codeLive, ids.inviteExpired, ids.inviteLive, ids.noticeOld, ids.noticeMonth].sort());
    // A code past its 10 minutes and a link past its 15 are scrubbed, and will never be sent.
    expect(byId[ids.codeExpired]).toMatchObject({ status: "failed", error: "expired", data: { scrubbed: true } });
    expect(byId[ids.inviteExpired]).toMatchObject({ status: "failed", error: "expired", data: { scrubbed: true } });
    expect(JSON.stringify(byId[ids.inviteExpired])).not.toContain("secret-link");
    // Still within their lifetime, or not sensitive: untouched.
    expect(byId[ids.codeLive]).toMatchObject({ status: "queued", data: code });
    expect(byId[ids.inviteLive]).toMatchObject({ status: "queued", data: invite });
    expect(byId[ids.noticeOld]).toMatchObject({ status: "queued", data: notice });
    expect(JSON.stringify(byId[ids.codeExpired])).not.toContain("919191");
  });

  it("measures age from the scheduled time, not the wall clock", async () => {
    const now = Date.now();
    const ids = await seed(now);
    // A run scheduled a day earlier sees the 6-day-old mail as 5 days old and keeps it, and the old one as 6 days 23 h.
    await runCron(HOURLY, now - DAY);
    const left = await remaining(ids);
    expect(left.mail).toEqual([ids.mail.fresh, ids.mail.old].sort());
    expect(left.tokens).toEqual([ids.token.live, ids.token.spent].sort());
  });

  it("does nothing for a cron it does not know", async () => {
    const now = Date.now();
    const ids = await seed(now);
    const before = await remaining(ids);
    await expect(runCron("*/5 * * * *", now)).resolves.toBeUndefined();
    expect(await remaining(ids)).toEqual(before);
    expect(before.sessions).toHaveLength(4);
  });

  it("runs every job for a cron even when one fails, then reports the failure", async () => {
    const ran: string[] = [];
    CRON_REGISTRY[HOURLY].push(
      {
        name: "explodes",
        run: async () => {
          ran.push("explodes");
          throw new Error("kaboom");
        },
      },
      {
        name: "after",
        run: async () => {
          ran.push("after");
        },
      },
    );
    added.push([HOURLY, 2]);
    const now = Date.now();
    const ids = await seed(now);
    await expect(runCron(HOURLY, now)).rejects.toThrow(/explodes: Error: kaboom/);
    expect(ran.sort()).toEqual(["after", "explodes"]);
    // Housekeeping still did its work.
    expect((await remaining(ids)).sessions).toEqual([ids.session.live]);
  });

  it("has a job list for every cron in wrangler.toml", async () => {
    expect(Object.keys(CRON_REGISTRY).sort()).toEqual(["0 6 * * *", "15 * * * *"]);
    await expect(runCron("0 6 * * *")).resolves.toBeUndefined();
  });
});
