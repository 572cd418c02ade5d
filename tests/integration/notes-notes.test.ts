import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Role } from "~/db/schema";
import { noteViewerOf } from "~/features/notes/access";
import { purgeExpiredTrash, updateNote } from "~/features/notes/notes.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { alerts, all, one, textOf, textsOf, valueOf, visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { type Browser, location } from "./http";

async function member(t: TestTenant, role: Role = "lead") {
  const u = await createUser(t, { role });
  return { u, b: await signedIn(t, u) };
}

async function notesTenant(bundles?: Partial<Record<Role, string[]>>) {
  return createTenant({ modules: ["notes"], bundles });
}

/** Creates a note through the no-JavaScript form; returns its id. */
async function write(t: TestTenant, b: Browser, fields: Record<string, string>) {
  const res = await b.post(`${t.origin}/notes/new`, { intent: "save", ...fields });
  expect(res.status, await res.clone().text()).toBe(302);
  return location(res)!.split("/").pop()!;
}

const noteRow = (t: TestTenant, id: string) =>
  env.DB.prepare("SELECT * FROM notes WHERE tenant_id = ? AND id = ?").bind(t.id, id).first<Record<string, unknown>>();

describe("notes: writing and editing without JavaScript", () => {
  it("turns the textarea's text into paragraphs, lowercases and de-duplicates tags, records version 1 and the audit entry", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const id = await write(t, b, {
      title: "Site meeting 3",
      body: "Scaffold <b>inspection</b> Friday.\n\nCrane lift Monday\nGate 2",
      tags: "Meeting, meeting, #Safety ,urgent",
    });
    const row = await noteRow(t, id);
    expect(row!.content).toBe("<p>Scaffold &lt;b&gt;inspection&lt;/b&gt; Friday.</p><p>Crane lift Monday<br>Gate 2</p>");
    expect(JSON.parse(row!.tags as string)).toEqual(["meeting", "safety", "urgent"]);
    expect(row!.version).toBe(1);
    expect(await count("note_versions", "tenant_id = ? AND note_id = ? AND version = 1", t.id, id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.created' AND target_id = ?", t.id, id)).toBe(1);
    const page = await visit(b, `${t.origin}/notes/${id}`);
    expect(page.status).toBe(200);
    expect(valueOf(page.doc, "title")).toBe("Site meeting 3");
  });

  it("refuses a note with neither title nor content, with the spec's message, keeping what was typed", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const res = await b.post(`${t.origin}/notes/new`, { intent: "save", title: "  ", body: "\n\n", tags: "todo" });
    expect(res.status).toBe(400);
    const page = await visit({ get: async () => res }, "");
    expect(alerts(page.doc)).toContain("Please add a title or content to save the note");
    expect(valueOf(page.doc, "tags")).toBe("todo");
  });

  it("refuses an edit made from an older version with a clear message and the person's text kept; the newer save stands", async () => {
    const t = await notesTenant();
    const { b: alice } = await member(t);
    const id = await write(t, alice, { title: "Snag list", body: "Door 4 sticks" });
    const first = await alice.post(`${t.origin}/notes/${id}`, { intent: "save", version: "1", title: "Snag list", body: "Door 4 sticks\n\nWindow 2 cracked" });
    expect(first.status).toBe(302);
    const stale = await alice.post(`${t.origin}/notes/${id}`, { intent: "save", version: "1", title: "Snag list", body: "My late edit" });
    expect(stale.status).toBe(409);
    const page = await visit({ get: async () => stale }, "");
    expect(alerts(page.doc).join(" ")).toContain("Someone else saved this note while you were editing it");
    expect(page.doc.querySelector("textarea[name='body']")!.textContent).toBe("My late edit");
    const row = await noteRow(t, id);
    expect(row!.version).toBe(2);
    expect(row!.text).toBe("Door 4 sticks\nWindow 2 cracked");
    expect(await count("note_versions", "tenant_id = ? AND note_id = ?", t.id, id)).toBe(2);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.edited' AND target_id = ?", t.id, id)).toBe(1);
  });

  it("keeps only the newest 50 versions, and restores an older one as a new version", async () => {
    const t = await notesTenant();
    const { u, b } = await member(t);
    const id = await write(t, b, { title: "v", body: "version 1" });
    const viewer = noteViewerOf({ id: u.id, email: u.email, displayName: "L", tenantId: t.id, scopes: ["notes.view", "notes.edit"] } as never);
    for (let v = 1; v < 55; v++) {
      const r = await updateNote(env, t.id, viewer, id, {
        title: "v",
        content: `<p>version ${v + 1}</p>`,
        tags: [],
        color: null,
        folderId: null,
        baseVersion: v,
      });
      expect(r.ok).toBe(true);
    }
    expect(await count("note_versions", "tenant_id = ? AND note_id = ?", t.id, id)).toBe(50);
    expect(await count("note_versions", "tenant_id = ? AND note_id = ? AND version <= 5", t.id, id)).toBe(0);
    const res = await b.post(`${t.origin}/notes/${id}`, { intent: "restore-version", restoreVersion: "10", version: "55" });
    expect(res.status).toBe(302);
    const row = await noteRow(t, id);
    expect(row!.version).toBe(56);
    expect(row!.text).toBe("version 10");
  });
});

