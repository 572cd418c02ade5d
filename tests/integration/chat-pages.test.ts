import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chatTenant, seedGroup, seedMessages } from "../factories/chat";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { page, visit } from "../factories/html";
import { count } from "./auth-helpers";

const ROOM_PATH = /^\/chat\/([A-Za-z0-9_-]+)/;

function roomIdOf(res: Response): string {
  const m = ROOM_PATH.exec(res.headers.get("Location") ?? "");
  if (!m) throw new Error(`no room in ${res.headers.get("Location")}`);
  return m[1]!;
}

async function roomMessages(b: { get(url: string): Promise<Response> }, url: string) {
  const { doc, status } = await visit(b, url);
  return { status, texts: [...doc.querySelectorAll("[data-testid=message] p:nth-of-type(2)")].map((p) => p.textContent ?? ""), doc };
}

describe("chat without JavaScript", () => {
  it("starts a direct chat, posts a message, redirects to the newest messages, and the other person sees it unread", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const open = await a!.b.post(`${t.origin}/chat/new`, { userId: b!.id });
    expect(open.status).toBe(302);
    const roomId = roomIdOf(open);
    // Opening again (from either side) gives the same chat.
    expect(roomIdOf(await b!.b.post(`${t.origin}/chat/new`, { userId: a!.id }))).toBe(roomId);

    const form = await page(await a!.b.get(`${t.origin}/chat/${roomId}`));
    const clientId = form.querySelector<HTMLInputElement>("input[name=clientId]")!.getAttribute("value")!;
    const sent = await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId, text: "Skip arriving 10:30, gate 2" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/chat/${roomId}#latest`);
    // The same form posted again (a double click, a retried request) is stored once.
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId, text: "Skip arriving 10:30, gate 2" })).status).toBe(302);
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(1);

    const list = await visit(b!.b, `${t.origin}/chat`);
    const row = list.doc.querySelector("[data-testid=chat-room]")!;
    expect(row.getAttribute("data-unread")).toBe("1");
    expect(list.doc.querySelector("[data-testid=module-count-chat]")?.textContent).toContain("1");

    const shown = await roomMessages(b!.b, `${t.origin}/chat/${roomId}`);
    expect(shown.texts).toEqual(["Skip arriving 10:30, gate 2"]);
    // Opening the room marked it read: nothing unread now, in the list or the shell.
    const after = await visit(b!.b, `${t.origin}/chat`);
    expect(after.doc.querySelector("[data-testid=chat-room]")!.getAttribute("data-unread")).toBe("0");
    expect(after.doc.querySelector("[data-testid=module-count-chat]")).toBeNull();
  });

  it("keeps the text and says why when a message is too long or empty", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Site team", [a!.id, b!.id]);
    const long = "x".repeat(4001);
    const res = await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-long-1", text: long });
    expect(res.status).toBe(400);
    const doc = await page(res);
    expect(doc.querySelector("#message-text-error")?.textContent).toContain("4,000 characters");
    expect(doc.querySelector("#message-text")?.textContent).toBe(long);
    const empty = await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-empty-1", text: "   " });
    expect(empty.status).toBe(400);
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(0);
    // Exactly 4,000 characters is allowed.
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-max-1", text: "y".repeat(4000) })).status).toBe(302);
  });

  it("renders messages escaped, with only http(s) links clickable", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Links", [a!.id, b!.id]);
    const text = `<img src=x onerror=alert(1)> see https://example.com/plan?a=1, and javascript:alert(1)`;
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-xss-1", text })).status).toBe(302);
    const { doc } = await visit(b!.b, `${t.origin}/chat/${roomId}`);
    const msg = doc.querySelector("[data-testid=message]")!;
    expect(msg.querySelector("img")).toBeNull();
    expect(msg.textContent).toContain("<img src=x onerror=alert(1)>");
    const links = [...msg.querySelectorAll("a")];
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["https://example.com/plan?a=1"]);
    expect(links[0]!.getAttribute("rel")).toContain("noopener");
  });

  it("pages back through history with an Older messages cursor, 50 at a time", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "History", [a!.id, b!.id]);
    await seedMessages(t, roomId, b!.id, 120);
    const first = await roomMessages(a!.b, `${t.origin}/chat/${roomId}`);
    expect(first.texts.length).toBe(50);
    expect(first.texts.at(-1)).toBe("Seeded message 120");
    expect(first.texts[0]).toBe("Seeded message 71");
    const older = first.doc.querySelector("[data-testid=older]")!.getAttribute("href")!;
    const second = await roomMessages(a!.b, `${t.origin}${older}`);
    expect(second.texts[0]).toBe("Seeded message 21");
    expect(second.texts.at(-1)).toBe("Seeded message 70");
    const third = await roomMessages(a!.b, `${t.origin}${second.doc.querySelector("[data-testid=older]")!.getAttribute("href")!}`);
    expect(third.texts[0]).toBe("Seeded message 1");
    expect(third.texts.length).toBe(20);
    expect(third.doc.querySelector("[data-testid=older]")).toBeNull();
  });

  it("counts unread from the read time, which marking read sets 5 seconds ahead", async () => {
    const { markRead } = await import("~/features/chat/index.server");
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Reads", [a!.id, b!.id]);
    const now = Date.now();
    const res = await markRead(env, t.id, a!.id, roomId, now);
    expect(res).toEqual({ ok: true, value: now + 5000 });
    // A message from someone else within the 5 seconds is not unread; one after is.
    await seedMessages(t, roomId, b!.id, 1, now + 4000);
    await seedMessages(t, roomId, b!.id, 1, now + 7000);
    const list = await visit(a!.b, `${t.origin}/chat`);
    expect(list.doc.querySelector("[data-testid=chat-room]")!.getAttribute("data-unread")).toBe("1");
    // One's own messages are never unread.
    await seedMessages(t, roomId, a!.id, 3, now + 9000);
    expect((await visit(a!.b, `${t.origin}/chat`)).doc.querySelector("[data-testid=chat-room]")!.getAttribute("data-unread")).toBe("1");
  });

  it("creates a group with members, lists rooms newest activity first, and the admin renames, adds and removes (audited)", async () => {
    const { t, people } = await chatTenant(["lead", "standard", "standard", "standard"]);
    const [admin, m1, m2, m3] = people;
    const noName = await admin!.b.post(`${t.origin}/chat/new-group`, { name: "", members: [m1!.id] });
    expect(noName.status).toBe(400);
    expect((await page(noName)).querySelector("#group-name-error")?.textContent).toBe("Give the group a name.");
    const created = await admin!.b.post(`${t.origin}/chat/new-group`, { name: "Deliveries", members: [m1!.id, m2!.id] });
    expect(created.status).toBe(302);
    const roomId = roomIdOf(created);
    const older = await seedGroup(t, "Older group", [admin!.id, m1!.id], { lastActivityAt: Date.now() - 3_600_000 });
    await seedMessages(t, older, m1!.id, 1, Date.now() - 3_600_000);
    const names = (await visit(m1!.b, `${t.origin}/chat`)).doc.querySelectorAll("[data-testid=chat-room]");
    expect(names.length).toBe(2);
    expect(names[0]!.textContent).toContain("Deliveries");

    expect((await admin!.b.post(`${t.origin}/chat/${roomId}`, { intent: "rename", name: "Deliveries – Block B" })).status).toBe(302);
    expect((await admin!.b.post(`${t.origin}/chat/${roomId}`, { intent: "add", members: [m3!.id] })).status).toBe(302);
    expect((await visit(m3!.b, `${t.origin}/chat/${roomId}`)).status).toBe(200);
    expect((await admin!.b.post(`${t.origin}/chat/${roomId}`, { intent: "remove", userId: m2!.id })).status).toBe(302);
    expect((await visit(m2!.b, `${t.origin}/chat/${roomId}`)).status).toBe(404);
    // A plain member may not rename or remove.
    expect((await m1!.b.post(`${t.origin}/chat/${roomId}`, { intent: "remove", userId: m3!.id })).status).toBe(400);
    expect((await m1!.b.post(`${t.origin}/chat/${roomId}`, { intent: "rename", name: "Mine now" })).status).toBe(400);
    // Leaving.
    expect((await m1!.b.post(`${t.origin}/chat/${roomId}`, { intent: "leave" })).headers.get("Location")).toBe("/chat");
    expect((await visit(m1!.b, `${t.origin}/chat/${roomId}`)).status).toBe(404);

    const actions = await env.DB.prepare("SELECT action FROM audit_events WHERE tenant_id = ? AND target_id = ? ORDER BY created_at, rowid")
      .bind(t.id, roomId)
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual([
      "chat.group.created",
      "chat.group.renamed",
      "chat.member.added",
      "chat.member.removed",
      "chat.member.left",
    ]);
  });

  it("puts everyone, present and future, in an Everyone group", async () => {
    const { t, people } = await chatTenant();
    const [a] = people;
    const created = await a!.b.post(`${t.origin}/chat/new-group`, { name: "All site", everyone: "on" });
    const roomId = roomIdOf(created);
    const late = await createUser(t);
    const lb = await signedIn(t, late);
    expect((await visit(lb, `${t.origin}/chat/${roomId}`)).status).toBe(200);
    expect((await lb.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-late-1", text: "Morning all" })).status).toBe(302);
    // Nobody can leave or be removed from it.
    expect((await lb.post(`${t.origin}/chat/${roomId}`, { intent: "leave" })).status).toBe(400);
  });

  it("notifies a person @mentioned, once, in the notifications inbox", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Mentions", [a!.id, b!.id]);
    const text = `@${b!.name} can you sign for the steel?`;
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-mention-1", text });
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-mention-1", text });
    expect(await count("notifications", "tenant_id = ? AND target_user_id = ? AND type = 'chat.mention'", t.id, b!.id)).toBe(1);
    const inbox = await visit(b!.b, `${t.origin}/notifications`);
    expect(inbox.text).toContain(`${a!.name} mentioned you in chat`);
  });

  it("limits how fast one person can send", async () => {
    const { t, people } = await chatTenant();
    const [a, b] = people;
    const roomId = await seedGroup(t, "Busy", [a!.id, b!.id]);
    await seedMessages(t, roomId, a!.id, 30, Date.now());
    const res = await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-rate-1", text: "one more" });
    expect(res.status).toBe(400);
    expect((await page(res)).querySelector("#message-text-error")?.textContent).toContain("too quickly");
  });
});

