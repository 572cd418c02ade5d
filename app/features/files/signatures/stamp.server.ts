import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { insertWhere } from "~/db/insert-where.server";
import { files, fileVersions, notifications, signatureRequests, users } from "~/db/schema";
import { auditInsertWhere } from "~/features/platform/index.server";
import { queueEmailIf } from "~/features/platform/index.server";
import { defineJob, PermanentJobError } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { ellipsize } from "~/utils/text";
import { usageDelta } from "../files.server";
import { signatureFontBytes } from "./fonts.server";
import { SIGNATURE_AUDIT, SIGNATURE_FONTS, SIGNATURE_MESSAGES, type SignatureFont, type SignerKind } from "./signature-rules";
import { signedPdfKey } from "./signatures.server";
import { sha256, stampPdf, UnreadablePdfError, type StampSignature } from "./stamp-pdf";

const isFont = (f: string | null): f is SignatureFont => SIGNATURE_FONTS.some((x) => x === f);

type StampRequest = typeof signatureRequests.$inferSelect;
type Person = { id: string; name: string; email: string };
type Stamped = { key: string; bytes: Uint8Array; originalSha256: string; signedSha256: string };

/**
 * Stamps a signed request's PDF: the signature on its last page and a certificate page, stored
 * as the file's next version (the original stays as the version it was). Safe to run again: the
 * output bytes and key are fixed by the request, and the version, counters, notifications,
 * audit entry and the requester's e-mail land in one batch only while the request is not yet
 * stamped.
 */
export const signatureStampJob = defineJob({
  type: "files.signature.stamp",
  input: z.object({ requestId: z.string().min(1).max(100), origin: z.string().url().max(300) }),
  async run(input, ctx) {
    const { env, tenantId } = ctx;
    const db = dbFor(env, tenantId);
    const loaded = await loadRequest(db, tenantId, input.requestId);
    if (!loaded.ready) return loaded.result;
    const { req, signer, requester } = loaded;
    const fail = async (reason: string) => {
      await markFailed(db, tenantId, req, reason);
      return new PermanentJobError(reason);
    };
    const stamped = await stampAndStore(env, tenantId, req, signer, requester, fail);
    await ctx.progress(60);
    await commitStamped(env, tenantId, req, signer, requester, stamped, input.origin);
    await ctx.progress(100);
    return { requestId: req.id, signedSha256: stamped.signedSha256, bytes: stamped.bytes.byteLength };
  },
});

/**
 * The request and its two people in one batch, and whether it is ready to stamp: a declined or
 * already stamped one is done with; one not signed yet is retried (a message sent before the
 * signature was stored may arrive early).
 */
async function loadRequest(
  db: Db,
  tenantId: string,
  requestId: string,
): Promise<
  | { ready: false; result: { requestId: string; skipped: "declined" } | { requestId: string; already: true } }
  | { ready: true; req: StampRequest & { signedAt: number }; signer?: Person; requester?: Person }
> {
  const [rows, people] = await db.batch([
    db
      .select()
      .from(signatureRequests)
      .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId))),
    db
      .select({ id: users.id, name: users.displayName, email: users.email })
      .from(users)
      .innerJoin(signatureRequests, and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId)))
      .where(
        and(
          eq(users.tenantId, tenantId),
          sql`${users.id} IN (${signatureRequests.requesterId}, CASE WHEN ${signatureRequests.signerKind} = 'user' THEN ${signatureRequests.signerId} END)`,
        ),
      ),
  ]);
  const req = rows[0];
  if (!req) throw new PermanentJobError("signature request not found");
  if (req.status === "declined") return { ready: false, result: { requestId: req.id, skipped: "declined" } };
  // Sent only after the signature is stored; a message from before that order may arrive early.
  if (req.status === "pending" || req.signedAt === null) throw new Error("signature not recorded yet");
  if (req.stampStatus === "done") return { ready: false, result: { requestId: req.id, already: true } };
  const { signedAt } = req;
  // A subcontractor signer is not a user: their name and e-mail were kept on the request.
  const signer =
    req.signerKind === "subcontractor"
      ? { id: req.signerId, name: req.signerName ?? "Subcontractor", email: req.signerEmail ?? "N/A" }
      : people.find((p) => p.id === req.signerId);
  return { ready: true, req: { ...req, signedAt }, signer, requester: people.find((p) => p.id === req.requesterId) };
}

