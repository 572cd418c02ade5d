/**
 * Sending a compiled CIS300 return through the gateway, for the submit page. The returns layer
 * owns the return rows; it plugs in here with a ReturnSubmissionSource (registered from the
 * server composition root), and registers its `cis300` result handler with onSubmissionResult to
 * mark the return submitted and locked when HMRC accepts it.
 */
import type { Actor } from "~/features/auth";
import type { SubmissionClaim } from "~/features/platform/index.server";
import { dbFor } from "~/db/client.server";
import { taxMonthFromLabel } from "../domain/tax-month";
import { buildCis300Message, type Cis300Line } from "../domain/xml/cis300";
import { newCorrelationId } from "../domain/xml/govtalk-envelope";
import { HmrcInputError } from "../domain/xml/hmrc-input";
import {
  latestSubmissionQuery,
  startSubmission,
  submissionView,
  type HmrcSubmissionRow,
  type StartSubmissionResult,
  type SubmissionView,
} from "./gateway.server";
import { contractorOf, PRODUCT } from "./verification.server";
import { GATEWAY_MESSAGES } from "./codes";
import type { Err } from "~/utils/result";

/** What the submit page needs of a compiled return. */
export type ReturnForSubmission = {
  /** The return's id: the tax month label, or '{label}-AMD-{timestamp}' for an amendment. The gateway's subject. */
  returnId: string;
  taxMonth: string;
  nil: boolean;
  /** The return's lines as the CIS300 carries them (amounts in pence). Empty for a nil return. */
  lines: Cis300Line[];
  totals: { subcontractors: number; grossP: number; materialsP: number; cisDeductedP: number };
  /** Null when the return may be sent; otherwise the reason, in the words the page shows ('Return is already locked', 'Return validation failed: …'). */
  refusal: string | null;
  /** Set once HMRC accepted the return (it is locked then): when, the IRmark sent and HMRC's reference. A success, not a refusal. */
  filed?: { submittedAt: number | null; irmark: string | null; reference: string | null } | null;
};

/**
 * Reads the tenant's return for a tax month (null when none is compiled). "send" fills the lines
 * with the subcontractors' identifiers; "view" (the page) leaves them out and may bring the
 * return's latest submission from the same D1 batch (`latest`; left undefined, it is read here).
 */
export type ReturnSubmissionSource = (
  env: Env,
  tenantId: string,
  taxMonth: string,
  mode: "view" | "send",
) => Promise<(ReturnForSubmission & { latest?: HmrcSubmissionRow | null }) | null>;

let source: ReturnSubmissionSource | null = null;

/** Called once by the returns layer from app/jobs.server.ts. Until then the submit page finds no return. */
export function registerReturnSubmissionSource(fn: ReturnSubmissionSource | null): void {
  source = fn;
}

export type Cis300Declarations = { employmentStatus: boolean; verification: boolean; inactivity: boolean };

export async function returnForSubmission(env: Env, tenantId: string, taxMonth: string): Promise<ReturnForSubmission | null> {
  return source ? source(env, tenantId, taxMonth, "send") : null;
}

/** The return and the latest submission of it. */
export async function submitPageData(
  env: Env,
  tenantId: string,
  taxMonth: string,
): Promise<{ ret: ReturnForSubmission; submission: SubmissionView | null } | null> {
  const found = source ? await source(env, tenantId, taxMonth, "view") : null;
  if (!found) return null;
  const { latest: brought, ...ret } = found;
  const latest = brought !== undefined ? brought : (await latestSubmissionQuery(dbFor(env, tenantId), tenantId, { kind: "cis300", returnId: ret.returnId }))[0];
  return { ret, submission: latest ? submissionView(latest) : null };
}

/** Sending a return to HMRC happens once per submission key, bound to the person and the tax month. */
export function returnSubmitScope(tenantId: string, userId: string, taxMonth: string) {
  return { tenantId, userId, action: `cis.return.submit:${taxMonth}` };
}

export const SETTINGS_INCOMPLETE = "Enter the employer reference, Accounts Office reference and UTR in CIS settings before submitting.";

/** What a person reads when a return could not be handed to HMRC. */
export function submitRefusalMessage(res: Extract<SubmitReturnResult, { ok: false }>): string {
  if (res.code === "refused" || res.code === "invalid_return") return res.message;
  if (res.code === "settings_incomplete") return SETTINGS_INCOMPLETE;
  if (res.code === "not_found") return "Return not found";
  return GATEWAY_MESSAGES[res.code];
}

export type SubmitReturnResult = StartSubmissionResult | Err<"not_found" | "settings_incomplete"> | Err<"refused" | "invalid_return", { message: string }>;

/** Builds the CIS300 (declarations, IRmark, GovTalk envelope) from the return and hands it to the gateway. */
export async function submitReturn(
  env: Env,
  tenantId: string,
  taxMonth: string,
  declarations: Cis300Declarations,
  actor: Actor,
  now = new Date(),
  claim?: SubmissionClaim,
): Promise<SubmitReturnResult> {
  const ret = await returnForSubmission(env, tenantId, taxMonth);
  if (!ret) return { ok: false, code: "not_found" };
  if (ret.refusal) return { ok: false, code: "refused", message: ret.refusal };
  const contractor = await contractorOf(env, tenantId);
  if (!contractor) return { ok: false, code: "settings_incomplete" };
  let message: Awaited<ReturnType<typeof buildCis300Message>>;
  try {
    message = await buildCis300Message({
      ...contractor,
      periodEnd: taxMonthFromLabel(ret.taxMonth).periodEnd,
      nil: ret.nil,
      lines: ret.lines,
      declarations: ret.nil
        ? { inactivity: declarations.inactivity }
        : { employmentStatus: declarations.employmentStatus, verification: declarations.verification },
      correlationId: newCorrelationId(),
      gatewayTimestamp: now,
      product: PRODUCT,
    });
  } catch (err) {
    if (err instanceof HmrcInputError) return { ok: false, code: "invalid_return", message: err.message };
    throw err;
  }
  return startSubmission(env, tenantId, { subject: { kind: "cis300", returnId: ret.returnId }, message, actor, claim });
}
