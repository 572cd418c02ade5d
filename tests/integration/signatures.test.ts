import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfText } from "~/features/cis/statements/pdf-text.test-support";
import { sha256 } from "~/features/files/signatures/stamp-pdf";
import { consumeToast } from "~/features/platform/flash.server";
import { askToSign, filesStaff, uploadOk } from "../factories/files";
import { pageKeys, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { SUBMISSION_KEY_MESSAGES } from "~/features/platform/submission-key-codes";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location, type Browser } from "./http";
import { deliverMessages, messageId, postRecordingJobs } from "./queue-helpers";
import worker from "../../workers/app";

async function samplePdf(pages = 3): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Contract page ${i + 1}`, { x: 50, y: 780, size: 14, font });
  return Uint8Array.from(await doc.save());
}

/** A tenant with a lead (requester, owns the PDF) and a second lead (signer). */
async function setup(pages = 3) {
  const { t, u: requester, b } = await filesStaff("lead");
  const signer = await createUser(t, { role: "lead" });
  const sb = await signedIn(t, signer);
  const pdf = await samplePdf(pages);
  const fileId = await uploadOk(b, t, "contract.pdf", pdf, {}, "application/pdf");
  return { t, requester, b, signer, sb, pdf, fileId };
}

async function requestRow(fileId: string) {
  return env.DB.prepare("SELECT * FROM signature_requests WHERE file_id = ? ORDER BY created_at DESC").bind(fileId).first<Record<string, unknown>>();
}

async function toastOf(res: Response): Promise<string> {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { toast } = await consumeToast(env, new Request("http://x.localhost/", { headers: { Cookie: cookie } }));
  return toast?.title ?? "";
}

/**
 * Posts the signing form. The stamp job it sends is recorded, not queued: the test delivers it
 * (runStampJob), so no delivery by the runtime's own consumer runs it in the background, racing
 * the test's delivery or the next test.
 */
async function sign(sb: Browser, page: string, form: Record<string, string>, opts: { headers?: Record<string, string> } = {}) {
  const { res, jobs } = await postRecordingJobs(sb, page, { intent: "sign", ...form }, opts);
  return Object.assign(res, { jobs });
}

/** Delivers the request's stamp job as the queue would, and returns the message id with the outcome. */
async function runStampJob(tenantId: string, requestId: string) {
  const job = await env.DB.prepare("SELECT id, idempotency_key FROM jobs WHERE tenant_id = ? AND idempotency_key = ?")
    .bind(tenantId, `files.signature.stamp:${requestId}`)
    .first<{ id: string; idempotency_key: string }>();
  expect(job).toBeTruthy();
  const id = messageId("stamp");
  const delivered = await deliverMessages("cis-workspace-jobs", [
    { id, body: { jobId: job!.id, tenantId, type: "files.signature.stamp", idempotencyKey: job!.idempotency_key } },
  ]);
  return { id, ...delivered };
}

describe("signature requests", () => {
  it("requests a signature: pending row, file restricted to requester and signer, e-mail and audit; refusals", async () => {
    const { t, b, requester, signer, fileId } = await setup();
    // Refusals first: yourself, nobody, a user of another tenant.
    const self = await askToSign(b, t, fileId, requester.id);
    expect(await toastOf(self)).toContain("You cannot ask yourself to sign");
    const other = await createTenant({ modules: ["files"] });
    const stranger = await createUser(other, { role: "lead" });
    const foreign = await askToSign(b, t, fileId, stranger.id);
    expect(await toastOf(foreign)).toContain("Choose a team member to sign");
    expect(await count("signature_requests", "file_id = ?", fileId)).toBe(0);

    const res = await askToSign(b, t, fileId, signer.id);
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/files/file/${fileId}`);
    expect(await toastOf(res)).toContain("Signature request sent");
    const row = await requestRow(fileId);
    expect(row).toMatchObject({ status: "pending", signer_id: signer.id, requester_id: requester.id, tenant_id: t.id });
    const file = await env.DB.prepare("SELECT visibility, pending_sign FROM files WHERE id = ?").bind(fileId).first();
    expect(file).toEqual({ visibility: "restricted", pending_sign: 1 });
    expect(await count("file_access", "file_id = ? AND user_id IN (?, ?)", fileId, requester.id, signer.id)).toBe(2);
    expect(await count("audit_events", "action = 'files.signature.requested' AND target_id = ?", row!.id)).toBe(1);
    expect(await count("email_outbox", "to_address = ? AND tenant_id = ?", signer.email, t.id)).toBe(1);

    // A second request on a pending file is refused.
    const again = await askToSign(b, t, fileId, signer.id, requester);
    expect(await toastOf(again)).toContain("A pending request already exists");
    expect(await count("signature_requests", "file_id = ?", fileId)).toBe(1);

    // Not a PDF.
    const textId = await uploadOk(b, t, "notes.txt", "hello");
    const notPdf = await askToSign(b, t, textId, signer.id, requester);
    expect(await toastOf(notPdf)).toContain("Only PDF documents can be signed");

    // The signer sees it under Pending with a Sign link; the file page shows it pending.
    const list = await (await signedIn(t, signer)).get(`${t.origin}/files/signatures?tab=pending`);
    const html = await list.text();
    expect(html).toContain("contract.pdf");
    expect(html).toContain(`/files/signatures/${row!.id}`);
  });

  it("without files.signatures.create the request is a 403 with an audited denial; another tenant's file is a 404", async () => {
    const t = await createTenant({ modules: ["files"], bundles: { standard: ["files.view", "files.upload"] } });
    const owner = await createUser(t, { role: "standard" });
    const ob = await signedIn(t, owner);
    const signer = await createUser(t, { role: "lead" });
    const fileId = await uploadOk(ob, t, "a.pdf", await samplePdf(1), {}, "application/pdf");
    const denied = await askToSign(ob, t, fileId, signer.id);
    expect(denied.status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND actor_id = ? AND action LIKE '%denied%'", t.id, owner.id)).toBeGreaterThan(0);
    expect((await ob.get(`${t.origin}/files/signatures`)).status).toBe(403);

    // A member without files.signatures.sign who is asked to sign cannot: 403, and it stays pending.
    const lead = await createUser(t, { role: "lead" });
    const lb = await signedIn(t, lead);
    const leadFile = await uploadOk(lb, t, "b.pdf", await samplePdf(1), {}, "application/pdf");
    await askToSign(lb, t, leadFile, owner.id);
    const pending = await requestRow(leadFile);
    expect(pending).toMatchObject({ status: "pending", signer_id: owner.id });
    const noSign = await sign(ob, `${t.origin}/files/signatures/${pending!.id}`, { mode: "typed", name: "O", font: "Allura", consent: "on" });
    expect(noSign.status).toBe(403);
    expect(await requestRow(leadFile)).toMatchObject({ status: "pending" });

    const { t: t2, u: u2, b: b2 } = await filesStaff("lead");
    // Another tenant's requests are not listed, and its request page is a 404.
    expect(await (await b2.get(`${t2.origin}/files/signatures?tab=pending`)).text()).not.toContain("b.pdf");
    expect((await b2.get(`${t2.origin}/files/signatures/${pending!.id}`)).status).toBe(404);
    const signer2 = await createUser(t2, { role: "lead" });
    const cross = await askToSign(b2, t2, fileId, signer2.id, u2);
    expect(cross.status).toBe(404);
    expect(await count("signature_requests", "file_id = ?", fileId)).toBe(0);
  });
});

