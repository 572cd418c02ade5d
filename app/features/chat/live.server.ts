import { sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { chatMessages, users } from "~/db/schema";
import type { WireMessage } from "./domain/rules";

/** Who a socket belongs to, as the connect route vouches for it (headers only the Worker can set). */
export type SocketIdentity = {
  tenantId: string;
  roomId: string;
  userId: string;
  name: string;
  email: string;
  canSend: boolean;
  /** The person's scopes, when a page's form posts through the object (which files they may attach). Sockets carry none. */
  scopes?: readonly string[];
};

const HEADER = { tenant: "X-Chat-Tenant", room: "X-Chat-Room", user: "X-Chat-User", name: "X-Chat-Name", email: "X-Chat-Email", send: "X-Chat-Send" } as const;

/** The Durable Object of one room of one tenant. */
export function chatRoomStub(env: Env, tenantId: string, roomId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(`${tenantId}:${roomId}`));
}

/**
 * Hands an upgrade request, already checked (session, origin, tenant, membership), to the room's
 * Durable Object with the identity it checked. The object is reachable only through its binding,
 * so these headers cannot come from a browser.
 */
export function handOverSocket(env: Env, request: Request, who: SocketIdentity): Promise<Response> {
  const headers = new Headers({ Upgrade: "websocket" });
  headers.set(HEADER.tenant, who.tenantId);
  headers.set(HEADER.room, who.roomId);
  headers.set(HEADER.user, who.userId);
  headers.set(HEADER.name, encodeURIComponent(who.name));
  headers.set(HEADER.email, encodeURIComponent(who.email));
  headers.set(HEADER.send, who.canSend ? "1" : "0");
  return chatRoomStub(env, who.tenantId, who.roomId).fetch(new Request(request.url, { headers }));
}

export function identityFrom(request: Request): SocketIdentity | null {
  const h = request.headers;
  const tenantId = h.get(HEADER.tenant);
  const roomId = h.get(HEADER.room);
  const userId = h.get(HEADER.user);
  if (!tenantId || !roomId || !userId) return null;
  return {
    tenantId,
    roomId,
    userId,
    name: decodeURIComponent(h.get(HEADER.name) ?? ""),
    email: decodeURIComponent(h.get(HEADER.email) ?? ""),
    canSend: h.get(HEADER.send) === "1",
  };
}

/** Messages of a room stored after `since` (oldest first, at most `limit`): what a reconnecting socket missed. */
export async function messagesSince(env: Env, tenantId: string, roomId: string, since: number, limit = 200): Promise<WireMessage[]> {
  const rows = await dbFor(env, tenantId).all<{
    id: string;
    client_id: string;
    sender_id: string;
    sender_name: string | null;
    text: string;
    created_at: number;
    edited_at: number | null;
    deleted_at: number | null;
    file_count: number;
  }>(sql`SELECT msg.id, msg.client_id, msg.sender_id, su.display_name AS sender_name, msg.text, msg.created_at, msg.edited_at, msg.deleted_at, msg.file_count
    FROM ${chatMessages} msg LEFT JOIN ${users} su ON su.id = msg.sender_id AND su.tenant_id = ${tenantId}
    WHERE msg.tenant_id = ${tenantId} AND msg.room_id = ${roomId} AND (msg.created_at > ${since} OR msg.edited_at > ${since} OR msg.deleted_at > ${since})
    ORDER BY msg.created_at, msg.id LIMIT ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    clientId: r.client_id,
    senderId: r.sender_id,
    senderName: r.sender_name ?? "Former member",
    text: r.deleted_at ? "" : r.text,
    createdAt: r.created_at,
    editedAt: r.edited_at,
    deletedAt: r.deleted_at,
    fileCount: r.file_count,
  }));
}
