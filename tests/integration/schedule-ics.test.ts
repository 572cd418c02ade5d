import { describe, expect, it } from "vitest";
import { createUser } from "../factories";
import { page } from "../factories/html";
import { scheduleStaff, seedEvent } from "../factories/schedule";
import { count } from "./auth-helpers";
import { Browser } from "./http";

async function makeLink(b: Browser, origin: string): Promise<string> {
  const res = await b.post(`${origin}/schedule/subscribe`, { intent: "create" });
  expect(res.status).toBe(200);
  const url = (await page(res)).querySelector("[data-feed-url]")?.textContent ?? "";
  expect(url).toMatch(/\/schedule\/feed\/[A-Za-z0-9_-]+\.ics$/);
  return url;
}

/** Unfolds the content lines and reads each VEVENT's properties. */
function parseIcs(text: string) {
  expect(text.endsWith("\r\n")).toBe(true);
  for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const lines = text.replace(/\r\n /g, "").split("\r\n").filter(Boolean);
  expect(lines[0]).toBe("BEGIN:VCALENDAR");
  expect(lines.at(-1)).toBe("END:VCALENDAR");
  expect(lines).toContain("VERSION:2.0");
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT") {
      events.push(current!);
      current = null;
    } else if (current) {
      const at = line.indexOf(":");
      current[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return events;
}

describe("the ICS subscription feed", () => {
  it("serves, without a session, what its owner may see (a series as its occurrences), and nothing else", async () => {
    const { t, u, b } = await scheduleStaff("standard");
    const other = await createUser(t, { role: "admin" });
    const soon = Date.now() + 3 * 86_400_000;
    await seedEvent(t, { createdBy: u.id, shares: [u.id], title: "My shift; north gate, plot 7", start: soon });
    await seedEvent(t, { createdBy: other.id, visibility: "users", shares: [u.id], title: "Shared with me", start: soon });
    await seedEvent(t, { createdBy: other.id, shares: [other.id], title: "Private to the admin", start: soon });
    await seedEvent(t, {
      createdBy: other.id,
      visibility: "org",
      sharedAll: true,
      title: "Weekly toolbox talk",
      start: soon,
      rrule: "FREQ=WEEKLY;COUNT=3",
      repeatUntil: soon + 15 * 86_400_000,
    });
    await seedEvent(t, { createdBy: u.id, shares: [u.id], title: "Long ago", start: Date.now() - 400 * 86_400_000 });
    const url = await makeLink(b, t.origin);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.feed.created'", t.id)).toBe(1);
    const res = await new Browser().get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const events = parseIcs(await res.text());
    const titles = events.map((e) => e.SUMMARY).sort();
    expect(titles).toEqual(["My shift\\; north gate\\, plot 7", "Shared with me", "Weekly toolbox talk", "Weekly toolbox talk", "Weekly toolbox talk"]);
    expect(new Set(events.map((e) => e.UID)).size).toBe(5);
    for (const e of events) {
      expect(e.DTSTART).toMatch(/^\d{8}T\d{6}Z$/);
      expect(e.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/);
    }
  });

  it("a revoked or replaced link is a 404, and a link does not open on another tenant's host", async () => {
    const { t, b } = await scheduleStaff("lead");
    const first = await makeLink(b, t.origin);
    const second = await makeLink(b, t.origin);
    expect((await new Browser().get(first)).status).toBe(404);
    expect((await new Browser().get(second)).status).toBe(200);
    const other = await scheduleStaff("lead");
    const path = new URL(second).pathname;
    expect((await new Browser().get(`${other.t.origin}${path}`)).status).toBe(404);
    expect((await b.post(`${t.origin}/schedule/subscribe`, { intent: "revoke" })).status).toBe(200);
    expect((await new Browser().get(second)).status).toBe(404);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.feed.revoked'", t.id)).toBe(1);
    expect((await new Browser().get(`${t.origin}/schedule/feed/not-a-token.ics`)).status).toBe(404);
  });
});
