import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { applySecurityHeaders, checkSameOrigin, contentSecurityPolicy, inlineScriptHashes } from "./security";

const post = (url: string, headers: Record<string, string>) => new Request(url, { method: "POST", headers });

describe("checkSameOrigin", () => {
  it("lets safe methods through", () => {
    expect(checkSameOrigin(new Request("http://acme.localhost/x"))).toBeNull();
  });
  it("accepts an exact origin match, or a same-origin Referer", () => {
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "http://acme.localhost" }))).toBeNull();
    expect(checkSameOrigin(post("http://acme.localhost/x", { Referer: "http://acme.localhost/page" }))).toBeNull();
  });
  it("refuses missing, foreign, sibling-tenant and null origins", () => {
    expect(checkSameOrigin(post("http://acme.localhost/x", {}))?.status).toBe(403);
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "http://evil.test" }))?.status).toBe(403);
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "http://globex.localhost" }))?.status).toBe(403);
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "null" }))?.status).toBe(403);
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "https://acme.localhost" }))?.status).toBe(403);
  });
  it("refuses an opaque null origin even with a same-origin Referer", () => {
    expect(checkSameOrigin(post("http://acme.localhost/x", { Origin: "null", Referer: "http://acme.localhost/page" }))?.status).toBe(403);
  });
});

describe("security headers", () => {
  it("carries a nonce-based CSP with frame-ancestors none, and HSTS outside development", () => {
    const res = applySecurityHeaders(new Response("x"), { nonce: "abc", appDomain: "example.com", development: false });
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
  });
  it("keeps a Cache-Control a route chose for itself", () => {
    const res = applySecurityHeaders(new Response("x", { headers: { "Cache-Control": "public, max-age=300" } }), {
      nonce: "n",
      appDomain: "example.com",
      development: false,
    });
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
  });
  it("omits HSTS in development", () => {
    const res = applySecurityHeaders(new Response("x"), { nonce: "abc", appDomain: "localhost:5173", development: true });
    expect(res.headers.get("Strict-Transport-Security")).toBeNull();
    expect(contentSecurityPolicy("n", "localhost:5173", true)).toContain("form-action 'self' *.localhost:5173");
  });
});

describe("inlineScriptHashes", () => {
  const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

  it("hashes each inline script's text (not the ones with a src), the same way every time it is asked", async () => {
    const html = `<html><script>window.a = 1;</script><script src="/x.js"></script><script type="module">import "/y.js";</script><script>window.a = 1;</script></html>`;
    for (let i = 0; i < 3; i++) expect(await inlineScriptHashes(html)).toEqual([sha("window.a = 1;"), sha('import "/y.js";')]);
  });

  it("gives every text its own hash, also past the number of texts it keeps", async () => {
    for (let i = 0; i < 200; i++) {
      const text = `window.n = ${i % 150}; // ${"é".repeat(i % 3)}`;
      expect(await inlineScriptHashes(`<script>${text}</script>`)).toEqual([sha(text)]);
    }
    const long = `window.big = "${"x".repeat(70 * 1024)}";`;
    expect(await inlineScriptHashes(`<script>${long}</script>`)).toEqual([sha(long)]);
    expect(await inlineScriptHashes(`<script>${long}</script>`)).toEqual([sha(long)]);
  });
});
