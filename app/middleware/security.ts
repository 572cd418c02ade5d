/**
 * Request and response hardening applied by workers/app.ts around every request:
 * the same-origin check for state-changing methods and the security headers.
 */
import { bytesToBase64 } from "~/utils/base64";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The origin the browser says the request came from, or null. The Referer stands in only
 * when there is no Origin header at all: an opaque "null" origin (sandboxed frames, data:
 * URLs, some redirects) is a refusal, never a reason to trust a Referer instead.
 */
function requestOrigin(request: Request): string | null {
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin === "null" ? null : origin;
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * Every non-GET must come from the request's own origin. Tenant subdomains are the
 * same *site* for the browser, so SameSite cookies alone would let acme.example.com
 * post to globex.example.com: the origin has to match exactly.
 */
export function checkSameOrigin(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const expected = new URL(request.url).origin;
  const actual = requestOrigin(request);
  if (actual === expected) return null;
  return new Response("Forbidden: cross-origin request refused", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return bytesToBase64(bytes);
}

/**
 * The CSP. Inline scripts are allowed by the request's nonce, or, for a page a shared cache may
 * keep (rendered without a nonce, so that every copy is the same), by the hashes of exactly the
 * inline scripts it holds.
 */
export function contentSecurityPolicy(nonce: string, appDomain: string, development: boolean, scriptHashes: string[] | null = null): string {
  // Vite's dev server injects inline scripts we cannot nonce; production and tests are strict.
  const allowed = scriptHashes ? scriptHashes.map((h) => ` 'sha256-${h}'`).join("") : ` 'nonce-${nonce}'`;
  const scriptSrc = development ? "script-src 'self' 'unsafe-inline'" : `script-src 'self'${allowed}`;
  return [
    "default-src 'self'",
    scriptSrc,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    // Sign-in on the bare domain hands over to the tenant's own host.
    `form-action 'self' *.${appDomain}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export function applySecurityHeaders(
  response: Response,
  opts: { nonce: string; appDomain: string; development: boolean; scriptHashes?: string[] | null },
): Response {
  // Responses from fetch() or caches may have immutable headers.
  const res = new Response(response.body, response);
  const h = res.headers;
  // A stored upload served by the files area carries its own sandboxing policy (an opaque origin,
  // no scripts) and may be framed by the app's own preview page; everything else gets the app's.
  const userContent = /^sandbox(;|$)/.test(h.get("Content-Security-Policy") ?? "");
  if (!userContent) h.set("Content-Security-Policy", contentSecurityPolicy(opts.nonce, opts.appDomain, opts.development, opts.scriptHashes ?? null));
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "same-origin");
  h.set("X-Frame-Options", userContent ? "SAMEORIGIN" : "DENY");
  h.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  h.set("Cross-Origin-Opener-Policy", "same-origin");
  // Pages show one person's tenant data: no shared cache may keep them, and Back after
  // sign-out must not show a stored copy. A route that is truly public may set its own.
  if (!h.has("Cache-Control")) h.set("Cache-Control", "private, no-store");
  if (!opts.development) h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return res;
}

/**
 * The SHA-256 (base64) of every inline script's text, as a CSP script-src lists it. Only for pages
 * that hold no visitor input (a cacheable page is the anonymous rendering of fixed content), so
 * every inline script in them is the app's own.
 */
export async function inlineScriptHashes(html: string): Promise<string[]> {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(` ${m[1]}`)) continue;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(m[2]));
    hashes.add(bytesToBase64(new Uint8Array(digest)));
  }
  return [...hashes];
}
