import { data } from "react-router";
import { requireModule } from "~/features/auth/index.server";
import { actorOf } from "./actor.server";
import { ownMessage, type ChatActor } from "./chat.server";
import { CHAT_ERRORS } from "./domain/rules";
import { chatRoomStub, type SocketIdentity } from "./live.server";

type Args = { request: Request; context: Parameters<typeof requireModule>[1]; params: { roomId: string; messageId: string } };

/**
 * The guard of the pages that edit or delete one message: the module, chat.send, and the message
 * being the person's own, not deleted, in a room they are in (anything else is a 404).
 */
export async function loadOwnMessage({ request, context, params }: Args) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const message = await ownMessage(rc.env, rc.tenant.id, rc.user.id, params.roomId, params.messageId);
  if (!message) throw data(CHAT_ERRORS.not_found, { status: 404 });
  return { roomId: params.roomId, message: { id: message.id, text: message.text, createdAt: message.createdAt } };
}

/** The person and their room, for the room's object: the page's change goes through it like a socket's. */
export async function pageChanger({ request, context, params }: Args) {
  const rc = await requireModule(request, context, { module: "chat", scope: "chat.send" });
  const actor: ChatActor = actorOf(rc);
  const who: SocketIdentity = { ...actor, roomId: params.roomId, canSend: true };
  return { who, stub: chatRoomStub(rc.env, rc.tenant.id, params.roomId) };
}