/**
 * Reads the original and the signature from R2, stamps the PDF and stores it under its fixed key.
 * A missing original or signature image, or an unreadable PDF, fails the request for good.
 */
async function stampAndStore(
  env: Env,
  tenantId: string,
  req: StampRequest & { signedAt: number },
  signer: Person | undefined,
  requester: Person | undefined,
  fail: (reason: string) => Promise<PermanentJobError>,
): Promise<Stamped> {
  const original = req.originalKey.startsWith(`tenants/${tenantId}/`) ? await env.FILES.get(req.originalKey) : null;
  if (!original) throw await fail("original missing");
  const originalBytes = new Uint8Array(await original.arrayBuffer());

  let signature: StampSignature;
  if (req.signatureKind === "drawn") {
    const png = req.signaturePath?.startsWith(`tenants/${tenantId}/`) ? await env.FILES.get(req.signaturePath) : null;
    if (!png) throw await fail("signature image missing");
    signature = { kind: "drawn", png: new Uint8Array(await png.arrayBuffer()) };
  } else {
    const font = isFont(req.signatureFont) ? req.signatureFont : "Dancing Script";
    signature = { kind: "typed", name: req.signatureText ?? signer?.name ?? "", font, fontBytes: signatureFontBytes(font) };
  }

  const originalSha256 = await sha256(originalBytes);
  let stamped: Uint8Array;
  try {
    stamped = await stampPdf(originalBytes, signature, {
      requestId: req.id,
      fileName: req.fileName,
      signerName: signer?.name ?? "Former member",
      signerEmail: signer?.email ?? "N/A",
      requesterName: requester?.name ?? "Former member",
      requesterEmail: requester?.email ?? "N/A",
      requestedAt: req.createdAt,
      signedAt: req.signedAt,
      signerIp: req.signerIp,
      originalSha256,
    });
  } catch (err) {
    if (err instanceof UnreadablePdfError) throw await fail(`unreadable PDF: ${err.message}`);
    throw err;
  }
  const signedSha256 = await sha256(stamped);
  const key = signedPdfKey(tenantId, req.fileId, req.id);
  await env.FILES.put(key, stamped, { httpMetadata: { contentType: "application/pdf" }, sha256: signedSha256 });
  return { key, bytes: stamped, originalSha256, signedSha256 };
}

/**
 * One batch, guarded on the request not being stamped yet: the requester's e-mail, the signed
 * file version, the file's pointer and counters, both people's notifications, the audit entry
 * and, last, the request marked stamped.
 */
async function commitStamped(
  env: Env,
  tenantId: string,
  req: StampRequest & { signedAt: number },
  signer: Person | undefined,
  requester: Person | undefined,
  stamped: Stamped,
  origin: string,
) {
  const now = Date.now();
  const open = sql`EXISTS (SELECT 1 FROM ${signatureRequests} WHERE ${signatureRequests.tenantId} = ${tenantId} AND ${signatureRequests.id} = ${req.id} AND ${signatureRequests.status} = 'signed' AND coalesce(${signatureRequests.stampStatus}, '') != 'done')`;
  await queueEmailIf(env, {
    tenantId,
    to: requester?.email ?? "",
    template: "platform.notice",
    idempotencyKey: `signature.completed:${req.id}`,
    onlyIf: requester ? open : sql`0`,
    data: {
      subject: `${ellipsize(signer?.name ?? "The signer", 60)} signed ${ellipsize(req.fileName)}`,
      message: `${ellipsize(signer?.name ?? "The signer")} signed "${ellipsize(req.fileName)}". The signed PDF, with its signature certificate, is the file's latest version:\n${origin}/files/file/${req.fileId}`,
    },
    alongside: (b: Db) => stampedStatements(b, tenantId, req, signer, stamped, open, now),
  });
}

/** The notice that a signed document is ready, for one user, written only while `open` holds. */
function stampedNotice(b: Db, tenantId: string, req: StampRequest, targetUserId: string, open: SQL, now: number) {
  return insertWhere(
    b,
    notifications,
    {
      id: newId(),
      tenantId,
      targetUserId,
      type: "signature",
      title: SIGNATURE_MESSAGES.stamped,
      message: ellipsize(req.fileName),
      link: `/files/file/${req.fileId}`,
      subjectType: "file",
      subjectId: req.fileId,
      fromUserId: req.signerKind === "subcontractor" ? null : req.signerId,
      read: false,
      createdAt: now,
    },
    open,
  );
}

