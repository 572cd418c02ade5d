import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisReturns, cisStatements } from "~/db/schema";
import { deadlineNotificationId, runCisDeadlineAlerts } from "~/features/cis/dashboard/deadline-alerts.server";
import { taxMonthFromLabel } from "~/features/cis/domain";
import { renderTemplate } from "~/features/platform/email/templates";
import { newId } from "~/utils/ids";
import { createTenant, createUser, type TestTenant } from "../factories";
import { seedCisSettings, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { count, waitForMail } from "./auth-helpers";

// 17 May 2026, 09:00 London: the April tax month's statements and filing deadlines (19 May) are
// 2 days away; its payment deadline (22 May) is 5 days away, outside the default 3 days.
const NOW = new Date("2026-05-17T08:00:00Z");
const MONTH = "2026-04";

/**
 * A CIS tenant whose roles each hold one thing: standard reads, lead issues statements (fine
 * scope), manager submits returns (the coarse cis.submit), admin manages everything.
 */
async function tenant(opts: { warningDays?: number } = {}) {
  const t = await createTenant({
    modules: ["cis"],
    bundles: {
      standard: ["cis.read"],
      lead: ["cis.read", "cis.stmt.issue"],
      manager: ["cis.read", "cis.submit"],
      admin: ["cis.manage"],
    },
  });
  await seedCisSettings(t, { warningDays: opts.warningDays ?? 3 });
  const reader = await createUser(t, { role: "standard" });
  const issuer = await createUser(t, { role: "lead" });
  const submitter = await createUser(t, { role: "manager" });
  const admin = await createUser(t, { role: "admin" });
  return { t, reader, issuer, submitter, admin };
}

async function pendingStatement(t: TestTenant) {
  const sub = await seedSub(t);
  return seedInvoice(t, { subcontractorId: sub.id, status: "paid", taxMonth: MONTH, statementRequired: true });
}

async function seedReturn(
  t: TestTenant,
  opts: { locked: boolean; status: "draft" | "ready" | "submitted" | "nil"; cisDeductedP?: number; id?: string; amendmentOf?: string },
) {
  const tm = taxMonthFromLabel(MONTH);
  const now = Date.now();
  await getDb(env)
    .insert(cisReturns)
    .values({
      tenantId: t.id,
      id: opts.id ?? MONTH,
      taxMonth: MONTH,
      amendmentOf: opts.amendmentOf ?? null,
      status: opts.status,
      cisDeductedP: opts.cisDeductedP ?? 16_000,
      filingDeadline: tm.deadlines.filing.getTime(),
      paymentDeadline: tm.deadlines.payment.getTime(),
      statementsDeadline: tm.deadlines.statements.getTime(),
      locked: opts.locked,
      lockedAt: opts.locked ? now : null,
      createdAt: now,
      updatedAt: now,
    });
}

async function seedStatement(t: TestTenant, status: "generated" | "issued") {
  const sub = await seedSub(t);
  const now = Date.now();
  await getDb(env)
    .insert(cisStatements)
    .values({
      tenantId: t.id,
      id: newId(),
      subcontractorId: sub.id,
      subcontractorName: "Seeded Builder",
      taxMonth: MONTH,
      invoiceIds: "[]",
      invoiceCount: 1,
      grossP: 100_000,
      materialsP: 20_000,
      labourP: 80_000,
      cisDeductionP: 16_000,
      status,
      generatedAt: now,
      issuedAt: status === "issued" ? now : null,
      createdAt: now,
      updatedAt: now,
    });
}

async function notified(t: TestTenant, kind: string, userId: string): Promise<boolean> {
  const row = await env.DB.prepare("SELECT id FROM notifications WHERE id = ?")
    .bind(deadlineNotificationId(t.id, MONTH, kind, userId))
    .first();
  return row !== null;
}

async function digests(t: TestTenant) {
  const { results } = await env.DB.prepare(
    "SELECT to_address, data FROM email_outbox WHERE tenant_id = ? AND template = 'cis.deadline-digest' ORDER BY to_address",
  )
    .bind(t.id)
    .all<{ to_address: string; data: string }>();
  return results.map((r) => ({ to: r.to_address, data: JSON.parse(r.data) as { deadlines: { title: string; link: string }[] } }));
}

describe("CIS deadline alerts: only deadlines still to be met", () => {
  it("alerts about the return and the statements while neither is done, linking to each page", async () => {
    const { t, reader } = await tenant();
    await pendingStatement(t);
    await runCisDeadlineAlerts(env, NOW);
    expect(await notified(t, "filing", reader.id)).toBe(true);
    expect(await notified(t, "statements", reader.id)).toBe(true);
    const links = await env.DB.prepare("SELECT link FROM notifications WHERE tenant_id = ? AND target_user_id = ? ORDER BY link")
      .bind(t.id, reader.id)
      .all<{ link: string }>();
    expect(links.results.map((r) => r.link)).toEqual([`/cis/returns?month=${MONTH}`, `/cis/statements?month=${MONTH}`]);
  });

  it("says nothing about filing once the month's return is submitted (locked), even with an amendment open", async () => {
    const { t, reader } = await tenant();
    await pendingStatement(t);
    await seedReturn(t, { locked: true, status: "submitted" });
    await seedReturn(t, { locked: false, status: "draft", id: `${MONTH}-AMD-1`, amendmentOf: MONTH });
    await runCisDeadlineAlerts(env, NOW);
    expect(await notified(t, "filing", reader.id)).toBe(false);
    expect(await notified(t, "statements", reader.id)).toBe(true);
  });

  it("still alerts about filing while the return is only compiled (draft, ready, or a nil return not yet sent)", async () => {
    for (const status of ["ready", "nil"] as const) {
      const { t, reader } = await tenant();
      await seedReturn(t, { locked: false, status });
      await runCisDeadlineAlerts(env, NOW);
      expect(await notified(t, "filing", reader.id)).toBe(true);
    }
  });

  it("says nothing about statements when every statement of the month is issued, or the month needs none", async () => {
    const issued = await tenant();
    const sub = await seedSub(issued.t);
    await seedInvoice(issued.t, { subcontractorId: sub.id, status: "paid", taxMonth: MONTH, statementRequired: true, statementIssuedAt: Date.now() });
    await seedStatement(issued.t, "issued");
    const none = await tenant();
    await runCisDeadlineAlerts(env, NOW);
    for (const { t, reader } of [issued, none]) {
      expect(await notified(t, "statements", reader.id)).toBe(false);
      expect(await notified(t, "filing", reader.id)).toBe(true);
    }
  });

  it("alerts about statements generated but not yet issued", async () => {
    const { t, reader } = await tenant();
    await seedStatement(t, "generated");
    await runCisDeadlineAlerts(env, NOW);
    expect(await notified(t, "statements", reader.id)).toBe(true);
  });

  it("reminds about payment unless the submitted return deducted nothing", async () => {
    const PAYMENT_WINDOW = new Date("2026-05-20T08:00:00Z"); // 22 May is 2 days away
    const owes = await tenant();
    await seedReturn(owes.t, { locked: true, status: "submitted", cisDeductedP: 16_000 });
    const nil = await tenant();
    await seedReturn(nil.t, { locked: true, status: "nil", cisDeductedP: 0 });
    await runCisDeadlineAlerts(env, PAYMENT_WINDOW);
    expect(await notified(owes.t, "payment", owes.reader.id)).toBe(true);
    expect(await notified(nil.t, "payment", nil.reader.id)).toBe(false);
  });
});

describe("CIS deadline digest e-mail", () => {
  it("goes once a day to each person who can act, listing only their deadlines, and reaches the mailbox", async () => {
    const { t, reader, issuer, submitter, admin } = await tenant();
    await pendingStatement(t);
    const before = Date.now();
    await runCisDeadlineAlerts(env, NOW);

    const sent = await digests(t);
    expect(sent.map((d) => d.to).sort()).toEqual([issuer.email, submitter.email, admin.email].sort());
    const titles = (email: string) => sent.find((d) => d.to === email)?.data.deadlines.map((x) => x.title);
    expect(titles(issuer.email)).toEqual(["Statements deadline: 19 May 2026"]);
    expect(titles(submitter.email)).toEqual(["Filing deadline: 19 May 2026"]);
    expect(titles(admin.email)?.sort()).toEqual(["Filing deadline: 19 May 2026", "Statements deadline: 19 May 2026"]);
    expect(sent.some((d) => d.to === reader.email)).toBe(false);

    const mail = await waitForMail(admin.email, { after: before });
    expect(mail.subject).toBe(`CIS deadlines due soon in ${t.name}`);
    expect(mail.text).toContain(`http://${t.slug}.`);
    expect(mail.text).toContain(`/cis/returns?month=${MONTH}`);
    expect(mail.text).toContain(`/cis/statements?month=${MONTH}`);

    // Rerun the same day (later that morning): nothing is sent twice.
    await runCisDeadlineAlerts(env, NOW);
    await runCisDeadlineAlerts(env, new Date("2026-05-17T11:00:00Z"));
    expect(await digests(t)).toHaveLength(3);
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.deadline-digest' AND to_address = ?", t.id, admin.email)).toBe(1);

    // The next day's run is a new digest for what is still due.
    await runCisDeadlineAlerts(env, new Date("2026-05-18T08:00:00Z"));
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.deadline-digest' AND to_address = ?", t.id, admin.email)).toBe(2);
  });

  it("stops once the deadlines are met, and sends nothing to anyone when nothing is due", async () => {
    const { t } = await tenant();
    await seedReturn(t, { locked: true, status: "submitted" });
    await runCisDeadlineAlerts(env, NOW);
    expect(await digests(t)).toHaveLength(0);
    expect(await count("notifications", "tenant_id = ?", t.id)).toBe(0);
  });

  it("leaves out disabled people, and people whose role grants the scope only through another workspace", async () => {
    const { t, submitter } = await tenant();
    const gone = await createUser(t, { role: "admin", disabled: true });
    const other = await createTenant({ modules: ["cis"], bundles: { standard: ["cis.manage"] } });
    const outsider = await createUser(other, { role: "standard" });
    await runCisDeadlineAlerts(env, NOW);
    const to = (await digests(t)).map((d) => d.to);
    expect(to).toContain(submitter.email);
    expect(to).not.toContain(gone.email);
    expect(to).not.toContain(outsider.email);
  });
});

describe("CIS deadline alerts: nil returns (from April 2026)", () => {
  async function notice(t: TestTenant, givenOn: string) {
    await env.DB.prepare(
      "INSERT INTO cis_no_payment_notices (tenant_id, id, source, given_on, first_month, months, return_id, created_at, created_by) VALUES (?, ?, 'other', ?, ?, 1, NULL, ?, NULL)",
    )
      .bind(t.id, newId(), givenOn, MONTH, Date.now())
      .run();
  }

  async function filingMessage(t: TestTenant, userId: string) {
    const row = await env.DB.prepare("SELECT message FROM notifications WHERE id = ?")
      .bind(deadlineNotificationId(t.id, MONTH, "filing", userId))
      .first<{ message: string }>();
    return row?.message ?? null;
  }

  it("a month without payments and no notice: the filing alert and the digest say a nil return is due", async () => {
    const { t, reader, submitter } = await tenant();
    await runCisDeadlineAlerts(env, NOW);
    expect(await filingMessage(t, reader.id)).toBe(
      "The CIS300 monthly return for 6 April to 5 May 2026 must be filed by 19 May 2026 (2 days left). No payments to subcontractors were recorded in it: file a nil return",
    );
    const [digest] = (await digests(t)).filter((d) => d.to === submitter.email);
    expect(JSON.stringify(digest?.data)).toContain("file a nil return");
  });

  it("a notice given 14 days before the month (23 March) silences filing and payment; one given 13 days before (24 March) does not", async () => {
    const inTime = await tenant({ warningDays: 7 });
    await notice(inTime.t, "2026-03-23");
    const late = await tenant({ warningDays: 7 });
    await notice(late.t, "2026-03-24");
    await runCisDeadlineAlerts(env, NOW);
    expect(await notified(inTime.t, "filing", inTime.reader.id)).toBe(false);
    expect(await notified(inTime.t, "payment", inTime.reader.id)).toBe(false);
    expect(await notified(late.t, "filing", late.reader.id)).toBe(true);
    expect(await notified(late.t, "payment", late.reader.id)).toBe(true);
  });

  it("payments in the month: the ordinary filing alert, whatever the notice said", async () => {
    const { t, reader } = await tenant();
    await notice(t, "2026-03-01");
    await pendingStatement(t);
    await runCisDeadlineAlerts(env, NOW);
    expect(await filingMessage(t, reader.id)).toBe("The CIS300 monthly return for 6 April to 5 May 2026 must be filed by 19 May 2026 (2 days left)");
  });
});

describe("CIS deadline alerts: overdue returns", () => {
  /** A tenant that started on 1 April 2026 (its CIS settings' date), so April 2026 onwards is owed. */
  async function started() {
    const x = await tenant();
    await env.DB.prepare("UPDATE cis_settings SET created_at = ? WHERE tenant_id = ?").bind(Date.parse("2026-04-01T09:00:00Z"), x.t.id).run();
    return x;
  }

  async function overdueNote(t: TestTenant, month: string, step: string, userId: string) {
    return env.DB.prepare("SELECT title, message, link FROM notifications WHERE id = ?")
      .bind(deadlineNotificationId(t.id, month, `overdue-${step}`, userId))
      .first<{ title: string; message: string; link: string }>();
  }

  const overdueIn = (d: { data: { deadlines: { title: string }[] } }) => d.data.deadlines.filter((x) => x.title.includes("overdue")).map((x) => x.title);

  it("a nil return still missing after 19 May 2026 (British Summer Time) is notified at midnight London, once, with its penalties; the digest carries it that day only", async () => {
    const { t, reader, submitter } = await started();
    // 23:59 London on 19 May: still in time.
    await runCisDeadlineAlerts(env, new Date("2026-05-19T22:59:00Z"));
    expect(await overdueNote(t, MONTH, "initial", reader.id)).toBeNull();
    // Midnight London, 20 May: overdue, £100 charged.
    const run = await runCisDeadlineAlerts(env, new Date("2026-05-19T23:00:00Z"));
    expect(run.overdue).toBeGreaterThanOrEqual(1);
    expect(await overdueNote(t, MONTH, "initial", reader.id)).toEqual({
      title: "CIS nil return overdue: 6 April to 5 May 2026",
      message:
        "The nil return for 6 April to 5 May 2026 was due by 19 May 2026 and is not filed. Late-filing penalties so far: £100.00; a further £200.00 from 20 July 2026 unless it is filed first.",
      link: `/cis/returns?month=${MONTH}`,
    });
    // The digest of who can file says so; a reader only gets the notification.
    const first = await digests(t);
    expect(first.filter((d) => d.to === submitter.email).flatMap(overdueIn)).toEqual(["CIS nil return overdue: 6 April to 5 May 2026"]);
    expect(first.filter((d) => d.to === reader.email)).toHaveLength(0);
    const before = await count("notifications", "tenant_id = ?", t.id);
    // A rerun, and the next day's run, add no notification and no digest about it.
    await runCisDeadlineAlerts(env, new Date("2026-05-20T10:00:00Z"));
    await runCisDeadlineAlerts(env, new Date("2026-05-21T08:00:00Z"));
    expect(await count("notifications", "tenant_id = ?", t.id)).toBe(before);
    const later = (await digests(t)).filter((d) => d.to === submitter.email);
    expect(later.flatMap(overdueIn)).toEqual(["CIS nil return overdue: 6 April to 5 May 2026"]);
    const [overdueDigest] = later.filter((d) => overdueIn(d).length > 0);
    expect(renderTemplate("cis.deadline-digest", overdueDigest!.data).subject).toBe(`CIS returns overdue in ${t.name}`);

    // Two months after the penalty date the next step is notified again: not at 23:59 on 19 July, at midnight.
    await runCisDeadlineAlerts(env, new Date("2026-07-19T22:59:00Z"));
    expect(await overdueNote(t, MONTH, "two_months", reader.id)).toBeNull();
    await runCisDeadlineAlerts(env, new Date("2026-07-19T23:00:00Z"));
    expect((await overdueNote(t, MONTH, "two_months", reader.id))?.message).toContain("Late-filing penalties so far: £300.00; a further £300.00");
  });

  it("a return with payments overdue after 19 November 2026 (Greenwich Mean Time) is notified from midnight, with the deductions' penalties", async () => {
    const { t, reader } = await started();
    const sub = await seedSub(t);
    await seedInvoice(t, { subcontractorId: sub.id, status: "paid", taxMonth: "2026-10", paymentDate: "2026-10-20" });
    await runCisDeadlineAlerts(env, new Date("2026-11-19T23:59:00Z"));
    expect(await overdueNote(t, "2026-10", "initial", reader.id)).toBeNull();
    await runCisDeadlineAlerts(env, new Date("2026-11-20T00:00:00Z"));
    expect(await overdueNote(t, "2026-10", "initial", reader.id)).toMatchObject({ title: "CIS300 return overdue: 6 October to 5 November 2026" });
  });

  it("says nothing once the month's return is filed, nor to a suspended workspace", async () => {
    const filed = await started();
    await seedReturn(filed.t, { locked: true, status: "nil", cisDeductedP: 0 });
    const suspended = await started();
    await env.DB.prepare("UPDATE tenants SET suspended_at = ? WHERE id = ?").bind(Date.now(), suspended.t.id).run();
    await runCisDeadlineAlerts(env, new Date("2026-05-20T08:00:00Z"));
    expect(await overdueNote(filed.t, MONTH, "initial", filed.reader.id)).toBeNull();
    expect(await count("notifications", "tenant_id = ?", suspended.t.id)).toBe(0);
    expect(await digests(suspended.t)).toHaveLength(0);
  });
});
