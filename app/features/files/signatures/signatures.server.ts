import { and, desc, eq, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { dbFor, type Db } from "~/db/client.server";
import { fileAccess, files, signatureRequests, users } from "~/db/schema";
import { auditInsert, auditInsertWhere } from "~/features/platform/index.server";
import { queueEmail, queueEmailIf } from "~/features/platform/index.server";
import { jobRowWhen, sendCommittedJob } from "~/features/platform/index.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { ellipsize } from "~/utils/text";
import { visibleTo, type Viewer } from "../files.server";
import { fileResponseHeaders } from "../serve.server";
import { isPdf, SIGNATURE_AUDIT, type SignatureFont, type SignatureStatus, type SignatureTab, type SignerKind } from "./signature-rules";
import { portalSignPath, type SubcontractorSignerChoice, type SubcontractorSigners } from "./subcontractor-signers.server";
import type { TenantContextValue } from "~/features/platform/index.server";
import type { Err, Ok } from "~/utils/result";

/** Someone acting on signatures: `manage` (files.signatures.manage) sees every request of the tenant. */
export type SignatureActor = Viewer & { manageSignatures: boolean };

export type SignatureErrorCode =
  | "not_found"
  | "not_pdf"
  | "not_owner"
  | "self_sign"
  | "signer_not_found"
  | "subcontractor_not_found"
  | "duplicate"
  | "not_pending"
  | "no_signature"
  | "storage_failed";
export type SignatureFail = Err<SignatureErrorCode, { field?: string }>;

/** Who is asked to sign: a member of the tenant, or one of its subcontractors (who signs in the portal). */
export type SignerRef = { kind: "user"; id: string } | { kind: "subcontractor"; id: string };

/** The person signing or declining: a user (SignatureActor) or a subcontractor in a portal session. */
export type Signer = { kind: SignerKind; id: string; name: string; email: string };

export function userSigner(actor: SignatureActor): Signer {
  return { kind: "user", id: actor.id, name: actor.name, email: actor.email };
}

export type SignatureInput = { kind: "typed"; name: string; font: SignatureFont } | { kind: "drawn"; png: Uint8Array };

export function stampJobKey(requestId: string): string {
  return `files.signature.stamp:${requestId}`;
}

export function signaturePngKey(tenantId: string, requestId: string): string {
  // Outside files/: a drawn signature is not a file, and the usage walk counts only files.
  return `tenants/${tenantId}/signatures/${requestId}.png`;
}

export function signedPdfKey(tenantId: string, fileId: string, requestId: string): string {
  return `tenants/${tenantId}/files/${fileId}/signed/${requestId}.pdf`;
}

const isUniqueViolation = (err: unknown) =>
  err instanceof Error && /UNIQUE constraint failed: signature_requests/.test(`${err.message} ${String(err.cause ?? "")}`);

type RequestInput = {
  fileId: string;
  signer: SignerRef;
  /** Present when this person may ask subcontractors (see subcontractorSignersFor). */
  subcontractors: SubcontractorSigners | null;
  origin: string;
  claim?: SubmissionClaim;
};

/** The file to sign, when the actor can see it. */
function requestFileQuery(db: Db, tenantId: string, fileId: string, actor: SignatureActor) {
  return db
    .select({
      id: files.id,
      name: files.name,
      mimeType: files.mimeType,
      ownerId: files.ownerId,
      visibility: files.visibility,
      storageKey: files.storageKey,
      version: files.version,
      signed: files.signed,
      pendingSign: files.pendingSign,
    })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(actor)));
}
type RequestFile = Awaited<ReturnType<typeof requestFileQuery>>[number];
type PortalLink = NonNullable<Awaited<ReturnType<SubcontractorSigners["issueLink"]>>>;

