import { data } from "react-router";
import { safeRedirectPath } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { requireModule } from "~/features/auth/index.server";
import { resendStatementEmail } from "../issue.server";
import { RESEND_ERROR_MESSAGES, RESEND_SUCCESS_TITLE, resendFailedTitle } from "../issue-codes";
import { statementIdSchema } from "../statement-params";
import { getStatement, STATEMENT_NOT_FOUND } from "../statements.server";
import { resendStatementSchema } from "../schemas";
import type { Route } from "./+types/resend";

/**
 * POST /cis/statements/{id}/resend (optional returnTo, a same-origin path): sends an issued
 * statement's e-mail again when the last one was not sent. Answers with a redirect and a toast.
 */

/** Sending changes state, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, actor } = await requireModule(request, context, { module: "cis", scope: "cis.stmt.issue" });
  const id = statementIdSchema.safeParse(params.id);
  const statement = id.success ? await getStatement(env, tenant.id, id.data) : null;
  if (!statement) throw data(STATEMENT_NOT_FOUND, { status: 404 });

  const form = await request.formData();
  const parsed = resendStatementSchema.safeParse({ returnTo: form.get("returnTo") ?? undefined });
  const back = safeRedirectPath(parsed.success ? parsed.data.returnTo : undefined, `/cis/statements?month=${statement.taxMonth}`);

  let result;
  try {
    result = await resendStatementEmail(env, tenant, statement.id, actor, { ip: clientIp(request) });
  } catch (err) {
    const message = reportInternalError(context, err, "cis statement resend", "Something went wrong.");
    return redirectWithToast(env, back, { type: "error", title: resendFailedTitle(message) });
  }
  if (!result.ok) {
    if (result.code === "not_found") throw data(STATEMENT_NOT_FOUND, { status: 404 });
    return redirectWithToast(env, back, { type: "error", title: resendFailedTitle(RESEND_ERROR_MESSAGES[result.code]) });
  }
  return redirectWithToast(env, back, { type: "success", title: RESEND_SUCCESS_TITLE, message: `${statement.subcontractorName}: sent to ${result.to}` });
}
