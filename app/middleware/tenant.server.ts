import { type MiddlewareFunction } from "react-router";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { HOME_SHARD, isSharded, loadShardRoutes, shardDb, shardOfSlug, ShardRoutingError } from "~/db/client.server";
import { loadPlatformSession, staffSessionHash, staffSessionStatement, staffSessionUser } from "~/features/auth/index.server";
import { resolveHost } from "~/features/platform";
import { routeError } from "~/features/platform";
import { tenantBySlugStatements, toTenantContext } from "~/features/platform/index.server";

/**
 * Resolves the tenant from the first host label below APP_DOMAIN (null on the bare domain) and
 * the signed-in person: staff on a tenant host, super-admins on the bare domain. On a tenant
 * host the tenant, its modules and the session are one D1 batch on the tenant's shard, so a
 * page's own loader is left with one round trip of the two a page may cost.
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
  const idHash = await staffSessionHash(env, request);
  await loadShardRoutes(env);
  let read = await readTenantHost(env, resolution.slug, idHash);
  // The isolate's routing table was older than a move of this tenant: read it again and retry once.
  if (read.misrouted) {
    await loadShardRoutes(env, { force: true });
    read = await readTenantHost(env, resolution.slug, idHash);
  }
  const { tenant, sessionRow } = read;
  if (!tenant) throw routeError("workspace_not_found", 404);
  // Every page of a suspended workspace, sign-in included, answers the suspended page; its
  // sessions were revoked when it was suspended, so none is loaded.
  if (tenant.suspended) throw routeError("workspace_suspended", 403);
  context.set(tenantContext, tenant);
  context.set(userContext, idHash ? await staffSessionUser(env, ctx, sessionRow, idHash) : null);
  return next();
};

/**
 * The tenant, its modules and the session, in one batch on the shard the routing table names for
 * the slug. `misrouted`: the row read says the tenant lives elsewhere (a global row naming a
 * shard) or the shard named has no such tenant.
 */
async function readTenantHost(env: Env, slug: string, idHash: string | null) {
  const binding = shardOfSlug(env, slug);
  const db = shardDb(env, binding);
  const [tenantStmt, modulesStmt] = tenantBySlugStatements(db, slug);
  const [tenantRows, moduleRows, sessionRows] = idHash
    ? await db.batch([tenantStmt, modulesStmt, staffSessionStatement(db, slug, idHash)])
    : [...(await db.batch([tenantStmt, modulesStmt])), []];
  const row = tenantRows[0];
  const elsewhere = binding === HOME_SHARD && row?.shard != null && row.shard !== HOME_SHARD;
  // A Worker without shards never serves a tenant whose row names one: it is not here.
  if (elsewhere && !isSharded(env)) throw new ShardRoutingError("shard_binding_missing", `${row.shard} for tenant ${row.id}`);
  const misrouted = elsewhere || (binding !== HOME_SHARD && !row);
  return { tenant: misrouted ? null : toTenantContext(tenantRows, moduleRows), sessionRow: sessionRows[0], misrouted };
}
