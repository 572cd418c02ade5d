/**
 * Online verification of subcontractors (IR-CIS-VERIFY) through the HMRC gateway. HMRC's answer
 * sets each subcontractor's status and rate (gross 0, net → standard 20, unmatched → higher 30),
 * verification number, method 'online', date and who asked, in the same D1 batch as the
 * submission's final UPDATE, with a cis.subcontractor.verified audit entry for each.
 */
import { forTenant } from "~/db/tenancy";
import type { Actor } from "~/features/auth";
import type { SubmissionClaim } from "~/features/platform/index.server";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor } from "~/db/client.server";
import { cisSettings, cisSubcontractors, hmrcSubmissions } from "~/db/schema";
import { auditInsertWhere } from "~/features/platform/index.server";
import { RATE_FOR_VERIFICATION_STATUS, type VerificationStatus } from "../domain/calculation";
import { currentTaxMonth, londonDateParts } from "../domain/tax-month";
import { CRN_RE, HmrcInputError, hmrcNameFromFullName } from "../domain/xml/hmrc-input";
import { newCorrelationId } from "../domain/xml/govtalk-envelope";
import type { VerifiedSubcontractor } from "../domain/xml/govtalk-response";
import {
  buildVerificationRequestMessage,
  hmrcSubcontractorType,
  MAX_VERIFICATION_SUBCONTRACTORS,
  type VerificationSubcontractor,
} from "../domain/xml/verification";
import { decryptPii } from "../pii.server";
import { utrPiiContext } from "../settings/settings.server";
import { onSubmissionResult, startSubmission, submissionView, type ResultHandler, type StartSubmissionResult, type SubmissionView } from "./gateway.server";
import type { Err } from "~/utils/result";

/** ChannelRouting: the software that built the message. */
export const PRODUCT = { name: "CIS Workspace", version: "1.0" } as const;

const subPii = (tenantId: string, id: string, field: "utr" | "nino") => ({ tenantId, table: "cis_subcontractors", recordId: id, field });

export type StartVerificationResult =
  StartSubmissionResult | Err<"not_found" | "too_many" | "settings_incomplete"> | Err<"invalid_subcontractor", { subcontractorId: string; message: string }>;

/** The contractor's identifiers from CIS settings, or null when any is missing. */
export async function contractorOf(env: Env, tenantId: string) {
  const [row] = await dbFor(env, tenantId)
    .select({ employerRef: cisSettings.employerRef, aoRef: cisSettings.accountsOfficeRef, utrEnc: cisSettings.utrEnc })
    .from(cisSettings)
    .where(forTenant(cisSettings, tenantId))
    .limit(1);
  if (!row || !row.employerRef || !row.aoRef || !row.utrEnc) return null;
  return { employerRef: row.employerRef, accountsOfficeRef: row.aoRef, contractorUtr: await decryptPii(env.PII_KEYS, row.utrEnc, utrPiiContext(tenantId)) };
}

/** Builds the IR-CIS-VERIFY request for these subcontractors and hands it to the gateway. */
export async function startVerification(
  env: Env,
  tenantId: string,
  subcontractorIds: string[],
  actor: Actor,
  now = new Date(),
  claim?: SubmissionClaim,
): Promise<StartVerificationResult> {
  const ids = [...new Set(subcontractorIds)];
  if (ids.length === 0) return { ok: false, code: "not_found" };
  if (ids.length > MAX_VERIFICATION_SUBCONTRACTORS) return { ok: false, code: "too_many" };
  const rows = await dbFor(env, tenantId)
    .select()
    .from(cisSubcontractors)
    .where(and(forTenant(cisSubcontractors, tenantId), inArray(cisSubcontractors.id, ids), isNull(cisSubcontractors.deletedAt)));
  if (rows.length !== ids.length) return { ok: false, code: "not_found" };
  const contractor = await contractorOf(env, tenantId);
  if (!contractor) return { ok: false, code: "settings_incomplete" };

  const subs: VerificationSubcontractor[] = [];
  for (const row of rows) {
    const utr = row.utrEnc ? await decryptPii(env.PII_KEYS, row.utrEnc, subPii(tenantId, row.id, "utr")) : undefined;
    const nino = row.ninoEnc ? await decryptPii(env.PII_KEYS, row.ninoEnc, subPii(tenantId, row.id, "nino")) : undefined;
    const personal = row.type === "individual" ? hmrcNameFromFullName(row.name) : null;
    const crn = row.type === "company" && row.companyNumber && CRN_RE.test(row.companyNumber) ? row.companyNumber : undefined;
    if (!utr)
      return {
        ok: false,
        code: "invalid_subcontractor",
        subcontractorId: row.id,
        message: `${row.name} has no UTR, which HMRC needs to verify a subcontractor.`,
      };
    subs.push({
      action: "verify",
      type: hmrcSubcontractorType(row.type),
      ...(personal ? { name: personal } : { tradingName: row.name }),
      utr,
      ...(row.type === "individual" && nino ? { nino } : {}),
      ...(crn ? { crn } : {}),
    });
  }

  let message: Awaited<ReturnType<typeof buildVerificationRequestMessage>>;
  try {
    message = await buildVerificationRequestMessage({
      ...contractor,
      periodEnd: currentTaxMonth(now).periodEnd,
      correlationId: newCorrelationId(),
      gatewayTimestamp: now,
      product: PRODUCT,
      subcontractors: subs,
    });
  } catch (err) {
    if (err instanceof HmrcInputError) {
      const index = /^subcontractors\[(\d+)\]/.exec(err.field)?.[1];
      const row = index !== undefined ? rows[Number(index)] : undefined;
      if (row) return { ok: false, code: "invalid_subcontractor", subcontractorId: row.id, message: `${row.name}: ${err.message.replace(/^[^:]*: /, "")}` };
      return { ok: false, code: "settings_incomplete" };
    }
    throw err;
  }
  return startSubmission(env, tenantId, { subject: { kind: "verify", subcontractorIds: ids }, message, actor, claim });
}

