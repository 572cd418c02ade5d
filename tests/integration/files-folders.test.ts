import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { filesStaff, uploadOk } from "../factories/files";
import { textsOf, visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location } from "./http";

describe("folders", () => {
  it("creates nested folders with colours and slug paths, shows breadcrumbs, children, previous/next and the files inside", async () => {
    const { t, b } = await filesStaff("lead");
    const res = await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Site Reports", color: "#ef4444" });
    expect(location(res)).toBe("/files/folders/site-reports");
    await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Accounts", color: "#22c55e" });
    const nested = await b.post(`${t.origin}/files/folders/site-reports`, { intent: "create-folder", name: "2026 Q1", color: "#3b82f6" });
    expect(location(nested)).toBe("/files/folders/site-reports/2026-q1");
    const folder = await env.DB.prepare("SELECT id, color FROM file_folders WHERE tenant_id = ? AND path = 'site-reports/2026-q1'")
      .bind(t.id)
      .first<{ id: string; color: string }>();
    expect(folder!.color).toBe("#3b82f6");
    const id = await uploadOk(b, t, "q1.txt", "q", { folderId: folder!.id });
    const page = await visit(b, `${t.origin}/files/folders/site-reports/2026-q1`);
    expect(page.status).toBe(200);
    expect(textsOf(page.doc, "nav[aria-label='Breadcrumb'] li").map((s) => s.replace("/ ", ""))).toEqual(["Folders", "Site Reports", "2026 Q1"]);
    expect(page.doc.querySelector(`[data-file-id='${id}']`)).not.toBeNull();
    const root = await visit(b, `${t.origin}/files/folders`);
    expect(textsOf(root.doc, "ul[aria-label='Folders'] li")).toEqual(["Accounts", "Site Reports"]);
    expect(root.doc.querySelector(`[data-file-id='${id}']`)).toBeNull();
    const accounts = await visit(b, `${t.origin}/files/folders/accounts`);
    expect(accounts.doc.querySelector("a[rel='next']")?.getAttribute("href")).toBe("/files/folders/site-reports");
    expect(textsOf((await visit(b, `${t.origin}/files/folders?fq=acc`)).doc, "ul[aria-label='Folders'] li")).toEqual(["Accounts"]);
    expect((await b.get(`${t.origin}/files/folders/no-such`)).status).toBe(404);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.folder.created'", t.id)).toBe(3);
  });

  it("renames a folder (its children's paths follow), refuses a duplicate, deletes an empty one moving its files up", async () => {
    const { t, b } = await filesStaff("lead");
    await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Old", color: "#64748b" });
    await b.post(`${t.origin}/files/folders/old`, { intent: "create-folder", name: "Child", color: "#64748b" });
    await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "Taken", color: "#64748b" });
    const dup = await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "taken", color: "#64748b" });
    expect(dup.status).toBe(400);
    expect((await visit({ get: async () => dup }, "")).text).toContain("A folder with this name already exists here.");
    const long = await b.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "x".repeat(81), color: "#64748b" });
    expect(long.status).toBe(400);
    expect((await visit({ get: async () => long }, "")).text).toContain("Folder name must be 80 characters or fewer");
    const renamed = await b.post(`${t.origin}/files/folders/old`, { intent: "update-folder", name: "New Name", color: "#ef4444" });
    expect(location(renamed)).toBe("/files/folders/new-name");
    expect(await count("file_folders", "tenant_id = ? AND path = 'new-name/child'", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.folder.updated'", t.id)).toBe(1);
    expect((await b.post(`${t.origin}/files/folders/new-name`, { intent: "delete-folder" })).status).toBe(400);
    const child = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ? AND path = 'new-name/child'").bind(t.id).first<{ id: string }>();
    const parent = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ? AND path = 'new-name'").bind(t.id).first<{ id: string }>();
    const f = await uploadOk(b, t, "in-child.txt", "c", { folderId: child!.id });
    const del = await b.post(`${t.origin}/files/folders/new-name/child`, { intent: "delete-folder" });
    expect(location(del)).toBe("/files/folders/new-name");
    expect(await count("files", "id = ? AND folder_id = ?", f, parent!.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.folder.deleted'", t.id)).toBe(1);
  });

  it("needs files.folders.create for New Folder and files.folders.manage for Edit Folder (403, audited)", async () => {
    const t = await createTenant({ modules: ["files"], bundles: { standard: ["files.view", "files.upload"], lead: ["files.view", "files.folders.create"] } });
    const sb = await signedIn(t, await createUser(t, { role: "standard" }));
    expect((await sb.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "X", color: "#64748b" })).status).toBe(403);
    const lb = await signedIn(t, await createUser(t, { role: "lead" }));
    expect((await lb.post(`${t.origin}/files/folders`, { intent: "create-folder", name: "X", color: "#64748b" })).status).toBe(302);
    expect((await lb.post(`${t.origin}/files/folders/x`, { intent: "update-folder", name: "Y", color: "#64748b" })).status).toBe(403);
    expect((await lb.post(`${t.origin}/files/folders/x`, { intent: "delete-folder" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied'", t.id)).toBe(3);
    const page = await visit(sb, `${t.origin}/files/folders`);
    expect(page.doc.querySelector("form[aria-label='New Folder']")).toBeNull();
  });
});
