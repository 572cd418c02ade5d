import { data, redirect } from "react-router";
import { cloudflareContext, userContext } from "~/context";
import { clientIp, writeAudit } from "~/features/platform/index.server";
import { setToastHeader } from "~/features/platform/index.server";
import { clearSessionCookie, revokeSession } from "../session.server";
import type { Route } from "./+types/logout";

/** Logout is a POST: it revokes the session row, not just the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  const user = context.get(userContext);
  const headers = new Headers();
  if (user) {
    await revokeSession(env, user.tenantId, user.sessionIdHash);
    await writeAudit(env, { tenantId: user.tenantId, action: "auth.logout", actorId: user.id, actorEmail: user.email, ip: clientIp(request) });
    headers.append("Set-Cookie", await clearSessionCookie(env, user.kind === "platform" ? "platform" : "staff"));
  }
  headers.append("Set-Cookie", await setToastHeader(env, { type: "info", title: "Signed out", message: "You have been signed out." }));
  return redirect("/login", { headers });
}

export function loader() {
  throw data("Page not found", { status: 404 });
}