/** The file to sign and the signer, read in one batch and checked: visible PDF the actor may send, a signer other than the actor, no request yet. */
async function loadRequestParties(
  db: Db,
  tenantId: string,
  actor: SignatureActor,
  input: RequestInput,
  subs: SubcontractorSigners | null,
): Promise<Ok<{ file: RequestFile; signer: SubcontractorSignerChoice }> | SignatureFail> {
  const [fileRows, signerRows] = await db.batch([
    requestFileQuery(db, tenantId, input.fileId, actor),
    subs
      ? subs.find(db, tenantId, input.signer.id)
      : db
          .select({ id: users.id, email: users.email, name: users.displayName })
          .from(users)
          .where(and(eq(users.tenantId, tenantId), eq(users.id, input.signer.id), eq(users.disabled, false))),
  ]);
  const file = fileRows[0];
  if (!file) return { ok: false, code: "not_found" };
  if (!actor.manageAll && file.ownerId !== actor.id) return { ok: false, code: "not_owner" };
  if (!isPdf(file.mimeType, file.name)) return { ok: false, code: "not_pdf" };
  if (input.signer.kind === "user" && input.signer.id === actor.id) return { ok: false, code: "self_sign", field: "signerId" };
  const signer = (signerRows as SubcontractorSignerChoice[])[0];
  if (!signer) return { ok: false, code: subs ? "subcontractor_not_found" : "signer_not_found", field: "signerId" };
  if (file.signed || file.pendingSign) return { ok: false, code: "duplicate" };
  return { ok: true, file, signer };
}

/**
 * The writes of a new request: the request row, the file's pendingSign flag and visibility (a
 * private file becomes restricted to the requester and a team signer; a restricted one gains the
 * team signer; a subcontractor signs in the portal, so staff visibility does not change), the
 * audit entry, the portal invite's rows and the form's submission claim.
 */
function requestStatements(b: Db, r: NewRequest, input: RequestInput, now: number) {
  const { tenantId, requestId, actor, file, signer, link } = r;
  const openTo = link ? [] : file.visibility === "shared" ? [] : file.visibility === "private" ? [actor.id, signer.id] : [signer.id];
  return [
    b.insert(signatureRequests).values({
      id: requestId,
      tenantId,
      fileId: file.id,
      fileName: file.name,
      originalKey: file.storageKey,
      originalVersion: file.version,
      requesterId: actor.id,
      signerId: signer.id,
      signerKind: input.signer.kind,
      signerName: link ? signer.name : null,
      signerEmail: link ? signer.email : null,
      status: "pending" as const,
      createdAt: now,
      updatedAt: now,
    }),
    b
      .update(files)
      .set({ pendingSign: true, ...(!link && file.visibility === "private" ? { visibility: "restricted" as const } : {}), updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, file.id))),
    ...openTo.map((userId) => b.insert(fileAccess).values({ tenantId, fileId: file.id, userId, via: "allowed", createdAt: now }).onConflictDoNothing()),
    auditInsert(
      b,
      {
        tenantId,
        action: SIGNATURE_AUDIT.requested,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "signature_request",
        targetId: requestId,
        payload: { fileId: file.id, name: file.name, signerId: signer.id, ...(link ? { signerKind: "subcontractor" } : {}) },
        ip: null,
      },
      now,
    ),
    ...(link ? link.statements(b) : []),
    ...(input.claim ? [claimSubmission(b, input.claim)] : []),
  ];
}

type NewRequest = { tenantId: string; requestId: string; actor: SignatureActor; file: RequestFile; signer: SubcontractorSignerChoice; link: PortalLink | null };

/** Queues the signer's e-mail with `alongside` in its batch: a subcontractor gets the single-use portal link, a team member the request's page. */
async function queueRequestEmail(env: Env, r: NewRequest, origin: string, alongside: (b: Db) => BatchItem<"sqlite">[]) {
  const { tenantId, requestId, actor, signer, link } = r;
  const name = ellipsize(r.file.name);
  const idempotencyKey = `signature.request:${requestId}`;
  if (link) {
    await queueEmail(env, {
      tenantId,
      to: signer.email,
      template: "portal.signature-request",
      idempotencyKey,
      data: {
        recipientName: ellipsize(signer.name),
        contractorName: ellipsize(link.contractorName),
        requesterName: ellipsize(actor.name),
        documentName: name,
        magicLink: link.magicLink,
        expiresIn: link.expiresIn,
      },
      alongside,
    });
    return;
  }
  await queueEmail(env, {
    tenantId,
    to: signer.email,
    template: "platform.notice",
    idempotencyKey,
    data: {
      subject: `${ellipsize(actor.name, 60)} asks you to sign ${name}`,
      message: `Hello ${ellipsize(signer.name)},\n\n${ellipsize(actor.name)} (${actor.email}) asks you to review and sign "${name}".\n\nOpen the document to sign or decline it:\n${origin}/files/signatures/${requestId}`,
    },
    alongside,
  });
}

