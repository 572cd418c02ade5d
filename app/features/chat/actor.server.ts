import type { RequestContext } from "~/features/auth/index.server";
import type { ChatActor } from "./chat.server";

/** The chat's view of the signed-in person a guarded request carries. */
export function actorOf(rc: RequestContext): ChatActor {
  return { tenantId: rc.tenant.id, userId: rc.user.id, name: rc.user.displayName, email: rc.user.email, ip: rc.ip, scopes: rc.user.scopes };
}
