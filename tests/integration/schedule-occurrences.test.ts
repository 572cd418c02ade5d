import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { all, page, textsOf, valueOf } from "../factories/html";
import { scheduleStaff } from "../factories/schedule";
import { count } from "./auth-helpers";
import type { Browser } from "./http";

type Row = Record<string, unknown>;

const form = (over: Record<string, string | string[]> = {}) => ({
  title: "Concrete gang",
  startDate: "2026-03-26",
  startTime: "07:30",
  endDate: "2026-03-26",
  endTime: "08:30",
  type: "shift",
  status: "green",
  visibility: "private",
  calendarId: "",
  repeat: "daily",
  repeatCount: "6",
  ...over,
});

const rowOf = (id: string) => env.DB.prepare("SELECT * FROM events WHERE id = ?").bind(id).first<Row>();
const rowsOf = async (tenantId: string) =>
  (await env.DB.prepare("SELECT * FROM events WHERE tenant_id = ? ORDER BY start_utc").bind(tenantId).all<Row>()).results;

/**
 * A daily series at 07:30 London, six times from Thursday 26 March 2026: the clocks go forward
 * on Sunday 29 March, so the first three are at 07:30 UTC and the last three at 06:30 UTC.
 */
async function series() {
  const { t, b, u } = await scheduleStaff("lead");
  expect((await b.post(`${t.origin}/schedule/new`, form())).status).toBe(302);
  const id = String((await rowsOf(t.id))[0]!.id);
  return { t, b, u, id };
}

const GMT = (day: number, h = 7, m = 30) => Date.UTC(2026, 2, day, h, m);
const BST = (day: number, h = 7, m = 30) => Date.UTC(2026, 2, day, h - 1, m);

async function dayChips(b: Browser, origin: string, date: string) {
  return textsOf(await page(await b.get(`${origin}/schedule?view=day&date=${date}`)), "[data-event]").map((s) => s.replace(/,.*$/, ""));
}

