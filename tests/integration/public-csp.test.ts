import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { all, parseHtml } from "../factories/html";

function scriptSrc(res: Response): string {
  return (
    (res.headers.get("Content-Security-Policy") ?? "")
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src ")) ?? ""
  );
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/** The text of every inline <script> (no src), exactly as the browser hashes it. */
function inlineScripts(html: string): string[] {
  return all(parseHtml(html), "script")
    .filter((s) => !s.hasAttribute("src"))
    .map((s) => s.textContent ?? "");
}

describe("a cacheable public page carries no per-request nonce", () => {
  it("answers two cookieless visitors to / with the same bytes and a CSP that allows exactly its inline scripts by hash", async () => {
    const a = await exports.default.fetch("http://localhost/");
    const b = await exports.default.fetch("http://localhost/");
    expect(a.status).toBe(200);
    expect(a.headers.get("Cache-Control")).toMatch(/^public\b/);
    const [htmlA, htmlB] = [await a.text(), await b.text()];
    // A shared cache may hand this one copy to anyone: nothing in it is per request.
    expect(htmlB).toBe(htmlA);
    expect(a.headers.get("Content-Security-Policy")).toBe(b.headers.get("Content-Security-Policy"));
    const src = scriptSrc(a);
    expect(src).not.toContain("'nonce-");
    expect(src).not.toContain("'unsafe-inline'");
    expect(htmlA).not.toMatch(/\snonce=/);
    const scripts = inlineScripts(htmlA);
    expect(scripts.length).toBeGreaterThan(0);
    const allowed = new Set([...src.matchAll(/'sha256-([A-Za-z0-9+/=]+)'/g)].map((m) => m[1]));
    for (const s of scripts) expect(allowed.has(await sha256Base64(s)), s.slice(0, 80)).toBe(true);
    // Exactly those: no hash for a script the page does not have.
    expect(allowed.size).toBe(new Set(await Promise.all(scripts.map(sha256Base64))).size);
  });

  it("keeps a fresh nonce for the same page when it is not cacheable (the visitor has a cookie)", async () => {
    const res = await exports.default.fetch("http://localhost/", { headers: { Cookie: "theme=dark" } });
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc(res))?.[1];
    expect(nonce).toBeTruthy();
    const html = await res.text();
    for (const s of all(parseHtml(html), "script")) expect(s.getAttribute("nonce")).toBe(nonce);
  });
});
