import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chatTenant, seedGroup } from "../factories/chat";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { page, visit } from "../factories/html";
import { auditSentence } from "~/features/platform/index.server";
import { connect } from "./chat-helpers";

async function auditActions(tenantId: string, roomId: string) {
  const rows = await env.DB.prepare("SELECT action, payload FROM audit_events WHERE tenant_id = ? AND target_id = ? ORDER BY created_at, rowid")
    .bind(tenantId, roomId)
    .all<{ action: string; payload: string | null }>();
  return rows.results.map((r) => `${r.action}:${(JSON.parse(r.payload ?? "{}") as { member?: string }).member ?? ""}`);
}

async function roleOf(roomId: string, userId: string) {
  return env.DB.prepare("SELECT role FROM chat_members WHERE room_id = ? AND user_id = ?").bind(roomId, userId).first<string>("role");
}

describe("chat group admins", () => {
  it("an admin makes another member admin and takes it away (audited); plain members cannot; a group always keeps an admin", async () => {
    const { t, people } = await chatTenant(["lead", "standard", "standard"]);
    const [a, m1, m2] = people;
    const roomId = await seedGroup(t, "Admins", [a!.id, m1!.id, m2!.id]);
    const room = `${t.origin}/chat/${roomId}`;
    // A plain member may not make anyone admin, themselves included.
    expect((await m1!.b.post(room, { intent: "make_admin", userId: m1!.id })).status).toBe(400);
    expect(await roleOf(roomId, m1!.id)).toBe("member");
    // The only admin can neither step down nor leave.
    const stepDown = await a!.b.post(room, { intent: "remove_admin", userId: a!.id });
    expect(stepDown.status).toBe(400);
    expect((await page(stepDown)).querySelector("[role=alert]")?.textContent).toContain("make someone else admin first");
    expect((await a!.b.post(room, { intent: "leave" })).status).toBe(400);

    const page1 = await visit(a!.b, room);
    const labels = [...page1.doc.querySelectorAll("[data-testid=member] button")].map((x) => x.getAttribute("aria-label"));
    expect(labels).toContain(`Make admin: ${m1!.name}`);
    expect((await a!.b.post(room, { intent: "make_admin", userId: m1!.id })).status).toBe(302);
    expect(await roleOf(roomId, m1!.id)).toBe("admin");
    const roles = [...(await visit(m2!.b, room)).doc.querySelectorAll("[data-testid=member]")].map((li) => li.getAttribute("data-role"));
    expect(roles.filter((r) => r === "admin")).toHaveLength(2);
    // The new admin administers: renames, and makes and unmakes a third admin.
    expect((await m1!.b.post(room, { intent: "rename", name: "Admins 2" })).status).toBe(302);
    expect((await m1!.b.post(room, { intent: "make_admin", userId: m2!.id })).status).toBe(302);
    expect((await m1!.b.post(room, { intent: "remove_admin", userId: m2!.id })).status).toBe(302);
    expect(await roleOf(roomId, m2!.id)).toBe("member");
    // With another admin there, the first one may leave; the remaining admin cannot step down.
    expect((await a!.b.post(room, { intent: "leave" })).headers.get("Location")).toBe("/chat");
    expect((await m1!.b.post(room, { intent: "remove_admin", userId: m1!.id })).status).toBe(400);
    expect(await roleOf(roomId, m1!.id)).toBe("admin");

    expect(await auditActions(t.id, roomId)).toEqual([
      `chat.member.promoted:${m1!.name}`,
      "chat.group.renamed:",
      `chat.member.promoted:${m2!.name}`,
      `chat.member.demoted:${m2!.name}`,
      "chat.member.left:",
    ]);
    expect(auditSentence("chat.member.promoted", { actor: "Ann", target: "Admins 2", payload: { member: "Bo" } })).toBe(
      "Ann made Bo an admin of the chat group Admins 2",
    );
  });

  it("refuses a person outside the group, another tenant's person, and everyone groups", async () => {
    const { t, people } = await chatTenant(["lead", "standard", "standard"]);
    const [a, m1, outsider] = people;
    const roomId = await seedGroup(t, "Closed", [a!.id, m1!.id]);
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "make_admin", userId: outsider!.id })).status).toBe(400);
    const other = await createTenant({ modules: ["chat"] });
    const stranger = await createUser(other);
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "make_admin", userId: stranger.id })).status).toBe(400);
    const everyone = await seedGroup(t, "All", [a!.id, m1!.id], { everyone: true });
    expect((await a!.b.post(`${t.origin}/chat/${everyone}`, { intent: "make_admin", userId: m1!.id })).status).toBe(400);
    // Another tenant's admin cannot reach the room at all.
    const ob = await signedIn(other, stranger);
    expect((await ob.post(`${other.origin}/chat/${roomId}`, { intent: "make_admin", userId: stranger.id })).status).toBe(404);
    expect(await auditActions(t.id, roomId)).toEqual([]);
    expect(await roleOf(roomId, outsider!.id)).toBeNull();
  });
});