describe("notes: who may see and do what", () => {
  it("shows another tenant's note as a 404, and a note of this tenant nobody shared with you as a 404", async () => {
    const t = await notesTenant();
    const other = await notesTenant();
    const { b: owner } = await member(t);
    const id = await write(t, owner, { title: "Private", body: "mine" });
    const { b: colleague } = await member(t, "manager");
    expect((await colleague.get(`${t.origin}/notes/${id}`)).status).toBe(404);
    expect((await colleague.post(`${t.origin}/notes/${id}`, { intent: "save", version: "1", title: "x", body: "y" })).status).toBe(404);
    expect((await colleague.post(`${t.origin}/notes/all`, { intent: "trash", noteId: id })).status).toBe(404);
    const { b: stranger } = await member(other, "admin");
    expect((await stranger.get(`${other.origin}/notes/${id}`)).status).toBe(404);
    expect((await stranger.post(`${other.origin}/notes/all`, { intent: "pin", noteId: id })).status).toBe(404);
    expect((await noteRow(t, id))!.is_pinned).toBe(0);
    const list = await visit(colleague, `${t.origin}/notes/all`);
    expect(list.doc.querySelector(`[data-note-id='${id}']`)).toBeNull();
  });

  it("refuses each scope it lacks with a 403 (audited), and a tenant without the module gets 404", async () => {
    const t = await notesTenant({ standard: ["notes.view"], lead: [] });
    const { b: reader } = await member(t, "standard");
    expect((await reader.get(`${t.origin}/notes/all`)).status).toBe(200);
    expect((await reader.get(`${t.origin}/notes/new`)).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/new`, { intent: "save", title: "x" })).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/all`, { intent: "pin", noteId: "x" })).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/all`, { intent: "trash", noteId: "x" })).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/trash`, { intent: "empty-trash" })).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "F", color: "#3B82F6" })).status).toBe(403);
    expect((await reader.post(`${t.origin}/notes/x`, { intent: "share", userIds: "y" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied'", t.id)).toBe(7);
    const { b: none } = await member(t, "lead");
    expect((await none.get(`${t.origin}/notes/all`)).status).toBe(403);
    const off = await createTenant({ modules: [] });
    const { b: offB } = await member(off, "admin");
    expect((await offB.get(`${off.origin}/notes/all`)).status).toBe(404);
  });

  it("shares a note: a noteShare notification linking /notes?note={id}, the Shared list, read-only without notes.edit, never with nobody", async () => {
    const t = await notesTenant({ standard: ["notes.view"] });
    const { u: ownerU, b: owner } = await member(t, "lead");
    const { u: reader, b: readerB } = await member(t, "standard");
    const id = await write(t, owner, { title: "Toolbox talk", body: "Working at height" });
    const none = await owner.post(`${t.origin}/notes/${id}`, { intent: "share" });
    expect(none.status).toBe(400);
    expect(alerts((await visit({ get: async () => none }, "")).doc)).toContain("Choose at least one person to share with");
    const res = await owner.post(`${t.origin}/notes/${id}`, { intent: "share", userIds: [reader.id, ownerU.id] });
    expect(res.status).toBe(302);
    const n = await env.DB.prepare("SELECT type, link, subject_id, from_user_id FROM notifications WHERE tenant_id = ? AND target_user_id = ?")
      .bind(t.id, reader.id)
      .all<{ type: string; link: string; subject_id: string; from_user_id: string }>();
    expect(n.results).toEqual([{ type: "noteShare", link: `/notes?note=${id}`, subject_id: id, from_user_id: ownerU.id }]);
    // Sharing again notifies nobody twice.
    await owner.post(`${t.origin}/notes/${id}`, { intent: "share", userIds: reader.id });
    expect(await count("notifications", "tenant_id = ? AND target_user_id = ?", t.id, reader.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.shared'", t.id)).toBe(2);
    expect(location(await readerB.get(`${t.origin}/notes?note=${id}`))).toBe(`/notes/${id}`);
    const shared = await visit(readerB, `${t.origin}/notes/shared`);
    expect(shared.doc.querySelector(`[data-note-id='${id}']`)).not.toBeNull();
    const view = await visit(readerB, `${t.origin}/notes/${id}`);
    expect(view.status).toBe(200);
    expect(view.doc.querySelector("textarea[name='body']")).toBeNull();
    expect(view.text).toContain("Working at height");
    expect((await readerB.post(`${t.origin}/notes/${id}`, { intent: "save", version: "1", title: "hijack" })).status).toBe(403);
    const ownerPage = await visit(owner, `${t.origin}/notes/${id}`);
    expect(textsOf(ownerPage.doc, "ul[aria-label='Shared with'] li").join(" ")).toContain("User");
  });
});

describe("notes: trash, restore, delete for good, and the daily purge", () => {
  it("trashes, restores, deletes permanently and empties the trash, each audited", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const a = await write(t, b, { title: "A", body: "a" });
    const c = await write(t, b, { title: "C", body: "c" });
    expect(location(await b.post(`${t.origin}/notes/${a}`, { intent: "trash", noteId: a, back: `/notes/${a}` }))).toBe("/notes/all");
    expect((await noteRow(t, a))!.deleted_at).not.toBeNull();
    const trash = await visit(b, `${t.origin}/notes/trash`);
    expect(trash.doc.querySelector(`[data-note-id='${a}']`)).not.toBeNull();
    expect((await visit(b, `${t.origin}/notes/all`)).doc.querySelector(`[data-note-id='${a}']`)).toBeNull();
    await b.post(`${t.origin}/notes/trash`, { intent: "restore", noteId: a });
    expect((await noteRow(t, a))!.deleted_at).toBeNull();
    await b.post(`${t.origin}/notes/all`, { intent: "trash", noteId: a });
    await b.post(`${t.origin}/notes/all`, { intent: "trash", noteId: c });
    await b.post(`${t.origin}/notes/trash`, { intent: "purge", noteId: a });
    expect(await noteRow(t, a)).toBeNull();
    expect(await count("note_versions", "tenant_id = ? AND note_id = ?", t.id, a)).toBe(0);
    const confirm = await b.post(`${t.origin}/notes/trash`, { intent: "empty-trash" });
    expect(confirm.status).toBe(200);
    expect((await visit({ get: async () => confirm }, "")).text).toContain("Empty Trash?");
    expect(await noteRow(t, c)).not.toBeNull();
    expect((await b.post(`${t.origin}/notes/trash`, { intent: "empty-trash", confirm: "yes" })).status).toBe(302);
    expect(await noteRow(t, c)).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.trashed'", t.id)).toBe(3);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.restored'", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.purged'", t.id)).toBe(2);
  });

  it("the daily task deletes notes trashed more than 30 days ago, not newer ones, not a suspended tenant's", async () => {
    const t = await notesTenant();
    const suspended = await notesTenant();
    const { b } = await member(t);
    const { b: sb } = await member(suspended);
    const old = await write(t, b, { title: "old" });
    const recent = await write(t, b, { title: "recent" });
    const live = await write(t, b, { title: "live" });
    const held = await write(suspended, sb, { title: "held" });
    const now = Date.now();
    const day = 86_400_000;
    await env.DB.prepare("UPDATE notes SET deleted_at = ? WHERE id IN (?, ?)")
      .bind(now - 31 * day, old, held)
      .run();
    await env.DB.prepare("UPDATE notes SET deleted_at = ? WHERE id = ?")
      .bind(now - 29 * day, recent)
      .run();
    await env.DB.prepare("UPDATE tenants SET suspended_at = ? WHERE id = ?").bind(now, suspended.id).run();
    await purgeExpiredTrash(env, now);
    expect(await noteRow(t, old)).toBeNull();
    expect(await noteRow(t, recent)).not.toBeNull();
    expect(await noteRow(t, live)).not.toBeNull();
    expect(await noteRow(suspended, held)).not.toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.purged' AND target_id = ?", t.id, old)).toBe(1);
  });
});

