import { data, redirect } from "react-router";
import { clearSessionCookie, revokeSession } from "~/features/auth/index.server";
import { clientIp, writeAudit } from "~/features/platform/index.server";
import { setToastHeader } from "~/features/platform/index.server";
import { requirePortalModule } from "../portal-auth.server";
import { loadPortalSession } from "../portal-session.server";
import type { Route } from "./+types/logout";

export function loader() {
  throw data("Page not found", { status: 404 });
}

/** A POST that revokes the portal session row (not only the cookie), then back to /portal/login. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, ctx, tenant } = requirePortalModule(context);
  const headers = new Headers();
  const session = await loadPortalSession(env, ctx, request, tenant.id);
  if (session) {
    await revokeSession(env, session.tenantId, session.sessionIdHash);
    await writeAudit(env, {
      tenantId: tenant.id,
      action: "cis.portal.signed_out",
      actorId: session.subcontractor.id,
      targetType: "subcontractor",
      targetId: session.subcontractor.id,
      ip: clientIp(request),
    });
  }
  headers.append("Set-Cookie", await clearSessionCookie(env, "portal"));
  headers.append("Set-Cookie", await setToastHeader(env, { type: "info", title: "Signed out", message: "You have been signed out of the portal." }));
  return redirect("/portal/login", { headers });
}