describe("chat messages edited and deleted without JavaScript", () => {
  it("Edit link, form page, post, back to the room; the change reaches live sockets; only the sender's own message", async () => {
    const { t, people } = await chatTenant(["standard", "standard", "standard"]);
    const [a, b, outsider] = people;
    const roomId = await seedGroup(t, "Edits", [a!.id, b!.id]);
    expect((await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "nojs-edit-0001", text: "Pour at 9" })).status).toBe(302);
    const id = (await env.DB.prepare("SELECT id FROM chat_messages WHERE room_id = ?").bind(roomId).first<string>("id"))!;
    const editPath = `/chat/${roomId}/messages/${id}/edit`;
    expect((await visit(a!.b, `${t.origin}/chat/${roomId}`)).doc.querySelector(`a[href="${editPath}"]`)?.textContent).toBe("Edit");
    expect((await visit(b!.b, `${t.origin}/chat/${roomId}`)).doc.querySelector(`a[href="${editPath}"]`)).toBeNull();

    const form = await visit(a!.b, `${t.origin}${editPath}`);
    expect(form.status).toBe(200);
    expect(form.doc.querySelector("textarea[name=text]")?.textContent).toBe("Pour at 9");
    // Bad input: said next to the field, the text kept.
    const long = "z".repeat(4001);
    const tooLong = await a!.b.post(`${t.origin}${editPath}`, { text: long });
    expect(tooLong.status).toBe(400);
    const doc = await page(tooLong);
    expect(doc.querySelector("#edit-text-error")?.textContent).toContain("4,000 characters");
    expect(doc.querySelector("#edit-text")?.textContent).toBe(long);
    expect((await a!.b.post(`${t.origin}${editPath}`, { text: "  " })).status).toBe(400);

    const live = await connect(b!.b, t, roomId);
    const saved = await a!.b.post(`${t.origin}${editPath}`, { text: "Pour at 10" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/chat/${roomId}#m-${id}`);
    await live.until((f) => f.some((x) => x.type === "edited" && x.message.id === id && x.message.text === "Pour at 10"));
    const shown = await visit(b!.b, `${t.origin}/chat/${roomId}`);
    expect(shown.doc.querySelector(`#m-${id}`)?.textContent).toContain("Pour at 10");
    expect(shown.doc.querySelector(`#m-${id}`)?.textContent).toContain("(edited)");

    // Someone else's message: not their page, not their change; outside the room or the tenant: a 404.
    expect((await visit(b!.b, `${t.origin}${editPath}`)).status).toBe(404);
    expect((await b!.b.post(`${t.origin}${editPath}`, { text: "Hijacked" })).status).toBe(404);
    expect((await outsider!.b.post(`${t.origin}${editPath}`, { text: "Hijacked" })).status).toBe(404);
    const other = await createTenant({ modules: ["chat"] });
    const ob = await signedIn(other, await createUser(other));
    expect((await ob.post(`${other.origin}${editPath}`, { text: "Hijacked" })).status).toBe(404);
    expect(await env.DB.prepare("SELECT text FROM chat_messages WHERE id = ?").bind(id).first<string>("text")).toBe("Pour at 10");
  });

  it("Delete link, confirmation page, post; the deletion reaches live sockets; nobody else can delete it", async () => {
    const { t, people } = await chatTenant(["standard", "standard"]);
    const [a, b] = people;
    const roomId = await seedGroup(t, "Deletes", [a!.id, b!.id]);
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "nojs-delete-001", text: "Wrong gate code 4412" });
    const id = (await env.DB.prepare("SELECT id FROM chat_messages WHERE room_id = ?").bind(roomId).first<string>("id"))!;
    const deletePath = `/chat/${roomId}/messages/${id}/delete`;
    expect((await visit(a!.b, `${t.origin}/chat/${roomId}`)).doc.querySelector(`a[href="${deletePath}"]`)?.textContent).toBe("Delete");
    const confirm = await visit(a!.b, `${t.origin}${deletePath}`);
    expect(confirm.status).toBe(200);
    expect(confirm.doc.querySelector("[data-testid=message-to-delete]")?.textContent).toContain("Wrong gate code 4412");
    // Nothing is deleted by looking at the confirmation, nor by someone else's post.
    expect((await b!.b.post(`${t.origin}${deletePath}`, {})).status).toBe(404);
    expect(await env.DB.prepare("SELECT deleted_at FROM chat_messages WHERE id = ?").bind(id).first<number | null>("deleted_at")).toBeNull();

    const live = await connect(b!.b, t, roomId);
    const done = await a!.b.post(`${t.origin}${deletePath}`, {});
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/chat/${roomId}#latest`);
    await live.until((f) => f.some((x) => x.type === "deleted" && x.id === id));
    const after = await visit(b!.b, `${t.origin}/chat/${roomId}`);
    expect(after.doc.querySelector(`#m-${id}`)?.textContent).toContain("Message deleted");
    expect(after.doc.body.textContent).not.toContain("4412");
    // A deleted message has no edit or delete page any more.
    expect((await visit(a!.b, `${t.origin}${deletePath}`)).status).toBe(404);
    expect((await visit(a!.b, `${t.origin}/chat/${roomId}/messages/${id}/edit`)).status).toBe(404);
  });

  it("refuses the edit and delete pages without chat.send", async () => {
    const { t, people } = await chatTenant(["standard", "lead"], { bundles: { lead: ["chat.view"] } });
    const [a, reader] = people;
    const roomId = await seedGroup(t, "Readers", [a!.id, reader!.id]);
    await a!.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", clientId: "nojs-scope-0001", text: "Hello" });
    const id = (await env.DB.prepare("SELECT id FROM chat_messages WHERE room_id = ?").bind(roomId).first<string>("id"))!;
    expect((await reader!.b.get(`${t.origin}/chat/${roomId}/messages/${id}/edit`)).status).toBe(403);
    expect((await reader!.b.post(`${t.origin}/chat/${roomId}/messages/${id}/delete`, {})).status).toBe(403);
  });
});

