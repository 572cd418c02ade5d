import { env } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { calendarMembers, calendars, events, eventShares, eventTeams, siteMembers, sites, teamMembers, teams, type EventVisibility } from "~/db/schema";
import { newId } from "~/utils/ids";
import { createTenant, createUser, type TestTenant } from "./index";
import { signedIn } from "./sessions";
import type { Role } from "~/db/schema";

/** A tenant with the calendar on, one person of `role` in it, signed in. */
export async function scheduleStaff(role: Role = "admin", t?: TestTenant) {
  const tenant = t ?? (await createTenant({ modules: ["schedule"] }));
  const u = await createUser(tenant, { role });
  const b = await signedIn(tenant, u);
  return { t: tenant, u, b };
}

export async function seedTeam(t: TestTenant, name: string, members: string[]) {
  const id = newId();
  const db = getDb(env);
  await db.batch([
    db.insert(teams).values({ id, tenantId: t.id, name, createdAt: Date.now() }),
    ...members.map((userId) => db.insert(teamMembers).values({ tenantId: t.id, teamId: id, userId })),
  ]);
  return id;
}

export async function seedSite(t: TestTenant, name: string, members: string[]) {
  const id = newId();
  const db = getDb(env);
  await db.batch([
    db.insert(sites).values({ id, tenantId: t.id, name, createdAt: Date.now() }),
    ...members.map((userId) => db.insert(siteMembers).values({ tenantId: t.id, siteId: id, userId })),
  ]);
  return id;
}

export async function seedCalendar(t: TestTenant, name: string, members: string[], opts: { archived?: boolean; createdBy?: string } = {}) {
  const id = newId();
  const db = getDb(env);
  const now = Date.now();
  await db.batch([
    db.insert(calendars).values({
      id,
      tenantId: t.id,
      name,
      type: "team",
      archived: opts.archived ?? false,
      createdBy: opts.createdBy ?? members[0] ?? "x",
      createdAt: now,
      updatedAt: now,
    }),
    ...members.map((userId) => db.insert(calendarMembers).values({ tenantId: t.id, calendarId: id, userId })),
  ]);
  return id;
}

/** An event written straight to the tables (as a save would store it). */
export async function seedEvent(
  t: TestTenant,
  opts: {
    createdBy: string;
    title?: string;
    start?: number;
    end?: number;
    visibility?: EventVisibility;
    sharedAll?: boolean;
    shares?: string[];
    teamIds?: string[];
    siteId?: string | null;
    calendarId?: string | null;
    rrule?: string | null;
    repeatUntil?: number | null;
    type?: "shift" | "task" | "delivery" | "training" | "meeting";
  },
) {
  const id = newId();
  const db = getDb(env);
  const start = opts.start ?? Date.UTC(2026, 5, 10, 8);
  const now = Date.now();
  await db.batch([
    db.insert(events).values({
      id,
      tenantId: t.id,
      title: opts.title ?? `Event ${id.slice(0, 6)}`,
      startUtc: start,
      endUtc: opts.end ?? start + 3_600_000,
      type: opts.type ?? "shift",
      visibility: opts.visibility ?? "private",
      sharedAll: opts.sharedAll ?? false,
      siteId: opts.siteId ?? null,
      calendarId: opts.calendarId ?? null,
      rrule: opts.rrule ?? null,
      repeatUntil: opts.repeatUntil ?? null,
      createdBy: opts.createdBy,
      createdAt: now,
      updatedAt: now,
    }),
    ...(opts.shares ?? []).map((userId) => db.insert(eventShares).values({ tenantId: t.id, eventId: id, userId })),
    ...(opts.teamIds ?? []).map((teamId) => db.insert(eventTeams).values({ tenantId: t.id, eventId: id, teamId })),
  ]);
  return id;
}
