import { DurableObject } from "cloudflare:workers";
import { loadShardRoutes } from "../../app/db/client.server";
import {
  deleteMessage,
  editMessage,
  identityFrom,
  markRead,
  messagesSince,
  parseClientFrame,
  sendMessage,
  type ChatActor,
  type ChatResult,
  type ClientFrame,
  type Sent,
  type ServerFrame,
  type MessageChange,
  type SocketIdentity,
  TYPING_MIN_GAP_MS,
} from "../../app/features/chat/index.server";

/** What a socket carries in its attachment: its person, and when it last sent a typing indicator. */
type LiveIdentity = SocketIdentity & { typingAt?: number };

/** Close code for a socket whose person is no longer in the room (or never was). */
export const CLOSE_REMOVED = 4403;

/**
 * One instance per room of a tenant (idFromName(`${tenantId}:${roomId}`)). It holds the room's live
 * sockets with the WebSocket Hibernation API: an idle room is evicted from memory and its sockets
 * stay open, each carrying its person in its attachment. Every change goes to D1 first and is
 * broadcast after it was stored; changes are handled one after another, so every socket sees them
 * in the order they were stored.
 */
export class ChatRoom extends DurableObject<Env> {
  /** The tail of the work queue: each frame waits for the one before it. */
  private tail: Promise<unknown> = Promise.resolve();

  /** The last message time this instance stored: each new one is later, so D1's order is the broadcast order. */
  private lastAt = 0;

  private stamp(): number {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1);
    return this.lastAt;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    // The room's history lives in its tenant's shard: the routing table comes first (ADR 0064).
    const routed = () => loadShardRoutes(this.env).then(work);
    const next = this.tail.then(routed, routed);
    this.tail = next.catch(() => undefined);
    return next;
  }

  async fetch(request: Request): Promise<Response> {
    const who = identityFrom(request);
    if (!who || request.headers.get("Upgrade") !== "websocket") return new Response("Expected a checked WebSocket upgrade", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [who.userId]);
    server.serializeAttachment(who);
    // What a reconnecting client missed while it was away, before anything newer.
    const since = Number(new URL(request.url).searchParams.get("since") ?? "");
    if (Number.isSafeInteger(since) && since > 0) {
      await this.serial(async () => {
        const missed = await messagesSince(this.env, who.tenantId, who.roomId, since);
        for (const message of missed) server.send(JSON.stringify({ type: "message", message } satisfies ServerFrame));
      });
    }
    server.send(JSON.stringify({ type: "ready" }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const frame = parseClientFrame(typeof raw === "string" ? raw : null);
    if (!frame) return;
    // The person is read from the socket when the frame's turn comes (it carries the typing throttle too).
    await this.serial(async () => {
      const who = ws.deserializeAttachment() as LiveIdentity | null;
      if (who) await this.handle(ws, who, frame);
    });
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }

  /** A message sent without the socket (the page's form): stored and broadcast in the same order as socket frames. */
  async post(who: SocketIdentity, clientId: string, text: string, fileIds: readonly string[] = []): Promise<ChatResult<Sent>> {
    return this.serial(async () => {
      const result = await sendMessage(this.env, actorOf(who), who.roomId, clientId, text, this.stamp(), fileIds);
      if (result.ok && result.value.created) this.broadcast({ type: "message", message: result.value.message });
      return result;
    });
  }

  /** An edit or a deletion from a page's form: stored and broadcast in turn with socket frames, by the same rules. */
  async change(who: SocketIdentity, change: MessageChange): Promise<ChatResult<ServerFrame>> {
    return this.serial(() => this.applyChange(who, change));
  }

  /** Stores an edit or deletion of the person's own message, then broadcasts it. */
  private async applyChange(who: SocketIdentity, change: MessageChange): Promise<ChatResult<ServerFrame>> {
    if (!who.canSend) return { ok: false, code: "not_yours" };
    const frame = await storeChange(this.env, actorOf(who), who.roomId, change);
    if (frame.ok) this.broadcast(frame.value);
    return frame;
  }

  /** Closes every socket of a person taken out of the room, at once. */
  async kick(userId: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(userId);
    for (const ws of sockets) {
      try {
        ws.close(CLOSE_REMOVED, "removed from the room");
      } catch {
        // already closed
      }
    }
    return sockets.length;
  }

  /** How many sockets are connected (for tests and the benchmark). */
  async connections(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  private async handle(ws: WebSocket, who: LiveIdentity, frame: ClientFrame): Promise<void> {
    const actor = actorOf(who);
    switch (frame.type) {
      case "send": {
        if (!who.canSend) return reply(ws, { type: "error", code: "not_found", clientId: frame.clientId });
        const result = await sendMessage(this.env, actor, who.roomId, frame.clientId, frame.text, this.stamp());
        if (!result.ok) {
          reply(ws, { type: "error", code: result.code, clientId: frame.clientId });
          if (result.code === "not_found") ws.close(CLOSE_REMOVED, "not in the room");
          return;
        }
        // A retry of a stored message is answered to its sender only: the others have it.
        if (result.value.created) this.broadcast({ type: "message", message: result.value.message });
        else reply(ws, { type: "message", message: result.value.message });
        return;
      }
      case "edit":
      case "delete": {
        const result = await this.applyChange(who, frame);
        if (!result.ok) reply(ws, { type: "error", code: result.code });
        return;
      }
      case "typing": {
        // At most one typing indicator per socket per TYPING_MIN_GAP_MS, whatever the client sends.
        const now = Date.now();
        if (now - (who.typingAt ?? 0) < TYPING_MIN_GAP_MS) return;
        ws.serializeAttachment({ ...who, typingAt: now } satisfies LiveIdentity);
        this.broadcast({ type: "typing", userId: who.userId, name: who.name }, ws);
        return;
      }
      case "read": {
        const result = await markRead(this.env, who.tenantId, who.userId, who.roomId);
        if (result.ok) this.broadcast({ type: "read", userId: who.userId, name: who.name, at: result.value });
        else ws.close(CLOSE_REMOVED, "not in the room");
        return;
      }
    }
  }

  private broadcast(frame: ServerFrame, except?: WebSocket): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except) continue;
      try {
        ws.send(text);
      } catch {
        // a socket closing as we send: it reconnects and catches up
      }
    }
  }
}

function reply(ws: WebSocket, frame: ServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // closed
  }
}

function actorOf(who: SocketIdentity): ChatActor {
  return { tenantId: who.tenantId, userId: who.userId, name: who.name, email: who.email, scopes: who.scopes };
}

/** Writes an edit or a deletion to D1 and answers the frame that tells the room about it. */
async function storeChange(env: Env, actor: ChatActor, roomId: string, change: MessageChange): Promise<ChatResult<ServerFrame>> {
  if (change.type === "edit") {
    const edited = await editMessage(env, actor, roomId, change.id, change.text);
    return edited.ok ? { ok: true, value: { type: "edited", message: edited.value } } : edited;
  }
  const deleted = await deleteMessage(env, actor, roomId, change.id);
  return deleted.ok ? { ok: true, value: { type: "deleted", id: deleted.value.id, deletedAt: deleted.value.deletedAt } } : deleted;
}
