import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { requireTenant, requireUser, requireUserWithScope } from "~/features/auth/index.server";
import type { Scope } from "~/features/auth";
import { clientIp } from "~/features/platform/index.server";

type Ctx = Readonly<RouterContextProvider>;

/** Every team page: a tenant host, a signed-in staff member and, when given, the scope. */
export async function requireTeam(request: Request, context: Ctx, scope?: Scope) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  const user = scope ? await requireUserWithScope(request, context, scope) : requireUser(request, context);
  return { env, tenant, user, actor: { id: user.id, email: user.email }, ip: clientIp(request) };
}
