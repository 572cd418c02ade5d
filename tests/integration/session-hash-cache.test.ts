import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";

describe("the isolate's cache of session token hashes", () => {
  it("decides nothing: a session revoked in D1 stops working on the next request though its hash is cached", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const b = await signedIn(t, u);
    // Twice: the second request finds the token's hash in the cache.
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(200);
    expect((await b.get(`${t.origin}/welcome`)).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE tenant_id = ? AND user_id = ?").bind(Date.now(), t.id, u.id).run();
    const after = await b.get(`${t.origin}/welcome`);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toContain("/login");
  });
});