describe("notes: search", () => {
  it("finds by words and prefixes in title, text and tags, ranked, with highlighted and escaped snippets, only among notes the person may see", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const { b: other } = await member(t);
    const title = await write(t, b, { title: "Snagging walk-round", body: "Plot 12 kitchen", tags: "site" });
    const body = await write(t, b, { title: "Weekly", body: "Remember the <script>snag</script> sheet for plot 9" });
    await write(t, b, { title: "Unrelated", body: "Concrete pour" });
    const hidden = await write(t, other, { title: "Snag private", body: "not yours" });
    const page = await visit(b, `${t.origin}/notes/all?q=snag`);
    expect(page.status).toBe(200);
    const ids = [...page.doc.querySelectorAll("[data-note-id]")].map((e) => e.getAttribute("data-note-id"));
    expect(ids).toEqual([title, body]);
    expect(ids).not.toContain(hidden);
    expect(textsOf(page.doc, "mark")).toContain("Snagging");
    const html = await (await b.get(`${t.origin}/notes/all?q=snag`)).text();
    expect(html).not.toContain("<script>snag");
    expect(page.text).toContain("<script>");
    expect(textsOf((await visit(b, `${t.origin}/notes/all?q=site`)).doc, "[data-note-id] h3")).toEqual(["Snagging walk-round"]);
    const none = await visit(b, `${t.origin}/notes/all?q=zzzz`);
    expect(none.text).toContain(`No notes found for "zzzz"`);
    // FTS operators typed into the box are words, not syntax.
    expect((await b.get(`${t.origin}/notes/all?q=${encodeURIComponent('snag" OR NEAR(')}`)).status).toBe(200);
  });
});

