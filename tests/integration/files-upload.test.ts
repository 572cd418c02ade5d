import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordUpload, uploadTarget } from "~/features/files/files.server";
import { setStoragePlan } from "~/features/files/quota.server";
import { FILE_MESSAGES } from "~/features/files/file-rules";
import { filesStaff, upload, uploadOk } from "../factories/files";
import { shownText } from "../factories/html";
import { createTenant } from "../factories";
import { count } from "./auth-helpers";
import { createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { location } from "./http";

async function fileRow(id: string) {
  return env.DB.prepare("SELECT * FROM files WHERE id = ?")
    .bind(id)
    .first<{ tenant_id: string; name: string; size: number; version: number; storage_key: string; visibility: string; owner_id: string; category: string }>();
}

describe("upload", () => {
  it("streams a file posted by the plain form into R2, records version 1, usage and the audit entry, and goes to /files/all", async () => {
    const { t, u, b } = await filesStaff("lead");
    const content = "name,amount\nA,1\n";
    const res = await upload(b, t, { name: "report 2026.csv", type: "text/csv", content }, { visibility: "private" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/files/all");
    const row = await env.DB.prepare("SELECT * FROM files WHERE tenant_id = ?")
      .bind(t.id)
      .first<{ id: string; name: string; size: number; version: number; storage_key: string; category: string; owner_id: string }>();
    expect(row).toMatchObject({ name: "report 2026.csv", size: content.length, version: 1, category: "spreadsheets", owner_id: u.id });
    expect(row!.storage_key).toBe(`tenants/${t.id}/files/${row!.id}/v1/original/report-2026.csv`);
    expect(await (await env.FILES.get(row!.storage_key))!.text()).toBe(content);
    expect(await count("file_versions", "file_id = ? AND version = 1 AND type = 'original'", row!.id)).toBe(1);
    const usage = await env.DB.prepare(
      "SELECT used_bytes, file_count, json_extract(category_bytes, '$.spreadsheets') AS sheets FROM storage_usage WHERE tenant_id = ?",
    )
      .bind(t.id)
      .first<{ used_bytes: number; file_count: number; sheets: number }>();
    expect(usage).toEqual({ used_bytes: content.length, file_count: 1, sheets: content.length });
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.uploaded' AND target_id = ?", t.id, row!.id)).toBe(1);
    expect(await count("activity_log", "tenant_id = ? AND module = 'files' AND action = 'file uploaded'", t.id)).toBe(1);
  });

  it("keeps binary content byte for byte across several R2 parts (a 12 MB file with CR LF and boundary-like bytes)", async () => {
    const { t, b } = await filesStaff("lead");
    const size = 12 * 1024 * 1024 + 17;
    const content = new Uint8Array(size);
    for (let i = 0; i < size; i++) content[i] = (i * 31 + (i >> 7)) & 0xff;
    content.set(new TextEncoder().encode("\r\n--not-the-boundary\r\n"), 5 * 1024 * 1024 - 3);
    const id = await uploadOk(b, t, "big.bin", content, {}, "application/octet-stream");
    const row = await fileRow(id);
    expect(row!.size).toBe(size);
    const stored = new Uint8Array(await (await env.FILES.get(row!.storage_key))!.arrayBuffer());
    expect(stored.length).toBe(size);
    let same = true;
    for (let i = 0; i < size; i++) if (stored[i] !== content[i]) same = false;
    expect(same).toBe(true);
  });

  it("answers the script's upload with JSON and records visibility and allowed people for a restricted file", async () => {
    const { t, b } = await filesStaff("lead");
    const other = await createUser(t);
    const res = await upload(
      b,
      t,
      { name: "plan.pdf", type: "application/pdf", content: "%PDF-1.4" },
      { visibility: "restricted", allowedUserIds: [other.id] },
      { xhr: true },
    );
    expect(res.status).toBe(200);
    const json: { ok: boolean; fileId: string; redirectTo: string } = await res.json();
    expect(json).toMatchObject({ ok: true, redirectTo: "/files/all" });
    expect((await fileRow(json.fileId))!.visibility).toBe("restricted");
    expect(await count("file_access", "file_id = ? AND user_id = ? AND via = 'allowed'", json.fileId, other.id)).toBe(1);
  });

  it("refuses a restricted upload without anyone picked", async () => {
    const { t, b } = await filesStaff("lead");
    const res = await upload(b, t, { name: "r.txt", content: "r" }, { visibility: "restricted" }, { xhr: true });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("Choose at least one person to share with.");
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
  });

  it("forces private visibility without the share scope", async () => {
    const { t, b } = await filesStaff("standard");
    const id = await uploadOk(b, t, "mine.txt", "x", { visibility: "shared" });
    expect((await fileRow(id))!.visibility).toBe("private");
  });

  it("refuses an upload without a file with the spec's message", async () => {
    const { t, b } = await filesStaff("lead");
    const res = await upload(b, t, null, { visibility: "private" });
    expect(res.status).toBe(400);
    expect(await shownText(res)).toContain(FILE_MESSAGES.missingInput);
  });

  it("refuses a member without files.upload with 403 and an audited denial, and stores nothing", async () => {
    const t = await createTenant({ modules: ["files"], bundles: { standard: ["files.view"] } });
    const u = await createUser(t, { role: "standard" });
    const b = await signedIn(t, u);
    const res = await upload(b, t, { name: "a.txt", content: "a" }, {}, { xhr: true });
    expect(res.status).toBe(403);
    const page = await upload(b, t, { name: "a.txt", content: "a" });
    expect(page.status).toBe(403);
    expect(await shownText(page)).toContain(FILE_MESSAGES.noUploadPermission);
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied'", t.id)).toBeGreaterThanOrEqual(2);
  });

  it("uploads a new version of an existing file: version 2 recorded, the file points at it, both stay downloadable", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "notes.txt", "one");
    const res = await upload(b, t, { name: "whatever.txt", type: "text/plain", content: "second" }, { fileId: id });
    expect(res.status).toBe(302);
    const row = await fileRow(id);
    expect(row).toMatchObject({ version: 2, size: 6, name: "notes.txt" });
    expect(await count("file_versions", "file_id = ?", id)).toBe(2);
    expect(await (await b.get(`${t.origin}/files/file/${id}/download`)).text()).toBe("second");
    expect(await (await b.get(`${t.origin}/files/file/${id}/download?v=1`)).text()).toBe("one");
    const used = await env.DB.prepare("SELECT used_bytes, file_count FROM storage_usage WHERE tenant_id = ?").bind(t.id).first();
    expect(used).toEqual({ used_bytes: 9, file_count: 1 });
  });

  it("refuses a new version of someone else's file (403) and of another tenant's file (404)", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "shared.txt", "one", { visibility: "shared" });
    // A standard member may upload but does not manage all files (only an admin does).
    const other = await createUser(t, { role: "standard" });
    const ob = await signedIn(t, other);
    expect((await upload(ob, t, { name: "x.txt", content: "x" }, { fileId: id }, { xhr: true })).status).toBe(403);
    const { t: t2, b: b2 } = await filesStaff("admin");
    expect((await upload(b2, t2, { name: "x.txt", content: "x" }, { fileId: id }, { xhr: true })).status).toBe(404);
    expect((await fileRow(id))!.version).toBe(1);
  });
});

