import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { filesStaff, upload, uploadOk } from "../factories/files";
import { visit } from "../factories/html";
import { withPageKey } from "../factories/submission-keys";
import { count } from "./auth-helpers";

describe("serving a stored file", () => {
  it("downloads as an attachment with a safe file name, the sandbox CSP and nosniff, and audits FILE_DOWNLOADED", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "Café plans.txt", "hello", {}, "text/plain");
    const res = await b.get(`${t.origin}/files/file/${id}/download`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    const disposition = res.headers.get("Content-Disposition") ?? "";
    expect(disposition.startsWith("attachment; ")).toBe(true);
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(disposition).toBe(`attachment; filename="Caf_ plans.txt"; filename*=UTF-8''Caf%C3%A9%20plans.txt`);
    expect(res.headers.get("Content-Security-Policy")?.startsWith("sandbox;")).toBe(true);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.downloaded' AND target_id = ?", t.id, id)).toBe(1);
  });

  it("tells the page a download began with a cookie named after its nonce, only for a well-formed nonce and only on the download", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "signal.txt", "hi");
    const nonce = "a1B2c3D4e5F6g7H8i9J0";
    const res = await b.get(`${t.origin}/files/file/${id}/download?dl=${nonce}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Set-Cookie")).toBe(`file_dl_${nonce}=1; Path=/; Max-Age=120; SameSite=Strict`);
    // No header injection or arbitrary cookie names through the nonce.
    for (const bad of ["short", "x".repeat(41), "abcdefghijklmnop%3B%20Path%3D%2Fadmin", "abcdefghijklmnop%0d%0aX-Evil:1"]) {
      const r = await b.get(`${t.origin}/files/file/${id}/download?dl=${bad}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("Set-Cookie")).toBeNull();
    }
    expect((await b.get(`${t.origin}/files/file/${id}/content?dl=${nonce}`)).headers.get("Set-Cookie")).toBeNull();
    // A file the person may not have gives no signal, so the page reports the failure.
    expect((await b.get(`${t.origin}/files/file/nope/download?dl=${nonce}`)).headers.get("Set-Cookie")).toBeNull();
  });

  it("never serves an uploaded HTML or SVG file inline: always an attachment of no active type", async () => {
    const { t, b } = await filesStaff("lead");
    const html = await uploadOk(b, t, "x.html", "<script>alert(document.cookie)</script>", {}, "text/html");
    const svg = await uploadOk(b, t, "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', {}, "image/svg+xml");
    for (const id of [html, svg]) {
      const res = await b.get(`${t.origin}/files/file/${id}/content`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
      expect(res.headers.get("Content-Disposition")?.startsWith("attachment;")).toBe(true);
      expect(res.headers.get("Content-Security-Policy")?.startsWith("sandbox;")).toBe(true);
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("shows images, PDFs and text inline for the preview, still sandboxed", async () => {
    const { t, b } = await filesStaff("lead");
    const png = await uploadOk(b, t, "p.png", "\x89PNG", {}, "image/png");
    const pdf = await uploadOk(b, t, "d.pdf", "%PDF-1.4", {}, "application/pdf");
    const csv = await uploadOk(b, t, "c.csv", "a,b", {}, "text/csv");
    const types: Record<string, string> = { [png]: "image/png", [pdf]: "application/pdf", [csv]: "text/plain; charset=utf-8" };
    for (const [id, type] of Object.entries(types)) {
      const res = await b.get(`${t.origin}/files/file/${id}/content`);
      expect(res.headers.get("Content-Type")).toBe(type);
      expect(res.headers.get("Content-Disposition")?.startsWith("inline;")).toBe(true);
      expect(res.headers.get("Content-Security-Policy")?.startsWith("sandbox;")).toBe(true);
    }
    // The app's own pages keep the app's policy.
    const page = await b.get(`${t.origin}/files/file/${csv}`);
    expect(page.headers.get("Content-Security-Policy")?.startsWith("default-src")).toBe(true);
  });

  it("previews csv, json and text as text in the page, and says when a type has no preview", async () => {
    const { t, b } = await filesStaff("lead");
    const json = await uploadOk(b, t, "data.json", '{"a": "<b>1</b>"}', {}, "application/json");
    const zip = await uploadOk(b, t, "a.zip", "PK", {}, "application/zip");
    const page = await visit(b, `${t.origin}/files/file/${json}`);
    expect(page.doc.querySelector("[data-testid='text-preview']")?.textContent).toBe('{"a": "<b>1</b>"}');
    expect(page.doc.querySelector("[data-testid='text-preview'] b")).toBeNull();
    expect((await visit(b, `${t.origin}/files/file/${zip}`)).text).toContain("Preview not available for this file type");
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another tenant's file by id, on every route, and changes nothing", async () => {
    const a = await filesStaff("admin");
    const other = await filesStaff("admin");
    const id = await uploadOk(a.b, a.t, "secret.txt", "secret", { visibility: "shared" });
    for (const path of [`/files/file/${id}`, `/files/file/${id}/download`, `/files/file/${id}/content`, `/files/upload?fileId=${id}`]) {
      expect((await other.b.get(`${other.t.origin}${path}`)).status, path).toBe(404);
    }
    expect((await other.b.post(`${other.t.origin}/files/file/${id}`, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    expect((await other.b.post(`${other.t.origin}/files/file/${id}`, { intent: "move", folderId: "" })).status).toBe(404);
    expect((await other.b.post(`${other.t.origin}/files/file/${id}`, { intent: "share", userIds: [a.u.id] })).status).toBe(404);
    await other.b.post(
      `${other.t.origin}/files/all`,
      await withPageKey(other.b, `${other.t.origin}/files/all`, { intent: "delete", ids: [id], confirmed: "yes" }),
    );
    expect(await count("files", "id = ?", id)).toBe(1);
    expect((await env.FILES.get(`tenants/${a.t.id}/files/${id}/v1/original/secret.txt`)) !== null).toBe(true);
    // The list of the other tenant never shows it.
    expect((await visit(other.b, `${other.t.origin}/files/all`)).doc.querySelector(`[data-file-id='${id}']`)).toBeNull();
  });

  it("never takes an R2 key from the request: a key of another tenant used as an id is 404", async () => {
    const a = await filesStaff("admin");
    const other = await filesStaff("admin");
    const id = await uploadOk(a.b, a.t, "secret.txt", "secret");
    const key = `tenants/${a.t.id}/files/${id}/v1/original/secret.txt`;
    expect((await other.b.get(`${other.t.origin}/files/file/${encodeURIComponent(key)}/download`)).status).toBe(404);
    expect((await other.b.get(`${other.t.origin}/files/file/${id}/download?v=1`)).status).toBe(404);
  });

  it("ignores a folder of another tenant at upload", async () => {
    const a = await filesStaff("admin");
    const other = await filesStaff("admin");
    await a.b.post(`${a.t.origin}/files/folders`, { intent: "create-folder", name: "Mine", color: "#64748b" });
    const folder = await env.DB.prepare("SELECT id FROM file_folders WHERE tenant_id = ?").bind(a.t.id).first<{ id: string }>();
    const res = await upload(other.b, other.t, { name: "x.txt", content: "x" }, { folderId: folder!.id }, { xhr: true });
    const { fileId } = (await res.json()) as { fileId: string };
    expect(await count("files", "id = ? AND folder_id IS NULL", fileId)).toBe(1);
  });
});
