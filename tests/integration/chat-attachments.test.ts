import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { seedGroup } from "../factories/chat";
import { createTenant, createUser, type TestTenant } from "../factories";
import { uploadOk } from "../factories/files";
import { page, visit } from "../factories/html";
import { signIn } from "./auth-helpers";
import { count } from "./auth-helpers";
import { connect } from "./chat-helpers";

async function person(t: TestTenant, role: Role) {
  const u = await createUser(t, { role });
  return { u, b: await signIn(t, u) };
}

/** A tenant with chat and files: Ann (a lead) has a private and a shared file, Ben a private one; all three are in one group. */
async function setting() {
  const t = await createTenant({ modules: ["chat", "files"] });
  const [ann, ben, cal] = [await person(t, "lead"), await person(t, "standard"), await person(t, "standard")];
  const annPrivate = await uploadOk(ann.b, t, "Ann private drawing.pdf", "a", { visibility: "private" });
  const annShared = await uploadOk(ann.b, t, "Ann shared drawing.pdf", "b", { visibility: "shared" });
  const benPrivate = await uploadOk(ben.b, t, "Ben private notes.txt", "c", { visibility: "private" });
  const roomId = await seedGroup(t, "Drawings", [ann.u.id, ben.u.id, cal.u.id]);
  return { t, ann, ben, cal, annPrivate, annShared, benPrivate, roomId };
}

const offered = async (b: Awaited<ReturnType<typeof person>>["b"], t: TestTenant, roomId: string, q = "") => {
  const { doc, status } = await visit(b, `${t.origin}/chat/${roomId}/attach?q=${encodeURIComponent(q)}&text=Hello&clientId=attach-client-01`);
  expect(status).toBe(200);
  return [...doc.querySelectorAll("[data-testid=attachable-file] input[name=fileId]")].map((i) => i.getAttribute("value"));
};

describe("chat attachments from Files", () => {
  it("offers the sender only files they may see, and shows each reader a file only if they may see it now", async () => {
    const s = await setting();
    const { t, roomId } = s;
    expect(new Set(await offered(s.ann.b, t, roomId))).toEqual(new Set([s.annPrivate, s.annShared]));
    expect(await offered(s.ann.b, t, roomId, "shared")).toEqual([s.annShared]);
    // Ben is offered his own file and Ann's shared one, never Ann's private file.
    expect(new Set(await offered(s.ben.b, t, roomId))).toEqual(new Set([s.benPrivate, s.annShared]));
    // The page keeps what was typed in the room's form.
    const attach = await visit(s.ann.b, `${t.origin}/chat/${roomId}/attach?text=Rev%20C%20drawings&clientId=attach-client-02`);
    expect(attach.doc.querySelector("#attach-text")?.textContent).toBe("Rev C drawings");

    const sent = await s.ann.b.post(`${t.origin}/chat/${roomId}/attach`, {
      text: "Rev C drawings",
      clientId: "attach-client-02",
      fileId: [s.annShared, s.annPrivate],
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/chat/${roomId}#latest`);

    const seenBy = async (b: typeof s.ann.b) => {
      const { doc } = await visit(b, `${t.origin}/chat/${roomId}`);
      return {
        links: [...doc.querySelectorAll("[data-testid=message-file]")].map((a) => `${a.textContent}=${a.getAttribute("href")}`),
        unavailable: doc.querySelectorAll("[data-testid=message-file-unavailable]").length,
        text: doc.body.textContent ?? "",
      };
    };
    expect((await seenBy(s.ann.b)).links).toEqual([`Ann shared drawing.pdf=/files/file/${s.annShared}`, `Ann private drawing.pdf=/files/file/${s.annPrivate}`]);
    const ben = await seenBy(s.ben.b);
    expect(ben.links).toEqual([`Ann shared drawing.pdf=/files/file/${s.annShared}`]);
    expect(ben.unavailable).toBe(1);
    expect(ben.text).not.toContain("Ann private drawing.pdf");
    // The link leads to the file's own page, which checks again.
    expect((await s.ben.b.get(`${t.origin}/files/file/${s.annPrivate}`)).status).toBe(404);

    // Visibility is decided when reading: the shared file made private is no longer shown to Ben.
    await env.DB.prepare("UPDATE files SET visibility = 'private' WHERE id = ?").bind(s.annShared).run();
    const later = await seenBy(s.cal.b);
    expect(later.links).toEqual([]);
    expect(later.unavailable).toBe(2);
    expect(later.text).not.toContain("drawing.pdf");
  });

  it("refuses a file the sender may not see, another tenant's file and too many files, storing nothing and keeping the text", async () => {
    const s = await setting();
    const { t, roomId } = s;
    const refused = await s.ben.b.post(`${t.origin}/chat/${roomId}/attach`, { text: "Here it is", clientId: "attach-bad-0001", fileId: [s.annPrivate] });
    expect(refused.status).toBe(400);
    const doc = await page(refused);
    expect(doc.querySelector("#files-error")?.textContent).toContain("not one you can see");
    expect(doc.querySelector("#attach-text")?.textContent).toBe("Here it is");
    // The room's own form refuses it the same way.
    expect((await s.ben.b.post(`${t.origin}/chat/${roomId}`, { intent: "send", text: "Here", clientId: "attach-bad-0002", fileId: s.annPrivate })).status).toBe(
      400,
    );

    const other = await createTenant({ modules: ["files"] });
    const stranger = await person(other, "lead");
    const foreign = await uploadOk(stranger.b, other, "Other tenant.pdf", "x", { visibility: "shared" });
    expect((await s.ann.b.post(`${t.origin}/chat/${roomId}/attach`, { text: "Theirs", clientId: "attach-bad-0003", fileId: [foreign] })).status).toBe(400);
    const six = [s.annShared, s.annPrivate, "f3", "f4", "f5", "f6"];
    const tooMany = await s.ann.b.post(`${t.origin}/chat/${roomId}/attach`, { text: "Many", clientId: "attach-bad-0004", fileId: six });
    expect(tooMany.status).toBe(400);
    expect((await page(tooMany)).querySelector("#files-error")?.textContent).toContain("at most 5 files");
    expect(await count("chat_messages", "room_id = ?", roomId)).toBe(0);
    expect(await count("chat_message_files", "room_id = ?", roomId)).toBe(0);
  });

  it("tells live sockets how many files a message has without naming them (each reader may see different ones)", async () => {
    const s = await setting();
    const { t, roomId } = s;
    const live = await connect(s.cal.b, t, roomId);
    await s.ann.b.post(`${t.origin}/chat/${roomId}/attach`, { text: "Two drawings", clientId: "attach-live-0001", fileId: [s.annShared, s.annPrivate] });
    const frames = await live.until((f) => f.some((x) => x.type === "message"));
    const frame = frames.find((f) => f.type === "message");
    expect(frame?.type === "message" && frame.message.fileCount).toBe(2);
    expect(JSON.stringify(frames)).not.toContain("drawing.pdf");
    expect(JSON.stringify(frames)).not.toContain(s.annPrivate);
  });
});
