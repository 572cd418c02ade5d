import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { SUBMISSION_KEY_MESSAGES } from "~/features/platform/submission-key-codes";
import { SUBMISSION_KEY_FIELD, withPageKey } from "../factories/submission-keys";
import { filesStaff, uploadOk } from "../factories/files";
import { all, textsOf, visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location } from "./http";
import { dbFor } from "~/db/client.server";
import { filePageQuery } from "~/features/files/listing.server";

/** Standard members who may upload, delete and share, but do not manage all files. */
const OWNER_ONLY = { standard: ["files.view", "files.upload", "files.delete", "files.share"] };

async function ownersTenant() {
  const t = await createTenant({ modules: ["files"], bundles: OWNER_ONLY });
  const alice = await createUser(t, { role: "standard" });
  const bob = await createUser(t, { role: "standard" });
  return { t, alice, bob, ab: await signedIn(t, alice), bb: await signedIn(t, bob) };
}

const rowIds = (doc: Document) => all(doc, "[data-file-id]").map((el) => el.getAttribute("data-file-id"));

describe("/files/all", () => {
  it("lists files newest first with the spec's columns, sorts by a column and searches by name, case-insensitively", async () => {
    const { t, b } = await filesStaff("lead");
    const a = await uploadOk(b, t, "Alpha.txt", "aaaa");
    const z = await uploadOk(b, t, "zulu.txt", "z");
    const { status, doc } = await visit(b, `${t.origin}/files/all`);
    expect(status).toBe(200);
    expect(
      textsOf(doc, "thead th")
        .slice(1)
        .map((h) => h.replace(/[▲▼]/g, "")),
    ).toEqual(["Name", "Owner", "Size", "Shared", "Signed", "Created", "Actions"]);
    expect(doc.querySelector("th[aria-sort='descending']")?.textContent).toContain("Created");
    expect(rowIds(doc)).toEqual([z, a]);
    expect(rowIds((await visit(b, `${t.origin}/files/all?sort=name&dir=asc`)).doc)).toEqual([a, z]);
    expect(rowIds((await visit(b, `${t.origin}/files/all?sort=size&dir=desc`)).doc)).toEqual([a, z]);
    expect(rowIds((await visit(b, `${t.origin}/files/all?q=ALPHA`)).doc)).toEqual([a]);
    expect((await visit(b, `${t.origin}/files/all?q=%25`)).doc.querySelectorAll("[data-file-id]")).toHaveLength(0);
  });

  it("remembers grid or list in a cookie", async () => {
    const { t, b } = await filesStaff("lead");
    await uploadOk(b, t, "a.txt");
    const grid = await b.get(`${t.origin}/files/all?view=grid`);
    expect(grid.headers.get("Set-Cookie")).toContain("files_view_all=grid");
    const { doc } = await visit(b, `${t.origin}/files/all`);
    expect(doc.querySelector("ul[aria-label='Files']")).not.toBeNull();
    expect(doc.querySelector("table")).toBeNull();
    await b.get(`${t.origin}/files/all?view=list`);
    expect((await visit(b, `${t.origin}/files/all`)).doc.querySelector("table")).not.toBeNull();
  });

  it("shows private files only to their owner, shared to everyone, restricted to the people listed; manage-all sees all", async () => {
    const { t, alice, bob, ab, bb } = await ownersTenant();
    const carol = await createUser(t, { role: "standard" });
    const cb = await signedIn(t, carol);
    const priv = await uploadOk(ab, t, "private.txt", "p", { visibility: "private" });
    const shared = await uploadOk(ab, t, "shared.txt", "s", { visibility: "shared" });
    const restricted = await uploadOk(ab, t, "restricted.txt", "r", { visibility: "restricted", allowedUserIds: [bob.id] });
    expect(new Set(rowIds((await visit(ab, `${t.origin}/files/all`)).doc))).toEqual(new Set([priv, shared, restricted]));
    expect(new Set(rowIds((await visit(bb, `${t.origin}/files/all`)).doc))).toEqual(new Set([shared, restricted]));
    expect(rowIds((await visit(cb, `${t.origin}/files/all`)).doc)).toEqual([shared]);
    // Download follows the same rule.
    expect((await cb.get(`${t.origin}/files/file/${priv}/download`)).status).toBe(404);
    expect((await cb.get(`${t.origin}/files/file/${restricted}/download`)).status).toBe(404);
    expect((await bb.get(`${t.origin}/files/file/${restricted}/download`)).status).toBe(200);
    expect((await cb.get(`${t.origin}/files/file/${priv}`)).status).toBe(404);
    const admin = await createUser(t, { role: "admin" });
    const adb = await signedIn(t, admin);
    expect(new Set(rowIds((await visit(adb, `${t.origin}/files/all`)).doc))).toEqual(new Set([priv, shared, restricted]));
    void alice;
  });

  it("filters by the pills: shared and private", async () => {
    const { t, ab } = await ownersTenant();
    const priv = await uploadOk(ab, t, "p.txt", "p", { visibility: "private" });
    const shared = await uploadOk(ab, t, "s.txt", "s", { visibility: "shared" });
    expect(rowIds((await visit(ab, `${t.origin}/files/all?filter=shared`)).doc)).toEqual([shared]);
    expect(rowIds((await visit(ab, `${t.origin}/files/all?filter=private`)).doc)).toEqual([priv]);
  });
});

