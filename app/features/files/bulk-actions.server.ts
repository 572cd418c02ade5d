import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { pageUrl } from "~/utils/request-url";
import { FILE_ERRORS, FILE_MESSAGES } from "./file-rules";
import { deleteFiles, describeSelection, moveFiles } from "./files.server";
import { FILE_SCOPES, type FilesRequest } from "./module.server";

const idList = z.array(z.string().min(1).max(100)).max(500).default([]);
const bulkForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), confirmed: z.literal("yes").optional().catch(undefined), ids: idList }),
  z.object({ intent: z.literal("move"), folderId: z.string().max(100).optional(), ids: idList }),
]);

export type BulkActionData = { step: "confirm-delete"; items: { id: string; name: string; mayChange: boolean }[] } | { step: "error"; message: string };

/**
 * Move and Delete from a list page. Delete needs files.delete; both touch only files the person
 * owns unless they manage all files. An unconfirmed delete answers with the confirmation step.
 */
export async function bulkAction(request: Request, context: Readonly<RouterContextProvider>, req: FilesRequest) {
  const form = await request.formData();
  const parsed = bulkForm.safeParse({
    intent: form.get("intent"),
    confirmed: form.get("confirmed") ?? undefined,
    folderId: form.get("folderId") ?? undefined,
    ids: form.getAll("ids"),
  });
  if (!parsed.success) return data<BulkActionData>({ step: "error", message: "Choose at least one file." }, { status: 400 });
  const { env, tenant, viewer } = req;
  const back = pageUrl(request);
  const to = back.pathname + back.search;
  const input = parsed.data;
  if (input.ids.length === 0) return data<BulkActionData>({ step: "error", message: "Choose at least one file." }, { status: 400 });

  if (input.intent === "delete") {
    await requireScope(request, context, req.user, FILE_SCOPES.delete);
    if (!input.confirmed) return data<BulkActionData>({ step: "confirm-delete", items: await describeSelection(env, tenant.id, viewer, input.ids) });
    const result = await deleteFiles(env, tenant.id, viewer, input.ids);
    const failed = result.failed.filter((f) => f.code !== "not_owner" && f.code !== "not_found");
    if (failed.length) return redirectWithToast(env, to, { type: "error", title: `Could not delete: ${failed.map((f) => f.name).join(", ")}` });
    if (result.succeeded.length === 0) return redirectWithToast(env, to, { type: "error", title: "You don't own any of these files. You cannot delete them." });
    return redirectWithToast(env, to, { type: "success", title: `Deleted ${result.succeeded.length} file(s)` });
  }

  const moved = await moveFiles(env, tenant.id, viewer, input.ids, input.folderId || null);
  if ("ok" in moved) return data<BulkActionData>({ step: "error", message: FILE_ERRORS[moved.code].message }, { status: FILE_ERRORS[moved.code].status });
  if (moved.succeeded.length === 0)
    return redirectWithToast(env, to, { type: "error", title: FILE_MESSAGES.moveFailed, message: FILE_ERRORS.not_owner.message });
  if (moved.failed.length)
    return redirectWithToast(env, to, {
      type: "warning",
      title: `Moved ${moved.succeeded.length} file(s)`,
      message: `Not moved: ${moved.failed.map((f) => f.name).join(", ")}`,
    });
  return redirectWithToast(env, to, { type: "success", title: `Moved ${moved.succeeded.length} file(s)` });
}