/**
 * Asks a team member or a subcontractor to sign a PDF. The request row, the file's pendingSign
 * flag and visibility, the audit entry and the signer's e-mail are one D1 batch, with the form's
 * one-time submission `claim` when given. A subcontractor's e-mail carries a single-use portal
 * link that opens the request; its invite row and audit entry join the same batch. The partial
 * unique index on pending requests makes a racing duplicate fail the whole batch (and so does a
 * repeated submission key).
 */
export async function requestSignature(
  env: Env,
  tenant: Pick<TenantContextValue, "id" | "name">,
  actor: SignatureActor,
  input: RequestInput,
  now = Date.now(),
): Promise<Ok<{ requestId: string }> | SignatureFail> {
  const tenantId = tenant.id;
  const db = dbFor(env, tenantId);
  const subs = input.signer.kind === "subcontractor" ? input.subcontractors : null;
  if (input.signer.kind === "subcontractor" && !subs) return { ok: false, code: "subcontractor_not_found", field: "signerId" };
  const parties = await loadRequestParties(db, tenantId, actor, input, subs);
  if (!parties.ok) return parties;
  const { file, signer } = parties;

  const requestId = newId();
  const link = subs
    ? await subs.issueLink(env, {
        tenant,
        subcontractorId: signer.id,
        email: signer.email,
        actorId: actor.id,
        actorEmail: actor.email,
        origin: input.origin,
        next: portalSignPath(requestId),
      })
    : null;
  const request: NewRequest = { tenantId, requestId, actor, file, signer, link };
  try {
    await queueRequestEmail(env, request, input.origin, (b) => requestStatements(b, request, input, now));
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, code: "duplicate" };
    throw err;
  }
  return { ok: true, requestId };
}

const signer = alias(users, "signer");
const requester = alias(users, "requester");

const listColumns = {
  id: signatureRequests.id,
  fileId: signatureRequests.fileId,
  fileName: signatureRequests.fileName,
  status: signatureRequests.status,
  stampStatus: signatureRequests.stampStatus,
  signerId: signatureRequests.signerId,
  requesterId: signatureRequests.requesterId,
  signerKind: signatureRequests.signerKind,
  signerName: sql<string | null>`coalesce(${signer.displayName}, ${signatureRequests.signerName})`,
  requesterName: requester.displayName,
  createdAt: signatureRequests.createdAt,
  signedAt: signatureRequests.signedAt,
  declinedAt: signatureRequests.declinedAt,
  declineReason: signatureRequests.declineReason,
};

/** Requests this user is the signer of (a subcontractor's id never counts as a user's). */
const isMySigning = (userId: string) => sql`(${signatureRequests.signerKind} = 'user' AND ${signatureRequests.signerId} = ${userId})`;
const signsAsUser = (row: { signerKind: SignerKind; signerId: string }, userId: string) => row.signerKind === "user" && row.signerId === userId;

export { SIGNATURE_TABS, type SignatureTab } from "./signature-rules";

/**
 * A tab of /files/signatures: Pending (requests waiting, the person's own to sign first) or
 * Signed (signed and declined ones), those the person signs or asked for unless they manage
 * signatures; a case-insensitive name search. One query.
 */
