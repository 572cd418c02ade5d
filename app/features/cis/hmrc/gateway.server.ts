/**
 * The HMRC gateway: sends a built GovTalk message through the configured transport and follows
 * the Transaction Engine's protocol to its end, one row of hmrc_submissions per message.
 *
 *   startSubmission ──► hmrc.send job ──► acknowledgement ──► hmrc.poll job (delayed by the poll
 *   interval) ──► … ──► response (accepted) | business errors (rejected) ──► delete request
 *
 * It knows nothing about returns or subcontractors: a message comes with a subject (kind and
 * ids), and a feature registers a result handler for its kind (onSubmissionResult) whose D1
 * statements are batched with the UPDATE that makes the result final and guarded by that
 * UPDATE's token, so a result is applied exactly once however often a poll is delivered.
 *
 * Never twice: a unique index on (tenant, activeKey) makes a second start for a subject in flight
 * return the first; the send job claims the row (sentAt) before the message leaves; every
 * transition is a conditional UPDATE on the states it may start from; each poll job is keyed by
 * submission and poll number and checks the row's state before doing anything.
 */
import type { Actor } from "~/features/auth";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { HMRC_IN_FLIGHT_STATUSES, hmrcSubmissions, type HmrcStoredError, type HmrcSubmissionKind, type HmrcSubmissionStatus } from "~/db/schema";
import { auditInsertWhere, type AuditAction } from "~/features/platform/index.server";
import { enqueue } from "~/features/platform/index.server";
import { forTenant } from "~/db/tenancy";
import { newId } from "~/utils/ids";
import { parseGovTalkResponse, type GovTalkResponse } from "../domain/xml/govtalk-response";
import type { GatewayErrorCode } from "./codes";
import { hasGatewayCredentials, readGatewayCredentials } from "./credentials.server";
import { clampPollInterval, deleteRequest, messageFacts, pollRequest, withCredentials } from "./protocol";
import { openXml, sealXml, sealXmlOrNull, submissionXmlContext } from "./stored-xml.server";
import { chooseHmrcTransport, HmrcTransportError, type HmrcTransport } from "./transport.server";
import type { Result } from "~/utils/result";

export type HmrcSubmissionRow = typeof hmrcSubmissions.$inferSelect;

export type SubmissionSubject = { kind: "cis300"; returnId: string } | { kind: "verify"; subcontractorIds: string[] };

export const MESSAGE_CLASS: Record<HmrcSubmissionKind, string> = { cis300: "IR-CIS-CIS300MR", verify: "IR-CIS-VERIFY" };

/**
 * A return HMRC accepted must not be sent again (an amendment is another return id), so its key
 * stays taken; subcontractors may be verified again whenever the contractor wants.
 */
const KEEP_KEY_WHEN_ACCEPTED: Record<HmrcSubmissionKind, boolean> = { cis300: true, verify: false };

/** After this many "not yet" answers the submission is failed rather than polled for ever. */
export const MAX_POLLS = 60;
/** Sends that found no Transaction Engine before the submission is failed (the job retries with backoff). */
export const MAX_SEND_ATTEMPTS = 5;
/** Polls that found no Transaction Engine (after the one successful send) before the submission is failed. */
export const MAX_POLL_FAILURES = 10;

const IN_FLIGHT: readonly HmrcSubmissionStatus[] = HMRC_IN_FLIGHT_STATUSES;

export function subjectIdsOf(subject: SubmissionSubject): string[] {
  return subject.kind === "cis300" ? [subject.returnId] : [...new Set(subject.subcontractorIds)].sort();
}

export function subjectKeyOf(kind: HmrcSubmissionKind, ids: string[]): string {
  return `${kind}:${[...ids].sort().join(",")}`;
}

// ---------------------------------------------------------------------------
// Result handlers

export type SubmissionOutcome = {
  status: "accepted" | "rejected" | "failed";
  /** HMRC's parsed answer; null for failures of our own (configuration, transport). */
  response: GovTalkResponse | null;
  errors: HmrcStoredError[];
};

/** The audit action each outcome records. */
const HMRC_OUTCOME_AUDIT = {
  accepted: "cis.hmrc.accepted",
  rejected: "cis.hmrc.rejected",
  failed: "cis.hmrc.failed",
} as const satisfies Record<SubmissionOutcome["status"], AuditAction>;

