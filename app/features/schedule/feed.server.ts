import { and, eq, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { events, roleBundles, schedulePrefs, users } from "~/db/schema";
import { scopeGrants, type Actor } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { newId, sha256Hex } from "~/utils/ids";
import { STATUS_LABELS, TYPE_LABELS } from "./domain/labels";
import { icsCalendar, type IcsEvent } from "./domain/ics";
import { occurrences } from "./domain/recurrence";
import { seriesRanges, singleEventRanges } from "./range.server";
import { visibleEvents } from "./visibility.server";

/** The feed covers the last 60 days and the next 400. */
const FEED_PAST_MS = 60 * 86_400_000;
const FEED_AHEAD_MS = 400 * 86_400_000;
const FEED_ROW_LIMIT = 5000;

/** Whether this person has a subscription link (its token is shown once, when it is made). */
export async function feedStatus(env: Env, tenantId: string, userId: string): Promise<boolean> {
  const rows = await dbFor(env, tenantId)
    .select({ hash: schedulePrefs.feedTokenHash })
    .from(schedulePrefs)
    .where(and(eq(schedulePrefs.tenantId, tenantId), eq(schedulePrefs.userId, userId)));
  return !!rows[0]?.hash;
}

/** A new subscription link for the person, replacing any earlier one (which stops working). Returns the token. */
export async function createFeedToken(env: Env, tenantId: string, actor: Actor & { ip?: string | null }): Promise<string> {
  const token = newId(24);
  const hash = await sha256Hex(token);
  const db = dbFor(env, tenantId);
  const now = Date.now();
  await db.batch([
    db
      .insert(schedulePrefs)
      .values({ tenantId, userId: actor.id, feedTokenHash: hash, updatedAt: now })
      .onConflictDoUpdate({ target: [schedulePrefs.tenantId, schedulePrefs.userId], set: { feedTokenHash: hash, updatedAt: now } }),
    auditInsert(db, {
      tenantId,
      action: "schedule.feed.created",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "user",
      targetId: actor.id,
      payload: {},
      ip: actor.ip ?? null,
    }),
  ]);
  return token;
}

export async function revokeFeedToken(env: Env, tenantId: string, actor: Actor & { ip?: string | null }): Promise<void> {
  const db = dbFor(env, tenantId);
  await db.batch([
    db
      .update(schedulePrefs)
      .set({ feedTokenHash: null, updatedAt: Date.now() })
      .where(and(eq(schedulePrefs.tenantId, tenantId), eq(schedulePrefs.userId, actor.id))),
    auditInsert(db, {
      tenantId,
      action: "schedule.feed.revoked",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "user",
      targetId: actor.id,
      payload: {},
      ip: actor.ip ?? null,
    }),
  ]);
}

/**
 * The ICS document of a subscription token on a tenant, or null (unknown or revoked token, another
 * tenant's, a disabled person, or one who no longer holds schedule.view): what that person may see
 * now, each occurrence of a series as its own event.
 */
export async function feedDocument(env: Env, tenantId: string, token: string, host: string, now = Date.now()): Promise<string | null> {
  const hash = await sha256Hex(token);
  const db = dbFor(env, tenantId);
  const owner = await db
    .select({ userId: users.id, role: users.role, scopes: roleBundles.scopes })
    .from(schedulePrefs)
    .innerJoin(users, and(eq(users.tenantId, schedulePrefs.tenantId), eq(users.id, schedulePrefs.userId)))
    .leftJoin(roleBundles, and(eq(roleBundles.tenantId, users.tenantId), eq(roleBundles.name, users.role)))
    .where(and(eq(schedulePrefs.tenantId, tenantId), eq(schedulePrefs.feedTokenHash, hash), eq(users.disabled, false), sql`${users.scrubbedAt} IS NULL`));
  const person = owner[0];
  if (!person || !scopeGrants(person.scopes ?? [], "schedule.view")) return null;
  const start = now - FEED_PAST_MS;
  const end = now + FEED_AHEAD_MS;
  const columns = {
    id: events.id,
    title: events.title,
    startUtc: events.startUtc,
    endUtc: events.endUtc,
    type: events.type,
    status: events.status,
    rrule: events.rrule,
    exdates: events.exdates,
  };
  const visible = visibleEvents({ id: person.userId, tenantId, role: person.role });
  // Each kind of event through its own index, as a view reads its range: not every event since the tenant's first.
  const [first, ...more] = [...singleEventRanges(start, end), ...seriesRanges(start, end)].map((range) =>
    db.select(columns).from(events).where(and(visible, range)).limit(FEED_ROW_LIMIT),
  );
  const read = await db.batch([first!, ...more]);
  const rows = read
    .flat()
    .sort((a, b) => a.startUtc - b.startUtc)
    .slice(0, FEED_ROW_LIMIT);
  const list: IcsEvent[] = rows.flatMap((r) =>
    occurrences(r, start, end).map((o) => ({
      uid: r.rrule ? `${r.id}-${o.start}@${host}` : `${r.id}@${host}`,
      start: o.start,
      end: o.end,
      summary: r.title,
      categories: TYPE_LABELS[r.type],
      status: r.status === "green" ? ("CONFIRMED" as const) : ("TENTATIVE" as const),
      description: STATUS_LABELS[r.status],
    })),
  );
  return icsCalendar("Calendar", list, now);
}
