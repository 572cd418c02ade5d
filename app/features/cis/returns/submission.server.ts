import { and, eq, sql } from "drizzle-orm";
import { formatInTimeZone } from "date-fns-tz";
import { dbFor, type Db } from "~/db/client.server";
import { activityLog, cisNoPaymentNotices, cisReturns, cisSubcontractors, hmrcSubmissions, users } from "~/db/schema";
import { LONDON } from "~/utils/dates";
import { noticeFromInactivityDeclaration } from "../domain/nil-returns";
import { auditInsertWhere } from "~/features/platform/index.server";
import { forTenant } from "~/db/tenancy";
import { newId } from "~/utils/ids";
import type { Cis300Line } from "../domain/xml/cis300";
import { irmarkAsOnReceipt } from "../domain/xml/base32";
import { CRN_RE, hmrcNameFromFullName } from "../domain/xml/hmrc-input";
import type { ResultHandler } from "../hmrc/gateway.server";
import { openXml, submissionXmlContext } from "../hmrc/stored-xml.server";
import type { ReturnSubmissionSource } from "../hmrc/return-submission.server";
import { decryptPii } from "../pii.server";
import { returnSubmissionView, returnToSubmit, submissionBlocker, validateStoredReturn } from "./returns.server";

/**
 * The returns layer's side of sending a CIS300: what the submit page sends (the month's open return
 * as HMRC's lines, with the subcontractors' identifiers decrypted only here, at the moment of
 * sending) and what HMRC's acceptance does to the return (submitted and locked, audited), in the
 * same D1 batch as the gateway's final status change so it is applied exactly once.
 */

const subPii = (tenantId: string, id: string, field: "utr" | "nino") => ({ tenantId, table: "cis_subcontractors", recordId: id, field });

export const returnSubmissionSource: ReturnSubmissionSource = async (env, tenantId, taxMonth, mode) => {
  const view = mode === "view" ? await returnSubmissionView(env, tenantId, taxMonth) : null;
  const found = view ?? (mode === "send" ? await returnToSubmit(env, tenantId, taxMonth) : null);
  if (!found) return null;
  const { ret, lines } = found;
  const latest = view ? { latest: view.latest } : {};
  const base = {
    returnId: ret.id,
    taxMonth: ret.taxMonth,
    nil: ret.status === "nil",
    totals: { subcontractors: ret.subcontractorCount, grossP: ret.grossP, materialsP: ret.materialsP, cisDeductedP: ret.cisDeductedP },
    filed: ret.locked ? { submittedAt: ret.submittedAt, irmark: ret.irmark ? irmarkAsOnReceipt(ret.irmark) : null, reference: ret.submissionRef } : null,
  };
  const blocked = submissionBlocker(ret);
  if (blocked) return { ...base, ...latest, lines: [], refusal: blocked };
  const validation = validateStoredReturn(ret, lines);
  if (!validation.valid) return { ...base, ...latest, lines: [], refusal: `Return validation failed: ${validation.issues.join("; ")}` };
  // The page shows totals and the reason it may not be sent: identifiers are read only to send.
  if (mode === "view") return { ...base, ...latest, lines: [], refusal: null };

  const ids = lines.map((l) => l.subcontractorId);
  const subs = ids.length
    ? await dbFor(env, tenantId)
        .select({
          id: cisSubcontractors.id,
          type: cisSubcontractors.type,
          name: cisSubcontractors.name,
          utrEnc: cisSubcontractors.utrEnc,
          ninoEnc: cisSubcontractors.ninoEnc,
          companyNumber: cisSubcontractors.companyNumber,
        })
        .from(cisSubcontractors)
        // One JSON parameter, whatever the number of lines (D1 binds at most 100 per statement).
        .where(and(forTenant(cisSubcontractors, tenantId), sql`${cisSubcontractors.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`))
    : [];
  const byId = new Map(subs.map((s) => [s.id, s]));
  const out: Cis300Line[] = [];
  for (const line of lines) {
    const sub = byId.get(line.subcontractorId);
    if (!sub) return { ...base, lines: [], refusal: `Return validation failed: ${line.name} is no longer a subcontractor of this workspace` };
    const utr = sub.utrEnc ? await decryptPii(env.PII_KEYS, sub.utrEnc, subPii(tenantId, sub.id, "utr")) : undefined;
    const nino = sub.ninoEnc ? await decryptPii(env.PII_KEYS, sub.ninoEnc, subPii(tenantId, sub.id, "nino")) : undefined;
    const personal = sub.type === "individual" ? hmrcNameFromFullName(line.name) : null;
    const crn = sub.type === "company" && sub.companyNumber && CRN_RE.test(sub.companyNumber) ? sub.companyNumber : undefined;
    out.push({
      ...(personal ? { name: personal } : { tradingName: line.name }),
      ...(utr ? { utr } : {}),
      ...(sub.type === "individual" && nino ? { nino } : {}),
      ...(crn ? { crn } : {}),
      ...(line.verificationRef ? { verificationNumber: line.verificationRef } : {}),
      ...(line.cisRate === 30 ? { unmatchedRate: true } : {}),
      totalPaymentsP: line.grossP,
      costOfMaterialsP: line.materialsP,
      totalDeductedP: line.cisDeductedP,
    });
  }
  return { ...base, lines: out, refusal: null };
};