describe("notes: folders, drafts, view and pages", () => {
  it("creates a folder, files a note in it, and deleting the folder moves the note out", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const blank = await b.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "  ", color: "#3B82F6" });
    expect(blank.status).toBe(400);
    const res = await b.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "Plot 12", color: "#3B82F6" });
    const folderId = location(res)!.split("/").pop()!;
    const id = await write(t, b, { title: "In folder", folderId });
    const folder = await visit(b, `${t.origin}/notes/folders/${folderId}`);
    expect(folder.doc.querySelector(`[data-note-id='${id}']`)).not.toBeNull();
    const root = await visit(b, `${t.origin}/notes/folders`);
    expect(root.text).toContain("1 note");
    expect(root.doc.querySelector("[data-testid='storage-meter']")!.textContent).toMatch(/Storage: .+ of .+/);
    expect((await b.post(`${t.origin}/notes/folders/${folderId}`, { intent: "delete-folder" })).status).toBe(200);
    await b.post(`${t.origin}/notes/folders/${folderId}`, { intent: "delete-folder", confirm: "yes" });
    expect((await noteRow(t, id))!.folder_id).toBeNull();
    expect((await b.get(`${t.origin}/notes/folders/${folderId}`)).status).toBe(404);
    const other = await notesTenant();
    const { b: ob } = await member(other);
    expect((await ob.post(`${other.origin}/notes/folders/${folderId}`, { intent: "update-folder", name: "x", color: "#3B82F6" })).status).toBe(404);
  });

  it("saves drafts on the server without JavaScript, lists them, deletes one, and saving the note removes its draft", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const saved = await b.post(`${t.origin}/notes/new`, { intent: "save-draft", title: "Half a thought", body: "to be continued", tags: "idea" });
    expect(saved.status).toBe(302);
    const draftId = new URL(location(saved)!, t.origin).searchParams.get("draft")!;
    const other = await b.post(`${t.origin}/notes/new`, { intent: "save-draft", title: "Another" });
    const otherId = new URL(location(other)!, t.origin).searchParams.get("draft")!;
    const page = await visit(b, `${t.origin}/notes/new?draft=${draftId}`);
    expect(valueOf(page.doc, "title")).toBe("Half a thought");
    expect(page.doc.querySelectorAll("ul[aria-label='Drafts'] li").length).toBe(2);
    await b.post(`${t.origin}/notes/new`, { intent: "delete-draft", id: otherId });
    expect(await count("note_drafts", "tenant_id = ?", t.id)).toBe(1);
    await b.post(`${t.origin}/notes/new`, { intent: "save", draftId, title: "Half a thought", body: "finished" });
    expect(await count("note_drafts", "tenant_id = ?", t.id)).toBe(0);
  });

  it("remembers grid or list per person on the server, groups under headings with pinned first, and pages by cursor", async () => {
    const t = await notesTenant();
    const { u, b } = await member(t);
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) ids.push(await write(t, b, { title: `Note ${i}` }));
    await env.DB.prepare("UPDATE notes SET updated_at = ? WHERE tenant_id = ? AND id = ?")
      .bind(now - 40 * 86_400_000, t.id, ids[0])
      .run();
    await b.post(`${t.origin}/notes/all`, { intent: "pin", noteId: ids[1]! });
    expect((await b.post(`${t.origin}/notes/all`, { intent: "view", view: "list" })).status).toBe(302);
    expect(await count("note_preferences", "tenant_id = ? AND user_id = ? AND view_mode = 'list'", t.id, u.id)).toBe(1);
    const first = await visit(b, `${t.origin}/notes/all`);
    expect(first.doc.querySelector("button[name='view'][value='list']")!.getAttribute("aria-pressed")).toBe("true");
    expect(first.doc.querySelector("[data-testid='note-count']")!.textContent).toBe("33 notes");
    expect(textsOf(first.doc, "section[aria-label] > h2").slice(0, 2)).toEqual(["Pinned", "Today"]);
    const shown = [...first.doc.querySelectorAll("[data-note-id]")].map((e) => e.getAttribute("data-note-id"));
    expect(shown.length).toBe(30);
    expect(shown[0]).toBe(ids[1]);
    const next = first.doc.querySelector("a[rel='next']")!.getAttribute("href")!;
    const second = await visit(b, `${t.origin}${next}`);
    const rest = [...second.doc.querySelectorAll("[data-note-id]")].map((e) => e.getAttribute("data-note-id"));
    expect(rest.length).toBe(3);
    expect(new Set([...shown, ...rest]).size).toBe(33);
    expect(rest[rest.length - 1]).toBe(ids[0]);
    expect(second.doc.querySelector("a[rel='next']")).toBeNull();
    expect(location(await b.get(`${t.origin}/notes/some/unknown/path`))).toBe("/notes/all");
    expect(location(await b.get(`${t.origin}/notes`))).toBe("/notes/all");
  });
});

