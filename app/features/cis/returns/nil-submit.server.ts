/**
 * Nil Return in one step: the month's nil return is compiled (under the month's compile lock) and
 * handed to HMRC's gateway exactly as the submit page sends a return, audited on acceptance by the
 * same handler. Both run inside one submission key, so a double click or a resent form files once
 * and answers with the first outcome.
 */
import type { Actor } from "~/features/auth";
import { submitOnce } from "~/features/platform/index.server";
import { returnSubmitScope, submitRefusalMessage, submitReturn } from "../hmrc/return-submission.server";
import type { ReturnErrorCode } from "./return-codes";
import { compileMonthlyReturn } from "./returns.server";

/** Said beside the box to tick when Nil Return is pressed without it. */
export const NIL_CONFIRM_REQUIRED = "Confirm that no payments were made to subcontractors in the month and that the information is correct";

export type NilSubmitOutcome =
  | { kind: "sent"; created: boolean }
  /** The compile refused (the month is filed already, a compile is running, …). */
  | { kind: "compile_refused"; code: ReturnErrorCode }
  | { kind: "issues"; issues: string[] }
  /** HMRC's gateway could not take it, or the submission key was refused or is still answering. */
  | { kind: "not_sent"; message: string };

export async function fileNilReturn(
  env: Env,
  tenantId: string,
  taxMonth: string,
  actor: Actor,
  opts: { form: FormData; inactivity: boolean; now?: Date },
): Promise<NilSubmitOutcome> {
  const sent = await submitOnce(env, opts.form, returnSubmitScope(tenantId, actor.id, taxMonth), async (claim): Promise<NilSubmitOutcome> => {
    const compiled = await compileMonthlyReturn(env, tenantId, taxMonth, actor, { mode: "nil" });
    if (!compiled.ok) return { kind: "compile_refused", code: compiled.code };
    if (compiled.issues.length > 0) return { kind: "issues", issues: compiled.issues };
    // A nil return carries no employment-status or verification declaration; only the inactivity one.
    const declarations = { employmentStatus: false, verification: false, inactivity: opts.inactivity };
    const res = await submitReturn(env, tenantId, taxMonth, declarations, actor, opts.now ?? new Date(), claim);
    return res.ok ? { kind: "sent", created: res.created } : { kind: "not_sent", message: submitRefusalMessage(res) };
  });
  if (sent.kind === "refused" || sent.kind === "pending") return { kind: "not_sent", message: sent.message };
  return sent.result;
}
