import { createCookie, redirect } from "react-router";
import { clientIp, writeAudit } from "~/features/platform/audit.server";
import { secureCookies, sessionSecrets } from "~/features/platform/environment.server";
import { tenantOrigin } from "~/features/platform/host";
import { createSession } from "./session.server";
import { signToken } from "./tokens.server";
import { CODE_TTL_MS } from "./sign-in.server";

/** The pending second step: which challenge this browser's sign-in attempt owns. */
export function challengeCookie(env: Env) {
  const secure = secureCookies(env);
  return createCookie(secure ? "__Host-login-challenge" : "login-challenge", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: sessionSecrets(env),
    maxAge: CODE_TTL_MS / 1000,
  });
}

export const HANDOVER_TTL_SECONDS = 60;

/**
 * Ends a successful sign-in. On a tenant host the session cookie is set here; on the bare
 * domain the user is handed to the tenant host through /accept-session with a 60-second,
 * single-use token whose audience is that host, so the tenant host sets its own cookie.
 */
export async function completeSignIn(
  env: Env,
  request: Request,
  opts: { onTenantHost: boolean; user: { id: string; email: string; tenantId: string }; tenantSlug: string; redirectTo: string | null; method: "password" | "password+code" },
  extraHeaders: Headers = new Headers(),
): Promise<Response> {
  const ip = clientIp(request);
  if (opts.onTenantHost) {
    const { setCookie } = await createSession(env, { kind: "staff", tenantId: opts.user.tenantId, userId: opts.user.id, ip });
    await writeAudit(env, { tenantId: opts.user.tenantId, action: "auth.login.success", actorId: opts.user.id, actorEmail: opts.user.email, payload: { method: opts.method }, ip });
    extraHeaders.append("Set-Cookie", setCookie);
    return redirect(opts.redirectTo ?? "/", { headers: extraHeaders });
  }
  const origin = tenantOrigin(opts.tenantSlug, env.APP_DOMAIN, new URL(request.url).protocol);
  const { token } = await signToken(env, {
    kind: "accept-session",
    subject: opts.user.id,
    audience: origin,
    ttlSeconds: HANDOVER_TTL_SECONDS,
    claims: { tid: opts.user.tenantId, rt: opts.redirectTo, mth: opts.method },
  });
  await writeAudit(env, { tenantId: opts.user.tenantId, action: "auth.handover.issued", actorId: opts.user.id, actorEmail: opts.user.email, payload: { method: opts.method }, ip });
  return redirect(`${origin}/accept-session?token=${encodeURIComponent(token)}`, { headers: extraHeaders });
}