describe("new versions racing", () => {
  it("records exactly one version 2 when two uploads were numbered after the same version", async () => {
    const { t, u, b } = await filesStaff("lead");
    const id = await uploadOk(b, t, "race.txt", "v1");
    const viewer = { id: u.id, email: u.email, name: "Racer", manageAll: true };
    // Both uploads read the file before either is recorded: both are numbered version 2.
    const [first, second] = await Promise.all([uploadTarget(env, t.id, viewer, id), uploadTarget(env, t.id, viewer, id)]);
    if ("ok" in first || "ok" in second) throw new Error("no target");
    expect([first.version, second.version]).toEqual([2, 2]);
    const record = (target: typeof first, key: string) =>
      recordUpload(env, t.id, viewer, {
        reservationId: "none",
        target,
        name: "race.txt",
        mimeType: "text/plain",
        category: "documents",
        size: 5,
        storageKey: key,
        visibility: "private",
        allowedUserIds: [],
        folderId: null,
      });
    expect(await record(first, `tenants/${t.id}/files/${id}/v2/original-a/race.txt`)).toEqual({ ok: true, fileId: id });
    expect(await record(second, `tenants/${t.id}/files/${id}/v2/original-b/race.txt`)).toEqual({ ok: false, code: "not_found" });
    expect(await count("file_versions", "file_id = ?", id)).toBe(2);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.uploaded' AND target_id = ?", t.id, id)).toBe(2);
    expect((await fileRow(id))!.storage_key).toBe(`tenants/${t.id}/files/${id}/v2/original-a/race.txt`);
    const used = await env.DB.prepare("SELECT used_bytes FROM storage_usage WHERE tenant_id = ?").bind(t.id).first<{ used_bytes: number }>();
    expect(used!.used_bytes).toBe(2 + 5);
  });
});

