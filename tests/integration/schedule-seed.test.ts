import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { seedPlatform, seedSchedule } from "~/db/seed";
import { all, page } from "../factories/html";
import { signedIn } from "../factories/sessions";
import type { TestTenant } from "../factories";

describe("demo seed: acme's calendar", () => {
  it("switches the calendar on for acme with teams, sites, calendars and a month of work that each role sees by its rules; a second run changes nothing", async () => {
    const db = getDb(env);
    await seedPlatform(db, { pepper: env.PASSWORD_PEPPER });
    await seedSchedule(db);
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE tenant_id = 'tnt_acme'").first<{ n: number }>())!.n;
    const first = await count();
    await seedSchedule(db);
    expect(await count()).toBe(first);
    expect(first).toBeGreaterThanOrEqual(10);
    const acme: TestTenant = { id: "tnt_acme", slug: "acme", name: "Acme Construction Ltd", host: "acme.localhost", origin: "http://acme.localhost" };
    const seen = async (userId: string, email: string) => {
      const b = await signedIn(acme, { id: userId, email });
      const res = await b.get(`${acme.origin}/schedule?view=month`);
      expect(res.status).toBe(200);
      return new Set(all(await page(res), "[data-event]").map((e) => e.getAttribute("data-event")));
    };
    const staff = await seen("usr_acme_staff", "staff@acme.test");
    const admin = await seen("usr_acme_admin", "admin@acme.test");
    expect(admin.has("evt_acme_toolbox")).toBe(true);
    expect(staff.has("evt_acme_toolbox")).toBe(true);
    // The scaffold inspection is shared with the lead only; the course is the member's own.
    expect(staff.has("evt_acme_scaffold")).toBe(false);
    expect(staff.has("evt_acme_cscs")).toBe(true);
    expect(admin.has("evt_acme_cscs")).toBe(true);
  });
});
