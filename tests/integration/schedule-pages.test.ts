import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_ROLE_BUNDLES } from "~/features/auth/default-bundles";
import { createTenant, createUser } from "../factories";
import { all, fieldMessage, page, valueOf } from "../factories/html";
import { scheduleStaff, seedCalendar, seedEvent } from "../factories/schedule";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location } from "./http";

const form = (over: Record<string, string | string[]> = {}) => ({
  title: "Slab pour, plot 4",
  startDate: "2026-06-10",
  startTime: "07:30",
  endDate: "2026-06-10",
  endTime: "12:00",
  type: "delivery",
  status: "amber",
  visibility: "org",
  calendarId: "",
  repeat: "none",
  ...over,
});

async function row(id: string) {
  return env.DB.prepare("SELECT * FROM events WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function newestEventOf(tenantId: string) {
  return env.DB.prepare("SELECT * FROM events WHERE tenant_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1")
    .bind(tenantId)
    .first<Record<string, unknown>>();
}

describe("calendar pages by role", () => {
  it("every role with the calendar opens the month view; the module switched off is a 404; signed out goes to sign-in", async () => {
    for (const role of ["standard", "lead", "manager", "admin"] as const) {
      const { t, b } = await scheduleStaff(role);
      const res = await b.get(`${t.origin}/schedule`);
      expect(res.status, role).toBe(200);
      const doc = await page(res);
      expect(doc.querySelector("[data-schedule-view]")?.getAttribute("data-schedule-view")).toBe("month");
      // The new-event page needs schedule.create: standard members have only schedule.view.
      expect((await b.get(`${t.origin}/schedule/new`)).status, role).toBe(role === "standard" ? 403 : 200);
      // The team filter only for the edit-team scope.
      expect(doc.querySelector("select[name=team]") !== null, role).toBe(role !== "standard");
    }
    const off = await createTenant({ modules: [] });
    const u = await createUser(off, { role: "admin" });
    const b = await signedIn(off, u);
    expect((await b.get(`${off.origin}/schedule`)).status).toBe(404);
    const { t } = await scheduleStaff("admin");
    const anon = await (await import("./http")).Browser.prototype.get.call(new (await import("./http")).Browser(), `${t.origin}/schedule`);
    expect(anon.status).toBe(302);
  });

  it("a standard member cannot post a new event, edit or delete (403), nor paste", async () => {
    const { t, u, b } = await scheduleStaff("standard");
    expect((await b.post(`${t.origin}/schedule/new`, form())).status).toBe(403);
    const other = await createUser(t, { role: "admin" });
    const id = await seedEvent(t, { createdBy: other.id, visibility: "org", sharedAll: true });
    expect((await b.get(`${t.origin}/schedule/${id}`)).status).toBe(200);
    expect((await b.post(`${t.origin}/schedule/${id}`, form({ intent: "save" }))).status).toBe(403);
    expect((await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-confirm" })).status).toBe(403);
    expect((await b.post(`${t.origin}/schedule`, { intent: "paste", eventId: id, date: "2026-06-11" })).status).toBe(403);
    expect(await count("events", "tenant_id = ?", t.id)).toBe(1);
    void u;
  });

  it("another tenant's event, and one the person may not see, is a 404 to read, edit, copy or delete", async () => {
    const a = await scheduleStaff("admin");
    const foreign = await seedEvent(a.t, { createdBy: a.u.id, visibility: "org", sharedAll: true });
    const b = await scheduleStaff("admin");
    expect((await b.b.get(`${b.t.origin}/schedule/${foreign}`)).status).toBe(404);
    expect((await b.b.post(`${b.t.origin}/schedule/${foreign}`, form({ intent: "save" }))).status).toBe(404);
    expect((await b.b.post(`${b.t.origin}/schedule/${foreign}`, { intent: "delete-confirm" })).status).toBe(404);
    expect((await b.b.post(`${b.t.origin}/schedule`, { intent: "paste", eventId: foreign, date: "2026-06-11" })).status).toBe(404);
    expect(await row(foreign)).not.toBeNull();
    // Same tenant, private to someone else: a lead does not see it.
    const lead = await createUser(a.t, { role: "lead" });
    const lb = await signedIn(a.t, lead);
    const mine = await seedEvent(a.t, { createdBy: a.u.id, shares: [a.u.id] });
    expect((await lb.get(`${a.t.origin}/schedule/${mine}`)).status).toBe(404);
    expect((await lb.post(`${a.t.origin}/schedule/${mine}`, { intent: "delete-confirm" })).status).toBe(404);
  });
});

describe("creating and editing events", () => {
  it("opens a new event with the defaults: one hour from 09:00 on the chosen day, shift, On Track, Only me, Personal Calendar", async () => {
    const { t, b } = await scheduleStaff("lead");
    const doc = await page(await b.get(`${t.origin}/schedule/new?date=2026-03-29`));
    expect(valueOf(doc, "startDate")).toBe("2026-03-29");
    expect(valueOf(doc, "startTime")).toBe("09:00");
    expect(valueOf(doc, "endDate")).toBe("2026-03-29");
    expect(valueOf(doc, "endTime")).toBe("10:00");
    expect(valueOf(doc, "type")).toBe("shift");
    expect(valueOf(doc, "status")).toBe("green");
    expect(valueOf(doc, "visibility")).toBe("private");
    expect(valueOf(doc, "calendarId")).toBe("");
    expect(doc.querySelector("h1")?.textContent).toBe("New Event");
  });

  it("refuses a missing title and an end before the start, next to the fields, keeping what was typed", async () => {
    const { t, b } = await scheduleStaff("lead");
    const res = await b.post(`${t.origin}/schedule/new`, form({ title: "  ", endTime: "07:00" }));
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(fieldMessage(doc, "title")).toBe("Title is required");
    expect(fieldMessage(doc, "endTime")).toBe("The end must be after the start");
    expect(valueOf(doc, "startTime")).toBe("07:30");
    expect(valueOf(doc, "type")).toBe("delivery");
    expect(await count("events", "tenant_id = ?", t.id)).toBe(0);
  });

  it("refuses a start or end in the hour the clocks skip, next to the field, keeping what was typed; the hour that happens twice is saved", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    // Sunday 29 March 2026: London's clocks go from 01:00 GMT to 02:00 BST, so 01:30 never happens.
    const spring = { startDate: "2026-03-29", endDate: "2026-03-29" };
    const start = await b.post(`${t.origin}/schedule/new`, form({ ...spring, startTime: "01:30", endTime: "03:00" }));
    expect(start.status).toBe(400);
    const doc = await page(start);
    expect(fieldMessage(doc, "startTime")).toBe(
      "01:30 does not exist on 29 March 2026: the clocks go forward from 01:00 to 02:00. Enter a time before 01:00 or from 02:00",
    );
    expect(valueOf(doc, "startTime")).toBe("01:30");
    expect(valueOf(doc, "title")).toBe("Slab pour, plot 4");
    const end = await b.post(`${t.origin}/schedule/new`, form({ ...spring, startTime: "00:15", endTime: "01:00" }));
    expect(end.status).toBe(400);
    expect(fieldMessage(await page(end), "endTime")).toBe(
      "01:00 does not exist on 29 March 2026: the clocks go forward from 01:00 to 02:00. Enter a time before 01:00 or from 02:00",
    );
    expect(await count("events", "tenant_id = ?", t.id)).toBe(0);
    // An edit is held to it as well.
    const id = await seedEvent(t, { createdBy: u.id, shares: [u.id] });
    const edit = await b.post(`${t.origin}/schedule/${id}`, form({ ...spring, startTime: "01:45", endTime: "04:00", intent: "save" }));
    expect(edit.status).toBe(400);
    expect(fieldMessage(await page(edit), "startTime")).toMatch(/^01:45 does not exist on 29 March 2026/);
    // 00:59 and 02:00 exist; on 25 October 01:30 happens twice and is saved (the second, GMT).
    expect((await b.post(`${t.origin}/schedule/new`, form({ ...spring, startTime: "00:45", endTime: "02:00" }))).status).toBe(302);
    const autumn = await b.post(`${t.origin}/schedule/new`, form({ startDate: "2026-10-25", endDate: "2026-10-25", startTime: "01:30", endTime: "02:30" }));
    expect(autumn.status).toBe(302);
    expect((await newestEventOf(t.id))!.start_utc).toBe(Date.UTC(2026, 9, 25, 1, 30));
  });

  it("creates an event with its audit entry in one batch, shows it in the views, and maps visibility to sharing", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const res = await b.post(`${t.origin}/schedule/new`, form());
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/schedule?view=day&date=2026-06-10");
    const ev = (await newestEventOf(t.id))!;
    // 07:30 in London in June is 06:30 UTC.
    expect(ev).toMatchObject({
      title: "Slab pour, plot 4",
      start_utc: Date.UTC(2026, 5, 10, 6, 30),
      end_utc: Date.UTC(2026, 5, 10, 11),
      type: "delivery",
      status: "amber",
      visibility: "org",
      shared_all: 1,
      created_by: u.id,
    });
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.created' AND target_id = ?", t.id, ev.id)).toBe(1);
    for (const view of ["day", "week", "month"]) {
      const doc = await page(await b.get(`${t.origin}/schedule?view=${view}&date=2026-06-10`));
      expect(all(doc, `[data-event="${ev.id}"]`).length, view).toBe(1);
    }
    const year = await page(await b.get(`${t.origin}/schedule?view=year&date=2026-06-10`));
    expect(year.querySelector('a[aria-label="Wednesday 10 June 2026, 1 event"]')).not.toBeNull();

    // Specific people: shared with exactly them; Only me: with the author.
    const colleague = await createUser(t);
    await b.post(`${t.origin}/schedule/new`, form({ title: "Site visit", visibility: "users", users: [colleague.id] }));
    const shared = (await newestEventOf(t.id))!;
    expect((await env.DB.prepare("SELECT user_id FROM event_shares WHERE event_id = ?").bind(shared.id).all()).results).toEqual([{ user_id: colleague.id }]);
    expect(shared.shared_all).toBe(0);
    // A person of another tenant cannot be chosen.
    const t2 = await createTenant();
    const stranger = await createUser(t2);
    const refused = await b.post(`${t.origin}/schedule/new`, form({ title: "Leak", visibility: "users", users: [stranger.id] }));
    expect(refused.status).toBe(400);
    expect(fieldMessage(await page(refused), "users")).toBe("Choose people from the list");
  });

  it("edits an event (moving it to another day) and deletes it only after confirmation, each with its audit entry", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const id = await seedEvent(t, { createdBy: u.id, shares: [u.id], title: "Scaffold inspection" });
    const moved = await b.post(
      `${t.origin}/schedule/${id}`,
      form({ intent: "save", title: "Scaffold inspection", startDate: "2026-06-12", endDate: "2026-06-12", visibility: "private" }),
    );
    expect(moved.status).toBe(302);
    expect(await row(id)).toMatchObject({ start_utc: Date.UTC(2026, 5, 12, 6, 30), visibility: "private", shared_all: 0 });
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.updated' AND target_id = ?", t.id, id)).toBe(1);
    const ask = await b.post(`${t.origin}/schedule/${id}`, { intent: "delete" });
    expect(ask.status).toBe(200);
    expect((await page(ask)).querySelector("#delete-title")?.textContent).toBe("Delete this event?");
    expect(await row(id)).not.toBeNull();
    const del = await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-confirm" });
    expect(del.status).toBe(302);
    expect(await row(id)).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.deleted' AND target_id = ?", t.id, id)).toBe(1);
  });

  it("a lead may not change someone else's event they can see (403); an administrator may", async () => {
    const { t, b } = await scheduleStaff("lead");
    const other = await createUser(t, { role: "lead" });
    const id = await seedEvent(t, { createdBy: other.id, visibility: "org", sharedAll: true });
    expect((await b.post(`${t.origin}/schedule/${id}`, form({ intent: "save" }))).status).toBe(403);
    const admin = await createUser(t, { role: "admin" });
    const ab = await signedIn(t, admin);
    expect((await ab.post(`${t.origin}/schedule/${id}`, form({ intent: "save", title: "Renamed" }))).status).toBe(302);
    expect((await row(id))!.title).toBe("Renamed");
  });

  it("copies an event and pastes it on another day at the same London time, with the toasts' messages", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    // 07:00 London on 20 March (GMT) is 07:00 UTC; pasted after the clock change (BST) it is 06:00 UTC.
    const id = await seedEvent(t, {
      createdBy: u.id,
      shares: [u.id],
      title: "Toolbox talk",
      start: Date.UTC(2026, 2, 20, 7),
      end: Date.UTC(2026, 2, 20, 7, 30),
      type: "training",
    });
    const copy = await b.post(`${t.origin}/schedule/${id}`, { intent: "copy" });
    expect(copy.status).toBe(302);
    expect(location(copy)).toBe(`/schedule?view=month&date=2026-03-20&copy=${id}`);
    const month = await page(await b.follow(copy, `${t.origin}/schedule/${id}`));
    expect(month.body.textContent).toContain("Double-click on a day to paste this event");
    expect(all(month, "form[action='/schedule'] input[name=intent][value=paste]").length).toBeGreaterThan(27);
    const paste = await b.post(`${t.origin}/schedule`, { intent: "paste", eventId: id, date: "2026-04-02" });
    expect(paste.status).toBe(302);
    const pasted = (await newestEventOf(t.id))!;
    expect(pasted).toMatchObject({ title: "Toolbox talk", start_utc: Date.UTC(2026, 3, 2, 6), end_utc: Date.UTC(2026, 3, 2, 6, 30), type: "training" });
    expect((await page(await b.follow(paste, `${t.origin}/schedule`))).body.textContent).toContain("Event has been pasted to the selected date.");
  });
});