describe("chat access", () => {
  it("answers 404 for another tenant's room and for a room one is not in", async () => {
    const { t, people } = await chatTenant(["standard", "standard", "standard"]);
    const [a, b, outsider] = people;
    const roomId = await seedGroup(t, "Private", [a!.id, b!.id]);
    expect((await outsider!.b.get(`${t.origin}/chat/${roomId}`)).status).toBe(404);
    expect((await outsider!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-out-1", text: "hi" })).status).toBe(404);
    const other = await createTenant({ modules: ["chat"] });
    const ou = await createUser(other);
    const ob = await signedIn(other, ou);
    expect((await ob.get(`${other.origin}/chat/${roomId}`)).status).toBe(404);
    expect((await ob.post(`${other.origin}/chat/${roomId}`, { intent: "send", clientId: "client-x-1", text: "hi" })).status).toBe(404);
    expect((await ob.post(`${other.origin}/chat/new`, { userId: a!.id })).status).toBe(400);
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(0);
  });

  it("refuses the pages without chat.view and the forms without chat.send, and the module when switched off", async () => {
    const { t, people } = await chatTenant(["standard", "lead"], { bundles: { standard: ["users.view"], lead: ["chat.view"] } });
    const [none, reader] = people;
    const roomId = await seedGroup(t, "Readers", [reader!.id, none!.id]);
    expect((await none!.b.get(`${t.origin}/chat`)).status).toBe(403);
    expect((await none!.b.get(`${t.origin}/chat/${roomId}`)).status).toBe(403);
    expect((await reader!.b.get(`${t.origin}/chat/${roomId}`)).status).toBe(200);
    expect((await reader!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "client-ro-1", text: "hi" })).status).toBe(403);
    expect((await reader!.b.post(`${t.origin}/chat/new`, { userId: none!.id })).status).toBe(403);
    const off = await createTenant();
    const u = await createUser(off);
    expect((await (await signedIn(off, u)).get(`${off.origin}/chat`)).status).toBe(404);
  });
});

