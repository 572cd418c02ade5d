import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { all, fieldMessage, page, valueOf } from "../factories/html";
import { scheduleStaff, seedEvent, seedTeam } from "../factories/schedule";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";
import { loaderDataBytes, rowsRead } from "./page-costs";

/**
 * A view reads the events overlapping its days, not every event from the tenant's first one: single
 * events by their start (bounded below by the longest an event may last), series by their own
 * bounds, and events longer than that cap (saved before it existed) through an index of their own.
 * The month and year views send what their cells show, so their data and the rows they read stay
 * within a budget however many events the tenant has.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * `n` events written by SQLite itself over 1,095 days from `from` (1 January 2025 unless given): about `n / 1095` a day
 * between 06:00 and 18:00 UTC, one or three hours long, one in 25 a weekly series of 12, shared
 * with everyone.
 */
async function seedMany(tenantId: string, createdBy: string, n: number, from = Date.UTC(2025, 0, 1)) {
  const start = `(${from} + (i % 1095) * ${DAY} + (6 + i % 12) * ${HOUR})`;
  await env.DB.prepare(
    `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
     INSERT INTO events (id, tenant_id, title, start_utc, end_utc, type, status, visibility, shared_all, rrule, repeat_until, created_by, created_at, updated_at)
     SELECT 'evt_many_' || ?1 || '_' || i, ?1, 'Crew ' || i || ' on plot ' || (i % 40), ${start}, ${start} + (1 + i % 3) * ${HOUR},
       'shift', 'green', 'org', 1,
       CASE WHEN i % 25 = 0 THEN 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12' END,
       CASE WHEN i % 25 = 0 THEN ${start} + (1 + i % 3) * ${HOUR} + 28 * ${DAY} END,
       ?3, 0, 0 FROM s`,
  )
    .bind(tenantId, n, createdBy)
    .run();
}