describe("calendar views", () => {
  it("steps Prev / Next by one unit of the view and remembers the last view per person", async () => {
    const { t, b } = await scheduleStaff("lead");
    const week = await page(await b.get(`${t.origin}/schedule?view=week&date=2026-10-21`));
    expect(week.querySelector("[data-nav=prev]")?.getAttribute("href")).toBe("/schedule?view=week&date=2026-10-14");
    expect(week.querySelector("[data-nav=next]")?.getAttribute("href")).toBe("/schedule?view=week&date=2026-10-28");
    const month = await page(await b.get(`${t.origin}/schedule?view=month&date=2026-01-31`));
    expect(month.querySelector("[data-nav=next]")?.getAttribute("href")).toBe("/schedule?view=month&date=2026-02-01");
    const day = await page(await b.get(`${t.origin}/schedule?view=day&date=2026-03-01`));
    expect(day.querySelector("[data-nav=prev]")?.getAttribute("href")).toBe("/schedule?view=day&date=2026-02-28");
    expect(day.querySelector("[data-hours]")?.getAttribute("href")).toBe("/schedule?view=day&date=2026-03-01&hours=24h");
    // The last view asked for (day) is the one shown when the address names none.
    const again = await page(await b.get(`${t.origin}/schedule?date=2026-03-01`));
    expect(again.querySelector("[data-schedule-view]")?.getAttribute("data-schedule-view")).toBe("day");
  });

  it("shows events at their London times across both clock changes, and a night shift on both of its days", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    // Sunday 29 March 2026: clocks go forward at 01:00 UTC. 08:00 UTC is 09:00 BST.
    await seedEvent(t, { createdBy: u.id, title: "Spring shift", start: Date.UTC(2026, 2, 29, 8), end: Date.UTC(2026, 2, 29, 9) });
    // Sunday 25 October 2026: clocks go back at 01:00 UTC. 09:00 UTC is 09:00 GMT.
    await seedEvent(t, { createdBy: u.id, title: "Autumn shift", start: Date.UTC(2026, 9, 25, 9), end: Date.UTC(2026, 9, 25, 10) });
    // 23:30 BST on 24 October to 01:30 GMT on 25 October (three hours).
    await seedEvent(t, { createdBy: u.id, title: "Night works", start: Date.UTC(2026, 9, 24, 22, 30), end: Date.UTC(2026, 9, 25, 1, 30) });
    const spring = await page(await b.get(`${t.origin}/schedule?view=week&date=2026-03-29`));
    expect(spring.body.textContent).toContain("09:00 Spring shift");
    const autumn = await page(await b.get(`${t.origin}/schedule?view=week&date=2026-10-25`));
    expect(autumn.body.textContent).toContain("09:00 Autumn shift");
    expect(autumn.body.textContent).toContain("23:30 Night works");
    const sunday = await page(await b.get(`${t.origin}/schedule?view=day&date=2026-10-25&hours=24h`));
    expect(sunday.body.textContent).toContain("Night works");
    expect(sunday.body.textContent).toContain("09:00 Autumn shift");
    // The form shows the stored instant as London time, and saving it back keeps it.
    const ev = await env.DB.prepare("SELECT id FROM events WHERE title = 'Spring shift' AND tenant_id = ?").bind(t.id).first<{ id: string }>();
    const doc = await page(await b.get(`${t.origin}/schedule/${ev!.id}`));
    expect(valueOf(doc, "startTime")).toBe("09:00");
    expect(valueOf(doc, "startDate")).toBe("2026-03-29");
  });

  it("filters by calendar, type and user, and lists to a member only the calendars they belong to", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const other = await createUser(t);
    const mine = await seedCalendar(t, "Plant hire", [u.id]);
    await seedCalendar(t, "Directors", [other.id]);
    const a = await seedEvent(t, { createdBy: u.id, calendarId: mine, type: "delivery", title: "Crane" });
    const c = await seedEvent(t, { createdBy: other.id, visibility: "org", sharedAll: true, type: "meeting", title: "Weekly" });
    const base = `${t.origin}/schedule?view=month&date=2026-06-10`;
    const ids = async (q: string) => all(await page(await b.get(`${base}${q}`)), "[data-event]").map((e) => e.getAttribute("data-event"));
    expect((await ids("")).sort()).toEqual([a, c].sort());
    expect(await ids(`&cal=${mine}`)).toEqual([a]);
    expect(await ids("&cal=personal")).toEqual([c]);
    expect(await ids("&type=meeting")).toEqual([c]);
    expect(await ids(`&user=${other.id}`)).toEqual([c]);
    const doc = await page(await b.get(base));
    const calOptions = all(doc, "select[name=cal] option").map((o) => o.textContent);
    expect(calOptions).toEqual(["All calendars", "Personal Calendar", "Plant hire"]);
  });

  it("lists every person under User in a small team; with many, the chosen one and those whose name holds a search", async () => {
    const { t, u, b } = await scheduleStaff("admin");
    const small = await page(await b.get(`${t.origin}/schedule?view=month&date=2026-06-10`));
    expect(all(small, "select[name=user] option").length).toBe(2);
    expect(small.querySelector("input[name=who]")).toBeNull();
    const crew = [];
    for (let i = 0; i < 30; i++) crew.push(await createUser(t));
    const name = (id: string, n: string) => env.DB.prepare("UPDATE users SET display_name = ? WHERE id = ?").bind(n, id).run();
    for (const [i, p] of crew.entries()) await name(p.id, `Crew member ${String(i).padStart(2, "0")}`);
    await name(crew[3]!.id, "Dana Smith");
    await name(crew[7]!.id, "Sam Smithson");
    await name(crew[9]!.id, "Pat 100% Jones");
    const dana = await seedEvent(t, { createdBy: crew[3]!.id, visibility: "org", sharedAll: true, title: "Dana's delivery" });
    await seedEvent(t, { createdBy: u.id, visibility: "org", sharedAll: true, title: "Mine" });
    const base = `${t.origin}/schedule?view=month&date=2026-06-10`;
    const options = (doc: Document) => all(doc, "select[name=user] option").map((o) => o.textContent);
    // 31 people: none listed until a search, which the form offers.
    const plain = await page(await b.get(base));
    expect(options(plain)).toEqual(["All users"]);
    expect(plain.querySelector("input[name=who]")).not.toBeNull();
    const found = await page(await b.get(`${base}&who=smith`));
    expect(options(found)).toEqual(["All users", "Dana Smith", "Sam Smithson"]);
    expect((found.querySelector("input[name=who]") as HTMLInputElement).getAttribute("value")).toBe("smith");
    expect(found.body.textContent).toContain("The people whose name holds \u201csmith\u201d are listed under User.");
    // Links of the view leave the search behind, keeping the filters.
    expect(found.querySelector("[data-nav=next]")?.getAttribute("href")).toBe("/schedule?view=month&date=2026-07-01");
    // The chosen person stays listed (first) with or without a search, and filters the view.
    const chosen = await page(await b.get(`${base}&user=${crew[3]!.id}`));
    expect(options(chosen)).toEqual(["All users", "Dana Smith"]);
    expect(chosen.querySelector("select[name=user] option[selected]")?.textContent).toBe("Dana Smith");
    expect(all(chosen, "[data-event]").map((e) => e.getAttribute("data-event"))).toEqual([dana]);
    expect(options(await page(await b.get(`${base}&user=${crew[3]!.id}&who=jones`)))).toEqual(["All users", "Dana Smith", "Pat 100% Jones"]);
    // % and _ are letters in a search, not wildcards.
    expect(options(await page(await b.get(`${base}&who=100%25`)))).toEqual(["All users", "Pat 100% Jones"]);
    const none = await page(await b.get(`${base}&who=${encodeURIComponent("1_0")}`));
    expect(options(none)).toEqual(["All users"]);
    expect(none.body.textContent).toContain("No one else's name holds \u201c1_0\u201d.");
    // A search matching more than 25 lists 25 and says so.
    const many = await page(await b.get(`${base}&who=crew`));
    expect(options(many).length).toBe(26);
    expect(many.body.textContent).toContain("type more of the name");
  });

  it("saves a weekly series on chosen weekdays with a count as an RRULE and shows each occurrence in its week", async () => {
    const { t, b } = await scheduleStaff("lead");
    const res = await b.post(
      `${t.origin}/schedule/new`,
      form({
        title: "Concrete gang",
        visibility: "private",
        startDate: "2026-03-23",
        endDate: "2026-03-23",
        repeat: "weekly",
        repeatDays: ["0", "2", "4"],
        repeatCount: "6",
      }),
    );
    expect(res.status).toBe(302);
    const ev = (await newestEventOf(t.id))!;
    expect(ev.rrule).toBe("FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=6");
    // Six occurrences: 23, 25, 27 March and 30 March, 1, 3 April; the last ends at 12:00 BST.
    expect(ev.repeat_until).toBe(Date.UTC(2026, 3, 3, 11));
    const ids = async (date: string) => all(await page(await b.get(`${t.origin}/schedule?view=week&date=${date}`)), `[data-event="${ev.id}"]`).length;
    expect(await ids("2026-03-23")).toBe(3);
    expect(await ids("2026-03-30")).toBe(3);
    expect(await ids("2026-04-06")).toBe(0);
    const after = await page(await b.get(`${t.origin}/schedule?view=day&date=2026-04-01`));
    expect(after.body.textContent).toContain("07:30 Concrete gang");
    const edit = await page(await b.get(`${t.origin}/schedule/${ev.id}`));
    expect(valueOf(edit, "repeat")).toBe("weekly");
    expect(valueOf(edit, "repeatCount")).toBe("6");
  });

  it("shows the CIS statements, return and payment deadlines as read-only events to those who act on them, in tenants with CIS on", async () => {
    // A manager here may issue statements but not compile or submit returns.
    const manager = DEFAULT_ROLE_BUNDLES.manager.filter((s) => !["cis.ret.compile", "cis.submit", "cis.approve"].includes(s));
    const t = await createTenant({ modules: ["schedule", "cis"], bundles: { manager } });
    const admin = await createUser(t, { role: "admin" });
    const ab = await signedIn(t, admin);
    const june = await page(await ab.get(`${t.origin}/schedule?view=month&date=2026-06-10`));
    const deadlines = all(june, "[data-read-only]").map((e) => [e.getAttribute("data-read-only"), e.getAttribute("href")]);
    expect(deadlines).toEqual([
      ["cis-filing-2026-05", "/cis/returns?month=2026-05"],
      ["cis-statements-2026-05", "/cis/statements?month=2026-05"],
      ["cis-payment-2026-05", "/cis/returns?month=2026-05"],
    ]);
    const day = await page(await ab.get(`${t.origin}/schedule?view=day&date=2026-06-19`));
    expect(day.body.textContent).toContain("CIS300 return due (6 May to 5 June 2026)");
    // Statements are due 14 days after the tax month ends: the 19th, the return's day.
    expect(day.body.textContent).toContain("Payment and deduction statements due (6 May to 5 June 2026)");
    const issuer = await signedIn(t, await createUser(t, { role: "manager" }));
    const issuerJune = await page(await issuer.get(`${t.origin}/schedule?view=month&date=2026-06-10`));
    expect(all(issuerJune, "[data-read-only]").map((e) => e.getAttribute("data-read-only"))).toEqual(["cis-statements-2026-05"]);
    // Not for someone who only reads CIS, nor where CIS is off, nor in a filtered view.
    const reader = await signedIn(t, await createUser(t, { role: "standard" }));
    expect(all(await page(await reader.get(`${t.origin}/schedule?view=month&date=2026-06-10`)), "[data-read-only]")).toHaveLength(0);
    expect(all(await page(await ab.get(`${t.origin}/schedule?view=month&date=2026-06-10&cal=personal`)), "[data-read-only]")).toHaveLength(0);
    const { t: noCis, b } = await scheduleStaff("admin");
    expect(all(await page(await b.get(`${noCis.origin}/schedule?view=month&date=2026-06-10`)), "[data-read-only]")).toHaveLength(0);
  });

  it("lays the week out as a time grid: each event in its day's column and its starting hour's row, its whole title unclipped", async () => {
    const { t, u, b } = await scheduleStaff("lead");
    const title = "Scaffold inspection and handover to the roofing subcontractor";
    // Wednesday 10 June 2026 at 06:00 London (05:00 UTC): the grid widens from 07:00 to 06:00.
    const id = await seedEvent(t, { createdBy: u.id, title, start: Date.UTC(2026, 5, 10, 5), end: Date.UTC(2026, 5, 10, 6) });
    const week = await page(await b.get(`${t.origin}/schedule?view=week&date=2026-06-10`));
    const chip = week.querySelector(`[data-event="${id}"]`)!;
    expect(chip.textContent).toContain(title);
    expect(chip.querySelector(".truncate")).toBeNull();
    const cell = chip.closest("ul")!;
    // Column 1 holds the hours; Monday is column 2, so Wednesday is 4. Rows: 1 the days, 2 continuing events, 3 the first hour (06:00).
    expect(cell.getAttribute("style")).toContain("grid-column:4");
    expect(cell.getAttribute("style")).toContain("grid-row:3");
    const labels = [...week.querySelectorAll("[data-week-grid] > div[aria-hidden]")].map((d) => d.textContent);
    expect(labels[0]).toBe("06:00");
    expect(labels.at(-1)).toBe("17:00");
  });
});
