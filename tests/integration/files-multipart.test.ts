import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { setStoragePlan } from "~/features/files/quota.server";
import { FILE_MESSAGES, MIN_PART_BYTES } from "~/features/files/file-rules";
import { expireMultipartUploads } from "~/features/files/multipart-upload.server";
import { CRON_REGISTRY } from "../../workers/cron";
import { createTenant, createUser, type TestTenant } from "../factories";
import { filesStaff, uploadOk } from "../factories/files";
import { shownText } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import type { Browser } from "./http";

const HOUR = 60 * 60 * 1000;

function send(b: Browser, t: TestTenant, path: string, init: { method: string; body?: BodyInit; headers?: Record<string, string>; origin?: string }) {
  return exports.default.fetch(
    new Request(`${t.origin}${path}`, {
      method: init.method,
      body: init.body,
      redirect: "manual",
      headers: { Origin: init.origin ?? t.origin, Cookie: b.cookieHeader(t.host), ...init.headers },
    }),
  );
}

function json(b: Browser, t: TestTenant, path: string, value: unknown, origin?: string) {
  const body = JSON.stringify(value);
  return send(b, t, path, { method: "POST", body, origin, headers: { "Content-Type": "application/json", "Content-Length": String(body.length) } });
}

type Started = { ok: boolean; uploadId: string; partSize: number; partCount: number; message?: string };

async function start(b: Browser, t: TestTenant, decl: Record<string, unknown>) {
  const res = await json(b, t, "/files/upload/multipart", { type: "application/octet-stream", partSize: MIN_PART_BYTES, ...decl });
  return { res, body: (await res.json()) as Started };
}

function putPart(b: Browser, t: TestTenant, id: string, part: number, bytes: Uint8Array<ArrayBuffer>) {
  return send(b, t, `/files/upload/multipart/${id}?part=${part}`, {
    method: "PUT",
    body: bytes,
    headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) },
  });
}

function finish(b: Browser, t: TestTenant, id: string, intent: "complete" | "abort") {
  return json(b, t, `/files/upload/multipart/${id}`, { intent });
}

function pattern(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + (i >> 9)) & 0xff;
  return out;
}

async function reserved(tenantId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(bytes), 0) AS n FROM storage_reservations WHERE tenant_id = ?").bind(tenantId).first<{ n: number }>();
  return row?.n ?? 0;
}

/** A single-part upload started and its part sent (a part smaller than the part size is the last). */
async function startedWithPart(b: Browser, t: TestTenant, name = "small.bin", size = 1000) {
  const { res, body } = await start(b, t, { name, size });
  expect(res.status).toBe(200);
  expect((await putPart(b, t, body.uploadId, 1, pattern(size))).status).toBe(200);
  return body.uploadId;
}