describe("chat section navigation", () => {
  it("shows Chats, New chat and New group like other modules, the new pages only to people who can send", async () => {
    const { t, people } = await chatTenant(["standard", "lead"], { bundles: { lead: ["chat.view"] } });
    const [sender, reader] = people;
    const links = async (b: typeof sender.b, path: string) => {
      const { doc } = await visit(b, `${t.origin}${path}`);
      return [...doc.querySelectorAll('nav[aria-label="Chat sections"] a')].map((a) => `${a.textContent}=${a.getAttribute("href")}`);
    };
    expect(await links(sender!.b, "/chat")).toEqual(["Chats=/chat", "New chat=/chat/new", "New group=/chat/new-group"]);
    expect(await links(sender!.b, "/chat/new")).toEqual(["Chats=/chat", "New chat=/chat/new", "New group=/chat/new-group"]);
    expect(await links(reader!.b, "/chat")).toEqual(["Chats=/chat"]);
    expect((await reader!.b.get(`${t.origin}/chat/new`)).status).toBe(403);
    expect((await reader!.b.get(`${t.origin}/chat/new-group`)).status).toBe(403);
    const form = await visit(sender!.b, `${t.origin}/chat/new-group`);
    expect(form.doc.querySelector(`input[name=members][value="${reader!.id}"]`)).not.toBeNull();
    expect(form.doc.querySelector(`input[name=members][value="${sender!.id}"]`)).toBeNull();
  });
});
