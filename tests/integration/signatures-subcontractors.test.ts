import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfText } from "~/features/cis/statements/pdf-text.test-support";
import { sha256 } from "~/features/files/signatures/stamp-pdf";
import { consumeToast } from "~/features/platform/flash.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { newEmail, seedSub } from "../factories/cis";
import { askToSign, uploadOk } from "../factories/files";
import { signedIn } from "../factories/sessions";
import { count, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";
import { inviteByMail } from "./portal-helpers";
import { deliverMessages, messageId, postRecordingJobs } from "./queue-helpers";

async function samplePdf(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Subcontract agreement", { x: 50, y: 780, size: 14, font });
  return Uint8Array.from(await doc.save());
}

async function toastOf(res: Response): Promise<string> {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { toast } = await consumeToast(env, new Request("http://x.localhost/", { headers: { Cookie: cookie } }));
  return toast?.title ?? "";
}

async function requestRow(fileId: string) {
  return env.DB.prepare("SELECT * FROM signature_requests WHERE file_id = ? ORDER BY created_at DESC").bind(fileId).first<Record<string, unknown>>();
}

/** A tenant with Files and CIS, a lead who owns a PDF, and a subcontractor with an e-mail address. */
async function setup() {
  const t = await createTenant({ modules: ["files", "cis"] });
  const requester = await createUser(t, { role: "lead" });
  const b = await signedIn(t, requester);
  const sub = await seedSub(t, { email: newEmail("signer"), name: "Dan Murphy Groundworks" });
  const pdf = await samplePdf();
  const fileId = await uploadOk(b, t, "subcontract.pdf", pdf, {}, "application/pdf");
  return { t, requester, b, sub: { ...sub, email: sub.email! }, pdf, fileId };
}

/** The portal link of the signature request e-mailed to `to` (with the page it opens). */
async function mailedSignLink(to: string, after: number) {
  const mail = await waitForMail(to, { after });
  const m = /https?:\/\/[^\s"'<>]+\/portal\/auth\?token=[^\s"'<>]+/.exec(mail.text);
  if (!m) throw new Error(`No portal link in the mail to ${to}`);
  return { link: m[0], mail };
}

/** Opens a portal link as a subcontractor does: GET shows Continue, POST signs in and follows `next`. */
async function openLink(link: string) {
  const portal = new Browser();
  const url = new URL(link);
  const page = await portal.get(link);
  expect(page.status).toBe(200);
  const res = await portal.post(`${url.origin}/portal/auth`, { token: url.searchParams.get("token") ?? "", next: url.searchParams.get("next") ?? "" });
  expect(res.status).toBe(302);
  return { portal, res };
}

async function runStampJob(tenantId: string, requestId: string) {
  const job = await env.DB.prepare("SELECT id, idempotency_key FROM jobs WHERE tenant_id = ? AND idempotency_key = ?")
    .bind(tenantId, `files.signature.stamp:${requestId}`)
    .first<{ id: string; idempotency_key: string }>();
  expect(job).toBeTruthy();
  const id = messageId("stamp");
  return deliverMessages("cis-workspace-jobs", [
    { id, body: { jobId: job!.id, tenantId, type: "files.signature.stamp", idempotencyKey: job!.idempotency_key } },
  ]);
}

async function askSubcontractor(b: Browser, t: TestTenant, fileId: string, subId: string) {
  return askToSign(b, t, fileId, `sub:${subId}`);
}

describe("signature requests to subcontractors", () => {
  it("request -> e-mailed portal link -> typed signature without JavaScript -> stamped PDF with the certificate; the contractor sees it in Signatures", async () => {
    const { t, requester, b, sub, pdf, fileId } = await setup();
    // The file page offers the subcontractor as a signer.
    const filePage = await (await b.get(`${t.origin}/files/file/${fileId}`)).text();
    expect(filePage).toContain(`value="sub:${sub.id}"`);
    expect(filePage).toContain("Dan Murphy Groundworks");

    const since = Date.now();
    const res = await askSubcontractor(b, t, fileId, sub.id);
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toContain("Signature request sent");
    const row = await requestRow(fileId);
    expect(row).toMatchObject({ status: "pending", signer_kind: "subcontractor", signer_id: sub.id, signer_email: sub.email, requester_id: requester.id });
    const id = String(row!.id);
    // The file's visibility among staff does not change for a subcontractor signer.
    expect(await env.DB.prepare("SELECT visibility, pending_sign FROM files WHERE id = ?").bind(fileId).first()).toEqual({
      visibility: "private",
      pending_sign: 1,
    });
    // One portal invite recorded with the request, audited, never shown to staff.
    expect(await count("cis_portal_invites", "tenant_id = ? AND subcontractor_id = ? AND revealed_by IS NULL", t.id, sub.id)).toBe(1);
    expect(await count("audit_events", "action = 'files.signature.requested' AND target_id = ?", id)).toBe(1);
    expect(await count("audit_events", "action = 'cis.portal.invited' AND target_id = ? AND tenant_id = ?", sub.id, t.id)).toBe(1);

    const { link, mail } = await mailedSignLink(sub.email, since);
    expect(mail.text).toContain("subcontract.pdf");
    const { portal, res: landed } = await openLink(link);
    expect(location(landed)).toBe(`/portal/signatures/${id}`);
    const page = `${t.origin}/portal/signatures/${id}`;
    const review = await (await portal.get(page)).text();
    expect(review).toContain("Review Document");
    expect(review).toContain("subcontract.pdf");
    const doc = await portal.get(`${page}/document`);
    expect(doc.status).toBe(200);
    expect(new Uint8Array(await doc.arrayBuffer()).length).toBe(pdf.length);
    expect((await portal.get(`${page}?step=signature`)).status).toBe(200);

    // The server-rendered steps: an empty signature is refused next to the field, the preview carries it, consent is required.
    const empty = await portal.post(page, { intent: "preview", mode: "typed", name: "  ", font: "Allura" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please add your signature first");
    const preview = await portal.post(page, { intent: "preview", mode: "typed", name: "Dan Murphy", font: "Allura" });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('data-testid="signature-preview"');
    const noConsent = await portal.post(page, { intent: "sign", mode: "typed", name: "Dan Murphy", font: "Allura" });
    expect(noConsent.status).toBe(400);
    const { res: signed, jobs } = await postRecordingJobs(
      portal,
      page,
      { intent: "sign", mode: "typed", name: "Dan Murphy", font: "Allura", consent: "on" },
      { headers: { "CF-Connecting-IP": "203.0.113.7" } },
    );
    expect(signed.status).toBe(302);
    expect(location(signed)).toBe(`/portal/signatures/${id}?done=1`);
    expect(jobs).toHaveLength(1);
    expect(await requestRow(fileId)).toMatchObject({ status: "signed", signature_text: "Dan Murphy", stamp_status: "queued" });
    expect(await count("audit_events", "action = 'files.signature.completed' AND target_id = ? AND actor_id = ? AND ip = '203.0.113.7'", id, sub.id)).toBe(1);

    const stampedRun = await runStampJob(t.id, id);
    expect(stampedRun.result.retryMessages).toEqual([]);
    const done = await requestRow(fileId);
    expect(done).toMatchObject({ stamp_status: "done", original_sha256: await sha256(pdf) });
    expect(await count("audit_events", "action = 'files.signature.stamped' AND target_id = ?", id)).toBe(1);
    // Notifications are for users: the requester gets one, the subcontractor none.
    expect(await count("notifications", "subject_id = ? AND target_user_id = ?", fileId, requester.id)).toBe(1);
    expect(await count("notifications", "subject_id = ? AND target_user_id = ?", fileId, sub.id)).toBe(0);
    const file = await env.DB.prepare("SELECT storage_key, signed FROM files WHERE id = ?").bind(fileId).first<{ storage_key: string; signed: number }>();
    expect(file!.signed).toBe(1);
    const stamped = await PDFDocument.load(new Uint8Array(await (await env.FILES.get(file!.storage_key))!.arrayBuffer()));
    const certificate = await PDFDocument.create();
    const [copied] = await certificate.copyPages(stamped, [stamped.getPageCount() - 1]);
    certificate.addPage(copied);
    const text = pdfText(await certificate.save());
    expect(text).toContain("Signature certificate");
    expect(text).toContain(sub.email);
    expect(text).toContain(requester.email);
    expect(text).toContain("203.0.113.7");

    // The contractor sees it in Signatures with its status; the portal shows it signed.
    const list = await (await b.get(`${t.origin}/files/signatures?tab=signed`)).text();
    expect(list).toContain("Dan Murphy Groundworks");
    expect(list).toContain("Subcontractor (signs in the portal)");
    expect(list).toContain("PDF signed successfully ✔︎");
    expect(await (await portal.get(page)).text()).toContain("PDF signed successfully ✔︎");
  });

  it("another subcontractor, another tenant and a session opened with a link shown to staff cannot sign; nor can a files-only tenant ask a subcontractor", async () => {
    const { t, b, sub, fileId } = await setup();
    const since = Date.now();
    await askSubcontractor(b, t, fileId, sub.id);
    const id = String((await requestRow(fileId))!.id);
    const typed = { intent: "sign", mode: "typed", name: "Someone", font: "Allura", consent: "on" };

    // Another subcontractor of the same tenant, signed in to the portal: 404 to look, to sign and to decline.
    const staff = await signedIn(t, await createUser(t, { role: "admin" }));
    const other = await seedSub(t, { email: newEmail("other") });
    const { link: otherLink } = await inviteByMail(t, staff, other);
    const { portal: otherPortal } = await openLink(otherLink);
    expect((await otherPortal.get(`${t.origin}/portal/signatures/${id}`)).status).toBe(404);
    expect((await otherPortal.get(`${t.origin}/portal/signatures/${id}/document`)).status).toBe(404);
    expect((await otherPortal.post(`${t.origin}/portal/signatures/${id}`, typed)).status).toBe(404);
    expect((await otherPortal.post(`${t.origin}/portal/signatures/${id}`, { intent: "decline", reason: "no" })).status).toBe(404);
    expect(await requestRow(fileId)).toMatchObject({ status: "pending" });

    // Staff cannot sign or decline it for the subcontractor, not even one who manages signatures.
    expect((await staff.post(`${t.origin}/files/signatures/${id}`, typed)).status).toBe(404);
    expect((await staff.post(`${t.origin}/files/signatures/${id}`, { intent: "decline", reason: "no" })).status).toBe(404);

    // The same request id on another tenant's portal is a 404.
    const t2 = await createTenant({ modules: ["files", "cis"] });
    const staff2 = await signedIn(t2, await createUser(t2, { role: "admin" }));
    const sub2 = await seedSub(t2, { email: newEmail("t2") });
    const { link: t2Link } = await inviteByMail(t2, staff2, sub2);
    const { portal: t2Portal } = await openLink(t2Link);
    expect((await t2Portal.get(`${t2.origin}/portal/signatures/${id}`)).status).toBe(404);
    expect((await t2Portal.post(`${t2.origin}/portal/signatures/${id}`, typed)).status).toBe(404);
    // Nor can t2's staff ask t1's subcontractor.
    const t2File = await uploadOk(staff2, t2, "t2.pdf", await samplePdf(), {}, "application/pdf");
    const cross = await askSubcontractor(staff2, t2, t2File, sub.id);
    expect(await toastOf(cross)).toContain("Choose an active subcontractor with an e-mail address to sign");
    expect(await count("signature_requests", "file_id = ?", t2File)).toBe(0);
    expect(await requestRow(fileId)).toMatchObject({ status: "pending" });

    // The real signer's session opened with a link a staff member was shown: it may look, not sign.
    const { link } = await mailedSignLink(sub.email, since);
    const { portal } = await openLink(link);
    const session = await env.DB.prepare(
      "SELECT id_hash AS id FROM sessions WHERE tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC",
    )
      .bind(t.id, sub.id)
      .first<{ id: string }>();
    await env.DB.prepare("UPDATE sessions SET portal_link_revealed_by = ? WHERE id_hash = ?").bind("staff-who-saw-it", session!.id).run();
    const shown = await portal.get(`${t.origin}/portal/signatures/${id}`);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("cannot be used to sign");
    expect((await portal.post(`${t.origin}/portal/signatures/${id}`, typed)).status).toBe(403);
    expect(await requestRow(fileId)).toMatchObject({ status: "pending" });

    // A tenant without CIS offers no subcontractors and refuses one.
    const t3 = await createTenant({ modules: ["files"] });
    const lead3 = await createUser(t3, { role: "lead" });
    const b3 = await signedIn(t3, lead3);
    const f3 = await uploadOk(b3, t3, "f3.pdf", await samplePdf(), {}, "application/pdf");
    const sub3 = await seedSub(t3, { email: newEmail("t3") });
    expect(await (await b3.get(`${t3.origin}/files/file/${f3}`)).text()).not.toContain("sub:");
    const refused = await askSubcontractor(b3, t3, f3, sub3.id);
    expect(await toastOf(refused)).toContain("Choose an active subcontractor with an e-mail address to sign");
    expect(await count("signature_requests", "file_id = ?", f3)).toBe(0);
  });

  it("a link's next page is followed only when it is a portal signing page (no open redirect)", async () => {
    const { t, b, sub, fileId } = await setup();
    const since = Date.now();
    await askSubcontractor(b, t, fileId, sub.id);
    const { link } = await mailedSignLink(sub.email, since);
    const token = new URL(link).searchParams.get("token") ?? "";
    const res = await new Browser().post(`${t.origin}/portal/auth`, { token, next: "https://evil.example/portal/signatures/x" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/portal");
  });

  it("a subcontractor declines with a reason: the request is declined, the file free again, the requester told", async () => {
    const { t, requester, b, sub, fileId } = await setup();
    const since = Date.now();
    await askSubcontractor(b, t, fileId, sub.id);
    const id = String((await requestRow(fileId))!.id);
    const { link } = await mailedSignLink(sub.email, since);
    const { portal } = await openLink(link);
    const page = `${t.origin}/portal/signatures/${id}`;
    expect((await portal.post(page, { intent: "decline", reason: "" })).status).toBe(400);
    const res = await portal.post(page, { intent: "decline", reason: "Wrong rates in schedule 2" });
    expect(res.status).toBe(302);
    expect(await requestRow(fileId)).toMatchObject({ status: "declined", decline_reason: "Wrong rates in schedule 2" });
    expect(await count("audit_events", "action = 'files.signature.declined' AND target_id = ? AND actor_id = ?", id, sub.id)).toBe(1);
    expect(await count("email_outbox", "to_address = ? AND tenant_id = ?", requester.email, t.id)).toBe(1);
    expect(await env.DB.prepare("SELECT pending_sign FROM files WHERE id = ?").bind(fileId).first()).toEqual({ pending_sign: 0 });
  });
});
