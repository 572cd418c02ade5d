import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { events, type Role } from "~/db/schema";
import { visibleEvents } from "~/features/schedule/visibility.server";
import { createTenant, createUser } from "../factories";
import { seedCalendar, seedEvent, seedSite, seedTeam } from "../factories/schedule";

/**
 * Who sees an event, as a table: the viewer's role, how the event reaches them (its sharing) and
 * whether they are in the team, site or calendar it names. The rule is applied in SQL, so each
 * row reads through the same WHERE clause the pages use.
 */
type Reach =
  | "author"
  | "shared_with_me"
  | "shared_with_other"
  | "shared_all"
  | "my_calendar"
  | "other_calendar"
  | "my_team"
  | "other_team"
  | "my_site"
  | "other_site"
  | "my_archived_calendar"
  | "unrelated";

const SEEN: Record<Reach, Record<Role, boolean>> = {
  author: { standard: true, lead: true, manager: true, admin: true },
  shared_with_me: { standard: true, lead: true, manager: true, admin: true },
  shared_with_other: { standard: false, lead: false, manager: false, admin: true },
  shared_all: { standard: true, lead: true, manager: true, admin: true },
  my_calendar: { standard: true, lead: true, manager: true, admin: true },
  other_calendar: { standard: false, lead: false, manager: false, admin: true },
  my_team: { standard: false, lead: true, manager: true, admin: true },
  other_team: { standard: false, lead: false, manager: false, admin: true },
  my_site: { standard: false, lead: false, manager: true, admin: true },
  other_site: { standard: false, lead: false, manager: false, admin: true },
  my_archived_calendar: { standard: false, lead: false, manager: false, admin: false },
  unrelated: { standard: false, lead: false, manager: false, admin: true },
};

describe("event visibility by role, sharing and membership", () => {
  for (const role of ["standard", "lead", "manager", "admin"] as const) {
    it(`${role}: sees exactly the events the table says`, async () => {
      const t = await createTenant({ modules: ["schedule"] });
      const me = await createUser(t, { role });
      const other = await createUser(t, { role: "standard" });
      const myTeam = await seedTeam(t, "Groundworks", [me.id, other.id]);
      const otherTeam = await seedTeam(t, "Roofing", [other.id]);
      const mySite = await seedSite(t, "Leeds Road", [me.id]);
      const otherSite = await seedSite(t, "Quay Street", [other.id]);
      const myCal = await seedCalendar(t, "Plant hire", [me.id, other.id]);
      const otherCal = await seedCalendar(t, "Directors", [other.id]);
      const archived = await seedCalendar(t, "Old job", [me.id], { archived: true });
      const by = other.id;
      const ids: Record<Reach, string> = {
        author: await seedEvent(t, { createdBy: me.id, shares: [me.id] }),
        shared_with_me: await seedEvent(t, { createdBy: by, visibility: "users", shares: [me.id] }),
        shared_with_other: await seedEvent(t, { createdBy: by, visibility: "users", shares: [by] }),
        shared_all: await seedEvent(t, { createdBy: by, visibility: "org", sharedAll: true }),
        my_calendar: await seedEvent(t, { createdBy: by, calendarId: myCal }),
        other_calendar: await seedEvent(t, { createdBy: by, calendarId: otherCal }),
        my_team: await seedEvent(t, { createdBy: by, teamIds: [myTeam] }),
        other_team: await seedEvent(t, { createdBy: by, teamIds: [otherTeam] }),
        my_site: await seedEvent(t, { createdBy: by, siteId: mySite }),
        other_site: await seedEvent(t, { createdBy: by, siteId: otherSite }),
        my_archived_calendar: await seedEvent(t, { createdBy: me.id, calendarId: archived }),
        unrelated: await seedEvent(t, { createdBy: by, shares: [by] }),
      };
      // Another tenant's events never show, whatever the role.
      const t2 = await createTenant({ modules: ["schedule"] });
      const stranger = await createUser(t2);
      await seedEvent(t2, { createdBy: stranger.id, visibility: "org", sharedAll: true });

      const rows = await getDb(env)
        .select({ id: events.id })
        .from(events)
        .where(and(visibleEvents({ id: me.id, tenantId: t.id, role })));
      const seen = new Set(rows.map((r) => r.id));
      const table = Object.fromEntries(Object.entries(ids).map(([reach, id]) => [reach, seen.has(id)]));
      const expected = Object.fromEntries(Object.entries(SEEN).map(([reach, byRole]) => [reach, byRole[role]]));
      expect(table).toEqual(expected);
      expect(rows.length).toBe(Object.values(expected).filter(Boolean).length);
      // One event read by id goes through the same rule.
      const one = await getDb(env)
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.id, ids.other_team), visibleEvents({ id: me.id, tenantId: t.id, role })));
      expect(one.length).toBe(role === "admin" ? 1 : 0);
    });
  }
});
