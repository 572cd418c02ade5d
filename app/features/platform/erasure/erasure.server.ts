/**
 * Erasing a person's personal data. The team feature runs the erasure in one D1 batch; every
 * feature that keeps copies of a person's e-mail or name outside their users row registers the
 * statements that erase its own copies (`erasure` in its `ServerFeature`), so no feature writes
 * another's tables. Each statement is conditional on `done` (true once the users row shows this
 * erasure), so a refused erasure touches nothing.
 *
 * Texts that name the person keep their sense with 'Former user' in place of the name and the
 * placeholder address in place of the e-mail. Copies kept under the e-mail alone, with no tenant
 * (platform mail, sign-in audit and throttle counters on the bare domain), are erased only when no
 * other account anywhere still uses that address (`addressUnused`).
 */
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { activityLog, auditEvents, devMailbox, emailOutbox, jobs, notifications } from "~/db/schema";
import { FORMER_USER } from "./former-user";

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

/** The statements that erase one feature's copies of the person, for the erasure's batch. */
export type PersonalDataEraser = (db: Db, person: ErasedPerson) => BatchItem<"sqlite">[];

/** The person's full names as they may appear in text: the display name and 'first last'. */
function fullNames(p: ErasedPerson): string[] {
  const both = [p.firstName?.trim(), p.lastName?.trim()].filter(Boolean).join(" ");
  return [...new Set([p.displayName.trim(), both])].filter((n) => n.length >= MIN_NAME_LENGTH && n !== FORMER_USER);
}

export type Replacement = [from: string, to: string];

const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);
const htmlEscaped = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function pairs(p: ErasedPerson, encode: (s: string) => string = (s) => s): Replacement[] {
  const list: Replacement[] = [[p.email, p.placeholder], ...fullNames(p).map((n): Replacement => [n, FORMER_USER])];
  return list.map(([from, to]): Replacement => [encode(from), encode(to)]).filter(([from], i, all) => all.findIndex(([f]) => f === from) === i);
}

/** What to replace in plain text, inside JSON strings and in HTML: the e-mail first (it may contain a name). */
export function replacementsFor(p: ErasedPerson): { text: Replacement[]; json: Replacement[]; html: Replacement[] } {
  return { text: pairs(p), json: pairs(p, jsonInner), html: pairs(p, htmlEscaped) };
}

/** The column's value with every replacement applied, in SQL. */
export function replaced(column: SQLiteColumn, list: Replacement[]): SQL {
  let expr: SQL = sql`${column}`;
  for (const [from, to] of list) expr = sql`REPLACE(${expr}, ${from}, ${to})`;
  return expr;
}

/** True where any of the columns contains any of the replaced texts. */
export function mentions(columns: SQLiteColumn[], list: Replacement[]): SQL {
  return or(...columns.flatMap((c) => list.map(([from]) => sql`instr(${c}, ${from}) > 0`))) ?? sql`0`;
}

/** True once no account anywhere (another workspace, the platform) still has the address. */
export function addressUnused(email: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM users WHERE email = ${email}) AND NOT EXISTS (SELECT 1 FROM platform_admins WHERE email = ${email})`;
}

/** The platform's own copies: audit, activity, notifications, mail and job inputs. */
export const platformEraser: PersonalDataEraser = (db, p) => {
  const { tenantId, userId, done } = p;
  const { text, json, html } = replacementsFor(p);
  const unused = addressUnused(p.email);
  return [
    // Entries they made keep their actor id; the copied address goes.
    db
      .update(auditEvents)
      .set({ actorEmail: null })
      .where(and(forTenant(auditEvents, tenantId), or(eq(auditEvents.actorId, userId), eq(auditEvents.actorEmail, p.email)), done)),
    db
      .update(activityLog)
      .set({ performedByName: FORMER_USER })
      .where(and(forTenant(activityLog, tenantId), eq(activityLog.performedBy, userId), done)),
    db
      .update(emailOutbox)
      .set({ toAddress: p.placeholder })
      .where(and(forTenant(emailOutbox, tenantId), eq(emailOutbox.toAddress, p.email), done)),
    // Their own inbox is of no use to anyone; other people's notifications keep their sense.
    db.delete(notifications).where(and(forTenant(notifications, tenantId), eq(notifications.targetUserId, userId), done)),
    db
      .update(notifications)
      .set({ title: replaced(notifications.title, text), message: replaced(notifications.message, text) })
      .where(and(forTenant(notifications, tenantId), mentions([notifications.title, notifications.message], text), done)),
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
  ];
};

const erasers: PersonalDataEraser[] = [];

/** Called at start-up for each feature that keeps copies of people's personal data. */
export function registerEraser(eraser: PersonalDataEraser): void {
  if (!erasers.includes(eraser)) erasers.push(eraser);
}

/** Every registered feature's statements for one erasure, in registration order. */
export function erasureStatements(db: Db, person: ErasedPerson): BatchItem<"sqlite">[] {
  if (erasers.length === 0) throw new Error("No personal-data erasers are registered: the server features were not registered at start-up.");
  return erasers.flatMap((erase) => erase(db, person));
}
