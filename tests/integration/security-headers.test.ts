import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { all, parseHtml } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { location } from "./http";

/** The nonce named in a CSP's script-src, or null when script-src has none. */
function cspNonce(res: Response): string | null {
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  const scriptSrc = csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src "));
  return scriptSrc?.match(/'nonce-([A-Za-z0-9+/=_-]+)'/)?.[1] ?? null;
}

function expectHardened(res: Response) {
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  // Strict outside development: no inline scripts without the nonce.
  expect(csp).not.toContain("'unsafe-inline' ");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(cspNonce(res)).toMatch(/^[A-Za-z0-9+/]{20,}={0,2}$/);
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(res.headers.get("Referrer-Policy")).toMatch(/^(same-origin|strict-origin-when-cross-origin|no-referrer)$/);
  expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  // APP_ENV is "test" in vitest, which is not development: HSTS is on.
  expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d{7,}; includeSubDomains/);
}

/** Every <script> tag in the page, and the nonce attribute of each. */
function scriptNonces(html: string): (string | null)[] {
  return all(parseHtml(html), "script").map((s) => s.getAttribute("nonce"));
}

async function expectNoncedPage(url: string, status: number) {
  const res = await exports.default.fetch(url);
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toContain("text/html");
  expectHardened(res);
  const nonce = cspNonce(res);
  const html = await res.text();
  const nonces = scriptNonces(html);
  // React Router's hydration data and module loader are inline scripts: each must carry the nonce.
  expect(nonces.length).toBeGreaterThan(0);
  for (const n of nonces) expect(n).toBe(nonce);
  return { res, html, nonce };
}

describe("security headers", () => {
  it("hardens a page that is not cacheable and puts the CSP nonce on every script tag", async () => {
    // The landing page for a cookieless visitor is cacheable and uses script hashes instead (public-csp.test.ts).
    const { html } = await expectNoncedPage("http://localhost/login", 200);
    expect(html).toContain("Sign in");
  });

  it("hardens a 404 page the same way", async () => {
    const { html } = await expectNoncedPage("http://localhost/nope", 404);
    expect(html).toContain("Page not found");
  });

  it("hardens the unknown-workspace 404 (thrown by middleware, before the root loader)", async () => {
    const { html } = await expectNoncedPage("http://no-such-tenant-xyz.localhost/", 404);
    expect(html).toContain("Workspace not found");
  });

  it("hardens /healthz, which bypasses the router", async () => {
    const res = await exports.default.fetch("http://localhost/healthz");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    expectHardened(res);
  });

  it("hardens the cross-origin refusal", async () => {
    const res = await exports.default.fetch("http://localhost/", { method: "POST", headers: { Origin: "http://evil.example" }, body: new FormData() });
    expect(res.status).toBe(403);
    expectHardened(res);
  });

  it("gives every request its own nonce", async () => {
    const a = await exports.default.fetch("http://localhost/login");
    const b = await exports.default.fetch("http://localhost/login");
    const [htmlA, htmlB] = [await a.text(), await b.text()];
    expect(cspNonce(a)).not.toBeNull();
    expect(cspNonce(a)).not.toBe(cspNonce(b));
    expect(scriptNonces(htmlA).length).toBeGreaterThan(0);
    expect(new Set(scriptNonces(htmlA))).toEqual(new Set([cspNonce(a)]));
    expect(new Set(scriptNonces(htmlB))).toEqual(new Set([cspNonce(b)]));
  });
});

describe("same-origin check", () => {
  it("refuses Origin: null even when the Referer names the same origin", async () => {
    const t = await createTenant();
    const res = await exports.default.fetch(`${t.origin}/login`, {
      method: "POST",
      headers: { Origin: "null", Referer: `${t.origin}/login` },
      body: new URLSearchParams({ email: "a@example.test", password: "x" }),
    });
    expect(res.status).toBe(403);
    expectHardened(res);
  });

  it("still accepts a same-origin Referer when the browser sent no Origin", async () => {
    const t = await createTenant();
    const res = await exports.default.fetch(`${t.origin}/login`, {
      method: "POST",
      headers: { Referer: `${t.origin}/login` },
      body: new URLSearchParams({ email: "a@example.test", password: "x" }),
    });
    expect(res.status).not.toBe(403);
  });
});

describe("redirectTo after sign-in", () => {
  it("keeps a signed-in user on this origin whatever redirectTo says", async () => {
    const t = await createTenant();
    const b = await signedIn(t, await createUser(t));
    for (const to of [
      "/.//evil.test/x",
      "/..//evil.test/x",
      "/%2e//evil.test/x",
      "/.\\/evil.test/x",
      "/\\\\evil.test/x",
      "/%5c%5cevil.test/x",
      "//evil.test/x",
    ]) {
      const res = await b.get(`${t.origin}/login?redirectTo=${encodeURIComponent(to)}`);
      expect(res.status, to).toBe(302);
      const loc = location(res) ?? "";
      expect(loc, to).toMatch(/^\/(?![/\\])/);
      expect(new URL(loc, t.origin).origin, to).toBe(t.origin);
    }
  });
});
