import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countRequest, requestCountedD1 } from "~/db/instrument";
import { globalDb } from "~/db/client.server";
import { cisStaff, seedSub } from "../factories/cis";
import { rowsRead } from "./page-costs";
import { d1Queries } from "./d1-queries";

describe("the development D1 counter", () => {
  it("is one binding per isolate, so the drizzle instance kept per binding is made once, not once a request", () => {
    const a = requestCountedD1(env.DB);
    expect(requestCountedD1(env.DB)).toBe(a);
    // Two requests' environments: new objects each time, the same counting binding in both.
    expect(globalDb({ ...env, DB: requestCountedD1(env.DB) })).toBe(globalDb({ ...env, DB: a }));
  });

  it("counts each request's own round trips and rows, also when requests run at the same time", async () => {
    const { t, b } = await cisStaff("admin");
    for (let i = 0; i < 30; i++) await seedSub(t, { name: `Counter Builder ${String(i).padStart(2, "0")}` });
    const paths = ["/welcome", "/cis/subcontractors", "/cis/subcontractors?page=2", "/cis/invoices"];
    const alone = [];
    for (const p of paths) alone.push(await b.get(`${t.origin}${p}`));
    for (const res of alone) expect(res.status).toBe(200);
    const expected = alone.map((res) => [d1Queries(res), rowsRead(res)]);
    // The sub list reads more rows than the welcome page: a mix-up between requests would show.
    expect(new Set(expected.map((e) => e.join())).size).toBeGreaterThan(1);
    const together = await Promise.all([...paths, ...paths, ...paths].map((p) => b.get(`${t.origin}${p}`)));
    together.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect([d1Queries(res), rowsRead(res)], paths[i % paths.length]).toEqual(expected[i % paths.length]);
    });
    const publicPage = await exports.default.fetch("http://localhost/");
    expect(d1Queries(publicPage)).toBe(0);
  });

  it("counts nothing outside a counted request, and counts what runs inside one", async () => {
    const db = requestCountedD1(env.DB);
    expect(await db.prepare("SELECT 1 AS one").first("one")).toBe(1);
    const { result, queries } = await countRequest(async () => {
      await db.prepare("SELECT 1").all();
      await db.batch([db.prepare("SELECT 1"), db.prepare("SELECT 2")]);
      return "done";
    });
    expect(result).toBe("done");
    expect(queries).toBe(2);
  });
});
