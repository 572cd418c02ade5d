/** The notes pages' form posts: one place that reads the intent, checks the scope and calls the data code. */
import { data, redirect } from "react-router";
import { requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import type { RequestContext } from "~/features/auth/index.server";
import { NOTE_SCOPES, noteViewerOf } from "./access";
import { setViewMode } from "./drafts.server";
import { NOTE_ERRORS, NOTE_TOASTS, purgedToast, type NoteErrorCode } from "./note-rules";
import { duplicateNote } from "./duplicate.server";
import { emptyTrash, purgeNote, restoreNote, setFlag, trashNote } from "./notes.server";

type Ctx = Parameters<typeof requireScope>[1];

/** Where to go back to after a list action: a notes path only. */
export function backTo(form: FormData, fallback: string): string {
  const to = String(form.get("back") ?? "");
  return /^\/notes(\/[\w/-]*)?(\?[\w=&%.-]*)?$/.test(to) ? to : fallback;
}

export function refusal(code: NoteErrorCode) {
  const status = code === "not_found" ? 404 : code.startsWith("no_") && code !== "no_recipients" ? 403 : code === "version_conflict" ? 409 : 400;
  return data({ error: NOTE_ERRORS[code], code }, { status });
}

/**
 * The intents any notes page may post about one note or the list: pin, favourite, duplicate,
 * trash, restore, delete for good, empty the trash, and the grid/list choice. Null for an intent it
 * does not know (the page handles its own).
 */
export async function commonNoteAction(request: Request, context: Ctx, req: RequestContext, form: FormData, fallback: string) {
  const { env, tenant, user } = req;
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("noteId") ?? "");
  const back = backTo(form, fallback);
  const viewer = noteViewerOf(user);
  const toast = (title: string, type: "success" | "info" = "success") => redirectWithToast(env, back, { type, title });
  switch (intent) {
    case "view": {
      const mode = form.get("view") === "list" ? "list" : "grid";
      await setViewMode(env, tenant.id, user.id, mode);
      return redirect(back);
    }
    case "pin":
    case "unpin":
    case "favourite":
    case "unfavourite": {
      await requireScope(request, context, user, NOTE_SCOPES.edit, NOTE_ERRORS.no_edit);
      const flag = intent.endsWith("pin") ? "isPinned" : "isFavorite";
      const on = intent === "pin" || intent === "favourite";
      const r = await setFlag(env, tenant.id, viewer, id, flag, on);
      if (!r.ok) return refusal(r.code);
      const title = flag === "isPinned" ? (on ? NOTE_TOASTS.pinned : NOTE_TOASTS.unpinned) : on ? NOTE_TOASTS.bookmarkAdded : NOTE_TOASTS.bookmarkRemoved;
      return toast(title);
    }
    case "trash": {
      await requireScope(request, context, user, NOTE_SCOPES.delete, NOTE_ERRORS.no_delete);
      const r = await trashNote(env, tenant.id, viewer, id);
      if (!r.ok) return refusal(r.code);
      return redirectWithToast(env, back.startsWith(`/notes/${id}`) ? "/notes/all" : back, { type: "info", title: NOTE_TOASTS.trashed });
    }
    case "restore": {
      await requireScope(request, context, user, NOTE_SCOPES.delete, NOTE_ERRORS.no_delete);
      const r = await restoreNote(env, tenant.id, viewer, id);
      if (!r.ok) return refusal(r.code);
      return toast(NOTE_TOASTS.restored);
    }
    case "purge": {
      await requireScope(request, context, user, NOTE_SCOPES.delete, NOTE_ERRORS.no_delete);
      const r = await purgeNote(env, tenant.id, viewer, id);
      if (!r.ok) return refusal(r.code);
      return redirectWithToast(env, "/notes/trash", { type: "success", title: NOTE_TOASTS.deleted });
    }
    case "duplicate": {
      await requireScope(request, context, user, NOTE_SCOPES.create, NOTE_ERRORS.no_create);
      const r = await duplicateNote(env, tenant.id, viewer, id);
      if (!r.ok) return refusal(r.code);
      return redirectWithToast(env, `/notes/${r.id}`, { type: "success", title: NOTE_TOASTS.duplicated });
    }
    case "empty-trash": {
      await requireScope(request, context, user, NOTE_SCOPES.delete, NOTE_ERRORS.no_delete);
      if (form.get("confirm") !== "yes") return data({ confirmEmpty: true as const });
      const r = await emptyTrash(env, tenant.id, viewer);
      if (!r.ok) return refusal(r.code);
      return r.purged === 0 ? toast(NOTE_TOASTS.trashEmpty, "info") : toast(purgedToast(r.purged));
    }
    default:
      return null;
  }
}