describe("one occurrence of a repeating event", () => {
  it("opens an occurrence with its own London times and the choice of what a save changes; a start that is no occurrence is a 404", async () => {
    const { t, b, id } = await series();
    const week = await page(await b.get(`${t.origin}/schedule?view=week&date=2026-03-30`));
    expect(all(week, `[data-event="${id}"]`).map((a) => a.getAttribute("href"))).toEqual([`/schedule/${id}?at=${BST(30)}`, `/schedule/${id}?at=${BST(31)}`]);
    const occ = await page(await b.get(`${t.origin}/schedule/${id}?at=${BST(30)}`));
    expect([valueOf(occ, "startDate"), valueOf(occ, "startTime"), valueOf(occ, "endTime")]).toEqual(["2026-03-30", "07:30", "08:30"]);
    expect(all(occ, 'input[name="apply"]').map((i) => [i.getAttribute("value"), i.hasAttribute("checked")])).toEqual([
      ["this", true],
      ["following", false],
      ["all", false],
    ]);
    // 07:30 UTC on 30 March is 08:30 London: no occurrence starts then.
    expect((await b.get(`${t.origin}/schedule/${id}?at=${GMT(30)}`)).status).toBe(404);
    expect((await b.post(`${t.origin}/schedule/${id}`, form({ at: String(GMT(30)), apply: "this" }))).status).toBe(404);
    expect((await b.get(`${t.origin}/schedule/${id}?at=${GMT(27)}`)).status).toBe(200);
  });

  it("'This event' takes the occurrence out of the series and keeps the change as an event of its own, audited in the same batch", async () => {
    const { t, b, id } = await series();
    const res = await b.post(
      `${t.origin}/schedule/${id}`,
      form({
        title: "Concrete gang (late)",
        startDate: "2026-03-30",
        endDate: "2026-03-30",
        startTime: "09:00",
        endTime: "10:00",
        at: String(BST(30)),
        apply: "this",
      }),
    );
    expect(res.status).toBe(302);
    const [first, second] = await rowsOf(t.id);
    expect(first).toMatchObject({ id, exdates: String(BST(30)), rrule: "FREQ=DAILY;COUNT=6" });
    expect(second).toMatchObject({ title: "Concrete gang (late)", start_utc: BST(30, 9, 0), end_utc: BST(30, 10, 0), rrule: null, series_id: id });
    expect(await dayChips(b, t.origin, "2026-03-30")).toEqual(["09:00 Concrete gang (late)"]);
    expect(await dayChips(b, t.origin, "2026-03-31")).toEqual(["07:30 Concrete gang"]);
    expect(await dayChips(b, t.origin, "2026-03-27")).toEqual(["07:30 Concrete gang"]);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.updated' AND target_id = ?", t.id, id)).toBe(1);
  });

  it("'This and following events' ends the series the day before (on the clock change) and starts a new one carrying the count on", async () => {
    const { t, b, id } = await series();
    const res = await b.post(
      `${t.origin}/schedule/${id}`,
      form({
        title: "Night gang",
        startDate: "2026-03-29",
        endDate: "2026-03-29",
        startTime: "18:00",
        endTime: "19:00",
        at: String(BST(29)),
        apply: "following",
      }),
    );
    expect(res.status).toBe(302);
    const [old, next] = await rowsOf(t.id);
    expect(old).toMatchObject({ id, rrule: "FREQ=DAILY;UNTIL=20260328T235959Z", repeat_until: GMT(28, 8, 30) });
    expect(next).toMatchObject({ title: "Night gang", start_utc: BST(29, 18, 0), rrule: "FREQ=DAILY;COUNT=3", series_id: null });
    expect(await dayChips(b, t.origin, "2026-03-28")).toEqual(["07:30 Concrete gang"]);
    expect(await dayChips(b, t.origin, "2026-03-29")).toEqual(["18:00 Night gang"]);
    expect(await dayChips(b, t.origin, "2026-03-31")).toEqual(["18:00 Night gang"]);
    expect(await dayChips(b, t.origin, "2026-04-01")).toEqual([]);
  });

  it("'All events' from an occurrence moves the whole series by its London time, removed occurrences staying removed", async () => {
    const { t, b, id } = await series();
    // Remove 27 March first, then move every occurrence to 08:00.
    expect((await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-this", at: String(GMT(27)) })).status).toBe(302);
    const res = await b.post(
      `${t.origin}/schedule/${id}`,
      form({ startDate: "2026-03-30", endDate: "2026-03-30", startTime: "08:00", endTime: "09:00", at: String(BST(30)), apply: "all" }),
    );
    expect(res.status).toBe(302);
    expect(await rowOf(id)).toMatchObject({ start_utc: GMT(26, 8, 0), exdates: String(GMT(27, 8, 0)), rrule: "FREQ=DAILY;COUNT=6" });
    expect(await dayChips(b, t.origin, "2026-03-26")).toEqual(["08:00 Concrete gang"]);
    expect(await dayChips(b, t.origin, "2026-03-27")).toEqual([]);
    expect(await dayChips(b, t.origin, "2026-03-30")).toEqual(["08:00 Concrete gang"]);
    expect((await rowsOf(t.id)).length).toBe(1);
  });

  it("deletes one occurrence, this and the following ones, or all of them with the occurrences taken out of the series", async () => {
    const { t, b, id } = await series();
    const confirm = await page(await b.post(`${t.origin}/schedule/${id}?at=${BST(31)}`, { intent: "delete", at: String(BST(31)) }));
    expect(all(confirm, '[role="alertdialog"] button[name="intent"]').map((x) => x.getAttribute("value"))).toEqual([
      "delete-this",
      "delete-following",
      "delete-confirm",
    ]);
    expect((await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-this", at: String(BST(31)) })).status).toBe(302);
    expect(await rowOf(id)).toMatchObject({ exdates: String(BST(31)) });
    expect((await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-following", at: String(GMT(28)) })).status).toBe(302);
    expect(await rowOf(id)).toMatchObject({ rrule: "FREQ=DAILY;UNTIL=20260327T235959Z", repeat_until: GMT(27, 8, 30) });
    expect(await dayChips(b, t.origin, "2026-03-28")).toEqual([]);
    expect(await dayChips(b, t.origin, "2026-03-27")).toEqual(["07:30 Concrete gang"]);
    // An occurrence changed on its own goes with the series when all of it is deleted.
    await b.post(`${t.origin}/schedule/${id}`, form({ title: "Moved", startDate: "2026-03-26", endDate: "2026-03-26", at: String(GMT(26)), apply: "this" }));
    expect((await rowsOf(t.id)).length).toBe(2);
    expect((await b.post(`${t.origin}/schedule/${id}`, { intent: "delete-confirm", at: String(GMT(27)) })).status).toBe(302);
    expect(await rowsOf(t.id)).toEqual([]);
    expect(await count("event_shares", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'schedule.event.deleted' AND target_id = ?", t.id, id)).toBe(3);
  });
});
