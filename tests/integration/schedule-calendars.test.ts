import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../factories";
import { all, fieldMessage, page, valueOf } from "../factories/html";
import { scheduleStaff, seedCalendar, seedEvent } from "../factories/schedule";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";

describe("calendars", () => {
  it("a manager creates a calendar with members, who then list it and see its events; others do not", async () => {
    const { t, b } = await scheduleStaff("manager");
    const member = await createUser(t);
    const outsider = await createUser(t);
    const bad = await b.post(`${t.origin}/schedule/calendars`, { intent: "create", name: " ", color: "#3B82F6", type: "project", members: [member.id] });
    expect(bad.status).toBe(400);
    const badDoc = await page(bad);
    expect(fieldMessage(badDoc, "name")).toBe("Name is required");
    expect(valueOf(badDoc, "type")).toBe("project");
    const res = await b.post(`${t.origin}/schedule/calendars`, {
      intent: "create",
      name: "Plant hire",
      color: "#3B82F6",
      type: "resource",
      members: [member.id],
    });
    expect(res.status).toBe(302);
    const cal = await env.DB.prepare("SELECT id, type FROM calendars WHERE tenant_id = ? AND name = 'Plant hire'")
      .bind(t.id)
      .first<{ id: string; type: string }>();
    expect(cal?.type).toBe("resource");
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.calendar.created' AND target_id = ?", t.id, cal!.id)).toBe(1);
    const author = await createUser(t, { role: "admin" });
    await seedEvent(t, { createdBy: author.id, calendarId: cal!.id, title: "Excavator on hire", start: Date.UTC(2026, 5, 10, 8) });

    const mb = await signedIn(t, member);
    const mine = await page(await mb.get(`${t.origin}/schedule?view=month&date=2026-06-10`));
    expect(all(mine, "select[name=cal] option").map((o) => o.textContent)).toContain("Plant hire");
    expect(mine.body.textContent).toContain("Excavator on hire");
    const ob = await signedIn(t, outsider);
    const theirs = await page(await ob.get(`${t.origin}/schedule?view=month&date=2026-06-10`));
    expect(all(theirs, "select[name=cal] option").map((o) => o.textContent)).not.toContain("Plant hire");
    expect(theirs.body.textContent).not.toContain("Excavator on hire");
    // A member without the manage scope cannot change calendars.
    expect((await mb.post(`${t.origin}/schedule/calendars`, { intent: "archive", id: cal!.id })).status).toBe(403);
  });

  it("archiving hides the calendar and its events; restoring brings them back; members are edited", async () => {
    const { t, u, b } = await scheduleStaff("manager");
    const cal = await seedCalendar(t, "Old job", [u.id]);
    await seedEvent(t, { createdBy: u.id, calendarId: cal, title: "Snagging", start: Date.UTC(2026, 5, 10, 8) });
    expect((await b.post(`${t.origin}/schedule/calendars`, { intent: "archive", id: cal })).status).toBe(302);
    const month = async () => (await page(await b.get(`${t.origin}/schedule?view=month&date=2026-06-10`))).body.textContent ?? "";
    expect(await month()).not.toContain("Snagging");
    expect((await page(await b.get(`${t.origin}/schedule/calendars`))).querySelector(`[data-calendar="${cal}"]`)).toBeNull();
    expect((await page(await b.get(`${t.origin}/schedule/calendars?archived=1`))).querySelector(`[data-calendar="${cal}"]`)).not.toBeNull();
    expect((await b.post(`${t.origin}/schedule/calendars`, { intent: "restore", id: cal })).status).toBe(302);
    expect(await month()).toContain("Snagging");
    const other = await createUser(t);
    expect(
      (await b.post(`${t.origin}/schedule/calendars`, { intent: "update", id: cal, name: "New job", color: "#10B981", type: "project", members: [other.id] }))
        .status,
    ).toBe(302);
    const members = await env.DB.prepare("SELECT user_id FROM calendar_members WHERE calendar_id = ?").bind(cal).all<{ user_id: string }>();
    expect(members.results.map((r) => r.user_id)).toEqual([other.id]);
  });

  it("another tenant's calendar is a 404 to edit or archive, and cannot be chosen for an event", async () => {
    const a = await scheduleStaff("manager");
    const foreign = await seedCalendar(a.t, "Theirs", [a.u.id]);
    const { t, b } = await scheduleStaff("admin");
    expect((await b.post(`${t.origin}/schedule/calendars`, { intent: "archive", id: foreign })).status).toBe(404);
    expect((await b.post(`${t.origin}/schedule/calendars`, { intent: "update", id: foreign, name: "Mine", color: "#10B981", type: "team" })).status).toBe(404);
    const res = await b.post(`${t.origin}/schedule/new`, {
      title: "Sneaky",
      startDate: "2026-06-10",
      startTime: "09:00",
      endDate: "2026-06-10",
      endTime: "10:00",
      type: "shift",
      status: "green",
      visibility: "private",
      calendarId: foreign,
      repeat: "none",
    });
    expect(res.status).toBe(400);
    expect(fieldMessage(await page(res), "calendarId")).toBe("That calendar is not available to you");
    expect(await count("calendars", "id = ? AND archived = 0 AND name = 'Theirs'", foreign)).toBe(1);
  });
});
