import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant } from "../factories";
import { pageText, parseHtml, shownText } from "../factories/html";

describe("tenant resolution", () => {
  it("serves the public landing page on the bare domain", async () => {
    const res = await exports.default.fetch("http://localhost/");
    expect(res.status).toBe(200);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("One workspace for your contracting business");
  });

  it("answers an unknown tenant with 'Workspace not found' (404)", async () => {
    const res = await exports.default.fetch("http://no-such-tenant.localhost/");
    expect(res.status).toBe(404);
    expect(await shownText(res)).toContain("Workspace not found");
  });

  it("resolves a known tenant and sends a visitor to sign in", async () => {
    const t = await createTenant({ name: "Resolve Me Ltd" });
    const res = await exports.default.fetch(`http://${t.host}/`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
  });

  it("refuses hosts that are not below APP_DOMAIN", async () => {
    const res = await exports.default.fetch("http://evil.example/");
    expect(res.status).toBe(404);
  });
});