describe("a view's range", () => {
  it("shows events that started before the view and end inside it, in the day, week, month and year views", async () => {
    const { t, u, b } = await scheduleStaff("admin");
    // Wednesday 1 April 2026. A night shift from the evening before (London, BST).
    const night = await seedEvent(t, { createdBy: u.id, title: "Night shift", start: Date.UTC(2026, 2, 31, 21), end: Date.UTC(2026, 3, 1, 5) });
    // Plant on hire for 20 days, and for the longest an event may last (31 days), ending on 1 April.
    const hire = await seedEvent(t, { createdBy: u.id, title: "Plant hire", start: Date.UTC(2026, 2, 12, 8), end: Date.UTC(2026, 3, 1, 8) });
    const longest = await seedEvent(t, { createdBy: u.id, title: "Site set-up", start: Date.UTC(2026, 2, 1, 10), end: Date.UTC(2026, 3, 1, 10) });
    // Saved before events had a longest length: 99 days, still shown.
    const legacy = await seedEvent(t, { createdBy: u.id, title: "Compound", start: Date.UTC(2025, 11, 23, 9), end: Date.UTC(2026, 3, 1, 9) });
    // A weekly series begun a year before, repeating for ever (Wednesdays).
    const series = await seedEvent(t, {
      createdBy: u.id,
      title: "Toolbox talk",
      start: Date.UTC(2025, 3, 2, 7),
      end: Date.UTC(2025, 3, 2, 8),
      rrule: "FREQ=WEEKLY",
      repeatUntil: null,
    });
    // Ended before the view, and starting after it: in none of them.
    const before = await seedEvent(t, { createdBy: u.id, title: "Earlier", start: Date.UTC(2026, 2, 30, 8), end: Date.UTC(2026, 2, 30, 9) });
    const after = await seedEvent(t, { createdBy: u.id, title: "Later", start: Date.UTC(2026, 3, 2, 8), end: Date.UTC(2026, 3, 2, 9) });
    const shown = [night, hire, longest, legacy, series];
    const ids = async (view: string) =>
      new Set(all(await page(await b.get(`${t.origin}/schedule?view=${view}&date=2026-04-01`)), "[data-event]").map((e) => e.getAttribute("data-event")));
    const day = await ids("day");
    expect(
      shown.filter((id) => !day.has(id)),
      "day view",
    ).toEqual([]);
    expect(day.has(before) || day.has(after)).toBe(false);
    const week = await ids("week");
    expect(
      [...shown, before, after].filter((id) => !week.has(id)),
      "week view",
    ).toEqual([]);
    // The month view shows three events a day and "+N more": the 1st of April's five are counted.
    const month = await page(await b.get(`${t.origin}/schedule?view=month&date=2026-04-01`));
    expect(all(month, "a[aria-label^='Wednesday 1 April 2026']")[0]?.getAttribute("aria-label")).toBe("Wednesday 1 April 2026, 5 events");
    expect(all(month, "[data-event]").some((e) => e.getAttribute("data-event") === legacy)).toBe(true);
    const year = await page(await b.get(`${t.origin}/schedule?view=year&date=2026-04-01`));
    const yearDay = (d: string) => all(year, `a[aria-label^='${d}']`)[0]?.getAttribute("aria-label");
    expect(yearDay("Wednesday 1 April 2026")).toBe("Wednesday 1 April 2026, 5 events");
    // The legacy event is counted on each London day it spans, from 1 January in this year's view.
    expect(yearDay("Thursday 1 January 2026")).toBe("Thursday 1 January 2026, 1 event");
    expect(yearDay("Thursday 2 April 2026")).toBe("Thursday 2 April 2026, 1 event");
    // The address names no view: the stored one (year) is chosen in SQL, counts and all.
    const stored = await page(await b.get(`${t.origin}/schedule?date=2026-04-01`));
    expect(stored.querySelector("[data-schedule-view]")?.getAttribute("data-schedule-view")).toBe("year");
    expect(all(stored, "a[aria-label^='Wednesday 1 April 2026']")[0]?.getAttribute("aria-label")).toBe("Wednesday 1 April 2026, 5 events");
    await b.get(`${t.origin}/schedule?view=month&date=2026-04-01`);
    const storedMonth = await page(await b.get(`${t.origin}/schedule?date=2026-04-01`));
    expect(all(storedMonth, "a[aria-label^='Wednesday 1 April 2026']")[0]?.getAttribute("aria-label")).toBe("Wednesday 1 April 2026, 5 events");
    expect(all(storedMonth, "[data-event]").length).toBeGreaterThan(0);
  });

  it("reads about the events in range, not the tenant's whole history, and keeps month and year data within a budget", { timeout: 120_000 }, async () => {
    const { t, u, b } = await scheduleStaff("admin");
    await seedMany(t.id, u.id, 6_000);
    const figures: string[] = [];
    // About 5.5 events a day: a month view's 42 days hold about 230, plus the series still running.
    const budgets: [string, number][] = [
      ["/schedule?view=day&date=2026-03-18", 400],
      ["/schedule?view=week&date=2026-03-18", 450],
      ["/schedule?view=month&date=2026-03-18", 800],
      // The last of the three years: 2,000 single events, counted by day in SQL (its grouping reads
      // each row twice), and the series still running; the whole history is 6,000.
      ["/schedule?view=year&date=2027-03-18", 5_000],
    ];
    const over: string[] = [];
    for (const [path, ceiling] of budgets) {
      const res = await b.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(200);
      await res.text();
      const rows = rowsRead(res);
      figures.push(`${path}: ${rows} rows read (ceiling ${ceiling})`);
      if (rows > ceiling) over.push(`${path}: ${rows} rows read, ceiling ${ceiling}`);
    }
    const month = await loaderDataBytes(b, t.origin, "/schedule?view=month&date=2026-03-18");
    const year = await loaderDataBytes(b, t.origin, "/schedule?view=year&date=2027-03-18");
    figures.push(`month loader data ${month} bytes, year ${year} bytes`);
    console.log(figures.join("\n"));
    expect(over).toEqual([]);
    // A month cell holds three events and a count; the year view a count a day.
    expect(month, "month view loader data").toBeLessThan(32 * 1024);
    expect(year, "year view loader data").toBeLessThan(20 * 1024);
  });
});

