import { data } from "react-router";
import { can } from "~/features/auth";
import { requireModule } from "~/features/auth/index.server";
import { mayJoinRoom } from "../chat.server";
import { handOverSocket } from "../live.server";
import type { Route } from "./+types/socket";

/**
 * The live socket of a room. The request is checked here, in the Worker: the module is on and the
 * signed session holds chat.view (the guard), the upgrade comes from this tenant's own pages (its
 * Origin is this host: a page elsewhere cannot open a socket with the person's cookie), and the
 * person is in the room. Only then does the room's Durable Object take the socket.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "chat" });
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") throw data("Expected a WebSocket upgrade", { status: 426 });
  if (request.headers.get("Origin") !== new URL(request.url).origin) throw data("Forbidden: cross-origin socket refused", { status: 403 });
  if (!(await mayJoinRoom(env, tenant.id, user.id, params.roomId))) throw data("Chat not found", { status: 404 });
  return handOverSocket(env, request, {
    tenantId: tenant.id,
    roomId: params.roomId,
    userId: user.id,
    name: user.displayName,
    email: user.email,
    canSend: can(user, "chat.send"),
  });
}
