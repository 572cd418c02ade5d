import { env } from "cloudflare:workers";
import { replaceSession } from "~/features/auth/session.server";
import { Browser } from "../integration/http";
import type { TestTenant } from "./index";

/**
 * A browser holding a staff session for `user` on the tenant host, written as a successful
 * password sign-in writes it (replaceSession: the session row and the `auth.login.success`
 * audit entry in one batch) but without posting /login, whose password check is a full PBKDF2
 * derivation. For tests about what a signed-in user can do; tests about signing in (and any
 * test that proves a password works) post the form with auth-helpers' `signIn`.
 */
export async function signedIn(tenant: TestTenant, user: { id: string; email: string }, browser = new Browser()): Promise<Browser> {
  const request = new Request(`${tenant.origin}/login`, { method: "POST", headers: { Cookie: browser.cookieHeader(tenant.host) } });
  const { setCookie } = await replaceSession(
    env,
    request,
    { kind: "staff", tenantId: tenant.id, userId: user.id, ip: null },
    { tenantId: tenant.id, action: "auth.login.success", actorId: user.id, actorEmail: user.email, payload: { method: "password" }, ip: null },
  );
  const [pair] = setCookie.split(";");
  const at = pair.indexOf("=");
  browser.setCookie(tenant.host, pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  return browser;
}