/**
 * HMRC accepted the return: it becomes submitted (a nil return stays nil and an amendment stays
 * amended) and locked, with who sent it, when, the IRmark sent and HMRC's receipt; and
 * cis.return.submitted is audited, and return.submit logged as activity, with gross and CIS in pounds; an inactivity declaration
 * on it is recorded as a notice of no payments for the six tax months after its month. Only while the return is still
 * unlocked, and only in the batch whose final UPDATE matched (the guard). A rejection or failure
 * changes nothing: the return stays unsubmitted and the page shows HMRC's words.
 */
export const applyReturnSubmission: ResultHandler = async ({ env, db, submission, outcome, guard, token, now }) => {
  if (outcome.status !== "accepted") return [];
  const returnId = submission.subjectIds[0];
  if (!returnId) return [];
  const tenantId = submission.tenantId;
  const thisReturn = and(forTenant(cisReturns, tenantId), eq(cisReturns.id, returnId));
  return [
    auditInsertWhere(
      db,
      {
        tenantId,
        action: "cis.return.submitted",
        actorId: sql`s.created_by`,
        actorEmail: sql`s.created_by_email`,
        targetType: "return",
        targetId: sql`r.id`,
        payload: sql`json_object('taxMonth', r.tax_month, 'status', CASE WHEN r.status IN ('nil', 'amended') THEN r.status ELSE 'submitted' END, 'gross', round(r.gross_p / 100.0, 2), 'cis', round(r.cis_deducted_p / 100.0, 2),
            'subcontractors', r.subcontractor_count, 'correlationId', s.correlation_id, 'irmark', s.irmark, 'receipt', s.receipt_irmark)`,
      },
      sql`s.tenant_id = ${tenantId} AND s.result_token = ${token} AND r.locked = 0`,
      { from: sql`${hmrcSubmissions} s JOIN ${cisReturns} r ON r.tenant_id = s.tenant_id AND r.id = ${returnId}`, now },
    ),
    // The dashboard's Recent Activity: 'return.submit' with gross and CIS in pounds, under the same guard.
    db.insert(activityLog).select(
      sql`SELECT ${newId()}, ${tenantId}, 'cis', 'return.submit', 'return', r.id, s.created_by, coalesce(u.display_name, s.created_by_email),
          json_object('taxMonth', r.tax_month, 'gross', round(r.gross_p / 100.0, 2), 'cis', round(r.cis_deducted_p / 100.0, 2)), ${now}
        FROM ${hmrcSubmissions} s JOIN ${cisReturns} r ON r.tenant_id = s.tenant_id AND r.id = ${returnId}
        LEFT JOIN ${users} u ON u.tenant_id = s.tenant_id AND u.id = s.created_by
        WHERE s.tenant_id = ${tenantId} AND s.result_token = ${token} AND r.locked = 0`,
    ),
    // The inactivity declaration the return carried is a notice of no payments for the six months after it, given today.
    ...((await declaresInactivity(env, submission)) ? [inactivityNotice(db, tenantId, returnId, token, now)] : []),
    db
      .update(cisReturns)
      .set({
        status: sql`CASE WHEN ${cisReturns.status} IN ('nil', 'amended') THEN ${cisReturns.status} ELSE 'submitted' END`,
        locked: true,
        lockedAt: now,
        submittedAt: now,
        submittedBy: submission.createdBy,
        irmark: submission.irmark,
        submissionRef: outcome.response?.irmarkReceipt?.irmark ?? submission.correlationId,
        updatedAt: now,
        updatedBy: submission.createdBy,
      })
      .where(and(thisReturn, eq(cisReturns.locked, false), guard)),
  ];
};

/** Whether the CIS300 sent (stored sealed) carries the inactivity declaration. */
async function declaresInactivity(env: Env, submission: { tenantId: string; id: string; requestXml: string }): Promise<boolean> {
  const xml = await openXml(env, submission.requestXml, submissionXmlContext(submission.tenantId, submission.id, "request_xml"));
  return /<Inactivity>\s*yes\s*<\/Inactivity>/.test(xml);
}

/**
 * The notice an accepted return's inactivity declaration gives, dated the London day HMRC accepted
 * it; one per return (its id is the return's), and only in the batch whose final UPDATE matched.
 */
function inactivityNotice(db: Db, tenantId: string, returnId: string, token: string, now: number) {
  const taxMonth = returnId.slice(0, 7);
  const notice = noticeFromInactivityDeclaration(taxMonth, formatInTimeZone(new Date(now), LONDON, "yyyy-MM-dd"));
  return db.insert(cisNoPaymentNotices).select(
    sql`SELECT ${tenantId}, ${`declaration:${returnId}`}, 'cis300', ${notice.givenOn}, ${notice.firstMonth}, ${notice.months}, ${returnId}, ${now}, s.created_by
        FROM ${hmrcSubmissions} s JOIN ${cisReturns} r ON r.tenant_id = s.tenant_id AND r.id = ${returnId}
        WHERE s.tenant_id = ${tenantId} AND s.result_token = ${token} AND r.locked = 0
        ON CONFLICT DO NOTHING`,
  );
}
