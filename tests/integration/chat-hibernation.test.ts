import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chatRoomStub, type SocketIdentity } from "~/features/chat/index.server";
import { ChatRoom } from "../../workers/durable-objects/chat-room";
import { chatTenant, seedGroup } from "../factories/chat";
import { connect } from "./chat-helpers";

/**
 * The test pool cannot evict a Durable Object, so these tests do what the runtime does when a
 * hibernated room wakes: build a new instance of the class over the same state (no constructor-time
 * or in-memory data from before) and hand it the sockets the state still holds.
 */
describe("chat room: hibernation and wake-up", () => {
  it("a fresh instance over the same state stores and broadcasts a frame to every socket, knowing the sender from the socket's attachment", async () => {
    const { t, people } = await chatTenant(["standard", "standard", "standard"]);
    const [a, b, c] = people;
    const roomId = await seedGroup(t, "Woken", [a!.id, b!.id, c!.id]);
    const ends = [await connect(a!.b, t, roomId), await connect(b!.b, t, roomId), await connect(c!.b, t, roomId)];
    const stub = chatRoomStub(env, t.id, roomId);

    const seen = await runInDurableObject(stub, async (_old, state) => {
      const woken = new ChatRoom(state, env);
      const sockets = state.getWebSockets();
      const identities = sockets.map((ws) => ws.deserializeAttachment() as SocketIdentity);
      const fromB = sockets.find((ws) => (ws.deserializeAttachment() as SocketIdentity).userId === b!.id)!;
      await woken.webSocketMessage(fromB, JSON.stringify({ type: "send", clientId: "woken-client-0001", text: "Scaffold inspection at 2" }));
      await woken.webSocketMessage(fromB, JSON.stringify({ type: "send", clientId: "woken-client-0002", text: "Bring the tag book" }));
      return { count: sockets.length, identities, tagsOfB: state.getWebSockets(b!.id).length };
    });
    expect(seen.count).toBe(3);
    expect(seen.tagsOfB).toBe(1);
    expect(new Set(seen.identities.map((i) => `${i.tenantId}:${i.roomId}:${i.userId}`))).toEqual(
      new Set([a!.id, b!.id, c!.id].map((u) => `${t.id}:${roomId}:${u}`)),
    );

    for (const end of ends) await end.until(() => end.messages().length === 2);
    for (const end of ends) expect(end.messages()).toEqual(["Scaffold inspection at 2", "Bring the tag book"]);
    const senders = ends[0]!.frames.flatMap((f) => (f.type === "message" ? [f.message.senderId] : []));
    expect(senders).toEqual([b!.id, b!.id]);
    const stored = await env.DB.prepare("SELECT text, sender_id FROM chat_messages WHERE tenant_id = ? AND room_id = ? ORDER BY created_at, id")
      .bind(t.id, roomId)
      .all<{ text: string; sender_id: string }>();
    expect(stored.results).toEqual([
      { text: "Scaffold inspection at 2", sender_id: b!.id },
      { text: "Bring the tag book", sender_id: b!.id },
    ]);
  });

  it("a fresh instance closes a socket the client closed, keeps the others, and still cuts off a removed member", async () => {
    const { t, people } = await chatTenant(["standard", "standard", "standard"]);
    const [a, b, c] = people;
    const roomId = await seedGroup(t, "Woken close", [a!.id, b!.id, c!.id]);
    const [ea, eb, ec] = [await connect(a!.b, t, roomId), await connect(b!.b, t, roomId), await connect(c!.b, t, roomId)];
    const stub = chatRoomStub(env, t.id, roomId);

    await runInDurableObject(stub, async (_old, state) => {
      const woken = new ChatRoom(state, env);
      const ofC = state.getWebSockets(c!.id)[0]!;
      await woken.webSocketClose(ofC, 1000);
    });
    expect((await ec.closed).code).toBe(1000);

    // A new instance again: it knows the remaining people from the sockets alone.
    await runInDurableObject(stub, async (_old, state) => {
      const woken = new ChatRoom(state, env);
      expect(await woken.connections()).toBe(2);
      const ofA = state.getWebSockets(a!.id)[0]!;
      await woken.webSocketMessage(ofA, JSON.stringify({ type: "send", clientId: "woken-close-0001", text: "Two of us left" }));
      expect(await woken.kick(b!.id)).toBe(1);
    });
    await ea.until(() => ea.messages().length === 1);
    expect((await eb.closed).code).toBe(4403);
    expect(eb.messages()).toEqual(["Two of us left"]);
    expect(ec.messages()).toEqual([]);
  });
});
