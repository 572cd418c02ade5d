import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ServerFrame } from "~/features/chat";
import { chatTenant, seedGroup } from "../factories/chat";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { Browser } from "./http";
import { connect, upgrade } from "./chat-helpers";

describe("chat socket: who may connect", () => {
  it("lets a member in and refuses a non-member, another tenant, a foreign origin, a missing session and a missing chat.view", async () => {
    const { t, people } = await chatTenant(["standard", "standard", "standard"]);
    const [a, b, outsider] = people;
    const roomId = await seedGroup(t, "Gate", [a!.id, b!.id]);
    const s = await connect(a!.b, t, roomId);
    expect(s.frames.map((f) => f.type)).toEqual(["ready"]);
    expect((await upgrade(outsider!.b, t, roomId)).status).toBe(404);
    expect((await upgrade(a!.b, t, roomId, { origin: "https://evil.example" })).status).toBe(403);
    expect((await upgrade(new Browser(), t, roomId)).status).toBe(302);
    const other = await createTenant({ modules: ["chat"] });
    const ob = await signedIn(other, await createUser(other));
    const res = await ob.get(`${other.origin}/chat/${roomId}/socket`, { headers: { Upgrade: "websocket", Origin: other.origin } });
    expect(res.status).toBe(404);
    const noScope = await chatTenant(["standard"], { bundles: { standard: ["users.view"] } });
    const r2 = await seedGroup(noScope.t, "Closed", [noScope.people[0]!.id]);
    expect((await upgrade(noScope.people[0]!.b, noScope.t, r2)).status).toBe(403);
  });
});

describe("chat socket: messages", () => {
  it("stores each message and broadcasts it to every socket in the order stored", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Order", [a!.id, b!.id]);
    const sa = await connect(a!.b, t, roomId);
    const sb = await connect(b!.b, t, roomId);
    const sent = Array.from({ length: 20 }, (_, i) => `Load ${i + 1}`);
    sent.forEach((text, i) => sa.send({ type: "send", clientId: `order-client-${i}`, text }));
    await sb.until(() => sb.messages().length === 20);
    await sa.until(() => sa.messages().length === 20);
    expect(sb.messages()).toEqual(sent);
    expect(sa.messages()).toEqual(sent);
    const stored = await env.DB.prepare("SELECT text FROM chat_messages WHERE room_id = ? ORDER BY created_at, id").bind(roomId).all<{ text: string }>();
    expect(stored.results.map((r) => r.text)).toEqual(sent);
  });

  it("stores a message exactly once when the client retries it, on the same socket or after reconnecting", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Retries", [a!.id, b!.id]);
    const sb = await connect(b!.b, t, roomId);
    const sa = await connect(a!.b, t, roomId);
    const frame = { type: "send", clientId: "retry-client-0001", text: "Crane booked for 7am" };
    sa.send(frame);
    sa.send(frame);
    await sa.until(() => sa.messages().length === 2);
    sa.ws.close(1000);
    const again = await connect(a!.b, t, roomId);
    again.send(frame);
    await again.until(() => again.messages().length === 1);
    // The page's form posting the same client id is the same message too.
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: frame.clientId, text: frame.text });
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(1);
    // The other person saw it once.
    await new Promise((r) => setTimeout(r, 200));
    expect(sb.messages()).toEqual(["Crane booked for 7am"]);
    const ids = new Set([...sa.frames, ...again.frames].flatMap((f) => (f.type === "message" ? [f.message.id] : [])));
    expect(ids.size).toBe(1);
  });

  it("sends what a reconnecting socket missed since its newest message", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Catch-up", [a!.id, b!.id]);
    const sb = await connect(b!.b, t, roomId);
    const sa = await connect(a!.b, t, roomId);
    sa.send({ type: "send", clientId: "catchup-client-1", text: "first" });
    await sb.until(() => sb.messages().length === 1);
    const since = (sb.frames.find((f) => f.type === "message") as Extract<ServerFrame, { type: "message" }>).message.createdAt;
    sb.ws.close(1000);
    sa.send({ type: "send", clientId: "catchup-client-2", text: "second" });
    sa.send({ type: "send", clientId: "catchup-client-3", text: "third" });
    await sa.until(() => sa.messages().length === 3);
    const back = await connect(b!.b, t, roomId, { since });
    expect(back.messages()).toEqual(["second", "third"]);
  });

  it("broadcasts a message posted through the page's form to live sockets", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Mixed", [a!.id, b!.id]);
    const sb = await connect(b!.b, t, roomId);
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "form-client-01", text: "From the form" })).status).toBe(302);
    await sb.until(() => sb.messages().includes("From the form"));
  });

  it("broadcasts edits, deletions, typing (to others only) and read receipts; only the sender edits or deletes", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Edits", [a!.id, b!.id]);
    const sa = await connect(a!.b, t, roomId);
    const sb = await connect(b!.b, t, roomId);
    sa.send({ type: "send", clientId: "edit-client-001", text: "Pour at 9" });
    await sb.until(() => sb.messages().length === 1);
    const id = (sb.frames.find((f) => f.type === "message") as Extract<ServerFrame, { type: "message" }>).message.id;
    sb.send({ type: "edit", id, text: "Hijacked" });
    await sb.until((f) => f.some((x) => x.type === "error"));
    sa.send({ type: "edit", id, text: "Pour at 10" });
    await sb.until((f) => f.some((x) => x.type === "edited" && x.message.text === "Pour at 10"));
    sa.send({ type: "typing" });
    await sb.until((f) => f.some((x) => x.type === "typing" && x.userId === a!.id));
    sb.send({ type: "read" });
    await sa.until((f) => f.some((x) => x.type === "read" && x.userId === b!.id));
    const read = await env.DB.prepare("SELECT last_read_at FROM chat_members WHERE room_id = ? AND user_id = ?")
      .bind(roomId, b!.id)
      .first<number>("last_read_at");
    expect(read).toBeGreaterThan(Date.now());
    sa.send({ type: "delete", id });
    await sb.until((f) => f.some((x) => x.type === "deleted" && x.id === id));
    expect(sa.frames.some((f) => f.type === "typing")).toBe(false);
    const row = await env.DB.prepare("SELECT text, edited_at, deleted_at FROM chat_messages WHERE id = ?")
      .bind(id)
      .first<{ text: string; deleted_at: number | null }>();
    expect(row!.text).toBe("Pour at 10");
    expect(row!.deleted_at).not.toBeNull();
  });

  it("passes on at most one typing indicator per socket in two seconds, however many the client sends", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Typing flood", [a!.id, b!.id]);
    const sa = await connect(a!.b, t, roomId);
    const sb = await connect(b!.b, t, roomId);
    for (let i = 0; i < 25; i++) sa.send({ type: "typing" });
    // A message after the flood: once it arrives, every typing frame before it has arrived too.
    sa.send({ type: "send", clientId: "typing-flood-01", text: "done typing" });
    await sb.until(() => sb.messages().length === 1);
    expect(sb.frames.filter((f) => f.type === "typing")).toHaveLength(1);
  });

  it("refuses a message from someone without chat.send, storing nothing", async () => {
    const { t, people } = await chatTenant(["standard", "lead"], { bundles: { lead: ["chat.view"] } });
    const [a, reader] = people;
    const roomId = await seedGroup(t, "Read only", [a!.id, reader!.id]);
    const s = await connect(reader!.b, t, roomId);
    s.send({ type: "send", clientId: "readonly-client-1", text: "Can I?" });
    await s.until((f) => f.some((x) => x.type === "error"));
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(0);
  });
});

