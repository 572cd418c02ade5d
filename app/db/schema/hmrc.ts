import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DEV_HMRC_MODES } from "../enums";
import { HMRC_SUBMISSION_STATUSES } from "../enums";

export const HMRC_SUBMISSION_KINDS = ["cis300", "verify"] as const;
export type HmrcSubmissionKind = (typeof HMRC_SUBMISSION_KINDS)[number];

export { HMRC_IN_FLIGHT_STATUSES, HMRC_SUBMISSION_STATUSES, type HmrcSubmissionStatus } from "../enums";

export type HmrcStoredError = { number: number | null; type: string | null; text: string; location: string | null; raisedBy: string | null };

/** One message sent to HMRC's Transaction Engine and the protocol that followed it. */
export const hmrcSubmissions = sqliteTable(
  "hmrc_submissions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind", { enum: HMRC_SUBMISSION_KINDS }).notNull(),
    /** The return id (cis300) or the subcontractor ids (verify) the message is about. */
    subjectIds: text("subject_ids", { mode: "json" }).$type<string[]>().notNull(),
    /** kind + sorted subject ids: what "the same submission" means for double clicks. */
    subjectKey: text("subject_key").notNull(),
    /**
     * Equal to subjectKey while the submission is in flight (and, for kinds that may succeed
     * only once, after acceptance); null once it may be tried again. A unique index on it turns
     * a second start of the same subject into "here is the one already running".
     */
    activeKey: text("active_key"),
    status: text("status", { enum: HMRC_SUBMISSION_STATUSES }).notNull().default("queued"),
    transport: text("transport").notNull(),
    messageClass: text("message_class").notNull(),
    /** The GovTalk message as built, without credentials (they are added when it is sent). */
    requestXml: text("request_xml").notNull(),
    irmark: text("irmark"),
    correlationId: text("correlation_id"),
    responseEndpoint: text("response_endpoint"),
    pollIntervalSeconds: integer("poll_interval_seconds"),
    pollCount: integer("poll_count").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    /** Set when the send job claims the message, before it goes out: a second send never happens. */
    sentAt: integer("sent_at"),
    acknowledgedAt: integer("acknowledged_at"),
    responseXml: text("response_xml"),
    /** HMRC's receipt sentence, as HMRC wrote it, and the IRmark it quotes (base32). */
    receipt: text("receipt"),
    receiptIrmark: text("receipt_irmark"),
    /** HMRC's errors verbatim (business rejections) or our own failure code for 'failed'. */
    errors: text("errors", { mode: "json" }).$type<HmrcStoredError[]>(),
    failureCode: text("failure_code"),
    /** Written by the UPDATE that made the result final; the result handler's statements require it. */
    resultToken: text("result_token"),
    finishedAt: integer("finished_at"),
    deletedAt: integer("deleted_at"),
    deleteError: text("delete_error"),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("hmrc_submissions_active").on(t.tenantId, t.activeKey),
    index("hmrc_submissions_subject").on(t.tenantId, t.subjectKey, t.createdAt),
    index("hmrc_submissions_kind").on(t.tenantId, t.kind, t.createdAt),
    // Housekeeping's retention purge, across tenants.
    index("hmrc_submissions_created").on(t.createdAt),
  ],
);

/**
 * What the development Transaction Engine received and answered (not tenant data: the fake
 * stands in for HMRC, which only sees messages). Never holds a password: the fake redacts it.
 */
export const devHmrcMessages = sqliteTable(
  "dev_hmrc_messages",
  {
    id: text("id").primaryKey(),
    correlationId: text("correlation_id"),
    messageClass: text("message_class"),
    qualifier: text("qualifier"),
    function: text("function"),
    employerRef: text("employer_ref"),
    requestXml: text("request_xml").notNull(),
    responseXml: text("response_xml").notNull(),
    outcome: text("outcome").notNull(),
    /** For a submission: the final answer its polls will get, and polls still to answer "not yet". */
    finalResponseXml: text("final_response_xml"),
    pendingPolls: integer("pending_polls").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("dev_hmrc_messages_created").on(t.createdAt), index("dev_hmrc_messages_correlation").on(t.correlationId)],
);

/** How the development Transaction Engine answers submissions for one employer reference. */
export const devHmrcModes = sqliteTable("dev_hmrc_modes", {
  employerRef: text("employer_ref").primaryKey(),
  mode: text("mode", { enum: DEV_HMRC_MODES }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});
