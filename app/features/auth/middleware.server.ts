import { pageUrl } from "~/utils/request-url";
import { createContext, data, redirect, type RouterContextProvider } from "react-router";
import { cloudflareContext, tenantContext, userContext, type SessionUser } from "~/context";
import { clientIp, writeAudit } from "~/features/platform/index.server";
import { can, deniedAuditAction, type Scope } from "./scopes";

type Ctx = Readonly<RouterContextProvider>;

export function optionalUser(context: Ctx): SessionUser | null {
  return context.get(userContext);
}

/**
 * Only same-origin paths: '/x' but not '//evil.test' or '/\evil.test'. The check is made on
 * the address as a browser will read it (dot segments, %2e and backslashes resolved), since
 * '/.//evil.test' only becomes '//evil.test' once normalised.
 */
export function safeRedirectPath(to: string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string" || !to.startsWith("/")) return fallback;
  const base = "http://x.invalid";
  try {
    const u = new URL(to, base);
    if (u.origin !== base) return fallback;
    const path = u.pathname + u.search + u.hash;
    if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
    // The result is a Location header: it must still resolve to the same origin when read again.
    if (new URL(path, base).origin !== base) return fallback;
    return path;
  } catch {
    return fallback;
  }
}

/** The signed-in staff member on this tenant host, or a redirect to /login?redirectTo=... */
export function requireUser(request: Request, context: Ctx): SessionUser {
  const user = context.get(userContext);
  const tenant = context.get(tenantContext);
  if (!user || (tenant && user.tenantId !== tenant.id) || (!tenant && user.kind !== "platform")) {
    const url = pageUrl(request);
    const params = new URLSearchParams({ redirectTo: url.pathname + url.search });
    throw redirect(`/login?${params}`);
  }
  return user;
}

/**
 * Set once a request's refusal is audited: a layout and its page refusing the same request
 * (their loaders run side by side) write one audit entry between them.
 */
const refusalAudited = createContext<boolean>(false);

/**
 * Throws 403 (and audits the denial, once per request) unless the user's current bundle grants the scope, or
 * one of the scopes when given several. `message` is the 403's body, for pages that explain
 * the refusal in their own words.
 */
export async function requireScope(request: Request, context: Ctx, user: SessionUser, scope: Scope | readonly Scope[], message = "Forbidden"): Promise<void> {
  const scopes: readonly Scope[] = typeof scope === "string" ? [scope] : scope;
  if (scopes.some((s) => can(user, s))) return;
  if (context.get(refusalAudited)) throw data(message, { status: 403 });
  context.set(refusalAudited, true);
  const { env } = context.get(cloudflareContext);
  await writeAudit(env, {
    tenantId: user.tenantId,
    action: deniedAuditAction(scopes[0]),
    actorId: user.id,
    actorEmail: user.email,
    targetType: "route",
    targetId: pageUrl(request).pathname,
    payload: { scope: scopes[0], method: request.method },
    ip: clientIp(request),
  });
  throw data(message, { status: 403 });
}

/** requireUser + requireScope (any of the given scopes). */
export async function requireUserWithScope(request: Request, context: Ctx, scope: Scope | readonly Scope[], message?: string): Promise<SessionUser> {
  const user = requireUser(request, context);
  await requireScope(request, context, user, scope, message);
  return user;
}

export function requireTenant(context: Ctx) {
  const tenant = context.get(tenantContext);
  if (!tenant) throw data("Page not found", { status: 404 });
  return tenant;
}