export function listSignatureRequests(env: Env, tenantId: string, actor: SignatureActor, tab: SignatureTab, q: string) {
  const db = dbFor(env, tenantId);
  const mine = actor.manageSignatures ? undefined : or(isMySigning(actor.id), eq(signatureRequests.requesterId, actor.id));
  const status = tab === "pending" ? eq(signatureRequests.status, "pending") : sql`${signatureRequests.status} IN ('signed', 'declined')`;
  const needle = q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`);
  const search = needle ? sql`lower(${signatureRequests.fileName}) LIKE ${`%${needle}%`} ESCAPE '\\'` : undefined;
  return db
    .select(listColumns)
    .from(signatureRequests)
    .leftJoin(signer, and(eq(signer.id, signatureRequests.signerId), eq(signer.tenantId, tenantId), eq(signatureRequests.signerKind, "user")))
    .leftJoin(requester, and(eq(requester.id, signatureRequests.requesterId), eq(requester.tenantId, tenantId)))
    .where(and(eq(signatureRequests.tenantId, tenantId), status, mine, search))
    .orderBy(desc(isMySigning(actor.id)), desc(signatureRequests.createdAt))
    .limit(200);
}
export type SignatureListRow = Awaited<ReturnType<typeof listSignatureRequests>>[number];

/** One request as its signer, requester or a signature manager sees it; anyone else (or another tenant) gets null. */
export async function getSignatureRequest(env: Env, tenantId: string, actor: SignatureActor, requestId: string) {
  const db = dbFor(env, tenantId);
  const row = await db
    .select({
      ...listColumns,
      signatureKind: signatureRequests.signatureKind,
      signatureText: signatureRequests.signatureText,
      signatureFont: signatureRequests.signatureFont,
      originalVersion: signatureRequests.originalVersion,
      originalSha256: signatureRequests.originalSha256,
      signedSha256: signatureRequests.signedSha256,
      stampedAt: signatureRequests.stampedAt,
      mimeType: files.mimeType,
      fileVersion: files.version,
    })
    .from(signatureRequests)
    .leftJoin(signer, and(eq(signer.id, signatureRequests.signerId), eq(signer.tenantId, tenantId), eq(signatureRequests.signerKind, "user")))
    .leftJoin(requester, and(eq(requester.id, signatureRequests.requesterId), eq(requester.tenantId, tenantId)))
    .leftJoin(files, and(eq(files.id, signatureRequests.fileId), eq(files.tenantId, tenantId)))
    .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId)))
    .get();
  if (!row) return null;
  if (!actor.manageSignatures && !signsAsUser(row, actor.id) && row.requesterId !== actor.id) return null;
  return row;
}
export type SignatureDetail = NonNullable<Awaited<ReturnType<typeof getSignatureRequest>>>;

/** The original PDF the signer is asked about, for the review step's preview: only to its signer (or requester). */
export async function originalForReview(env: Env, tenantId: string, actor: SignatureActor, requestId: string) {
  const row = await dbFor(env, tenantId)
    .select({
      key: signatureRequests.originalKey,
      name: signatureRequests.fileName,
      signerId: signatureRequests.signerId,
      signerKind: signatureRequests.signerKind,
      requesterId: signatureRequests.requesterId,
    })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId)))
    .get();
  if (!row || (!actor.manageSignatures && !signsAsUser(row, actor.id) && row.requesterId !== actor.id)) return null;
  if (!row.key.startsWith(`tenants/${tenantId}/`)) return null;
  return row;
}

/**
 * Records the signer's signature: the drawn PNG goes to R2, then the row turns signed with its
 * audit entry and the stamping job's row in one batch, conditional on the request still being
 * pending and the person being its signer. Only after that batch commits is the job's message
 * sent, so the job only ever reads a stored signature; a batch that fails sends nothing.
 */
export async function signRequest(
  env: Env,
  tenantId: string,
  actor: Signer,
  requestId: string,
  signature: SignatureInput,
  meta: { ip: string | null; origin: string },
  now = Date.now(),
): Promise<Ok | SignatureFail> {
  const db = dbFor(env, tenantId);
  const row = await db
    .select({
      id: signatureRequests.id,
      status: signatureRequests.status,
      signerId: signatureRequests.signerId,
      signerKind: signatureRequests.signerKind,
      fileId: signatureRequests.fileId,
      fileName: signatureRequests.fileName,
    })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId)))
    .get();
  if (!row || row.signerId !== actor.id || row.signerKind !== actor.kind) return { ok: false, code: "not_found" };
  if (row.status !== "pending") return { ok: false, code: "not_pending" };
  let path: string | null = null;
  if (signature.kind === "drawn") {
    path = signaturePngKey(tenantId, requestId);
    try {
      await env.FILES.put(path, signature.png, { httpMetadata: { contentType: "image/png" } });
    } catch {
      return { ok: false, code: "storage_failed" };
    }
  }
  const [updated] = await db.batch(signedStatements(db, { tenantId, requestId, actor, signature, path, request: row, ...meta }, now));
  if (updated.length === 0) return { ok: false, code: "not_pending" };
  try {
    await sendCommittedJob(env, tenantId, "files.signature.stamp", stampJobKey(requestId));
  } catch (err) {
    // The signature stands; its request stays 'queued' until the stamp job is sent again.
    console.error(JSON.stringify({ at: "signature.sign", requestId, stampJobNotSent: String(err) }));
  }
  return { ok: true };
}

/**
 * The writes of a signature: the request moves from pending to signed (only while still pending,
 * for this signer), and the audit entry and the stamp job's row land only when this batch made
 * that change.
 */
function signedStatements(
  db: Db,
  s: {
    tenantId: string;
    requestId: string;
    actor: Signer;
    signature: SignatureInput;
    path: string | null;
    request: { fileId: string; fileName: string };
    ip: string | null;
    origin: string;
  },
  now: number,
) {
  const { tenantId, requestId, actor, signature, path, request: row, ip } = s;
  const signedNow = changedAt(tenantId, requestId, "signed", now);
  return [
    db
      .update(signatureRequests)
      .set({
        status: "signed",
        signatureKind: signature.kind,
        signatureText: signature.kind === "typed" ? signature.name : actor.name,
        signatureFont: signature.kind === "typed" ? signature.font : null,
        signaturePath: path,
        signerIp: ip,
        signedAt: now,
        stampStatus: "queued",
        updatedAt: now,
      })
      .where(
        and(
          eq(signatureRequests.tenantId, tenantId),
          eq(signatureRequests.id, requestId),
          eq(signatureRequests.signerId, actor.id),
          eq(signatureRequests.signerKind, actor.kind),
          eq(signatureRequests.status, "pending"),
        ),
      )
      .returning({ id: signatureRequests.id }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: SIGNATURE_AUDIT.completed,
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "signature_request",
        targetId: requestId,
        payload: { fileId: row.fileId, name: row.fileName, kind: signature.kind, ...(actor.kind === "subcontractor" ? { signerKind: actor.kind } : {}) },
        ip,
      },
      signedNow,
      { now },
    ),
    jobRowWhen(
      db,
      {
        tenantId,
        type: "files.signature.stamp",
        input: { requestId, origin: s.origin },
        performedBy: actor.kind === "user" ? actor.id : null,
        idempotencyKey: stampJobKey(requestId),
      },
      signedNow,
    ),
  ] as const;
}

/** The row was moved to `status` by this very statement set (its time stamp is ours). */
function changedAt(tenantId: string, requestId: string, status: SignatureStatus, now: number): SQL {
  const at = status === "declined" ? signatureRequests.declinedAt : signatureRequests.signedAt;
  return sql`EXISTS (SELECT 1 FROM ${signatureRequests} WHERE ${signatureRequests.tenantId} = ${tenantId} AND ${signatureRequests.id} = ${requestId} AND ${signatureRequests.status} = ${status} AND ${at} = ${now})`;
}

/**
 * The signer declines with a reason: the row, the file's pendingSign flag, the audit entry and
 * the requester's e-mail in one batch that lands only while the request is pending.
 */
export async function declineRequest(
  env: Env,
  tenantId: string,
  actor: Signer,
  requestId: string,
  reason: string,
  ip: string | null,
  now = Date.now(),
): Promise<Ok | SignatureFail> {
  const db = dbFor(env, tenantId);
  const row = await db
    .select({
      status: signatureRequests.status,
      signerId: signatureRequests.signerId,
      signerKind: signatureRequests.signerKind,
      fileId: signatureRequests.fileId,
      fileName: signatureRequests.fileName,
      requesterEmail: users.email,
    })
    .from(signatureRequests)
    .innerJoin(users, and(eq(users.id, signatureRequests.requesterId), eq(users.tenantId, tenantId)))
    .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId)))
    .get();
  if (!row || row.signerId !== actor.id || row.signerKind !== actor.kind) return { ok: false, code: "not_found" };
  if (row.status !== "pending") return { ok: false, code: "not_pending" };
  const pending = sql`EXISTS (SELECT 1 FROM ${signatureRequests} WHERE ${signatureRequests.tenantId} = ${tenantId} AND ${signatureRequests.id} = ${requestId} AND ${signatureRequests.status} = 'pending')`;
  const declined = changedAt(tenantId, requestId, "declined", now);
  const res = await queueEmailIf(env, {
    tenantId,
    to: row.requesterEmail,
    template: "platform.notice",
    idempotencyKey: `signature.declined:${requestId}`,
    onlyIf: pending,
    data: {
      subject: `${ellipsize(actor.name, 60)} declined to sign ${ellipsize(row.fileName)}`,
      message: `${ellipsize(actor.name)} (${actor.email}) declined to sign "${ellipsize(row.fileName)}".\n\nReason: ${reason}`,
    },
    alongside: (b: Db) => [
      b
        .update(signatureRequests)
        .set({ status: "declined", declineReason: reason, declinedAt: now, updatedAt: now })
        .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.id, requestId), eq(signatureRequests.status, "pending"))),
      b
        .update(files)
        .set({ pendingSign: false, updatedAt: now })
        .where(and(eq(files.tenantId, tenantId), eq(files.id, row.fileId), declined)),
      auditInsertWhere(
        b,
        {
          tenantId,
          action: SIGNATURE_AUDIT.declined,
          actorId: actor.id,
          actorEmail: actor.email,
          targetType: "signature_request",
          targetId: requestId,
          payload: { fileId: row.fileId, name: row.fileName, reason, ...(actor.kind === "subcontractor" ? { signerKind: actor.kind } : {}) },
          ip,
        },
        declined,
        { now },
      ),
    ],
  });
  if (!res.outboxId) return { ok: false, code: "not_pending" };
  return { ok: true };
}

/**
 * The portal's view: a request this subcontractor was asked to sign, with what its signing page
 * shows; another subcontractor's or another tenant's request is null.
 */
export async function getRequestForSubcontractor(env: Env, tenantId: string, subcontractorId: string, requestId: string) {
  const row = await dbFor(env, tenantId)
    .select({
      ...listColumns,
      originalKey: signatureRequests.originalKey,
      originalSha256: signatureRequests.originalSha256,
      signedSha256: signatureRequests.signedSha256,
    })
    .from(signatureRequests)
    .leftJoin(signer, and(eq(signer.id, signatureRequests.signerId), eq(signer.tenantId, tenantId), eq(signatureRequests.signerKind, "user")))
    .leftJoin(requester, and(eq(requester.id, signatureRequests.requesterId), eq(requester.tenantId, tenantId)))
    .where(
      and(
        eq(signatureRequests.tenantId, tenantId),
        eq(signatureRequests.id, requestId),
        eq(signatureRequests.signerKind, "subcontractor"),
        eq(signatureRequests.signerId, subcontractorId),
      ),
    )
    .get();
  if (!row || !row.originalKey.startsWith(`tenants/${tenantId}/`)) return null;
  return row;
}

/** The requests a subcontractor was asked to sign, newest first (the portal lists them). */
export function subcontractorSignatureRequests(db: Db, tenantId: string, subcontractorId: string) {
  return db
    .select({
      id: signatureRequests.id,
      fileName: signatureRequests.fileName,
      status: signatureRequests.status,
      stampStatus: signatureRequests.stampStatus,
      createdAt: signatureRequests.createdAt,
      signedAt: signatureRequests.signedAt,
    })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.tenantId, tenantId), eq(signatureRequests.signerKind, "subcontractor"), eq(signatureRequests.signerId, subcontractorId)))
    .orderBy(desc(sql`${signatureRequests.status} = 'pending'`), desc(signatureRequests.createdAt))
    .limit(50);
}

/** The original PDF a subcontractor is asked to sign, inline for the portal's review step; null when not theirs. */
export async function subcontractorReviewDocument(env: Env, tenantId: string, subcontractorId: string, requestId: string): Promise<Response | null> {
  const row = await getRequestForSubcontractor(env, tenantId, subcontractorId, requestId);
  if (!row) return null;
  const object = await env.FILES.get(row.originalKey);
  if (!object) return null;
  return new Response(object.body, { headers: fileResponseHeaders({ name: row.fileName, mimeType: "application/pdf", size: object.size }, "inline") });
}