describe("multipart upload", () => {
  it("creates, takes two parts, completes: version 1, exact bytes, usage and audit, reservation and upload rows gone", async () => {
    const { t, u, b } = await filesStaff("lead");
    const size = MIN_PART_BYTES + 1234;
    const content = pattern(size);
    const { res, body } = await start(b, t, { name: "site survey.mp4", size, type: "video/mp4" });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ ok: true, partSize: MIN_PART_BYTES, partCount: 2 });
    // The declared size is promised before any byte arrives.
    expect(await reserved(t.id)).toBe(size);

    expect((await putPart(b, t, body.uploadId, 1, content.slice(0, MIN_PART_BYTES))).status).toBe(200);
    expect((await putPart(b, t, body.uploadId, 2, content.slice(MIN_PART_BYTES))).status).toBe(200);
    const done = await finish(b, t, body.uploadId, "complete");
    expect(done.status).toBe(200);
    const answer: { ok: boolean; fileId: string; version: number; redirectTo: string } = await done.json();
    expect(answer).toMatchObject({ ok: true, version: 1, redirectTo: "/files/all" });

    const row = await env.DB.prepare("SELECT * FROM files WHERE tenant_id = ? AND id = ?")
      .bind(t.id, answer.fileId)
      .first<{ name: string; size: number; version: number; storage_key: string; owner_id: string; category: string; mime_type: string }>();
    expect(row).toMatchObject({ name: "site survey.mp4", size, version: 1, owner_id: u.id, category: "video", mime_type: "video/mp4" });
    const stored = new Uint8Array(await (await env.FILES.get(row!.storage_key))!.arrayBuffer());
    expect(stored.length).toBe(size);
    expect(stored.every((v, i) => v === content[i])).toBe(true);
    expect(await count("file_versions", "tenant_id = ? AND file_id = ? AND version = 1", t.id, answer.fileId)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.file.uploaded' AND target_id = ?", t.id, answer.fileId)).toBe(1);
    const usage = await env.DB.prepare("SELECT used_bytes, file_count FROM storage_usage WHERE tenant_id = ?").bind(t.id).first();
    expect(usage).toEqual({ used_bytes: size, file_count: 1 });
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_parts", "tenant_id = ?", t.id)).toBe(0);
    // Completed once: a second complete finds nothing.
    expect((await finish(b, t, body.uploadId, "complete")).status).toBe(404);
  });

  it("uploads a new version of the person's own file in parts", async () => {
    const { t, b } = await filesStaff("lead");
    const fileId = await uploadOk(b, t, "notes.txt", "first");
    const { res, body } = await start(b, t, { name: "ignored.txt", size: 500, type: "text/plain", fileId });
    expect(res.status).toBe(200);
    expect((await putPart(b, t, body.uploadId, 1, pattern(500))).status).toBe(200);
    const done: { version: number; fileId: string } = await (await finish(b, t, body.uploadId, "complete")).json();
    expect(done).toMatchObject({ version: 2, fileId });
    const row = await env.DB.prepare("SELECT name, version, size FROM files WHERE id = ?").bind(fileId).first();
    expect(row).toEqual({ name: "notes.txt", version: 2, size: 500 });
  });

  it("abort releases the reservation, drops the parts and leaves nothing stored; the id is dead afterwards", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await startedWithPart(b, t);
    expect(await reserved(t.id)).toBe(1000);
    const res = await finish(b, t, id, "abort");
    expect(res.status).toBe(200);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_parts", "tenant_id = ?", t.id)).toBe(0);
    expect((await putPart(b, t, id, 1, pattern(1000))).status).toBe(404);
    expect((await finish(b, t, id, "complete")).status).toBe(404);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/` })).objects).toHaveLength(0);
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
  });

  it("refuses parts of the wrong size or number without spoiling the upload", async () => {
    const { t, b } = await filesStaff("lead");
    const size = MIN_PART_BYTES + 10;
    const { body } = await start(b, t, { name: "two.bin", size });
    // Part 1 must be exactly the part size; the last part exactly the remainder.
    const short = await putPart(b, t, body.uploadId, 1, pattern(1000));
    expect(short.status).toBe(400);
    expect(((await short.json()) as { code: string }).code).toBe("size_mismatch");
    expect((await putPart(b, t, body.uploadId, 2, pattern(11))).status).toBe(400);
    expect((await putPart(b, t, body.uploadId, 3, pattern(10))).status).toBe(400);
    expect((await putPart(b, t, body.uploadId, 0, pattern(10))).status).toBe(400);
    expect(await count("file_multipart_parts", "upload_id = ?", body.uploadId)).toBe(0);
    expect((await putPart(b, t, body.uploadId, 2, pattern(10))).status).toBe(200);
    expect(await count("file_multipart_uploads", "id = ? AND state = 'open'", body.uploadId)).toBe(1);
  });

  it("refuses to complete with a part missing: the upload is aborted and its reservation released", async () => {
    const { t, b } = await filesStaff("lead");
    const size = MIN_PART_BYTES + 10;
    const { body } = await start(b, t, { name: "half.bin", size });
    expect((await putPart(b, t, body.uploadId, 2, pattern(10))).status).toBe(200);
    const res = await finish(b, t, body.uploadId, "complete");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, code: "size_mismatch" });
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(0);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/` })).objects).toHaveLength(0);
  });

  it("refuses a completed object whose size is not the declared size: deleted, nothing recorded, reservation released", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await startedWithPart(b, t, "odd.bin", 1000);
    const original = env.FILES.resumeMultipartUpload.bind(env.FILES);
    // R2 answering a different size than the parts add up to (a store gone wrong).
    env.FILES.resumeMultipartUpload = ((key: string, uploadId: string) => {
      const real = original(key, uploadId);
      return {
        key: real.key,
        uploadId: real.uploadId,
        uploadPart: real.uploadPart.bind(real),
        abort: real.abort.bind(real),
        complete: async (parts: R2UploadedPart[]) => ({ ...(await real.complete(parts)), size: 999 }) as R2Object,
      };
    }) as typeof env.FILES.resumeMultipartUpload;
    let res: Response;
    try {
      res = await finish(b, t, id, "complete");
    } finally {
      env.FILES.resumeMultipartUpload = original;
    }
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "size_mismatch" });
    expect(await count("files", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(0);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/` })).objects).toHaveLength(0);
  });
});

describe("multipart quota", () => {
  it("refuses a declared size over the limit with the spec's message and audits it", async () => {
    const { t, b } = await filesStaff("lead");
    await setStoragePlan(env, t.id, { tier: "custom", customLimit: 200 * 1000 * 1000 });
    const { res, body } = await start(b, t, { name: "huge.mov", size: 200 * 1000 * 1000 + 1 });
    expect(res.status).toBe(413);
    expect(body.message).toBe(FILE_MESSAGES.quotaExceeded);
    expect(await count("audit_events", "tenant_id = ? AND action = 'files.storage.quota_exceeded'", t.id)).toBe(1);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(0);
  });

  it("lets exactly one of two simultaneous multipart uploads through when together they exceed the quota", async () => {
    const { t, b } = await filesStaff("lead");
    await setStoragePlan(env, t.id, { tier: "custom", customLimit: 150 * 1000 * 1000 });
    const [a, c] = await Promise.all([start(b, t, { name: "a.mov", size: 100 * 1000 * 1000 }), start(b, t, { name: "b.mov", size: 100 * 1000 * 1000 })]);
    expect([a.res.status, c.res.status].sort()).toEqual([200, 413]);
    expect(await count("file_multipart_uploads", "tenant_id = ?", t.id)).toBe(1);
    expect(await reserved(t.id)).toBe(100 * 1000 * 1000);
    // A plain upload cannot slip into the space the multipart upload holds either.
    await setStoragePlan(env, t.id, { tier: "custom", customLimit: 100 * 1000 * 1000 + 100 });
    const plain = await uploadOk(b, t, "x.txt", "x".repeat(200)).catch((e: unknown) => String(e));
    expect(plain).toContain("413");
  });

  it("refuses a file too big for R2's part count, and a part size outside 5-50 MiB", async () => {
    const { t, b } = await filesStaff("lead");
    await setStoragePlan(env, t.id, { tier: "enterprise" });
    expect((await start(b, t, { name: "a.bin", size: MIN_PART_BYTES * 10_001 })).res.status).toBe(413);
    expect((await start(b, t, { name: "a.bin", size: 1000, partSize: 1024 })).res.status).toBe(400);
    expect((await start(b, t, { name: "a.bin", size: 1000, partSize: 60 * 1024 * 1024 })).res.status).toBe(400);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
  });
});

describe("multipart isolation and guards", () => {
  it("another person's upload id is a 404 for parts, complete and abort, and their upload carries on", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await startedWithPart(b, t);
    // Someone who manages all files in the same tenant is still not the uploader.
    const other = await signedIn(t, await createUser(t, { role: "admin" }));
    expect((await putPart(other, t, id, 1, pattern(1000))).status).toBe(404);
    expect((await finish(other, t, id, "abort")).status).toBe(404);
    expect((await finish(other, t, id, "complete")).status).toBe(404);
    expect(await count("file_multipart_uploads", "id = ? AND state = 'open'", id)).toBe(1);
    expect((await finish(b, t, id, "complete")).status).toBe(200);
  });

  it("another tenant's upload id is a 404 on the other tenant's host", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await startedWithPart(b, t);
    const { t: t2, b: b2 } = await filesStaff("admin");
    expect((await putPart(b2, t2, id, 1, pattern(1000))).status).toBe(404);
    expect((await finish(b2, t2, id, "abort")).status).toBe(404);
    expect((await finish(b2, t2, id, "complete")).status).toBe(404);
    expect(await count("file_multipart_uploads", "id = ?", id)).toBe(1);
    expect(await count("files", "tenant_id = ?", t2.id)).toBe(0);
  });

  it("refuses a cross-origin start and complete (403) and a member without files.upload (403, audited)", async () => {
    const { t, b } = await filesStaff("lead");
    const forged = await json(b, t, "/files/upload/multipart", { name: "a.bin", size: 10 }, "https://evil.example");
    expect(forged.status).toBe(403);
    const id = await startedWithPart(b, t);
    expect((await json(b, t, `/files/upload/multipart/${id}`, { intent: "complete" }, "https://evil.example")).status).toBe(403);
    expect(await count("file_multipart_uploads", "id = ? AND state = 'open'", id)).toBe(1);

    const t2 = await createTenant({ modules: ["files"], bundles: { standard: ["files.view"] } });
    const viewer = await signedIn(t2, await createUser(t2, { role: "standard" }));
    expect((await start(viewer, t2, { name: "a.bin", size: 10 })).res.status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'auth.scope.denied'", t2.id)).toBeGreaterThanOrEqual(1);
    expect(await count("storage_reservations", "tenant_id = ?", t2.id)).toBe(0);
  });
});

describe("upload page without JavaScript", () => {
  it("says that files over 100 MB need JavaScript", async () => {
    const { t, b } = await filesStaff("lead");
    const page = await b.get(`${t.origin}/files/upload`);
    expect(await shownText(page)).toContain("Up to 100 MB without JavaScript; larger files go up in parts and need JavaScript turned on.");
  });
});

describe("multipart expiry", () => {
  it("housekeeping aborts uploads idle for an hour and releases their reservations; a live one stays", async () => {
    const { t, b } = await filesStaff("lead");
    const stale = await startedWithPart(b, t, "stale.bin", 700);
    const now = Date.now();
    await env.DB.prepare("UPDATE file_multipart_uploads SET touched_at = ? WHERE id = ?")
      .bind(now - HOUR - 1, stale)
      .run();
    const fresh = await startedWithPart(b, t, "fresh.bin", 300);
    // An upload idle past the hour takes no more parts, even before housekeeping runs.
    expect((await putPart(b, t, stale, 1, pattern(700))).status).toBe(404);

    expect(CRON_REGISTRY["15 * * * *"].map((j) => j.name)).toContain("files-stale-multipart-uploads");
    expect(await expireMultipartUploads(env, now)).toBeGreaterThanOrEqual(1);
    expect(await count("file_multipart_uploads", "id = ?", stale)).toBe(0);
    expect(await count("file_multipart_parts", "upload_id = ?", stale)).toBe(0);
    expect(await count("storage_reservations", "id = ?", stale)).toBe(0);
    expect(await reserved(t.id)).toBe(300);
    expect((await finish(b, t, fresh, "complete")).status).toBe(200);
  });

  it("housekeeping removes an upload stuck completing and its object when no version points at it", async () => {
    const { t, b } = await filesStaff("lead");
    const id = await startedWithPart(b, t, "stuck.bin", 400);
    const row = await env.DB.prepare("SELECT storage_key, r2_upload_id FROM file_multipart_uploads WHERE id = ?")
      .bind(id)
      .first<{ storage_key: string; r2_upload_id: string }>();
    const part = await env.FILES.resumeMultipartUpload(row!.storage_key, row!.r2_upload_id).uploadPart(1, pattern(400));
    await env.FILES.resumeMultipartUpload(row!.storage_key, row!.r2_upload_id).complete([part]);
    await env.DB.prepare("UPDATE file_multipart_uploads SET state = 'completing', touched_at = ? WHERE id = ?")
      .bind(Date.now() - 2 * HOUR, id)
      .run();
    await expireMultipartUploads(env);
    expect(await env.FILES.head(row!.storage_key)).toBeNull();
    expect(await count("file_multipart_uploads", "id = ?", id)).toBe(0);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
  });
});
