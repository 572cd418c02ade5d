import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { deadLetters } from "~/db/schema";
import { MIN_PART_BYTES } from "~/features/files/file-rules";
import { queueEmail } from "~/features/platform/email/send.server";
import { JOB_DEFINITIONS } from "~/features/platform/jobs/definitions.server";
import { enqueue, getJob, type JobMessage } from "~/features/platform/jobs/enqueue.server";
import { defineJob, type JobDefinition } from "~/features/platform/jobs/registry.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { askToSign, filesStaff, upload, uploadOk } from "../factories/files";
import { visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import type { Browser } from "./http";
import { deliverMessages, messageId, poll, recordingQueue } from "./queue-helpers";

const JOBS_QUEUE = "cis-workspace-jobs";

async function samplePdf(label = "Contract"): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(label, { x: 50, y: 780, size: 14, font });
  return Uint8Array.from(await doc.save());
}

/** A lead who owns a PDF, and a second lead who is asked to sign it. */
async function setup(name = "contract.pdf") {
  const { t, u: requester, b } = await filesStaff("lead");
  const signer = await createUser(t, { role: "lead" });
  const sb = await signedIn(t, signer);
  const pdf = await samplePdf();
  const fileId = await uploadOk(b, t, name, pdf, {}, "application/pdf");
  return { t, requester, b, signer, sb, pdf, fileId };
}

async function requestRow(fileId: string) {
  return env.DB.prepare("SELECT * FROM signature_requests WHERE file_id = ? ORDER BY created_at DESC").bind(fileId).first<Record<string, unknown>>();
}

async function fileRow(fileId: string) {
  return env.DB.prepare("SELECT version, signed, signed_at, signed_file_key, pending_sign, storage_key FROM files WHERE id = ?")
    .bind(fileId)
    .first<{ version: number; signed: number; signed_at: number | null; signed_file_key: string | null; pending_sign: number; storage_key: string }>();
}

async function runStampJob(tenantId: string, requestId: string) {
  const job = await env.DB.prepare("SELECT id, idempotency_key FROM jobs WHERE tenant_id = ? AND idempotency_key = ?")
    .bind(tenantId, `files.signature.stamp:${requestId}`)
    .first<{ id: string; idempotency_key: string }>();
  expect(job).toBeTruthy();
  return deliverMessages(JOBS_QUEUE, [{ body: { jobId: job!.id, tenantId, type: "files.signature.stamp", idempotencyKey: job!.idempotency_key } }]);
}

/** Requests, signs (typed) and stamps: the file ends signed at version 2. */
async function signAndStamp(s: Awaited<ReturnType<typeof setup>>) {
  const asked = await askToSign(s.b, s.t, s.fileId, s.signer.id);
  expect(asked.status).toBe(302);
  const id = String((await requestRow(s.fileId))!.id);
  const signed = await s.sb.post(`${s.t.origin}/files/signatures/${id}`, { intent: "sign", mode: "typed", name: "Sam Signer", font: "Allura", consent: "on" });
  expect(signed.status).toBe(302);
  await runStampJob(s.t.id, id);
  expect(await requestRow(s.fileId)).toMatchObject({ status: "signed", stamp_status: "done" });
  return id;
}

// The multipart path, as the upload screen's script drives it.
function send(b: Browser, t: TestTenant, path: string, init: { method: string; body?: BodyInit; headers?: Record<string, string> }) {
  return exports.default.fetch(
    new Request(`${t.origin}${path}`, {
      method: init.method,
      body: init.body,
      redirect: "manual",
      headers: { Origin: t.origin, Cookie: b.cookieHeader(t.host), ...init.headers },
    }),
  );
}
function postJson(b: Browser, t: TestTenant, path: string, value: unknown) {
  const body = JSON.stringify(value);
  return send(b, t, path, { method: "POST", body, headers: { "Content-Type": "application/json", "Content-Length": String(body.length) } });
}
async function startMultipart(b: Browser, t: TestTenant, fileId: string, size: number) {
  const res = await postJson(b, t, "/files/upload/multipart", { name: "v.pdf", size, type: "application/pdf", partSize: MIN_PART_BYTES, fileId });
  return { res, body: (await res.json()) as { ok: boolean; uploadId: string; code?: string; message?: string } };
}
async function putPart(b: Browser, t: TestTenant, uploadId: string, bytes: Uint8Array<ArrayBuffer>) {
  return send(b, t, `/files/upload/multipart/${uploadId}?part=1`, {
    method: "PUT",
    body: bytes,
    headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) },
  });
}