export type ResultHandlerContext = {
  env: Env;
  db: Db;
  submission: HmrcSubmissionRow;
  outcome: SubmissionOutcome;
  /** True only while the UPDATE that made this outcome final matched: put it in every statement's WHERE. */
  guard: SQL;
  /** The same token, for INSERT … SELECT statements: `FROM hmrc_submissions WHERE result_token = token`. */
  token: string;
  now: number;
};

/** Statements to run in the same D1 batch as the final UPDATE, each guarded by ctx.guard. */
export type ResultHandler = (ctx: ResultHandlerContext) => Promise<BatchItem<"sqlite">[]> | BatchItem<"sqlite">[];

const handlers = new Map<HmrcSubmissionKind, ResultHandler>();

/**
 * Registers what happens when a submission of `kind` ends (accepted, rejected or failed): e.g. the
 * returns layer marks its return submitted and locked on acceptance. One handler per kind;
 * registered from the server composition root (app/jobs.server.ts).
 */
export function onSubmissionResult(kind: HmrcSubmissionKind, handler: ResultHandler): void {
  handlers.set(kind, handler);
}

// ---------------------------------------------------------------------------
// Reading

export type SubmissionView = {
  id: string;
  kind: HmrcSubmissionKind;
  subjectIds: string[];
  status: HmrcSubmissionStatus;
  transport: string;
  irmark: string | null;
  correlationId: string | null;
  receipt: string | null;
  receiptIrmark: string | null;
  errors: HmrcStoredError[];
  failureCode: GatewayErrorCode | null;
  pollCount: number;
  createdAt: number;
  finishedAt: number | null;
  deletedAt: number | null;
};

export function submissionView(row: HmrcSubmissionRow): SubmissionView {
  return {
    id: row.id,
    kind: row.kind,
    subjectIds: row.subjectIds,
    status: row.status,
    transport: row.transport,
    irmark: row.irmark,
    correlationId: row.correlationId,
    receipt: row.receipt,
    receiptIrmark: row.receiptIrmark,
    errors: row.errors ?? [],
    failureCode: (row.failureCode as GatewayErrorCode | null) ?? null,
    pollCount: row.pollCount,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    deletedAt: row.deletedAt,
  };
}

async function loadRow(env: Env, tenantId: string, id: string): Promise<HmrcSubmissionRow | null> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(hmrcSubmissions)
    .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.id, id)))
    .limit(1);
  return row ?? null;
}

export async function getSubmission(env: Env, tenantId: string, id: string): Promise<SubmissionView | null> {
  const row = await loadRow(env, tenantId, id);
  return row ? submissionView(row) : null;
}

/** The newest submission for a subject (e.g. a return), for a page's own D1 batch. */
export function latestSubmissionQuery(db: Db, tenantId: string, subject: SubmissionSubject) {
  const kind = subject.kind;
  return db
    .select()
    .from(hmrcSubmissions)
    .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.subjectKey, subjectKeyOf(kind, subjectIdsOf(subject)))))
    .orderBy(desc(hmrcSubmissions.createdAt))
    .limit(1);
}

export async function latestSubmission(env: Env, tenantId: string, subject: SubmissionSubject): Promise<SubmissionView | null> {
  const [row] = await latestSubmissionQuery(dbFor(env, tenantId), tenantId, subject);
  return row ? submissionView(row) : null;
}

// ---------------------------------------------------------------------------
// Starting

export type StartSubmissionInput = {
  subject: SubmissionSubject;
  /** The GovTalk message as the rules engine built it, without credentials, IRmark filled in. */
  message: { xml: string; irmark?: { base64: string } };
  actor: Actor;
  /** The form's one-time submission key: stored in the same batch as the submission row. */
  claim?: SubmissionClaim;
};

export type StartSubmissionResult = Result<
  { submissionId: string; created: boolean; status: HmrcSubmissionStatus },
  "transport_not_configured" | "credentials_missing" | "invalid_message" | "enqueue_failed"
>;

/**
 * Stores the message and queues its sending. A subject already in flight (a double click, two
 * tabs) gets the existing submission back with created: false; nothing is sent twice.
 */
