import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { CALENDAR_TYPES, EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES, SCHEDULE_VIEWS } from "../enums";

export { CALENDAR_TYPES, EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES, SCHEDULE_VIEWS };
export type { CalendarType, EventStatus, EventType, EventVisibility, ScheduleView } from "../enums";

/** Teams of people (a gang, a crew); a person may be in several. */
export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("teams_tenant_name").on(t.tenantId, t.name)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    tenantId: text("tenant_id").notNull(),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_tenant_user").on(t.tenantId, t.userId)],
);

/** Sites (a job, a depot); a person may work on several. */
export const sites = sqliteTable(
  "sites",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("sites_tenant_name").on(t.tenantId, t.name)],
);

export const siteMembers = sqliteTable(
  "site_members",
  {
    tenantId: text("tenant_id").notNull(),
    siteId: text("site_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.userId] }), index("site_members_tenant_user").on(t.tenantId, t.userId)],
);

export const calendars = sqliteTable(
  "calendars",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#3B82F6"),
    type: text("type", { enum: CALENDAR_TYPES }).notNull().default("team"),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("calendars_tenant_name").on(t.tenantId, t.name)],
);

export const calendarMembers = sqliteTable(
  "calendar_members",
  {
    tenantId: text("tenant_id").notNull(),
    calendarId: text("calendar_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.calendarId, t.userId] }), index("calendar_members_tenant_user").on(t.tenantId, t.userId)],
);

/**
 * An event. Times are UTC milliseconds; the end is exclusive. `calendarId` null is the creator's
 * Personal Calendar. `sharedAll` is the share with everyone (the 'Entire organisation' visibility);
 * shares with people are rows of event_shares, with teams rows of event_teams, and a site is `siteId`.
 * `rrule` (RFC 5545 RRULE value) makes it a series starting at `startUtc`; `repeatUntil` is the end
 * of its last occurrence (null while it repeats for ever), so range queries can skip ended series.
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    title: text("title").notNull(),
    startUtc: integer("start_utc").notNull(),
    endUtc: integer("end_utc").notNull(),
    type: text("type", { enum: EVENT_TYPES }).notNull().default("shift"),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("green"),
    visibility: text("visibility", { enum: EVENT_VISIBILITIES }).notNull().default("private"),
    calendarId: text("calendar_id"),
    siteId: text("site_id"),
    sharedAll: integer("shared_all", { mode: "boolean" }).notNull().default(false),
    rrule: text("rrule"),
    repeatUntil: integer("repeat_until"),
    /** Start times (UTC ms) of occurrences removed from a series, comma separated. */
    exdates: text("exdates"),
    /** For one occurrence of a series changed on its own: the series it was taken out of. */
    seriesId: text("series_id"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("events_tenant_start").on(t.tenantId, t.startUtc),
    index("events_tenant_creator_start").on(t.tenantId, t.createdBy, t.startUtc),
    index("events_tenant_calendar_start").on(t.tenantId, t.calendarId, t.startUtc),
    index("events_tenant_repeating").on(t.tenantId, t.repeatUntil),
    index("events_tenant_series").on(t.tenantId, t.seriesId),
    // A view's range: single events over a day long, those over the 31-day limit (saved before it),
    // and series by the end of their last occurrence (null: open-ended).
    index("events_tenant_long_start")
      .on(t.tenantId, t.startUtc)
      .where(sql`${t.rrule} IS NULL AND ${t.endUtc} - ${t.startUtc} > 86400000`),
    index("events_tenant_overlong_start")
      .on(t.tenantId, t.startUtc)
      .where(sql`${t.rrule} IS NULL AND ${t.endUtc} - ${t.startUtc} > 2678400000`),
    index("events_tenant_series_end")
      .on(t.tenantId, t.repeatUntil)
      .where(sql`${t.rrule} IS NOT NULL`),
  ],
);

/** An event shared with one person ('Specific people', and the creator for 'Only me'). */
export const eventShares = sqliteTable(
  "event_shares",
  {
    tenantId: text("tenant_id").notNull(),
    eventId: text("event_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index("event_shares_tenant_user").on(t.tenantId, t.userId)],
);

/** An event shown to the members of a team ('My teams'). */
export const eventTeams = sqliteTable(
  "event_teams",
  {
    tenantId: text("tenant_id").notNull(),
    eventId: text("event_id").notNull(),
    teamId: text("team_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.teamId] }), index("event_teams_tenant_team").on(t.tenantId, t.teamId)],
);

/** One person's calendar preferences: the last view, and their ICS feed token (its SHA-256, hex). */
export const schedulePrefs = sqliteTable(
  "schedule_prefs",
  {
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id").notNull(),
    lastView: text("last_view", { enum: SCHEDULE_VIEWS }).notNull().default("month"),
    feedTokenHash: text("feed_token_hash"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), uniqueIndex("schedule_prefs_feed_token").on(t.feedTokenHash)],
);

/** A file from Files attached to an event; each viewer sees it only while Files lets them see the file. */
export const eventAttachments = sqliteTable(
  "event_attachments",
  {
    tenantId: text("tenant_id").notNull(),
    eventId: text("event_id").notNull(),
    fileId: text("file_id").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.fileId] }), index("event_attachments_tenant_event").on(t.tenantId, t.eventId)],
);
