import { type MiddlewareFunction } from "react-router";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { getDb } from "~/db/client.server";
import { loadPlatformSession, staffSessionHash, staffSessionStatement, staffSessionUser } from "~/features/auth/index.server";
import { resolveHost } from "~/features/platform";
import { routeError } from "~/features/platform";
import { tenantBySlugStatements, toTenantContext } from "~/features/platform/index.server";

/**
 * Resolves the tenant from the first host label below APP_DOMAIN (null on the bare domain) and
 * the signed-in person: staff on a tenant host, super-admins on the bare domain. On a tenant
 * host the tenant, its modules and the session are one D1 batch, so a page's own loader is
 * left with one round trip of the two a page may cost.
 */
export const tenantMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { env, ctx } = context.get(cloudflareContext);
  const resolution = resolveHost(new URL(request.url).host, env.APP_DOMAIN);
  if (resolution.kind === "unknown") throw routeError("workspace_not_found", 404);
  if (resolution.kind === "bare") {
    context.set(tenantContext, null);
    context.set(userContext, await loadPlatformSession(env, ctx, request));
    return next();
  }
  const db = getDb(env);
  const idHash = await staffSessionHash(env, request);
  const [tenantStmt, modulesStmt] = tenantBySlugStatements(db, resolution.slug);
  const [tenantRows, moduleRows, sessionRows] = idHash
    ? await db.batch([tenantStmt, modulesStmt, staffSessionStatement(db, resolution.slug, idHash)])
    : [...(await db.batch([tenantStmt, modulesStmt])), []];
  const tenant = toTenantContext(tenantRows, moduleRows);
  if (!tenant) throw routeError("workspace_not_found", 404);
  // Every page of a suspended workspace, sign-in included, answers the suspended page; its
  // sessions were revoked when it was suspended, so none is loaded.
  if (tenant.suspended) throw routeError("workspace_suspended", 403);
  context.set(tenantContext, tenant);
  context.set(userContext, idHash ? await staffSessionUser(env, ctx, sessionRows[0], idHash) : null);
  return next();
};
