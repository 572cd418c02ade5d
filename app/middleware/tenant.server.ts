import type { BatchItem } from "drizzle-orm/batch";
import { type MiddlewareFunction } from "react-router";
import { cloudflareContext, tenantContext, userContext } from "~/context";
import { HOME_SHARD, isSharded, loadShardRoutes, shardDb, shardOfSlug, ShardRoutingError } from "~/db/client.server";
import { loadPlatformSession, staffSessionHash, staffSessionStatement, staffSessionUser } from "~/features/auth/index.server";
import { resolveHost } from "~/features/platform";
import { routeError } from "~/features/platform";
import {
  knownTenantId,
  pagePrefetchContext,
  pagePrefetchFor,
  rememberTenantId,
  tenantBySlugStatements,
  toTenantContext,
  type PagePrefetched,
} from "~/features/platform/index.server";

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
  // A signed-in GET of a page that registered its batch, on a tenant this isolate has seen: the
  // page's statements join this batch (ADR 0082).
  const url = idHash ? new URL(request.url) : null;
  const prefetch = url ? pagePrefetchFor(request.method, url.pathname) : null;
  const page = prefetch && url ? { prefetch, url, now: new Date() } : null;
  let read = await readTenantHost(env, resolution.slug, idHash, page);
  // The isolate's routing table was older than a move of this tenant: read it again and retry once.
  if (read.misrouted) {
    await loadShardRoutes(env, { force: true });
    read = await readTenantHost(env, resolution.slug, idHash, null);
  }
  const { tenant, sessionRow } = read;
  if (tenant) rememberTenantId(resolution.slug, tenant.id);
  context.set(pagePrefetchContext, read.prefetched);
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
 * the slug, with the page's own statements when the page registered them and this isolate knows
 * the slug's tenant id (`prefetched`: their results, only when the batch read that same id). `misrouted`: the row read says the tenant lives elsewhere (a global row naming a
 * shard) or the shard named has no such tenant.
 */
async function readTenantHost(env: Env, slug: string, idHash: string | null, page: PageToPrefetch | null) {
  const binding = shardOfSlug(env, slug);
  const db = shardDb(env, binding);
  const [tenantStmt, modulesStmt] = tenantBySlugStatements(db, slug);
  const own = idHash ? [tenantStmt, modulesStmt, staffSessionStatement(db, slug, idHash)] : [tenantStmt, modulesStmt];
  const guess = page ? knownTenantId(slug) : null;
  const pageStatements = page && guess ? await pageStatementsOrNone(env, db, guess, page) : [];
  const run = (items: readonly BatchItem<"sqlite">[]): Promise<readonly unknown[]> => db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  let results: readonly unknown[];
  try {
    results = await run([...own, ...pageStatements]);
  } catch (err) {
    // The page's statements must never cost the page itself: without them its loader asks (and reports) alone.
    if (pageStatements.length === 0) throw err;
    results = await run(own);
  }
  const tenantRows = results[0] as Awaited<typeof tenantStmt>;
  const moduleRows = results[1] as Awaited<typeof modulesStmt>;
  const sessionRows = (idHash ? results[2] : []) as Awaited<ReturnType<typeof staffSessionStatement>>;
  const row = tenantRows[0];
  const elsewhere = binding === HOME_SHARD && row?.shard != null && row.shard !== HOME_SHARD;
  // A Worker without shards never serves a tenant whose row names one: it is not here.
  if (elsewhere && !isSharded(env)) throw new ShardRoutingError("shard_binding_missing", `${row.shard} for tenant ${row.id}`);
  const misrouted = elsewhere || (binding !== HOME_SHARD && !row);
  const tenant = misrouted ? null : toTenantContext(tenantRows, moduleRows);
  // Used only when this very batch read the slug's tenant with the id the statements were built for.
  const pageResults = results.slice(own.length);
  const prefetched: PagePrefetched | null =
    page && tenant && guess === tenant.id && pageResults.length > 0
      ? { path: page.prefetch.path, tenantId: tenant.id, now: page.now, results: pageResults }
      : null;
  return { tenant, sessionRow: sessionRows[0], misrouted, prefetched };
}

/** The page's statements, or none when they cannot be built (its loader then builds them again and reports why). */
async function pageStatementsOrNone(env: Env, db: ReturnType<typeof shardDb>, tenantId: string, page: PageToPrefetch) {
  try {
    return await page.prefetch.statements(env, db, tenantId, page.url, page.now);
  } catch {
    return [];
  }
}

type PageToPrefetch = { prefetch: NonNullable<ReturnType<typeof pagePrefetchFor>>; url: URL; now: Date };