/** HMRC's treatment as our status: gross, net (standard) or unmatched (higher). */
export function statusFromTreatment(sub: Pick<VerifiedSubcontractor, "matched" | "taxTreatment">): VerificationStatus {
  const t = (sub.taxTreatment ?? "").toLowerCase();
  if (!sub.matched || t === "unmatched") return "higher";
  if (t === "gross") return "gross";
  return "standard";
}

function londonToday(now: number): string {
  const { year, month, day } = londonDateParts(new Date(now));
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Applies an accepted verification answer to the subcontractors it names (matched by UTR, then NINO). */
const applyVerification: ResultHandler = async ({ env, db, submission, outcome, guard, token, now }) => {
  if (outcome.status !== "accepted" || !outcome.response?.verification) return [];
  const tenantId = submission.tenantId;
  const rows = await db
    .select({ id: cisSubcontractors.id, utrEnc: cisSubcontractors.utrEnc, ninoEnc: cisSubcontractors.ninoEnc })
    .from(cisSubcontractors)
    .where(and(forTenant(cisSubcontractors, tenantId), inArray(cisSubcontractors.id, submission.subjectIds), isNull(cisSubcontractors.deletedAt)));
  const byUtr = new Map<string, string>();
  const byNino = new Map<string, string>();
  for (const row of rows) {
    if (row.utrEnc) byUtr.set(await decryptPii(env.PII_KEYS, row.utrEnc, subPii(tenantId, row.id, "utr")), row.id);
    if (row.ninoEnc) byNino.set((await decryptPii(env.PII_KEYS, row.ninoEnc, subPii(tenantId, row.id, "nino"))).toUpperCase(), row.id);
  }
  const today = londonToday(now);
  const statements: BatchItem<"sqlite">[] = [];
  const seen = new Set<string>();
  for (const answer of outcome.response.verification.subcontractors) {
    const id = (answer.utr && byUtr.get(answer.utr)) || (answer.nino && byNino.get(answer.nino.toUpperCase())) || null;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const status = statusFromTreatment(answer);
    const rate = RATE_FOR_VERIFICATION_STATUS[status];
    statements.push(
      db
        .update(cisSubcontractors)
        .set({
          verificationStatus: status,
          verificationRate: rate,
          verificationMethod: "online",
          verificationReference: answer.verificationNumber,
          verifiedDate: today,
          verifiedBy: submission.createdBy,
          updatedAt: now,
          updatedBy: submission.createdBy,
        })
        .where(and(eq(cisSubcontractors.tenantId, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt), guard)),
      auditInsertWhere(
        db,
        {
          tenantId,
          action: "cis.subcontractor.verified",
          actorId: submission.createdBy,
          actorEmail: submission.createdByEmail,
          targetType: "subcontractor",
          targetId: id,
          payload: sql`json_object('status', ${status}, 'rate', ${rate}, 'method', 'online', 'reference', ${answer.verificationNumber}, 'submissionId', ${submission.id})`,
        },
        sql`${hmrcSubmissions.tenantId} = ${tenantId} AND ${hmrcSubmissions.id} = ${submission.id} AND ${hmrcSubmissions.resultToken} = ${token}`,
        { from: hmrcSubmissions, now },
      ),
    );
  }
  return statements;
};

/**
 * A subcontractor (null when not this tenant's or deleted) and the newest online verification that
 * included it, in one D1 round trip: the subcontractor's page shows HMRC's progress and errors.
 */
export async function subcontractorWithVerification(
  env: Env,
  tenantId: string,
  id: string,
): Promise<{ row: typeof cisSubcontractors.$inferSelect; verification: SubmissionView | null } | null> {
  const db = dbFor(env, tenantId);
  const [[row], [latest]] = await db.batch([
    db
      .select()
      .from(cisSubcontractors)
      .where(and(forTenant(cisSubcontractors, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt)))
      .limit(1),
    db
      .select()
      .from(hmrcSubmissions)
      .where(
        and(
          forTenant(hmrcSubmissions, tenantId),
          eq(hmrcSubmissions.kind, "verify"),
          sql`EXISTS (SELECT 1 FROM json_each(${hmrcSubmissions.subjectIds}) WHERE value = ${id})`,
        ),
      )
      .orderBy(desc(hmrcSubmissions.createdAt))
      .limit(1),
  ]);
  if (!row) return null;
  return { row, verification: latest ? submissionView(latest) : null };
}

let registered = false;
/** Called once from the server composition root (app/jobs.server.ts). */
export function registerHmrcResultHandlers(): void {
  if (registered) return;
  registered = true;
  onSubmissionResult("verify", applyVerification);
}
