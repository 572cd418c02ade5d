/** Client-safe rules and words of e-signature: the pages, the data layer and the stamping job share them. */
import { SIGNATURE_STATUSES, SIGNATURE_KINDS, SIGNER_KINDS, STAMP_STATUSES } from "~/db/enums";

export { SIGNATURE_STATUSES, SIGNATURE_KINDS, SIGNER_KINDS, STAMP_STATUSES } from "~/db/enums";

import type { AuditAction } from "~/features/platform";
import { base64ToBytesOrNull } from "~/utils/base64";
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];
export type StampStatus = (typeof STAMP_STATUSES)[number];
export type SignerKind = (typeof SIGNER_KINDS)[number];

/** The Request Signature form's radio value for a subcontractor signer (team members are their user id). */
export const SUBCONTRACTOR_SIGNER_PREFIX = "sub:";

/** The e-signature scopes (inside the platform's files.* family). */
export const SIGNATURE_SCOPES = {
  view: "files.signatures.view",
  create: "files.signatures.create",
  sign: "files.signatures.sign",
  manage: "files.signatures.manage",
} as const;

export const SIGNATURE_AUDIT = {
  requested: "files.signature.requested",
  completed: "files.signature.completed",
  declined: "files.signature.declined",
  stamped: "files.signature.stamped",
} as const satisfies Record<string, AuditAction>;

/** The six script fonts a typed signature may use (bundled with the app from @fontsource). */
export const SIGNATURE_FONTS = ["Dancing Script", "Pacifico", "Great Vibes", "Satisfy", "Allura", "Homemade Apple"] as const;
export type SignatureFont = (typeof SIGNATURE_FONTS)[number];

export const CANVAS_WIDTH = 800;
export const CANVAS_HEIGHT = 220;
export const PEN_COLOUR = "#1a1a1a";
export const TYPED_SIZE_PX = 48;
export const SUCCESS_CLOSE_MS = 2000;
/** A drawn 800x220 signature is a few tens of kB; anything far larger is not one. */
export const MAX_SIGNATURE_DATA_URL = 300_000;
export const MAX_TYPED_NAME = 80;
export const MAX_DECLINE_REASON = 500;

export const SIGNATURE_MESSAGES = {
  requestSent: "Signature request sent",
  requestSentDialog: "Signature request sent successfully",
  requestFailed: "Failed to send request",
  duplicate: "A pending request already exists",
  notPdfTitle: "Cannot Sign This File",
  notPdf: "Only PDF documents can be signed. This file is not a PDF.",
  cannotBeSigned: "Cannot be signed",
  noUsersFound: "No users found",
  noTeamMembers: "No team members available",
  noSignature: "Please add your signature first",
  documentNotFound: "Document not found",
  signFailed: "Failed to sign document",
  signed: "Document signed successfully! ✅",
  signedTitle: "Document Signed Successfully!",
  stamped: "PDF signed successfully ✔︎",
  stampFailed: "Failed to stamp PDF ❌",
  taskNotFound: "Task not found",
  noPending: "No pending tasks",
  noSigned: "No signed documents",
  declined: "Signature declined",
  consent: "I agree that this electronic signature is the legal equivalent of my handwritten signature on this document.",
  reviewWarning: "Review the document carefully before signing. Once signed, it cannot be changed.",
  noViewPermission: "You don't have permission to view signature documents",
  noCreatePermission: "You don't have permission to request signatures",
  noSignPermission: "You don't have permission to sign documents",
  noSubcontractors: "No subcontractors with an e-mail address",
  revealedLinkCannotSign:
    "This portal session was opened with a link that was shown to a member of staff, so it cannot be used to sign. Open the link e-mailed to you, or ask your contractor for a new one.",
} as const;

/** The tabs of /files/signatures. */
export const SIGNATURE_TABS = ["pending", "signed"] as const;
export type SignatureTab = (typeof SIGNATURE_TABS)[number];

export const SIGNATURE_STEPS = ["review", "signature", "confirm"] as const;
export type SignatureStep = (typeof SIGNATURE_STEPS)[number];
export const STEP_TITLES: Record<SignatureStep, string> = { review: "Review Document", signature: "Add Signature", confirm: "Review & Confirm" };

/** Signing is for PDFs only: by mime type or a .pdf name. */
export function isPdf(mimeType: string, name: string): boolean {
  return mimeType.toLowerCase() === "application/pdf" || /\.pdf$/i.test(name.trim());
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Decodes a drawn signature: a `data:image/png;base64,` URL of a real PNG no larger than the
 * canvas. Anything else is null, so nothing but a small PNG reaches R2 or the PDF.
 */
export function parseSignaturePng(dataUrl: string): Uint8Array | null {
  const prefix = "data:image/png;base64,";
  if (dataUrl.length > MAX_SIGNATURE_DATA_URL || !dataUrl.startsWith(prefix)) return null;
  const bytes = base64ToBytesOrNull(dataUrl.slice(prefix.length));
  if (!bytes || bytes.length < 45 || PNG_MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer);
  // The first chunk must be IHDR (length 13), and the image no larger than the canvas.
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.slice(12, 16)) !== "IHDR") return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width < 1 || height < 1 || width > CANVAS_WIDTH || height > CANVAS_HEIGHT) return null;
  if (String.fromCharCode(...bytes.slice(bytes.length - 8, bytes.length - 4)) !== "IEND") return null;
  return bytes;
}

export function statusLabel(r: { status: SignatureStatus; stampStatus: StampStatus | null }): string {
  if (r.status === "pending") return "Pending";
  if (r.status === "declined") return "Declined";
  if (r.stampStatus === "done") return SIGNATURE_MESSAGES.stamped;
  if (r.stampStatus === "failed") return SIGNATURE_MESSAGES.stampFailed;
  return "Signed, stamping the PDF…";
}