describe("an event's page", () => {
  it("reads the event's own shares and teams, not every share in the tenant", { timeout: 120_000 }, async () => {
    const { t, u, b } = await scheduleStaff("admin");
    await seedMany(t.id, u.id, 6_000);
    const team = await seedTeam(t, "Groundworks", [u.id]);
    // Every event shared with its author and shown to a team, as saving 'Only me' and 'My teams' writes them.
    await env.DB.prepare("INSERT INTO event_shares (tenant_id, event_id, user_id) SELECT tenant_id, id, created_by FROM events WHERE tenant_id = ?1")
      .bind(t.id)
      .run();
    await env.DB.prepare("INSERT INTO event_teams (tenant_id, event_id, team_id) SELECT tenant_id, id, ?2 FROM events WHERE tenant_id = ?1")
      .bind(t.id, team)
      .run();
    const res = await b.get(`${t.origin}/schedule/evt_many_${t.id}_3000`);
    expect(res.status).toBe(200);
    await res.text();
    const rows = rowsRead(res);
    console.log(`event page over 6,000 events with their shares and teams: ${rows} rows read`);
    // Read through the (tenant, person) and (tenant, team) indexes, the shares and teams were every one of the tenant's (12,000).
    expect(rows).toBeLessThan(200);
  });
});

describe("the ICS feed's window", () => {
  it("reads the events of its window (60 days back, 400 ahead), not the tenant's whole history", { timeout: 120_000 }, async () => {
    const { t, u, b } = await scheduleStaff("standard");
    const now = Date.now();
    // Three years of history that ended before the window: 6,000 events, the feed shows none of them.
    await seedMany(t.id, u.id, 6_000, now - 4 * 365 * DAY);
    const title = (n: string, start: number, end: number, more: Partial<Parameters<typeof seedEvent>[1]> = {}) =>
      seedEvent(t, { createdBy: u.id, shares: [u.id], title: n, start, end, ...more });
    await title("Night shift", now + 2 * DAY, now + 2 * DAY + 8 * HOUR);
    await title("Plant hire", now - 70 * DAY, now - 45 * DAY);
    await title("Compound", now - 200 * DAY, now - 50 * DAY);
    await title("Toolbox talk", now - 365 * DAY, now - 365 * DAY + HOUR, { rrule: "FREQ=MONTHLY", repeatUntil: null });
    await title("Ended series", now - 400 * DAY, now - 400 * DAY + HOUR, { rrule: "FREQ=WEEKLY;COUNT=3", repeatUntil: now - 385 * DAY });
    await title("Next year", now + 420 * DAY, now + 420 * DAY + HOUR);
    const res = await b.post(`${t.origin}/schedule/subscribe`, { intent: "create" });
    const url = (await page(res)).querySelector("[data-feed-url]")?.textContent ?? "";
    const feed = await new Browser().get(url);
    expect(feed.status).toBe(200);
    const text = await feed.text();
    const summaries = [...text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1]);
    const shown = new Set(summaries);
    expect([...shown].sort()).toEqual(["Compound", "Night shift", "Plant hire", "Toolbox talk"]);
    // A monthly series over 460 days: 15 or 16 occurrences.
    expect(summaries.filter((s) => s === "Toolbox talk").length).toBeGreaterThanOrEqual(15);
    const rows = rowsRead(feed);
    console.log(`ICS feed over 6,000 earlier events: ${rows} rows read`);
    // The clause it had (start before the window's end, end after its start) walked the (tenant,
    // start) index from the tenant's first event: all 6,006 rows.
    expect(rows).toBeLessThan(300);
  });
});

