import { data, redirect } from "react-router";
import { safeRedirectPath } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { reportInternalError } from "~/features/platform";
import { redirectWithToast } from "~/features/platform/index.server";
import { submitOnce } from "~/features/platform/index.server";
import { requireModule } from "~/features/auth/index.server";
import { issueStatement, issueSubmissionScope } from "../issue.server";
import { ISSUE_ERROR_MESSAGES, ISSUE_SUCCESS_TITLES, issueFailedTitle } from "../issue-codes";
import { statementIdSchema } from "../statement-params";
import { getStatement, STATEMENT_NOT_FOUND } from "../statements.server";
import { issueStatementSchema } from "../schemas";
import type { Route } from "./+types/issue";

/**
 * POST /cis/statements/{id}/issue (method = email | portal | print; optional returnTo, a
 * same-origin path). Answers with a redirect and a toast; print goes on to the printable view.
 */

/** Issuing changes state, so it is never a GET. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env, tenant, user, actor } = await requireModule(request, context, { module: "cis", scope: "cis.stmt.issue" });
  const id = statementIdSchema.safeParse(params.id);
  const statement = id.success ? await getStatement(env, tenant.id, id.data) : null;
  if (!statement) throw data(STATEMENT_NOT_FOUND, { status: 404 });

  const form = await request.formData();
  const parsed = issueStatementSchema.safeParse({ method: form.get("method"), returnTo: form.get("returnTo") ?? undefined });
  const back = safeRedirectPath(parsed.success ? parsed.data.returnTo : undefined, `/cis/statements?month=${statement.taxMonth}`);
  if (!parsed.success) return redirectWithToast(env, back, { type: "error", title: issueFailedTitle("Choose e-mail, portal or print") });
  const { method } = parsed.data;

  let sent;
  try {
    // A repeat of the same submission (a double click, a refresh) answers as the first did and issues nothing.
    sent = await submitOnce(env, form, issueSubmissionScope(tenant.id, user.id, statement.id), (claim) =>
      issueStatement(env, tenant, statement.id, method, actor, { ip: clientIp(request), claim }),
    );
  } catch (err) {
    const message = reportInternalError(context, err, "cis statement issue", "Something went wrong.");
    return redirectWithToast(env, back, { type: "error", title: issueFailedTitle(message) });
  }
  if (sent.kind === "refused" || sent.kind === "pending") return redirectWithToast(env, back, { type: "error", title: issueFailedTitle(sent.message) });
  const result = sent.result;
  if (!result.ok) {
    if (result.code === "not_found") throw data(STATEMENT_NOT_FOUND, { status: 404 });
    return redirectWithToast(env, back, { type: "error", title: issueFailedTitle(ISSUE_ERROR_MESSAGES[result.code]) });
  }
  const name = statement.subcontractorName;
  // A repeat answers as the first submission did, whichever button it came from.
  const issued = result.method;
  if (issued === "print") {
    // The printable view is a plain document that shows no toasts; it says itself that the statement is issued.
    return redirect(`/cis/statements/${statement.id}/print`);
  }
  const message = issued === "email" && result.to ? `${name}: sent to ${result.to}` : name;
  return redirectWithToast(env, back, { type: "success", title: ISSUE_SUCCESS_TITLES[issued], message });
}