describe("default role bundles", () => {
  it("let a standard member see and sign what they are asked to sign, but not ask others", async () => {
    const { t, b } = await filesStaff("lead");
    const member = await createUser(t, { role: "standard" });
    const mb = await signedIn(t, member);
    const fileId = await uploadOk(b, t, "terms.pdf", await samplePdf(1), {}, "application/pdf");
    await askToSign(b, t, fileId, member.id);
    const row = await requestRow(fileId);
    expect(row).toMatchObject({ status: "pending", signer_id: member.id });
    expect((await mb.get(`${t.origin}/files/signatures?tab=pending`)).status).toBe(200);
    const signed = await sign(mb, `${t.origin}/files/signatures/${row!.id}`, { mode: "typed", name: "Sam Member", font: "Allura", consent: "on" });
    expect(signed.status).toBe(302);
    expect(await requestRow(fileId)).toMatchObject({ status: "signed" });

    const own = await uploadOk(mb, t, "mine.pdf", await samplePdf(1), {}, "application/pdf");
    expect((await askToSign(mb, t, own, member.id)).status).toBe(403);
  });
});

describe("signing and stamping", () => {
  it("the stamp job is sent only after the signature is stored: a failed signing batch sends nothing, and a redelivered job stamps once", async () => {
    const { t, b, sb, signer, fileId } = await setup(1);
    await askToSign(b, t, fileId, signer.id);
    const id = String((await requestRow(fileId))!.id);
    const page = `${t.origin}/files/signatures/${id}`;
    const form = { intent: "sign", mode: "typed", name: "Sam Signer", font: "Allura", consent: "on" };
    const stampJobs = () => count("jobs", "tenant_id = ? AND idempotency_key = ?", t.id, `files.signature.stamp:${id}`);

    // The signing batch fails (its audit entry is refused): no job row, no message.
    const trigger = `fail_sign_${t.id.replace(/[^a-z0-9]/gi, "")}`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_events WHEN NEW.tenant_id = '${t.id}' AND NEW.action = 'files.signature.completed' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
    ).run();
    let failed: Awaited<ReturnType<typeof sign>>;
    try {
      failed = await sign(sb, page, form);
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    expect(failed.status).not.toBe(302);
    expect(failed.jobs).toEqual([]);
    expect(await stampJobs()).toBe(0);
    expect(await requestRow(fileId)).toMatchObject({ status: "pending", signed_at: null, stamp_status: null });

    // Signed: when the message is sent the signature and the job row are already committed.
    const seenAtSend: unknown[] = [];
    const queue = {
      async send(body: unknown) {
        const row = await env.DB.prepare("SELECT status, signed_at, stamp_status FROM signature_requests WHERE id = ?").bind(id).first();
        const job = await env.DB.prepare("SELECT status FROM jobs WHERE id = ?")
          .bind((body as { jobId: string }).jobId)
          .first();
        seenAtSend.push({ row, job, body });
      },
    } as unknown as Queue;
    const res = await sb.post(page, form, {
      fetch: async (request) => {
        const ctx = createExecutionContext();
        const answer = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, JOBS: queue }, ctx);
        await waitOnExecutionContext(ctx);
        return answer;
      },
    });
    expect(res.status).toBe(302);
    expect(seenAtSend).toEqual([
      {
        row: { status: "signed", signed_at: expect.any(Number), stamp_status: "queued" },
        job: { status: "pending" },
        body: expect.objectContaining({ tenantId: t.id, type: "files.signature.stamp", idempotencyKey: `files.signature.stamp:${id}` }),
      },
    ]);
    expect(await stampJobs()).toBe(1);

    // Delivered twice: one stamped version, one audit entry.
    await runStampJob(t.id, id);
    await runStampJob(t.id, id);
    expect(await requestRow(fileId)).toMatchObject({ stamp_status: "done" });
    expect(await count("file_versions", "file_id = ? AND type = 'signed'", fileId)).toBe(1);
    expect(await count("audit_events", "action = 'files.signature.stamped' AND target_id = ?", id)).toBe(1);
  });

  it("signs with a typed name through the three steps, stamps the PDF once however often the job is delivered", async () => {
    const { t, b, sb, signer, requester, pdf, fileId } = await setup(3);
    await askToSign(b, t, fileId, signer.id);
    const row = await requestRow(fileId);
    const id = String(row!.id);
    const page = `${t.origin}/files/signatures/${id}`;

    // The requester may look but not sign; another tenant's signer sees a 404.
    expect((await sign(b, page, { mode: "typed", name: "X", font: "Allura", consent: "on" })).status).toBe(404);
    const { t: t2, b: b2 } = await filesStaff("manager");
    expect((await b2.get(`${t2.origin}/files/signatures/${id}`)).status).toBe(404);
    expect((await b2.get(`${t2.origin}/files/signatures/${id}/document`)).status).toBe(404);

    expect(await (await sb.get(page)).text()).toContain("Review Document");
    const doc = await sb.get(`${page}/document`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(await (await sb.get(`${page}?step=signature`)).text()).toContain("Add Signature");
    const empty = await sb.post(page, { intent: "preview", mode: "typed", name: "  ", font: "Allura" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please add your signature first");
    const badPng = await sb.post(page, { intent: "preview", mode: "drawn", drawn: "data:image/png;base64,PHN2Zz4=" });
    expect(badPng.status).toBe(400);
    const confirm = await sb.post(page, { intent: "preview", mode: "typed", name: "Sam Signer", font: "Great Vibes" });
    expect(confirm.status).toBe(200);
    const confirmHtml = await confirm.text();
    expect(confirmHtml).toContain("Review &amp; Confirm");
    const noConsent = await sign(sb, page, { mode: "typed", name: "Sam Signer", font: "Great Vibes" });
    expect(noConsent.status).toBe(400);
    const signed = await sign(
      sb,
      page,
      { mode: "typed", name: "Sam Signer", font: "Great Vibes", consent: "on" },
      { headers: { "CF-Connecting-IP": "203.0.113.9" } },
    );
    expect(signed.status).toBe(302);
    const job = await env.DB.prepare("SELECT id FROM jobs WHERE tenant_id = ? AND idempotency_key = ?")
      .bind(t.id, `files.signature.stamp:${id}`)
      .first<{ id: string }>();
    expect(signed.jobs).toEqual([{ jobId: job!.id, tenantId: t.id, type: "files.signature.stamp", idempotencyKey: `files.signature.stamp:${id}` }]);
    expect(await toastOf(signed)).toContain("Document signed successfully! ✅");
    expect(await count("audit_events", "action = 'files.signature.completed' AND target_id = ? AND ip = '203.0.113.9'", id)).toBe(1);
    // Signing twice is refused.
    const twice = await sign(sb, page, { mode: "typed", name: "Sam Signer", font: "Great Vibes", consent: "on" });
    expect(await toastOf(twice)).toContain("Failed to sign document");
    expect(twice.jobs).toEqual([]);

    // The first delivery stamps and acknowledges the message; a redelivery is acknowledged and does nothing twice.
    const first = await runStampJob(t.id, id);
    expect(first.result.explicitAcks).toEqual([first.id]);
    expect(first.result.retryMessages).toEqual([]);
    const redelivery = await runStampJob(t.id, id);
    expect(redelivery.result.explicitAcks).toEqual([redelivery.id]);
    expect(redelivery.result.retryMessages).toEqual([]);
    const done = await requestRow(fileId);
    expect(done).toMatchObject({ status: "signed", stamp_status: "done", original_sha256: await sha256(pdf) });
    const file = await env.DB.prepare("SELECT version, signed, pending_sign, storage_key, signed_file_key FROM files WHERE id = ?")
      .bind(fileId)
      .first<Record<string, unknown>>();
    expect(file).toMatchObject({ version: 2, signed: 1, pending_sign: 0 });
    expect(file!.storage_key).toBe(`tenants/${t.id}/files/${fileId}/signed/${id}.pdf`);
    expect(await count("file_versions", "file_id = ?", fileId)).toBe(2);
    expect(await count("notifications", "subject_id = ? AND title = ?", fileId, "PDF signed successfully ✔︎")).toBe(2);
    expect(await count("email_outbox", "to_address = ? AND tenant_id = ?", requester.email, t.id)).toBe(1);
    expect(await count("audit_events", "action = 'files.signature.stamped' AND target_id = ?", id)).toBe(1);

    const object = await env.FILES.get(String(file!.storage_key));
    const bytes = new Uint8Array(await object!.arrayBuffer());
    expect(await sha256(bytes)).toBe(done!.signed_sha256);
    const stamped = await PDFDocument.load(bytes);
    expect(stamped.getPageCount()).toBe(4);
    // The certificate page alone (the typed signature's embedded font is not WinAnsi text).
    const certificate = await PDFDocument.create();
    const [copied] = await certificate.copyPages(stamped, [3]);
    certificate.addPage(copied);
    const text = pdfText(await certificate.save());
    expect(text).toContain("Signature certificate");
    expect(text).toContain(await sha256(pdf));
    expect(text).toContain("203.0.113.9");
    expect(text).toContain(signer.email);
    expect(text).toContain(requester.email);
    expect(text).toContain("Typed name in Great Vibes");
    // The original is kept as version 1.
    const v1 = await b.get(`${t.origin}/files/file/${fileId}/download?v=1`);
    expect(new Uint8Array(await v1.arrayBuffer()).length).toBe(pdf.length);
    // Signed tab and the file page.
    expect(await (await sb.get(`${t.origin}/files/signatures?tab=signed`)).text()).toContain("PDF signed successfully ✔︎");
    const again = await askToSign(b, t, fileId, signer.id, requester);
    expect(await toastOf(again)).toContain("A pending request already exists");
  });

  it("stamps a drawn PNG signature, and marks an unreadable PDF as failed", async () => {
    const { t, b, sb, signer, fileId } = await setup(1);
    await askToSign(b, t, fileId, signer.id);
    const id = String((await requestRow(fileId))!.id);
    // A 2x2 PNG.
    const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR4nGNkYPj/n4GBgYGJAQoAHvgCAf7ONVAAAAAASUVORK5CYII=";
    const res = await sign(sb, `${t.origin}/files/signatures/${id}`, { mode: "drawn", drawn: png, consent: "on" });
    expect(res.status).toBe(302);
    expect(await env.FILES.head(`tenants/${t.id}/signatures/${id}.png`)).toBeTruthy();
    await runStampJob(t.id, id);
    expect(await requestRow(fileId)).toMatchObject({ stamp_status: "done", signature_kind: "drawn" });

    const broken = await uploadOk(b, t, "broken.pdf", "%PDF-1.4 not really", {}, "application/pdf");
    await askToSign(b, t, broken, signer.id);
    const bid = String((await requestRow(broken))!.id);
    await sign(sb, `${t.origin}/files/signatures/${bid}`, { mode: "typed", name: "Sam", font: "Allura", consent: "on" });
    await runStampJob(t.id, bid);
    expect(await requestRow(broken)).toMatchObject({ stamp_status: "failed" });
    expect(await count("notifications", "subject_id = ? AND title = ?", broken, "Failed to stamp PDF ❌")).toBe(2);
  });

  it("a repeated request (the same submission key: a double click) answers with the first result and sends nothing again", async () => {
    const { t, b, sb, signer, fileId } = await setup(1);
    const url = `${t.origin}/files/file/${fileId}`;
    const key = (await pageKeys(b, url, 'form[action="/files/signatures/request"]'))[0];
    expect(key).toBeTruthy();
    const form = { fileId, signerId: signer.id, [SUBMISSION_KEY_FIELD]: key };
    const first = await b.post(`${t.origin}/files/signatures/request`, form);
    expect(await toastOf(first)).toContain("Signature request sent");
    const id = String((await requestRow(fileId))!.id);
    // The signer declines, so the file could take a new request: the repeated post must not make one.
    expect((await sb.post(`${t.origin}/files/signatures/${id}`, { intent: "decline", reason: "Wrong amount" })).status).toBe(302);
    const second = await b.post(`${t.origin}/files/signatures/request`, form);
    expect(second.status).toBe(302);
    expect(await toastOf(second)).toContain("Signature request sent");
    expect(await count("signature_requests", "file_id = ?", fileId)).toBe(1);
    expect(await count("email_outbox", "to_address = ?", signer.email)).toBe(1);
    expect(await count("audit_events", "action = 'files.signature.requested' AND tenant_id = ?", t.id)).toBe(1);

    // Without a key nothing is sent.
    const bare = await b.post(`${t.origin}/files/signatures/request`, { fileId, signerId: signer.id });
    expect(await toastOf(bare)).toContain(SUBMISSION_KEY_MESSAGES.missing);
    expect(await count("signature_requests", "file_id = ?", fileId)).toBe(1);
  });

  it("declines with a reason: the file is free for a new request, the requester is told", async () => {
    const { t, b, sb, signer, requester, fileId } = await setup(1);
    await askToSign(b, t, fileId, signer.id);
    const id = String((await requestRow(fileId))!.id);
    const noReason = await sb.post(`${t.origin}/files/signatures/${id}`, { intent: "decline", reason: " " });
    expect(noReason.status).toBe(400);
    const res = await sb.post(`${t.origin}/files/signatures/${id}`, { intent: "decline", reason: "Wrong amount" });
    expect(res.status).toBe(302);
    expect(await requestRow(fileId)).toMatchObject({ status: "declined", decline_reason: "Wrong amount" });
    expect(await count("audit_events", "action = 'files.signature.declined' AND target_id = ?", id)).toBe(1);
    expect(await count("email_outbox", "to_address = ?", requester.email)).toBe(1);
    expect((await env.DB.prepare("SELECT pending_sign FROM files WHERE id = ?").bind(fileId).first())?.pending_sign).toBe(0);
    const signAfter = await sign(sb, `${t.origin}/files/signatures/${id}`, { mode: "typed", name: "S", font: "Allura", consent: "on" });
    expect(await toastOf(signAfter)).toContain("Failed to sign document");
    const again = await askToSign(b, t, fileId, signer.id, requester);
    expect(await toastOf(again)).toContain("Signature request sent");
  });
});
