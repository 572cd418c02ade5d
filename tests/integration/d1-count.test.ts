import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { signIn } from "./auth-helpers";

function d1Queries(res: Response): number {
  const m = /d1;desc="D1 queries";dur=(\d+)/.exec(res.headers.get("Server-Timing") ?? "");
  if (!m) throw new Error("no D1 count header");
  return Number(m[1]);
}

describe("D1 query count header", () => {
  it("reports the round trips a page costs", async () => {
    const bare = await exports.default.fetch("http://localhost/");
    expect(d1Queries(bare)).toBe(0);
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signIn(t, u);
    const page = await b.get(`${t.origin}/welcome`);
    expect(page.status).toBe(200);
    // One batch for the tenant and its modules, one for the session with its user and bundle.
    expect(d1Queries(page)).toBe(2);
  });
});