export async function startSubmission(env: Env, tenantId: string, input: StartSubmissionInput): Promise<StartSubmissionResult> {
  const { subject, message, actor } = input;
  const transport = chooseHmrcTransport(env);
  if (!transport.ok) return { ok: false, code: "transport_not_configured" };
  if (!(await hasGatewayCredentials(env, tenantId))) return { ok: false, code: "credentials_missing" };

  let facts: ReturnType<typeof messageFacts>;
  try {
    facts = messageFacts(message.xml);
  } catch {
    return { ok: false, code: "invalid_message" };
  }
  const ids = subjectIdsOf(subject);
  // The stored message must not hold a password: credentials are added when it is sent.
  if (facts.messageClass !== MESSAGE_CLASS[subject.kind] || facts.hasPassword || ids.length === 0 || ids.some((i) => !i)) {
    return { ok: false, code: "invalid_message" };
  }

  const db = dbFor(env, tenantId);
  const id = newId();
  const key = subjectKeyOf(subject.kind, ids);
  const now = Date.now();
  const [inserted] = await db.batch([
    db
      .insert(hmrcSubmissions)
      .values({
        id,
        tenantId,
        kind: subject.kind,
        subjectIds: ids,
        subjectKey: key,
        activeKey: key,
        status: "queued",
        transport: transport.transport.name,
        messageClass: MESSAGE_CLASS[subject.kind],
        // Encrypted: a CIS300 or verification request names every subcontractor's UTR and NINO.
        requestXml: await sealXml(env, message.xml, submissionXmlContext(tenantId, id, "request_xml")),
        irmark: message.irmark?.base64 ?? null,
        correlationId: facts.correlationId,
        createdBy: actor.id,
        createdByEmail: actor.email,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: hmrcSubmissions.id }),
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "cis.hmrc.submitted",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "hmrc_submission",
        targetId: id,
        payload: { kind: subject.kind, subjectIds: ids, transport: transport.transport.name },
      },
      sql`${hmrcSubmissions.tenantId} = ${tenantId} AND ${hmrcSubmissions.id} = ${id}`,
      { from: hmrcSubmissions, now },
    ),
    ...(input.claim ? [claimSubmission(db, input.claim)] : []),
  ]);
  if (inserted.length === 0) {
    const [existing] = await db
      .select({ id: hmrcSubmissions.id, status: hmrcSubmissions.status })
      .from(hmrcSubmissions)
      .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.activeKey, key)))
      .limit(1);
    if (existing) return { ok: true, submissionId: existing.id, created: false, status: existing.status };
    // Finished between the insert and this read: start afresh.
    return startSubmission(env, tenantId, input);
  }
  try {
    await enqueue(env, { tenantId, type: "hmrc.send", input: { submissionId: id }, performedBy: actor.id, idempotencyKey: `hmrc.send:${id}` });
  } catch (err) {
    console.error("Failed to queue an HMRC submission", err);
    await finalize(env, (await loadRow(env, tenantId, id))!, { status: "failed", response: null, errors: [] }, "enqueue_failed");
    return { ok: false, code: "enqueue_failed" };
  }
  return { ok: true, submissionId: id, created: true, status: "queued" };
}

// ---------------------------------------------------------------------------
// Finishing