describe("bulk delete", () => {
  it("asks first without JavaScript (the server's step, with the spec's texts) and then deletes only the owner's files", async () => {
    const { t, ab, bb } = await ownersTenant();
    const mine = await uploadOk(ab, t, "mine.txt", "m", { visibility: "shared" });
    const theirs = await uploadOk(bb, t, "theirs.txt", "t", { visibility: "shared" });
    const ask = await ab.post(`${t.origin}/files/all`, { intent: "delete", ids: [mine, theirs], confirmed: "" });
    expect(ask.status).toBe(200);
    const { text, doc: askDoc } = await visit({ get: async () => ask }, "");
    expect(text).toContain("Delete 2 file(s)?");
    expect(text).toContain("You can only delete the 1 files you own. The other 1 files will not be deleted.");
    expect(text).toContain("This action cannot be undone.");
    expect(await count("files", "tenant_id = ?", t.id)).toBe(2);
    const key = askDoc.querySelector(`[data-confirm] input[name="${SUBMISSION_KEY_FIELD}"]`)?.getAttribute("value");
    const done = await ab.post(`${t.origin}/files/all`, { intent: "delete", ids: [mine, theirs], confirmed: "yes", [SUBMISSION_KEY_FIELD]: key ?? "" });
    expect(done.status).toBe(302);
    expect(await count("files", "id = ?", mine)).toBe(0);
    expect(await count("files", "id = ?", theirs)).toBe(1);
    expect(await count("file_versions", "file_id = ?", mine)).toBe(0);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/files/${mine}/` })).objects).toHaveLength(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.deleted' AND target_id = ?", t.id, mine)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.bulk_deleted'", t.id)).toBe(1);
    const usage = await env.DB.prepare("SELECT used_bytes, file_count FROM storage_usage WHERE tenant_id = ?").bind(t.id).first();
    expect(usage).toEqual({ used_bytes: 1, file_count: 1 });
  });

  it("says the person owns none of them", async () => {
    const { t, ab, bb } = await ownersTenant();
    const theirs = await uploadOk(bb, t, "theirs.txt", "t", { visibility: "shared" });
    const ask = await ab.post(`${t.origin}/files/all`, { intent: "delete", ids: [theirs] });
    expect(await ask.text()).toContain("You don&#x27;t own any of these files. You cannot delete them.");
  });

  it("continues past a failure and names it: 'Could not delete: {names}'", async () => {
    const { t, b } = await filesStaff("lead");
    const ok = await uploadOk(b, t, "fine.txt", "f");
    const bad = await uploadOk(b, t, "stuck.txt", "s");
    const original = env.FILES.delete.bind(env.FILES);
    env.FILES.delete = ((keys: string | string[]) => {
      const list = Array.isArray(keys) ? keys : [keys];
      if (list.some((k) => k.includes(bad))) return Promise.reject(new Error("r2 down"));
      return original(keys);
    }) as typeof env.FILES.delete;
    let res: Response;
    try {
      res = await b.post(`${t.origin}/files/all`, await withPageKey(b, `${t.origin}/files/all`, { intent: "delete", ids: [bad, ok], confirmed: "yes" }));
    } finally {
      env.FILES.delete = original;
    }
    expect(res.status).toBe(302);
    const next = await b.follow(res, `${t.origin}/files/all`);
    expect(await next.text()).toContain("Could not delete: stuck.txt");
    expect(await count("files", "id = ?", ok)).toBe(0);
    expect(await count("files", "id = ?", bad)).toBe(1);
  });

  it("refuses delete without files.delete: 403 and an audited denial", async () => {
    const { t, u, b } = await filesStaff("standard");
    const id = await uploadOk(b, t, "mine.txt");
    const res = await b.post(`${t.origin}/files/all`, { intent: "delete", ids: [id], confirmed: "yes" });
    expect(res.status).toBe(403);
    expect(await count("files", "id = ?", id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND actor_id = ? AND action = 'auth.scope.denied'", t.id, u.id)).toBe(1);
  });
});

describe("delete from the file's page", () => {
  it("asks first without JavaScript, then deletes the owner's file; another member's delete is refused (403)", async () => {
    const { t, ab, bb } = await ownersTenant();
    const id = await uploadOk(ab, t, "page-delete.txt", "x", { visibility: "shared" });
    expect((await bb.post(`${t.origin}/files/file/${id}`, { intent: "delete", confirmed: "yes" })).status).toBe(403);
    const ask = await ab.post(`${t.origin}/files/file/${id}`, { intent: "delete", confirmed: "" });
    expect(ask.status).toBe(200);
    const { text } = await visit({ get: async () => ask }, "");
    expect(text).toContain("Delete 1 file(s)?");
    expect(await count("files", "id = ?", id)).toBe(1);
    const done = await ab.post(`${t.origin}/files/file/${id}`, { intent: "delete", confirmed: "yes" });
    expect(location(done)).toBe("/files/all");
    expect(await count("files", "id = ?", id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.deleted' AND target_id = ?", t.id, id)).toBe(1);
    expect((await ab.get(`${t.origin}/files/file/${id}`)).status).toBe(404);
  });
});

describe("move", () => {
  it("moves the owner's files to a folder and back to the root (FILE_MOVED, BULK_FILES_MOVED), never someone else's", async () => {
    const { t, ab, bb } = await ownersTenant();
    const lead = await createUser(t, { role: "lead" });
    const lb = await signedIn(t, lead);
    await lb.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Reports", color: "#64748b" });
    const folder = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ?").bind(t.id).first<{ id: string }>();
    const m1 = await uploadOk(ab, t, "m1.txt", "1", { visibility: "shared" });
    const m2 = await uploadOk(ab, t, "m2.txt", "2", { visibility: "shared" });
    const theirs = await uploadOk(bb, t, "theirs.txt", "t", { visibility: "shared" });
    const res = await ab.post(
      `${t.origin}/files/all`,
      await withPageKey(ab, `${t.origin}/files/all`, { intent: "move", folderId: folder!.id, ids: [m1, m2, theirs] }),
    );
    expect(res.status).toBe(302);
    expect(await count("files", "folder_id = ?", folder!.id)).toBe(2);
    expect(await count("files", "id = ? AND folder_id IS NULL", theirs)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.bulk_moved'", t.id)).toBe(1);
    // One file from its page; a non-owner is refused there.
    expect((await ab.post(`${t.origin}/files/file/${m1}`, { intent: "move", folderId: "" })).status).toBe(302);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.moved' AND target_id = ?", t.id, m1)).toBe(1);
    expect((await bb.post(`${t.origin}/files/file/${m2}`, { intent: "move", folderId: "" })).status).toBe(403);
    expect(await count("files", "id = ? AND folder_id = ?", m2, folder!.id)).toBe(1);
    // A folder of another tenant is not a destination.
    const other = await filesStaff("lead");
    await other.b.post(`${other.t.origin}/files/folders`, { intent: "create-folder", name: "Theirs", color: "#64748b" });
    const foreign = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ?").bind(other.t.id).first<{ id: string }>();
    expect((await ab.post(`${t.origin}/files/file/${m2}`, { intent: "move", folderId: foreign!.id })).status).toBe(404);
    expect(await count("files", "id = ? AND folder_id = ?", m2, folder!.id)).toBe(1);
  });
});

describe("bulk actions run once per submission key", () => {
  it("a repeated bulk delete (a double click without JavaScript) answers with the first result", async () => {
    const { t, b } = await filesStaff("lead");
    const one = await uploadOk(b, t, "one.txt", "1");
    const two = await uploadOk(b, t, "two.txt", "2");
    const url = `${t.origin}/files/all`;
    // Without JavaScript the confirmation step carries the key.
    const ask = await visit({ get: async () => b.post(url, { intent: "delete", ids: [one, two] }) }, "");
    const key = ask.doc.querySelector(`[data-confirm] input[name="${SUBMISSION_KEY_FIELD}"]`)?.getAttribute("value");
    expect(key).toBeTruthy();
    const form = { intent: "delete", ids: [one, two], confirmed: "yes", [SUBMISSION_KEY_FIELD]: key! };
    for (let i = 0; i < 2; i++) {
      const res = await b.post(url, form);
      expect(res.status).toBe(302);
      expect(await (await b.follow(res, url)).text()).toContain("Deleted 2 file(s)");
    }
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.bulk_deleted'", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.deleted'", t.id)).toBe(2);
  });

  it("a repeated bulk move (the list's own key, posted twice) moves and records once", async () => {
    const { t, b } = await filesStaff("lead");
    await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Archive", color: "#64748b" });
    const folder = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ?").bind(t.id).first<{ id: string }>();
    const a = await uploadOk(b, t, "a.txt", "a");
    const c = await uploadOk(b, t, "c.txt", "c");
    const url = `${t.origin}/files/all`;
    const form = await withPageKey(b, url, { intent: "move", folderId: folder!.id, ids: [a, c] }, '[aria-label="Bulk actions"]');
    for (let i = 0; i < 2; i++) {
      const res = await b.post(url, form);
      expect(res.status).toBe(302);
      expect(await (await b.follow(res, url)).text()).toContain("Moved 2 file(s)");
    }
    expect(await count("files", "folder_id = ?", folder!.id)).toBe(2);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.bulk_moved'", t.id)).toBe(1);
    expect(await count("activity_log", "tenant_id = ? AND action = 'bulk files moved'", t.id)).toBe(1);
  });

  it("a confirmed bulk delete or a move without its key is refused and changes nothing", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "kept.txt", "k");
    const url = `${t.origin}/files/all`;
    const forms: Record<string, string | string[]>[] = [
      { intent: "delete", ids: [id], confirmed: "yes" },
      { intent: "move", ids: [id], folderId: "" },
    ];
    for (const form of forms) {
      const res = await b.post(url, form);
      expect(res.status, String(form.intent)).toBe(409);
      expect((await visit({ get: async () => res }, "")).text).toContain(SUBMISSION_KEY_MESSAGES.missing);
    }
    expect(await count("files", "id = ?", id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action IN ('files.file.deleted', 'files.file.bulk_moved', 'files.file.moved')", t.id)).toBe(0);
  });
});

describe("share", () => {
  it("shares a file with chosen people: restricted, access rows, one notification each, FILE_SHARED", async () => {
    const { t, alice, bob, ab, bb } = await ownersTenant();
    const carol = await createUser(t, { role: "standard" });
    const id = await uploadOk(ab, t, "doc.txt", "d");
    expect((await bb.get(`${t.origin}/files/file/${id}`)).status).toBe(404);
    const res = await ab.post(
      `${t.origin}/files/file/${id}`,
      await withPageKey(ab, `${t.origin}/files/file/${id}`, { intent: "share", userIds: [bob.id, carol.id, alice.id] }),
    );
    expect(res.status).toBe(302);
    expect(await count("files", "id = ? AND visibility = 'restricted'", id)).toBe(1);
    expect(await count("file_access", "file_id = ? AND via = 'shared'", id)).toBe(2);
    expect(await count("notifications", "tenant_id = ? AND type = 'share' AND subject_id = ? AND target_user_id IN (?, ?)", t.id, id, bob.id, carol.id)).toBe(
      2,
    );
    expect(await count("notifications", "target_user_id = ?", alice.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.shared' AND target_id = ?", t.id, id)).toBe(1);
    expect((await bb.get(`${t.origin}/files/file/${id}/download`)).status).toBe(200);
    const page = await visit(ab, `${t.origin}/files/all`);
    expect(page.text).toContain("2 people");
  });

  it("refuses without the share scope (403, audited) and with nobody chosen", async () => {
    const { t, u, b } = await filesStaff("standard");
    const other = await createUser(t);
    const id = await uploadOk(b, t, "doc.txt");
    const res = await b.post(`${t.origin}/files/file/${id}`, { intent: "share", userIds: [other.id] });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You don&#x27;t have permission to share files");
    expect(await count("audit_events", "tenant_id = ? AND actor_id = ? AND action = 'auth.scope.denied'", t.id, u.id)).toBe(1);
    const { t: t2, b: b2 } = await filesStaff("lead");
    const id2 = await uploadOk(b2, t2, "doc.txt");
    expect(
      (await b2.post(`${t2.origin}/files/file/${id2}`, await withPageKey(b2, `${t2.origin}/files/file/${id2}`, { intent: "share", userIds: [] }))).status,
    ).toBe(400);
    // A person of another tenant is never a recipient.
    expect(
      (await b2.post(`${t2.origin}/files/file/${id2}`, await withPageKey(b2, `${t2.origin}/files/file/${id2}`, { intent: "share", userIds: [other.id] })))
        .status,
    ).toBe(400);
  });
});

describe("the files area", () => {
  it("is 404 without the module, 403 without files.view, and shows Files in the navigation only with files.view", async () => {
    const off = await createTenant({ modules: ["cis"] });
    const ou = await createUser(off, { role: "admin" });
    const ob = await signedIn(off, ou);
    expect((await ob.get(`${off.origin}/files/all`)).status).toBe(404);
    const t = await createTenant({ modules: ["files"], bundles: { standard: ["users.view"] } });
    const nobody = await signedIn(t, await createUser(t, { role: "standard" }));
    expect((await nobody.get(`${t.origin}/files/all`)).status).toBe(403);
    expect((await visit(nobody, `${t.origin}/welcome`)).doc.querySelector("nav[aria-label='Modules'] a[href='/files']")).toBeNull();
    const lead = await signedIn(t, await createUser(t, { role: "lead" }));
    expect((await visit(lead, `${t.origin}/welcome`)).doc.querySelector("nav[aria-label='Modules'] a[href='/files']")).not.toBeNull();
    const entry = await lead.get(`${t.origin}/files`);
    expect(location(entry)).toBe("/files/overview");
  });

  it("overview shows the tenant's real usage by category, the last 30 days and the newest files", async () => {
    const { t, b } = await filesStaff("lead");
    await uploadOk(b, t, "sheet.csv", "a,b\n1,2\n", {}, "text/csv");
    await uploadOk(b, t, "doc.pdf", "%PDF-1.4 xx", {}, "application/pdf");
    const { status, doc, text } = await visit(b, `${t.origin}/files/overview`);
    expect(status).toBe(200);
    expect(text).toContain("Dashboard Overview");
    expect(doc.querySelector("[data-testid='storage-meter']")?.textContent).toContain("19 B of 5.4 GB");
    expect(doc.querySelector("[data-category='pdf']")?.textContent).toBe("PDF: 11 B");
    expect(doc.querySelector("[data-category='spreadsheets']")?.textContent).toBe("Spreadsheets: 8 B");
    expect(text).toContain("Uploads");
    expect(text).toContain("sheet.csv");
  });
});

describe("/files/export", () => {
  it("writes the list as the person sees it (visibility, filter, search) as a formula-safe CSV, audited FILES_EXPORTED; GET is 404", async () => {
    const { t, bob, ab, bb } = await ownersTenant();
    await uploadOk(ab, t, "=HYPERLINK(evil).txt", "x", { visibility: "shared" });
    await uploadOk(ab, t, "alice-private.txt", "x", { visibility: "private" });
    await uploadOk(bb, t, "bob-notes.txt", "x", { visibility: "private" });

    const res = await bb.post(`${t.origin}/files/export`, { filter: "all", q: "", sort: "name", dir: "asc" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Files_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Name,Folder,Owner,Size (bytes),Type,Visibility,Signed,Signed version,Version,Created");
    // Bob sees Alice's shared file and his own private one, never Alice's private file.
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["'=HYPERLINK(evil).txt", "bob-notes.txt"]);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.exported' AND actor_id = ?", t.id, bob.id)).toBe(1);

    const mine = await bb.post(`${t.origin}/files/export`, { filter: "mine", q: "notes" });
    expect((await mine.text()).includes("bob-notes.txt")).toBe(true);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.exported'", t.id)).toBe(2);

    expect((await bb.get(`${t.origin}/files/export`)).status).toBe(404);
    // From another site the post is refused before anything is read or audited.
    expect((await bb.post(`${t.origin}/files/export`, { filter: "all" }, { origin: "https://evil.example" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.exported'", t.id)).toBe(2);
  });
});

describe("a page of the list, in any order", () => {
  it("orders the bare rows first and reads the page's columns (people with access, signed version) for its own rows only", async () => {
    const t = await createTenant({ modules: ["files"] });
    const viewer = { id: "usr_plan", email: "plan@example.test", name: "Plan", manageAll: true };
    for (const sort of ["name", "owner", "size", "created"] as const) {
      const { sql, params } = filePageQuery(dbFor(env, t.id), t.id, viewer, { filter: "all", q: "", sort, dir: "asc", page: 2 }).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const steps = plan.results.map((r) => r.detail);
      // The outer loop reads files by primary key from the page's ids; a plan that sorts the files
      // themselves would run both per-row sub-selects for every file before keeping 50.
      expect(steps[0], `${sort}: ${steps.join(" | ")}`).toMatch(/^SEARCH files USING INDEX sqlite_autoindex_files_1 \(id=\?\)$/);
      expect(steps[1], sort).toMatch(/^LIST SUBQUERY \d+$/);
      // A file's people with access come from its own entries (the primary key), not the tenant's.
      expect(
        steps.filter((s) => s.startsWith("SEARCH file_access")),
        sort,
      ).toEqual(["SEARCH file_access USING INDEX sqlite_autoindex_file_access_1 (file_id=?)"]);
    }
  });
});
