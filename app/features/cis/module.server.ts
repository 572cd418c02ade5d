import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext, type SessionUser } from "~/context";
import { requireTenant, requireUser, requireUserWithScope } from "~/features/auth/index.server";
import type { TenantContextValue } from "~/features/platform/index.server";
import type { CisScope } from "./domain/scopes";

type Ctx = Readonly<RouterContextProvider>;

export type CisRequest = { env: Env; ctx: ExecutionContext; tenant: TenantContextValue; user: SessionUser };

/**
 * Every CIS loader and action starts here: a tenant host with the CIS module switched on,
 * a signed-in staff member, and (when given) one of the scopes, checked on the server.
 */
export async function requireCis(request: Request, context: Ctx, scope?: CisScope | readonly CisScope[]): Promise<CisRequest> {
  const { env, ctx } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = scope ? await requireUserWithScope(request, context, scope) : requireUser(request, context);
  if (!hasCisModule(tenant)) throw data("Page not found", { status: 404 });
  return { env, ctx, tenant, user };
}

/** The one test of whether a tenant has the CIS module (the staff pages and the portal alike). */
export function hasCisModule(tenant: Pick<TenantContextValue, "modules">): boolean {
  return tenant.modules.some((m) => m.id === "cis");
}

export function actorOf(user: SessionUser) {
  return { id: user.id, email: user.email, name: user.displayName };
}
export type Actor = ReturnType<typeof actorOf>;