function resultGuard(tenantId: string, id: string, token: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${hmrcSubmissions} WHERE ${hmrcSubmissions.tenantId} = ${tenantId} AND ${hmrcSubmissions.id} = ${id} AND ${hmrcSubmissions.resultToken} = ${token})`;
}

/**
 * Makes the outcome final, once: one conditional UPDATE from the in-flight states, its audit entry
 * and the kind's result statements in one D1 batch, all guarded by this call's token.
 */
async function finalize(
  env: Env,
  row: HmrcSubmissionRow,
  outcome: SubmissionOutcome,
  failureCode: GatewayErrorCode | null = null,
  responseXml: string | null = null,
): Promise<boolean> {
  const db = dbFor(env, row.tenantId);
  const now = Date.now();
  const token = newId();
  const keepKey = outcome.status === "accepted" && KEEP_KEY_WHEN_ACCEPTED[row.kind];
  const receipt = outcome.response?.irmarkReceipt ?? null;
  // HMRC's answer is kept encrypted too: a verification response repeats the identifiers.
  const sealedResponse = await sealXmlOrNull(env, responseXml, submissionXmlContext(row.tenantId, row.id, "response_xml"));
  const update = db
    .update(hmrcSubmissions)
    .set({
      status: outcome.status,
      activeKey: keepKey ? row.subjectKey : null,
      responseXml: sealedResponse,
      receipt: receipt?.message ?? null,
      receiptIrmark: receipt?.irmark ?? null,
      errors: outcome.errors,
      failureCode,
      resultToken: token,
      responseEndpoint: outcome.response?.responseEndPoint ?? row.responseEndpoint,
      correlationId: outcome.response?.correlationId ?? row.correlationId,
      finishedAt: now,
      updatedAt: now,
    })
    .where(and(forTenant(hmrcSubmissions, row.tenantId), eq(hmrcSubmissions.id, row.id), inArray(hmrcSubmissions.status, IN_FLIGHT)))
    .returning({ id: hmrcSubmissions.id });
  const audit = auditInsertWhere(
    db,
    {
      tenantId: row.tenantId,
      action: HMRC_OUTCOME_AUDIT[outcome.status],
      actorId: row.createdBy,
      actorEmail: row.createdByEmail,
      targetType: "hmrc_submission",
      targetId: row.id,
      payload: { kind: row.kind, subjectIds: row.subjectIds, errors: outcome.errors.length, failureCode },
    },
    sql`${hmrcSubmissions.tenantId} = ${row.tenantId} AND ${hmrcSubmissions.id} = ${row.id} AND ${hmrcSubmissions.resultToken} = ${token}`,
    { from: hmrcSubmissions, now },
  );
  const handler = handlers.get(row.kind);
  const extra = handler ? await handler({ env, db, submission: row, outcome, guard: resultGuard(row.tenantId, row.id, token), token, now }) : [];
  const [changed] = (await db.batch([update, audit, ...extra] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as [{ id: string }[], ...unknown[]];
  return changed.length > 0;
}

function errorsOf(response: GovTalkResponse): HmrcStoredError[] {
  return response.errors.map((e) => ({ number: e.number, type: e.type, text: e.text, location: e.location, raisedBy: e.raisedBy }));
}

/** Tells the Transaction Engine it may forget a finished submission; repeated until it has been sent once. */
async function ensureDeleted(env: Env, row: HmrcSubmissionRow, transport: HmrcTransport): Promise<void> {
  if (row.deletedAt !== null || !row.correlationId) return;
  const db = dbFor(env, row.tenantId);
  const where = and(forTenant(hmrcSubmissions, row.tenantId), eq(hmrcSubmissions.id, row.id));
  try {
    await transport.post(transport.endpoint(row.responseEndpoint, "submission"), deleteRequest(row.messageClass, row.correlationId));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .update(hmrcSubmissions)
      .set({ deleteError: message.slice(0, 500), updatedAt: Date.now() })
      .where(where);
    // The job retries; its next run finds the result final and only sends the delete again.
    throw err;
  }
  await db.update(hmrcSubmissions).set({ deletedAt: Date.now(), deleteError: null, updatedAt: Date.now() }).where(where);
}

// ---------------------------------------------------------------------------
// The protocol, run by the jobs

type StepResult = { status: HmrcSubmissionStatus; note?: string };

/** What to do with one answer of the Transaction Engine, to the submission (poll 0) or to poll n. */
async function handleAnswer(env: Env, row: HmrcSubmissionRow, transport: HmrcTransport, answerXml: string, pollNumber: number): Promise<StepResult> {
  let response: GovTalkResponse;
  try {
    response = parseGovTalkResponse(answerXml);
  } catch {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "protocol_error", answerXml.slice(0, 100_000));
    return { status: "failed", note: "unreadable answer" };
  }
  const db = dbFor(env, row.tenantId);
  const now = Date.now();

  if (response.qualifier === "acknowledgement") {
    const correlationId = response.correlationId ?? row.correlationId;
    if (!correlationId) {
      await finalize(env, row, { status: "failed", response, errors: [] }, "protocol_error", answerXml);
      return { status: "failed", note: "acknowledgement without correlation id" };
    }
    const interval = clampPollInterval(response.pollInterval);
    const nextStatus: HmrcSubmissionStatus = pollNumber === 0 ? "acknowledged" : "polling";
    const from: HmrcSubmissionStatus[] = pollNumber === 0 ? ["queued"] : ["acknowledged", "polling"];
    const moved = await db
      .update(hmrcSubmissions)
      .set({
        status: nextStatus,
        correlationId,
        responseEndpoint: response.responseEndPoint ?? row.responseEndpoint,
        pollIntervalSeconds: interval,
        pollCount: pollNumber,
        acknowledgedAt: row.acknowledgedAt ?? now,
        updatedAt: now,
      })
      .where(
        and(
          forTenant(hmrcSubmissions, row.tenantId),
          eq(hmrcSubmissions.id, row.id),
          inArray(hmrcSubmissions.status, from),
          eq(hmrcSubmissions.pollCount, pollNumber === 0 ? 0 : pollNumber - 1),
        ),
      )
      .returning({ id: hmrcSubmissions.id });
    if (moved.length === 0) return { status: row.status, note: "another run moved it on" };
    await schedulePoll(env, row, pollNumber + 1, interval);
    return { status: nextStatus };
  }

  if (response.qualifier === "response") {
    await finalize(env, row, { status: "accepted", response, errors: [] }, null, answerXml);
  } else if (response.qualifier === "error") {
    const errors = errorsOf(response);
    const business = errors.some((e) => e.type === "business");
    await finalize(env, row, { status: business ? "rejected" : "failed", response, errors }, business ? null : "protocol_error", answerXml);
  } else {
    await finalize(env, row, { status: "failed", response, errors: errorsOf(response) }, "protocol_error", answerXml);
  }
  const after = await loadRow(env, row.tenantId, row.id);
  if (after) await ensureDeleted(env, after, transport);
  return { status: after?.status ?? row.status };
}

async function schedulePoll(env: Env, row: HmrcSubmissionRow, pollNumber: number, delaySeconds: number): Promise<void> {
  await enqueue(env, {
    tenantId: row.tenantId,
    type: "hmrc.poll",
    input: { submissionId: row.id, poll: pollNumber },
    performedBy: row.createdBy,
    idempotencyKey: `hmrc.poll:${row.id}:${pollNumber}`,
    delaySeconds,
  });
}

/** Transport for a submission already under way: the one it started with, or none (fail closed). */
function transportFor(env: Env, row: HmrcSubmissionRow): HmrcTransport | null {
  const choice = chooseHmrcTransport(env);
  return choice.ok && choice.transport.name === row.transport ? choice.transport : null;
}

/** The hmrc.send job: adds the credentials, posts the message once, and handles the first answer. */
export async function sendSubmission(env: Env, tenantId: string, id: string): Promise<StepResult> {
  const row = await loadRow(env, tenantId, id);
  if (!row) return { status: "failed", note: "submission not found" };
  const transport = transportFor(env, row);
  if (row.status !== "queued") {
    if (transport && !IN_FLIGHT.includes(row.status)) await ensureDeleted(env, row, transport);
    return { status: row.status, note: "already sent" };
  }
  if (row.sentAt !== null) {
    // A previous run posted the message and stopped before recording the answer: sending it
    // again could file it twice, so the submission ends here and the person checks with HMRC.
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "outcome_unknown");
    return { status: "failed", note: "outcome unknown" };
  }
  if (!transport) {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, chooseHmrcTransport(env).ok ? "transport_changed" : "transport_not_configured");
    return { status: "failed" };
  }
  const creds = await readGatewayCredentials(env, tenantId);
  if (!creds.ok) {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, creds.code);
    return { status: "failed" };
  }

  let requestXml: string;
  try {
    requestXml = await openXml(env, row.requestXml, submissionXmlContext(tenantId, id, "request_xml"));
  } catch {
    // Nothing has left: the person may build and send the message again.
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "message_unreadable");
    return { status: "failed" };
  }

  const db = dbFor(env, tenantId);
  const claimedAt = Date.now();
  const claimed = await db
    .update(hmrcSubmissions)
    .set({ sentAt: claimedAt, attempts: sql`${hmrcSubmissions.attempts} + 1`, updatedAt: claimedAt })
    .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.id, id), eq(hmrcSubmissions.status, "queued"), sql`${hmrcSubmissions.sentAt} IS NULL`))
    .returning({ attempts: hmrcSubmissions.attempts });
  if (claimed.length === 0) return { status: row.status, note: "claimed by another run" };

  let answer: string;
  try {
    answer = await transport.post(transport.submissionUrl, withCredentials(requestXml, creds.credentials));
  } catch (err) {
    if (!(err instanceof HmrcTransportError)) throw err;
    const current = { ...row, sentAt: claimedAt, attempts: claimed[0].attempts };
    if (claimed[0].attempts >= MAX_SEND_ATTEMPTS) {
      await finalize(env, current, { status: "failed", response: null, errors: [] }, "transport_error");
      return { status: "failed", note: err.message };
    }
    // Nothing came back, so nothing was taken: release the claim and let the job retry.
    await db
      .update(hmrcSubmissions)
      .set({ sentAt: null, updatedAt: Date.now() })
      .where(and(forTenant(hmrcSubmissions, tenantId), eq(hmrcSubmissions.id, id), eq(hmrcSubmissions.sentAt, claimedAt)));
    throw err;
  }
  return handleAnswer(env, { ...row, sentAt: claimedAt }, transport, answer, 0);
}

/** The hmrc.poll job for poll number `pollNumber`: checks the state first, so a redelivery does nothing twice. */
export async function pollSubmission(env: Env, tenantId: string, id: string, pollNumber: number): Promise<StepResult> {
  const row = await loadRow(env, tenantId, id);
  if (!row) return { status: "failed", note: "submission not found" };
  const transport = transportFor(env, row);
  if (!IN_FLIGHT.includes(row.status)) {
    if (transport) await ensureDeleted(env, row, transport);
    return { status: row.status, note: "already final" };
  }
  if (row.status === "queued") return { status: row.status, note: "not acknowledged yet" };
  if (row.pollCount >= pollNumber) {
    // This poll was answered already; make sure the next one exists (a crash may have lost it).
    await schedulePoll(env, row, row.pollCount + 1, clampPollInterval(row.pollIntervalSeconds));
    return { status: row.status, note: "poll already handled" };
  }
  if (row.pollCount !== pollNumber - 1) return { status: row.status, note: "out of order" };
  if (!transport) {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "transport_changed");
    return { status: "failed" };
  }
  if (pollNumber > MAX_POLLS) {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "poll_limit");
    return { status: "failed" };
  }
  let answer: string;
  try {
    answer = await transport.post(transport.endpoint(row.responseEndpoint, "poll"), pollRequest(row.messageClass, row.correlationId ?? ""));
  } catch (err) {
    if (!(err instanceof HmrcTransportError)) throw err;
    return retryPoll(env, row, pollNumber, err);
  }
  return handleAnswer(env, row, transport, answer, pollNumber);
}

/**
 * A poll that found no Transaction Engine is asked again later under a key of its own (the
 * job queue's own retries would run out and leave the submission waiting for ever), until
 * MAX_POLL_FAILURES, when the submission fails and the person is told to check with HMRC.
 */
async function retryPoll(env: Env, row: HmrcSubmissionRow, pollNumber: number, err: Error): Promise<StepResult> {
  const [counted] = await dbFor(env, row.tenantId)
    .update(hmrcSubmissions)
    .set({ attempts: sql`${hmrcSubmissions.attempts} + 1`, updatedAt: Date.now() })
    .where(and(forTenant(hmrcSubmissions, row.tenantId), eq(hmrcSubmissions.id, row.id)))
    .returning({ attempts: hmrcSubmissions.attempts });
  const failures = (counted?.attempts ?? row.attempts + 1) - 1;
  if (failures >= MAX_POLL_FAILURES) {
    await finalize(env, row, { status: "failed", response: null, errors: [] }, "transport_error");
    return { status: "failed", note: err.message };
  }
  const delay = Math.min(600, clampPollInterval(row.pollIntervalSeconds) * 2 ** Math.min(failures, 6));
  await enqueue(env, {
    tenantId: row.tenantId,
    type: "hmrc.poll",
    input: { submissionId: row.id, poll: pollNumber },
    performedBy: row.createdBy,
    idempotencyKey: `hmrc.poll:${row.id}:${pollNumber}:retry${failures}`,
    delaySeconds: delay,
  });
  return { status: row.status, note: `poll failed, asking again in ${delay}s: ${err.message}` };
}