function stampedStatements(
  b: Db,
  tenantId: string,
  req: StampRequest & { signedAt: number },
  signer: Person | undefined,
  stamped: Stamped,
  open: SQL,
  now: number,
) {
  const { key, originalSha256, signedSha256 } = stamped;
  const size = stamped.bytes.byteLength;
  const fileThere = sql`EXISTS (SELECT 1 FROM ${files} WHERE ${files.tenantId} = ${tenantId} AND ${files.id} = ${req.fileId})`;
  // Notifications are for users: a subcontractor signer has none (the portal shows the request's state).
  const bySubcontractor = req.signerKind === "subcontractor";
  const notify = (targetUserId: string) => stampedNotice(b, tenantId, req, targetUserId, open, now);
  return [
    insertWhere(
      b,
      fileVersions,
      {
        id: newId(),
        tenantId,
        fileId: req.fileId,
        version: sql`(SELECT ${files.version} + 1 FROM ${files} WHERE ${files.tenantId} = ${tenantId} AND ${files.id} = ${req.fileId})`,
        storageKey: key,
        size,
        mimeType: "application/pdf",
        type: "signed",
        createdBy: bySubcontractor ? req.requesterId : req.signerId,
        createdAt: now,
      },
      sql`${open} AND ${fileThere}`,
    ),
    b
      .update(files)
      .set({
        version: sql`${files.version} + 1`,
        storageKey: key,
        size,
        storedBytes: sql`${files.storedBytes} + ${size}`,
        mimeType: "application/pdf",
        signed: true,
        signedAt: req.signedAt,
        pendingSign: false,
        signedFileKey: key,
        updatedAt: now,
      })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, req.fileId), open)),
    usageDelta(b, tenantId, "pdf", size, 0, now, sql`${open} AND ${fileThere}`),
    ...(bySubcontractor ? [] : [notify(req.signerId)]),
    notify(req.requesterId),
    auditInsertWhere(
      b,
      {
        tenantId,
        action: SIGNATURE_AUDIT.stamped,
        actorId: req.signerId,
        actorEmail: signer?.email ?? null,
        targetType: "signature_request",
        targetId: req.id,
        payload: { fileId: req.fileId, originalSha256, signedSha256, bytes: size },
        ip: null,
      },
      open,
      { now },
    ),
    // Last: every statement above is guarded on the request not being stamped yet.
    b
      .update(signatureRequests)
      .set({ stampStatus: "done", signedKey: key, originalSha256, signedSha256, stampedAt: now, updatedAt: now })
      .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, req.id), open)),
  ];
}

async function markFailed(
  db: Db,
  tenantId: string,
  req: { id: string; fileId: string; fileName: string; signerId: string; signerKind: SignerKind; requesterId: string },
  reason: string,
) {
  const now = Date.now();
  const open = sql`EXISTS (SELECT 1 FROM ${signatureRequests} WHERE ${signatureRequests.tenantId} = ${tenantId} AND ${signatureRequests.id} = ${req.id} AND coalesce(${signatureRequests.stampStatus}, '') NOT IN ('done', 'failed'))`;
  const notify = (targetUserId: string) =>
    insertWhere(
      db,
      notifications,
      {
        id: newId(),
        tenantId,
        targetUserId,
        type: "signature",
        title: SIGNATURE_MESSAGES.stampFailed,
        message: ellipsize(req.fileName),
        link: `/files/signatures/${req.id}`,
        subjectType: "file",
        subjectId: req.fileId,
        fromUserId: null,
        read: false,
        createdAt: now,
      },
      open,
    );
  await db.batch([
    notify(req.requesterId),
    ...(req.signerKind === "subcontractor" ? [] : [notify(req.signerId)]),
    // Nothing is being stamped any more: the file may take a new version or a new request.
    db
      .update(files)
      .set({ pendingSign: false, updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, req.fileId), open)),
    db
      .update(signatureRequests)
      .set({ stampStatus: "failed", updatedAt: now })
      .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, req.id), open)),
  ]);
  console.warn(JSON.stringify({ at: "signature.stamp", requestId: req.id, failed: reason }));
}
