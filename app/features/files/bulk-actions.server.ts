import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import type { RequestContext } from "~/features/auth/index.server";
import { requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { mintSubmissionKey, submitOnce } from "~/features/platform/index.server";
import { pageUrl } from "~/utils/request-url";
import type { Toast } from "~/utils/toast";
import { FILE_ERRORS, FILE_MESSAGES } from "./file-rules";
import { deleteFiles, describeSelection, moveFiles } from "./move-delete.server";
import { FILE_SCOPES, viewerOf } from "./module.server";

const idList = z.array(z.string().min(1).max(100)).max(500).default([]);
const bulkForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), confirmed: z.literal("yes").optional().catch(undefined), ids: idList }),
  z.object({ intent: z.literal("move"), folderId: z.string().max(100).optional(), ids: idList }),
]);

export type BulkActionData =
  { step: "confirm-delete"; items: { id: string; name: string; mayChange: boolean }[]; key: string } | { step: "error"; message: string };

/** Moving and deleting from a list act once per submission key (one key serves both buttons). */
export function bulkScope(tenantId: string, userId: string) {
  return { tenantId, userId, action: "files.bulk" };
}

/** What a bulk action answered: stored with its submission key, so a repeat answers the same. */
type BulkAnswer = { toast: Toast } | { error: { message: string; status: number } };

/**
 * Move and Delete from a list page. Delete needs files.delete; both touch only files the person
 * owns unless they manage all files. An unconfirmed delete answers with the confirmation step.
 * The action itself runs once per submission key: a double click, or a repeated post, answers
 * with the first result and moves or deletes nothing again.
 */
export async function bulkAction(request: Request, context: Readonly<RouterContextProvider>, req: RequestContext) {
  const form = await request.formData();
  const parsed = bulkForm.safeParse({
    intent: form.get("intent"),
    confirmed: form.get("confirmed") ?? undefined,
    folderId: form.get("folderId") ?? undefined,
    ids: form.getAll("ids"),
  });
  if (!parsed.success) return data<BulkActionData>({ step: "error", message: "Choose at least one file." }, { status: 400 });
  const { env, tenant, user } = req;
  const viewer = viewerOf(user);
  const back = pageUrl(request);
  const to = back.pathname + back.search;
  const input = parsed.data;
  if (input.ids.length === 0) return data<BulkActionData>({ step: "error", message: "Choose at least one file." }, { status: 400 });
  const scope = bulkScope(tenant.id, req.user.id);

  if (input.intent === "delete") {
    await requireScope(request, context, req.user, FILE_SCOPES.delete);
    if (!input.confirmed)
      return data<BulkActionData>({
        step: "confirm-delete",
        items: await describeSelection(env, tenant.id, viewer, input.ids),
        key: await mintSubmissionKey(env, scope),
      });
  }

  const sent = await submitOnce(env, form, scope, async (claim): Promise<BulkAnswer> => {
    if (input.intent === "delete") {
      const result = await deleteFiles(env, tenant.id, viewer, input.ids, Date.now(), claim);
      const failed = result.failed.filter((f) => f.code !== "not_owner" && f.code !== "not_found");
      if (failed.length) return { toast: { type: "error", title: `Could not delete: ${failed.map((f) => f.name).join(", ")}` } };
      if (result.succeeded.length === 0) return { toast: { type: "error", title: "You don't own any of these files. You cannot delete them." } };
      return { toast: { type: "success", title: `Deleted ${result.succeeded.length} file(s)` } };
    }
    const moved = await moveFiles(env, tenant.id, viewer, input.ids, input.folderId || null, Date.now(), claim);
    if ("ok" in moved) return { error: { message: FILE_ERRORS[moved.code].message, status: FILE_ERRORS[moved.code].status } };
    if (moved.succeeded.length === 0) return { toast: { type: "error", title: FILE_MESSAGES.moveFailed, message: FILE_ERRORS.not_owner.message } };
    if (moved.failed.length)
      return {
        toast: { type: "warning", title: `Moved ${moved.succeeded.length} file(s)`, message: `Not moved: ${moved.failed.map((f) => f.name).join(", ")}` },
      };
    return { toast: { type: "success", title: `Moved ${moved.succeeded.length} file(s)` } };
  });
  if (sent.kind === "refused" || sent.kind === "pending") return data<BulkActionData>({ step: "error", message: sent.message }, { status: 409 });
  const answer = sent.result;
  if ("error" in answer) return data<BulkActionData>({ step: "error", message: answer.error.message }, { status: answer.error.status });
  return redirectWithToast(env, to, answer.toast);
}
