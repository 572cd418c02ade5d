import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

import { SIGNATURE_KINDS, SIGNATURE_STATUSES, SIGNER_KINDS, STAMP_STATUSES } from "../enums";

/**
 * A request that one member of a tenant sign a PDF, and what came of it. The original version
 * asked about is pinned (`original_key`, `original_version`), so a later upload cannot change
 * what the signer reviewed; the stamped copy becomes the file's next version.
 */
export const signatureRequests = sqliteTable(
  "signature_requests",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fileId: text("file_id").notNull(),
    fileName: text("file_name").notNull(),
    originalKey: text("original_key").notNull(),
    originalVersion: integer("original_version").notNull(),
    requesterId: text("requester_id").notNull(),
    /** A user id, or a CIS subcontractor's id when `signer_kind` is 'subcontractor'. */
    signerId: text("signer_id").notNull(),
    signerKind: text("signer_kind", { enum: SIGNER_KINDS }).notNull().default("user"),
    /** A subcontractor signer's name and e-mail as they were when asked (files knows no CIS table). */
    signerName: text("signer_name"),
    signerEmail: text("signer_email"),
    status: text("status", { enum: SIGNATURE_STATUSES }).notNull().default("pending"),
    signatureKind: text("signature_kind", { enum: SIGNATURE_KINDS }),
    /** The typed name (typed signatures) or the signer's name as shown (drawn ones). */
    signatureText: text("signature_text"),
    signatureFont: text("signature_font"),
    /** The drawn signature's PNG in R2 (tenants/{tenantId}/files/signatures/{id}.png). */
    signaturePath: text("signature_path"),
    signerIp: text("signer_ip"),
    signedAt: integer("signed_at"),
    declineReason: text("decline_reason"),
    declinedAt: integer("declined_at"),
    stampStatus: text("stamp_status", { enum: STAMP_STATUSES }),
    originalSha256: text("original_sha256"),
    signedKey: text("signed_key"),
    signedSha256: text("signed_sha256"),
    stampedAt: integer("stamped_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // One open request per file: a racing second request fails on this index.
    uniqueIndex("signature_requests_pending_file")
      .on(t.tenantId, t.fileId)
      .where(sql`status = 'pending'`),
    index("signature_requests_tenant_signer").on(t.tenantId, t.signerId, t.status, t.createdAt),
    index("signature_requests_tenant_requester").on(t.tenantId, t.requesterId, t.status, t.createdAt),
    index("signature_requests_tenant_status").on(t.tenantId, t.status, t.createdAt),
  ],
);
