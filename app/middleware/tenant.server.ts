import { type MiddlewareFunction } from "react-router";
import { cloudflareContext, tenantContext } from "~/context";
import { resolveHost } from "~/features/platform/host";
import { routeError } from "~/features/platform/route-errors";
import { findTenantBySlug } from "~/features/platform/tenants.server";

/** Resolves the tenant from the first host label below APP_DOMAIN (null on the bare domain). */
export const tenantMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { env } = context.get(cloudflareContext);
  const resolution = resolveHost(new URL(request.url).host, env.APP_DOMAIN);
  if (resolution.kind === "unknown") throw routeError("workspace_not_found", 404);
  if (resolution.kind === "tenant") {
    const tenant = await findTenantBySlug(env, resolution.slug);
    if (!tenant) throw routeError("workspace_not_found", 404);
    context.set(tenantContext, tenant);
  } else {
    context.set(tenantContext, null);
  }
  return next();
};