describe("notes: route × role with the default bundles", () => {
  it("opens every notes page for every role, and lets only roles with notes.delete trash and notes.folders.manage rename folders", async () => {
    const t = await notesTenant();
    const { b: owner } = await member(t, "admin");
    const folder = location(await owner.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "Matrix", color: "#3B82F6" }))!
      .split("/")
      .pop()!;
    for (const role of ["standard", "lead", "manager", "admin"] as const) {
      const { b } = await member(t, role);
      const id = await write(t, b, { title: `${role} note` });
      for (const path of [
        "/notes/all",
        "/notes/shared",
        "/notes/bookmarks",
        "/notes/trash",
        "/notes/folders",
        `/notes/folders/${folder}`,
        "/notes/new",
        `/notes/${id}`,
      ]) {
        expect((await b.get(`${t.origin}${path}`)).status, `${role} ${path}`).toBe(200);
      }
      const trash = await b.post(`${t.origin}/notes/all`, { intent: "trash", noteId: id });
      expect(trash.status, `${role} trash`).toBe(role === "standard" ? 403 : 302);
      const rename = await b.post(`${t.origin}/notes/folders/${folder}`, { intent: "update-folder", name: `Matrix ${role}`, color: "#3B82F6" });
      expect(rename.status, `${role} rename folder`).toBe(role === "standard" ? 403 : 302);
    }
  });
});

describe("notes: the audit log's sentences", () => {
  it("names the note and the folder in the audit log, by their current names", async () => {
    const t = await notesTenant();
    const { u, b } = await member(t, "admin");
    await env.DB.prepare("UPDATE users SET display_name = 'Alice Admin' WHERE id = ?").bind(u.id).run();
    const id = await write(t, b, { title: "Crane lift plan" });
    await b.post(`${t.origin}/notes/all`, { intent: "trash", noteId: id });
    await b.post(`${t.origin}/notes/folders`, { intent: "create-folder", name: "Plot 7", color: "#3B82F6" });
    const page = await visit(b, `${t.origin}/settings/audit`);
    expect(page.text).toContain("Alice Admin created note Crane lift plan");
    expect(page.text).toContain("Alice Admin moved note Crane lift plan to the trash");
    expect(page.text).toContain("Alice Admin created note folder Plot 7");
  });
});

