/**
 * The copies of a person's e-mail and name that live outside their users row, and the
 * statements that erase them. They run in the erasure's own D1 batch, each only once the users
 * row shows this erasure (`done`), so a refused erasure touches nothing.
 *
 * Texts that name the person (notification titles, e-mails in the outbox and the development
 * mailbox, audit and activity details, job inputs) keep their sense with 'Former user' in place of
 * the name and the placeholder address in place of the e-mail. Copies kept under the e-mail alone,
 * with no tenant (platform mail, sign-in audit and throttle counters on the bare domain), are
 * erased only when no other account anywhere still uses that address.
 */
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { forgetAddressThrottleStatement } from "~/features/auth/index.server";
import { activityLog, auditEvents, cisSettings, devMailbox, emailOutbox, files, jobs, notifications, signatureRequests } from "~/db/schema";
import { FORMER_USER } from "./codes";

/** Names shorter than this are not replaced inside free text: they would hit ordinary words. */
const MIN_NAME_LENGTH = 3;

export type ErasedPerson = {
  tenantId: string;
  userId: string;
  /** The address being erased (lower case, as stored). */
  email: string;
  placeholder: string;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
  /** True once the users row shows this erasure: every statement is conditional on it. */
  done: SQL;
};

/** The person's full names as they may appear in text: the display name and 'first last'. */
function fullNames(p: ErasedPerson): string[] {
  const both = [p.firstName?.trim(), p.lastName?.trim()].filter(Boolean).join(" ");
  return [...new Set([p.displayName.trim(), both])].filter((n) => n.length >= MIN_NAME_LENGTH && n !== FORMER_USER);
}

type Pair = [from: string, to: string];

const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);
const htmlEscaped = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** What to replace in plain text, in JSON text and in HTML: the e-mail first (it may contain a name). */
function pairs(p: ErasedPerson, encode: (s: string) => string = (s) => s): Pair[] {
  const list: Pair[] = [[p.email, p.placeholder], ...fullNames(p).map((n): Pair => [n, FORMER_USER])];
  return list.map(([from, to]): Pair => [encode(from), encode(to)]).filter(([from], i, all) => all.findIndex(([f]) => f === from) === i);
}

function replaced(column: SQLiteColumn, list: Pair[]): SQL {
  let expr: SQL = sql`${column}`;
  for (const [from, to] of list) expr = sql`REPLACE(${expr}, ${from}, ${to})`;
  return expr;
}

function mentions(columns: SQLiteColumn[], list: Pair[]): SQL {
  return or(...columns.flatMap((c) => list.map(([from]) => sql`instr(${c}, ${from}) > 0`))) ?? sql`0`;
}

/** True once no account anywhere (another workspace, the platform) still has the address. */
function addressUnused(email: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM users WHERE email = ${email}) AND NOT EXISTS (SELECT 1 FROM platform_admins WHERE email = ${email})`;
}

export function erasureStatements(db: Db, p: ErasedPerson): BatchItem<"sqlite">[] {
  const { tenantId, userId, done } = p;
  const text = pairs(p);
  const json = pairs(p, jsonInner);
  const html = pairs(p, htmlEscaped);
  const unused = addressUnused(p.email);
  return [
    // Files they own keep their owner id; the copied name and address go.
    db
      .update(files)
      .set({ ownerEmail: p.placeholder, ownerName: FORMER_USER })
      .where(and(forTenant(files, tenantId), eq(files.ownerId, userId), done)),
    // Their own inbox is of no use to anyone; other people's notifications keep their sense.
    db.delete(notifications).where(and(forTenant(notifications, tenantId), eq(notifications.targetUserId, userId), done)),
    db
      .update(notifications)
      .set({ title: replaced(notifications.title, text), message: replaced(notifications.message, text) })
      .where(and(forTenant(notifications, tenantId), mentions([notifications.title, notifications.message], text), done)),
    // A typed or drawn signature recorded their name as shown.
    db
      .update(signatureRequests)
      .set({ signatureText: FORMER_USER })
      .where(and(forTenant(signatureRequests, tenantId), eq(signatureRequests.signerId, userId), sql`${signatureRequests.signatureText} IS NOT NULL`, done)),
    db
      .update(emailOutbox)
      .set({
        toAddress: replaced(emailOutbox.toAddress, text),
        data: replaced(emailOutbox.data, json),
        idempotencyKey: replaced(emailOutbox.idempotencyKey, text),
      })
      .where(
        and(
          or(forTenant(emailOutbox, tenantId), and(isNull(emailOutbox.tenantId), eq(emailOutbox.toAddress, p.email), unused)),
          mentions([emailOutbox.toAddress, emailOutbox.data, emailOutbox.idempotencyKey], json),
          done,
        ),
      ),
    db
      .update(devMailbox)
      .set({
        toAddress: replaced(devMailbox.toAddress, text),
        subject: replaced(devMailbox.subject, text),
        text: replaced(devMailbox.text, text),
        html: replaced(devMailbox.html, [...html, ...text]),
        replyTo: replaced(devMailbox.replyTo, text),
      })
      .where(
        and(
          or(forTenant(devMailbox, tenantId), and(isNull(devMailbox.tenantId), eq(devMailbox.toAddress, p.email), unused)),
          mentions([devMailbox.toAddress, devMailbox.subject, devMailbox.text, devMailbox.html, devMailbox.replyTo], [...text, ...html]),
          done,
        ),
      ),
    db
      .update(auditEvents)
      .set({ payload: replaced(auditEvents.payload, json) })
      .where(and(forTenant(auditEvents, tenantId), mentions([auditEvents.payload], json), done)),
    // Sign-in attempts on the bare domain are recorded under the address alone.
    db
      .update(auditEvents)
      .set({ actorEmail: null })
      .where(and(isNull(auditEvents.tenantId), eq(auditEvents.actorEmail, p.email), unused, done)),
    db
      .update(activityLog)
      .set({ details: replaced(activityLog.details, json) })
      .where(and(forTenant(activityLog, tenantId), mentions([activityLog.details], json), done)),
    db
      .update(jobs)
      .set({ inputs: replaced(jobs.inputs, json) })
      .where(and(forTenant(jobs, tenantId), mentions([jobs.inputs], json), done)),
    // A workspace's statement e-mails are no longer sent from, or answered to, the departed person.
    db
      .update(cisSettings)
      .set({
        emailReplyTo: sql`CASE WHEN ${cisSettings.emailReplyTo} = ${p.email} THEN NULL ELSE ${cisSettings.emailReplyTo} END`,
        emailFrom: sql`CASE WHEN ${cisSettings.emailFrom} = ${p.email} THEN NULL ELSE ${cisSettings.emailFrom} END`,
      })
      .where(and(forTenant(cisSettings, tenantId), or(eq(cisSettings.emailReplyTo, p.email), eq(cisSettings.emailFrom, p.email)), done)),
    // Sign-in counters are keyed by the address.
    forgetAddressThrottleStatement(db, p.email, and(unused, done) ?? done),
  ];
}
