import { data, type RouterContextProvider } from "react-router";
import { tenantContext, type SessionUser } from "~/context";
import { requireScope, requireUser } from "~/features/auth/index.server";

/**
 * Every console loader and action starts here: the console lives on the bare domain only
 * (404 on a tenant host), needs a platform session and system.superadmin.
 */
export async function guardConsole(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  if (context.get(tenantContext)) throw data("Page not found", { status: 404 });
  const user = requireUser(request, context);
  await requireScope(request, context, user, "system.superadmin");
  return user;
}