describe("the longest an event may last", () => {
  const form = (over: Record<string, string>) => ({
    title: "Crane on hire",
    startDate: "2026-03-01",
    startTime: "08:00",
    endDate: "2026-04-01",
    endTime: "08:00",
    type: "delivery",
    status: "green",
    visibility: "org",
    calendarId: "",
    repeat: "none",
    ...over,
  });

  it("refuses an event over 31 days next to the end date, keeping what was typed; 31 days is saved", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    // 08:00 GMT on 1 March to 09:15 BST on 1 April: 31 days and a quarter of an hour.
    const refused = await b.post(`${t.origin}/schedule/new`, form({ endTime: "09:15" }));
    expect(refused.status).toBe(400);
    const doc = await page(refused);
    expect(fieldMessage(doc, "endDate")).toBe("The end must be no more than 31 days after the start");
    expect(valueOf(doc, "endTime")).toBe("09:15");
    expect(valueOf(doc, "title")).toBe("Crane on hire");
    expect(await count("events", "tenant_id = ?", t.id)).toBe(0);
    // 08:00 GMT on 1 March to 09:00 BST on 1 April is exactly 31 days: saved.
    expect((await b.post(`${t.origin}/schedule/new`, form({ endTime: "09:00" }))).status).toBe(302);
    expect(await count("events", "tenant_id = ?", t.id)).toBe(1);
    // An edit is held to it as well.
    const id = await seedEvent(t, { createdBy: u.id, shares: [u.id] });
    const edit = await b.post(`${t.origin}/schedule/${id}`, { ...form({ endDate: "2026-05-01" }), intent: "save" });
    expect(edit.status).toBe(400);
    expect(fieldMessage(await page(edit), "endDate")).toBe("The end must be no more than 31 days after the start");
  });

  it("refuses to paste a copy of an event saved before the limit that lasts longer, with a toast that says why", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const legacy = await seedEvent(t, { createdBy: u.id, shares: [u.id], title: "Compound", start: Date.UTC(2025, 11, 23, 9), end: Date.UTC(2026, 3, 1, 9) });
    const before = await count("events", "tenant_id = ?", t.id);
    const audits = await count("audit_events", "tenant_id = ?", t.id);
    const paste = await b.post(`${t.origin}/schedule`, { intent: "paste", eventId: legacy, date: "2026-06-02" });
    expect(paste.status).toBe(302);
    expect(location(paste)).toBe("/schedule?view=month&date=2026-06-02");
    const next = await page(await b.follow(paste, `${t.origin}/schedule`));
    expect(next.body.textContent).toContain("Event not pasted");
    expect(next.body.textContent).toContain("It lasts more than 31 days, longer than an event may last: make it shorter or a series, then copy it again.");
    expect(await count("events", "tenant_id = ?", t.id)).toBe(before);
    expect(await count("audit_events", "tenant_id = ?", t.id)).toBe(audits);
    // A copy starting at 01:30 is not pasted on the day the clocks go forward (01:30 never happens).
    const early = await seedEvent(t, {
      createdBy: u.id,
      shares: [u.id],
      title: "Night pour",
      start: Date.UTC(2026, 2, 20, 1, 30),
      end: Date.UTC(2026, 2, 20, 3),
    });
    const skipped = await b.post(`${t.origin}/schedule`, { intent: "paste", eventId: early, date: "2026-03-29" });
    expect(location(skipped)).toBe("/schedule?view=month&date=2026-03-29");
    expect((await page(await b.follow(skipped, `${t.origin}/schedule`))).body.textContent).toContain(
      "It starts between 01:00 and 02:00, and on that day the clocks go forward from 01:00 to 02:00: paste it on another day.",
    );
    expect(await count("events", "tenant_id = ?", t.id)).toBe(before + 1);
    // 31 days exactly is still pasted.
    const longest = await seedEvent(t, {
      createdBy: u.id,
      shares: [u.id],
      title: "Site set-up",
      start: Date.UTC(2026, 2, 1, 10),
      end: Date.UTC(2026, 3, 1, 10),
    });
    expect((await b.post(`${t.origin}/schedule`, { intent: "paste", eventId: longest, date: "2026-06-02" })).status).toBe(302);
    expect(await count("events", "tenant_id = ?", t.id)).toBe(before + 3);
  });
});