const PENDING = "A signature request for this document is pending";

describe("a new version of a document in signature", () => {
  it("is refused while a request is pending: the simple upload (form and script) and the multipart start", async () => {
    const { t, b, signer, fileId } = await setup();
    await askToSign(b, t, fileId, signer.id);
    const other = await samplePdf("Changed");

    const xhr = await upload(b, t, { name: "contract.pdf", content: other, type: "application/pdf" }, { fileId }, { xhr: true });
    expect(xhr.status).toBe(409);
    expect(((await xhr.json()) as { message: string }).message).toBe(PENDING);
    const form = await upload(b, t, { name: "contract.pdf", content: other, type: "application/pdf" }, { fileId });
    expect(form.status).toBe(409);
    expect(await form.text()).toContain(PENDING);
    const multipart = await startMultipart(b, t, fileId, other.length);
    expect(multipart.res.status).toBe(409);
    expect(multipart.body.message).toBe(PENDING);

    expect(await fileRow(fileId)).toMatchObject({ version: 1, pending_sign: 1 });
    expect(await count("file_versions", "file_id = ?", fileId)).toBe(1);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect((await env.FILES.list({ prefix: `tenants/${t.id}/files/${fileId}/v2` })).objects).toHaveLength(0);
  });

  it("is refused at completion when the request came after the multipart upload started", async () => {
    const { t, b, signer, fileId } = await setup();
    const other = await samplePdf("Changed in parts");
    const started = await startMultipart(b, t, fileId, other.length);
    expect(started.body.ok).toBe(true);
    expect((await putPart(b, t, started.body.uploadId, other)).status).toBe(200);
    // The request lands between the start and the completion.
    await askToSign(b, t, fileId, signer.id);
    const done = await postJson(b, t, `/files/upload/multipart/${started.body.uploadId}`, { intent: "complete" });
    expect(done.status).toBe(409);
    expect(((await done.json()) as { message: string }).message).toBe(PENDING);
    expect(await fileRow(fileId)).toMatchObject({ version: 1, pending_sign: 1 });
    expect(await count("file_versions", "file_id = ?", fileId)).toBe(1);
    expect(await count("storage_reservations", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "action = 'files.file.uploaded' AND target_id = ?", fileId)).toBe(1);
  });

  it("unsigns a signed file in the same batch; the signed version stays in the history, marked signed, and the list and export say which", async () => {
    const s = await setup();
    const { t, b, fileId } = s;
    await signAndStamp(s);
    const signedKey = (await fileRow(fileId))!.storage_key;
    expect(await fileRow(fileId)).toMatchObject({ version: 2, signed: 1, signed_file_key: signedKey });

    const changed = await samplePdf("Changed after signing");
    const res = await upload(b, t, { name: "contract.pdf", content: changed, type: "application/pdf" }, { fileId }, { xhr: true });
    expect(res.status).toBe(200);
    const file = await fileRow(fileId);
    expect(file).toMatchObject({ version: 3, signed: 0, signed_at: null, signed_file_key: null, pending_sign: 0 });
    // What is served now is the new content, and the file no longer claims a signature.
    const current = new Uint8Array(await (await b.get(`${t.origin}/files/file/${fileId}/download`)).arrayBuffer());
    expect(current.length).toBe(changed.length);
    const history = await env.DB.prepare("SELECT version, type, storage_key FROM file_versions WHERE file_id = ? ORDER BY version").bind(fileId).all();
    expect(history.results).toEqual([
      expect.objectContaining({ version: 1, type: "original" }),
      { version: 2, type: "signed", storage_key: signedKey },
      expect.objectContaining({ version: 3, type: "original" }),
    ]);

    // The list: not 'Signed', but which version is.
    const list = await visit(b, `${t.origin}/files/all`);
    const cells = [...list.doc.querySelectorAll(`tr[data-file-id='${fileId}'] td`)].map((td) => td.textContent?.trim());
    expect(cells).toContain("Version 2 signed");
    expect(cells).not.toContain("Signed");
    // The file page marks the signed version in the history.
    const page = await visit(b, `${t.origin}/files/file/${fileId}`);
    expect(page.doc.querySelector("[data-version='2']")?.textContent).toContain("Signed");
    expect(page.doc.querySelector("[data-version='3']")?.textContent).not.toContain("Signed");
    // The export.
    const csv = (await (await b.post(`${t.origin}/files/export`, { filter: "all" })).text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(csv[0]).toBe("Name,Folder,Owner,Size (bytes),Type,Visibility,Signed,Signed version,Version,Created");
    expect(csv[1].split(",").slice(6, 9)).toEqual(["No", "2", "3"]);
    // Signed again later is possible: the new version is a different document.
    const again = await askToSign(b, t, fileId, s.signer.id, s.requester);
    expect(again.status).toBe(302);
    expect(await requestRow(fileId)).toMatchObject({ status: "pending", original_version: 3 });
  });

  it("a signed file shows as signed at its version in the list and the export while it is current", async () => {
    const s = await setup();
    await signAndStamp(s);
    const list = await visit(s.b, `${s.t.origin}/files/all`);
    const cells = [...list.doc.querySelectorAll(`tr[data-file-id='${s.fileId}'] td`)].map((td) => td.textContent?.trim());
    expect(cells).toContain("Signed (version 2)");
    const csv = (await (await s.b.post(`${s.t.origin}/files/export`, { filter: "all" })).text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(csv[1].split(",").slice(6, 9)).toEqual(["Yes", "2", "2"]);
  });

  it("unsigns a signed file when the new version comes in parts", async () => {
    const s = await setup();
    await signAndStamp(s);
    const changed = await samplePdf("Changed in parts after signing");
    const started = await startMultipart(s.b, s.t, s.fileId, changed.length);
    expect(started.body.ok).toBe(true);
    expect((await putPart(s.b, s.t, started.body.uploadId, changed)).status).toBe(200);
    const done = await postJson(s.b, s.t, `/files/upload/multipart/${started.body.uploadId}`, { intent: "complete" });
    expect(done.status).toBe(200);
    expect(await fileRow(s.fileId)).toMatchObject({ version: 3, signed: 0, signed_at: null, signed_file_key: null });
    expect(await count("file_versions", "file_id = ? AND version = 2 AND type = 'signed'", s.fileId)).toBe(1);
  });
});

describe("a stamp that fails for good", () => {
  it("frees the file: it is not signed, and it takes a new version again", async () => {
    const { t, b, sb, signer } = await setup();
    const broken = await uploadOk(b, t, "broken.pdf", "%PDF-1.4 not really", {}, "application/pdf");
    await askToSign(b, t, broken, signer.id);
    const id = String((await requestRow(broken))!.id);
    await sb.post(`${t.origin}/files/signatures/${id}`, { intent: "sign", mode: "typed", name: "Sam", font: "Allura", consent: "on" });
    await runStampJob(t.id, id);
    expect(await requestRow(broken)).toMatchObject({ stamp_status: "failed" });
    expect(await fileRow(broken)).toMatchObject({ version: 1, signed: 0, pending_sign: 0 });
    const res = await upload(b, t, { name: "broken.pdf", content: await samplePdf("Fixed"), type: "application/pdf" }, { fileId: broken }, { xhr: true });
    expect(res.status).toBe(200);
    expect(await fileRow(broken)).toMatchObject({ version: 2, signed: 0 });
  });
});

describe("long file names in signature texts", () => {
  it("a 250-character name is requested, signed and stamped end to end; e-mails and notifications carry it shortened", async () => {
    const name = `${"Subcontract agreement for the north elevation works ".repeat(5).slice(0, 246)}.pdf`;
    expect(name).toHaveLength(250);
    const s = await setup(name);
    const asked = await askToSign(s.b, s.t, s.fileId, s.signer.id);
    expect(asked.status).toBe(302);
    const row = await requestRow(s.fileId);
    expect(row).toMatchObject({ status: "pending", file_name: name });
    const mail = await env.DB.prepare("SELECT data FROM email_outbox WHERE to_address = ? AND tenant_id = ?")
      .bind(s.signer.email, s.t.id)
      .first<{ data: string }>();
    const data = JSON.parse(mail!.data) as { subject: string; message: string };
    expect(data.subject.length).toBeLessThanOrEqual(200);
    expect(data.subject).toContain(`${name.slice(0, 119)}…`);
    expect(data.message).not.toContain(name);

    await signAndStamp({ ...s, fileId: s.fileId });
    expect(await fileRow(s.fileId)).toMatchObject({ version: 2, signed: 1 });
    const done = await env.DB.prepare("SELECT data FROM email_outbox WHERE to_address = ? AND tenant_id = ?")
      .bind(s.requester.email, s.t.id)
      .first<{ data: string }>();
    expect((JSON.parse(done!.data) as { subject: string }).subject).toContain("…");
    const notes = await env.DB.prepare("SELECT message FROM notifications WHERE subject_id = ?").bind(s.fileId).all<{ message: string }>();
    expect(notes.results.length).toBe(2);
    for (const n of notes.results) expect(n.message).toBe(`${name.slice(0, 119)}…`);
    const job = await env.DB.prepare("SELECT status, attempts FROM jobs WHERE tenant_id = ? AND type = 'files.signature.stamp'").bind(s.t.id).first();
    expect(job).toEqual({ status: "done", attempts: 1 });
  });

  it("a 250-character name can be declined, and the requester's e-mail carries it shortened", async () => {
    const name = `${"x".repeat(246)}.pdf`;
    const s = await setup(name);
    await askToSign(s.b, s.t, s.fileId, s.signer.id);
    const id = String((await requestRow(s.fileId))!.id);
    const res = await s.sb.post(`${s.t.origin}/files/signatures/${id}`, { intent: "decline", reason: "Wrong amount" });
    expect(res.status).toBe(302);
    expect(await requestRow(s.fileId)).toMatchObject({ status: "declined" });
    expect(await count("email_outbox", "to_address = ? AND tenant_id = ?", s.requester.email, s.t.id)).toBe(1);
  });
});

// Test-only job types, registered per test and removed afterwards.
const registered: string[] = [];
afterEach(() => {
  for (const type of registered.splice(0)) delete JOB_DEFINITIONS[type];
});

describe("a job whose e-mail does not fit its template", () => {
  it("fails for good on the first delivery and is dead-lettered, not retried", async () => {
    const t = await createTenant();
    let runs = 0;
    const def = defineJob({
      type: `test.mail.${messageId()}`,
      input: z.object({}),
      async run(_input, ctx) {
        runs += 1;
        await queueEmail(ctx.env, {
          tenantId: ctx.tenantId,
          to: "x@example.test",
          template: "platform.notice",
          data: { subject: "s".repeat(300), message: "m" },
        });
      },
    });
    JOB_DEFINITIONS[def.type] = def as unknown as JobDefinition;
    registered.push(def.type);
    const { sent, queue } = recordingQueue();
    const enqueueUntyped = enqueue as unknown as (
      e: Env,
      o: { tenantId: string; type: string; input: unknown; performedBy: string | null },
    ) => ReturnType<typeof enqueue>;
    const { jobId } = await enqueueUntyped({ ...env, JOBS: queue }, { tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId("template");
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: (sent as JobMessage[])[0], attempts: 1 }]);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toEqual([id]);
    expect(runs).toBe(1);
    const job = await getJob(env, t.id, jobId);
    expect(job).toMatchObject({ status: "failed", attempts: 1 });
    expect(job?.finishedAt).not.toBeNull();
    expect(job?.error).toMatch(/platform\.notice/);
    const letter = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(letter.reason).toMatch(/platform\.notice/);
    // A late copy of the message does not run it again.
    await deliverMessages(JOBS_QUEUE, [{ body: (sent as JobMessage[])[0], attempts: 2 }]);
    expect(runs).toBe(1);
    expect(await count("email_outbox", "tenant_id = ?", t.id)).toBe(0);
  });
});