describe("chat demo data", () => {
  it("gives acme a site team group and direct chats with a morning of messages, once however often it runs", async () => {
    const { getDb } = await import("~/db/client.server");
    const { seedChat, seedPlatform } = await import("~/db/seed");
    const { Browser } = await import("./http");
    const { signIn } = await import("./auth-helpers");
    const db = getDb(env);
    await seedPlatform(db, { pepper: env.PASSWORD_PEPPER });
    await seedChat(db);
    await seedChat(db);
    expect(await count("chat_rooms", "tenant_id = 'tnt_acme'")).toBe(3);
    const messages = await count("chat_messages", "tenant_id = 'tnt_acme'");
    expect(messages).toBeGreaterThan(10);
    const acme = { id: "tnt_acme", slug: "acme", name: "Acme", host: "acme.localhost", origin: "http://acme.localhost" };
    const staff = await signIn(acme, { email: "staff@acme.test", password: "workspace-demo-2026" }, new Browser());
    const list = await visit(staff, `${acme.origin}/chat`);
    expect(list.status).toBe(200);
    const rooms = [...list.doc.querySelectorAll("[data-testid=chat-room]")].map((r) => r.textContent ?? "");
    expect(rooms.length).toBe(2);
    expect(rooms.some((r) => r.includes("Riverside site team"))).toBe(true);
    expect(rooms.some((r) => r.includes("Liam Lead"))).toBe(true);
    // The morning's messages from others are unread, and the shell says so.
    expect(Number(list.doc.querySelector("[data-testid=module-count-chat]")?.textContent?.replace(/\D/g, "") ?? 0)).toBeGreaterThan(0);
  });
});