describe("chat socket: removal", () => {
  it("closes a removed member's socket at once and refuses them afterwards", async () => {
    const { t, people } = await chatTenant(["lead", "standard"]);
    const [admin, m] = people;
    const roomId = await seedGroup(t, "Cut off", [admin!.id, m!.id]);
    const sm = await connect(m!.b, t, roomId);
    const sa = await connect(admin!.b, t, roomId);
    expect((await admin!.b.post(`${t.origin}/chat/${roomId}`, { intent: "remove", userId: m!.id })).status).toBe(302);
    expect((await sm.closed).code).toBe(4403);
    sa.send({ type: "send", clientId: "after-remove-01", text: "Not for you" });
    await sa.until(() => sa.messages().length === 1);
    expect(sm.messages()).toEqual([]);
    expect((await upgrade(m!.b, t, roomId)).status).toBe(404);
  });

  it("closes a person's sockets in every room at once when an admin disables them", async () => {
    const { t, people } = await chatTenant(["admin", "standard", "standard"]);
    const [admin, m, other] = people;
    const group = await seedGroup(t, "Disabled at once", [admin!.id, m!.id, other!.id]);
    const everyone = await seedGroup(t, "Everyone", [admin!.id], { everyone: true });
    const inGroup = await connect(m!.b, t, group);
    const inEveryone = await connect(m!.b, t, everyone);
    const stays = await connect(other!.b, t, group);
    expect((await admin!.b.post(`${t.origin}/settings/users`, { intent: "disable", userId: m!.id, confirmed: "yes" })).status).toBe(302);
    expect((await inGroup.closed).code).toBe(4403);
    expect((await inEveryone.closed).code).toBe(4403);
    // Nobody else is cut off.
    stays.send({ type: "send", clientId: "after-disable-01", text: "Still here" });
    await stays.until(() => stays.messages().includes("Still here"));
  });

  it("refuses the next frame of a socket whose person was disabled since connecting, and closes it", async () => {
    const { t, people } = await chatTenant();
    const [a, m] = people;
    const roomId = await seedGroup(t, "Disabled", [a!.id, m!.id]);
    const sm = await connect(m!.b, t, roomId);
    await env.DB.prepare("UPDATE users SET disabled = 1 WHERE id = ?").bind(m!.id).run();
    sm.send({ type: "send", clientId: "disabled-client-1", text: "Still here?" });
    expect((await sm.closed).code).toBe(4403);
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(0);
  });
});