describe("quota", () => {
  it("refuses an upload over the limit with the spec's message, audits it and stores nothing", async () => {
    const { t, b } = await filesStaff("lead");
    await setStoragePlan(env, t.id, { tier: "custom", customLimit: 1000 });
    const res = await upload(b, t, { name: "big.txt", content: "x".repeat(2000) }, {}, { xhr: true });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe(
      "There is not enough storage left for this file. Delete some files, or ask an administrator to upgrade the storage plan.",
    );
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.storage.quota_exceeded'", t.id)).toBe(1);
    const listed = await env.FILES.list({ prefix: `tenants/${t.id}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it("lets exactly one of two simultaneous uploads through when only one fits", async () => {
    const { t, b } = await filesStaff("lead");
    const body = "y".repeat(600);
    // Each request is about 600 bytes of file plus ~250 of form: one fits under 1,200, two do not.
    await setStoragePlan(env, t.id, { tier: "custom", customLimit: 1200 });
    const [r1, r2] = await Promise.all([
      upload(b, t, { name: "a.txt", content: body }, {}, { xhr: true }),
      upload(b, t, { name: "b.txt", content: body }, {}, { xhr: true }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 413]);
    expect(await count("files", "tenant_id = ?", t.id)).toBe(1);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
  });

  it("uses the tier's bytes when no custom limit is set (free tier: 5 GiB)", async () => {
    const { t, b } = await filesStaff("lead");
    await env.DB.prepare(
      "INSERT INTO storage_usage (tenant_id, tier, used_bytes, file_count, category_bytes, created_at, updated_at) VALUES (?, 'free', ?, 0, '{}', 0, 0)",
    )
      .bind(t.id, 5368709120 - 100)
      .run();
    expect((await upload(b, t, { name: "a.txt", content: "z".repeat(500) }, {}, { xhr: true })).status).toBe(413);
    await setStoragePlan(env, t.id, { tier: "starter" });
    expect((await upload(b, t, { name: "a.txt", content: "z".repeat(500) }, {}, { xhr: true })).status).toBe(200);
  });

  it("releases the reservation when the R2 write fails", async () => {
    const { t, b } = await filesStaff("lead");
    const original = env.FILES.put.bind(env.FILES);
    env.FILES.put = (() => Promise.reject(new Error("r2 down"))) as typeof env.FILES.put;
    try {
      const res = await upload(b, t, { name: "a.txt", content: "abc" }, {}, { xhr: true });
      expect(res.status).toBe(502);
    } finally {
      env.FILES.put = original;
    }
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
  });
});