describe("notes: duplicate", () => {
  it("copies a note the person may see as theirs: ' (Copy)', unpinned, unbookmarked, unshared, version 1, audited; needs notes.create; another tenant's is a 404", async () => {
    const t = await notesTenant();
    const { u: ownerU, b: owner } = await member(t, "lead");
    const { u: other, b: otherB } = await member(t, "lead");
    const id = await write(t, owner, { title: "Toolbox talk", body: "Working at height", tags: "safety" });
    await owner.post(`${t.origin}/notes/${id}`, { intent: "pin", noteId: id });
    await owner.post(`${t.origin}/notes/${id}`, { intent: "favourite", noteId: id });
    await owner.post(`${t.origin}/notes/${id}`, { intent: "share", userIds: other.id });
    const res = await otherB.post(`${t.origin}/notes/all`, { intent: "duplicate", noteId: id, back: "/notes/all" });
    expect(res.status).toBe(302);
    const copyId = location(res)!.split("/").pop()!;
    expect(copyId).not.toBe(id);
    const copy = await noteRow(t, copyId);
    expect(copy).toMatchObject({ title: "Toolbox talk (Copy)", text: "Working at height", owner_id: other.id, version: 1, is_pinned: 0, is_favorite: 0 });
    expect(JSON.parse(copy!.tags as string)).toEqual(["safety"]);
    expect(await count("note_shares", "tenant_id = ? AND note_id = ?", t.id, copyId)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'notes.note.created' AND target_id = ? AND actor_id = ?", t.id, copyId, other.id)).toBe(1);
    expect((await noteRow(t, id))!.owner_id).toBe(ownerU.id);

    // A note the person may not see, another tenant's note, and no notes.create: refused.
    const { b: stranger } = await member(t, "lead");
    expect((await stranger.post(`${t.origin}/notes/all`, { intent: "duplicate", noteId: id })).status).toBe(404);
    const t2 = await notesTenant();
    const { b: outsider } = await member(t2, "lead");
    expect((await outsider.post(`${t2.origin}/notes/all`, { intent: "duplicate", noteId: id })).status).toBe(404);
    const t3 = await notesTenant({ standard: ["notes.view"] });
    const { b: reader } = await member(t3, "standard");
    expect((await reader.post(`${t3.origin}/notes/all`, { intent: "duplicate", noteId: id })).status).toBe(403);
  });
});

describe("notes: the folders list view and side mode", () => {
  it("in list view each folder expands to its newest notes (title, 100-character preview, date), only notes the person may see", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const { b: other } = await member(t);
    const mk = async (name: string) =>
      location(await b.post(`${t.origin}/notes/folders`, { intent: "create-folder", name, color: "#3B82F6" }))!
        .split("/")
        .pop()!;
    const plot = await mk("Plot 12");
    await mk("Empty folder");
    await write(t, b, { title: "Snag walk", body: "x".repeat(150), folderId: plot });
    await write(t, other, { title: "Someone else's", body: "private", folderId: plot });
    await b.post(`${t.origin}/notes/folders`, { intent: "view", view: "list", back: "/notes/folders" });
    const page = await visit(b, `${t.origin}/notes/folders`);
    const folders = all(page.doc, "details[data-folder-id]");
    expect(folders.map((d) => textOf(d, "summary"))).toEqual(["Plot 12 1 note", "Empty folder"]);
    const plotItems = all(folders[0]!, "li");
    expect(plotItems.map((li) => textOf(li, "a"))).toEqual(["Snag walk"]);
    expect(textOf(plotItems[0]!, "p")).toBe(`${"x".repeat(100)}…`);
    expect(textOf(plotItems[0]!, "time")).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    expect(textOf(folders[1]!, "p")).toBe("No notes in this folder");
  });

  it("opens a note beside the list with ?side=, formatted; a note the person may not see opens nothing", async () => {
    const t = await notesTenant();
    const { b } = await member(t);
    const { b: other } = await member(t);
    const res = await b.post(`${t.origin}/notes/new`, {
      intent: "save",
      title: "Crane plan",
      content: "<p><strong>Monday</strong></p><script>alert(1)</script>",
    });
    const id = location(res)!.split("/").pop()!;
    const page = await visit(b, `${t.origin}/notes/all?side=${id}`);
    const aside = one(page.doc, "aside[aria-labelledby='side-note-title']");
    expect(textOf(aside, "h2")).toBe("Crane plan");
    expect(textOf(aside, "[data-testid='note-content'] strong")).toBe("Monday");
    expect(aside.querySelector("script")).toBeNull();
    expect(page.doc.querySelector(`[data-note-id='${id}']`)).not.toBeNull();
    const theirs = await visit(other, `${t.origin}/notes/all?side=${id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.doc.querySelector("aside[aria-labelledby='side-note-title']")).toBeNull();
  });
});
