import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { requireModule, requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { NOTE_SCOPES, notePermissions, noteViewerOf } from "../access";
import { commonNoteAction, refusal } from "../actions.server";
import { NoteEditor, type EditorErrors } from "../components/note-editor";
import { editorValues, noteInput } from "../editor-form.server";
import { notePage } from "../pages.server";
import { BRAND_COLOUR, DEFAULT_NOTE_TITLE, htmlToEditableText, NOTE_ERRORS, NOTE_TOASTS } from "../note-rules";
import { restoreVersion, shareNote, unshareNote, updateNote } from "../notes.server";
import type { Route } from "./+types/note";

/** One note: read it, edit it (from the version shown), pin, bookmark, share, trash, its history. A note the person may not see is a 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "notes" });
  const viewer = noteViewerOf(user);
  const { note, shares, candidates, versions, folders } = await notePage(env, tenant.id, viewer, params.id);
  if (!note) throw data("Note not found", { status: 404 });
  const perms = notePermissions(viewer, note);
  return {
    note: { ...note, body: htmlToEditableText(note.content) },
    shares,
    candidates: perms.share ? candidates.filter((c) => c.id !== note.ownerId) : [],
    versions: versions.filter((v) => v.version !== note.version),
    folders: folders.map((f) => ({ id: f.id, name: f.name })),
    perms,
    viewerId: viewer.id,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "notes" });
  const { env, tenant, user } = req;
  const viewer = noteViewerOf(user);
  const form = await request.formData();
  const here = `/notes/${params.id}`;
  const common = await commonNoteAction(request, context, req, form, here);
  if (common) return common;
  const intent = String(form.get("intent") ?? "save");
  if (intent === "share" || intent === "unshare") {
    await requireScope(request, context, user, NOTE_SCOPES.share, NOTE_ERRORS.no_share);
    if (intent === "unshare") {
      const r = await unshareNote(env, tenant.id, viewer, params.id, String(form.get("userId") ?? ""));
      return r.ok ? redirectWithToast(env, here, { type: "success", title: "Sharing updated" }) : refusal(r.code);
    }
    const r = await shareNote(env, tenant.id, viewer, params.id, form.getAll("userIds").map(String));
    if (!r.ok) return r.code === "no_recipients" ? data({ shareError: NOTE_ERRORS.no_recipients }, { status: 400 }) : refusal(r.code);
    return redirectWithToast(env, here, { type: "success", title: NOTE_TOASTS.shared });
  }
  await requireScope(request, context, user, NOTE_SCOPES.edit, NOTE_ERRORS.no_edit);
  const baseVersion = Number(form.get("version"));
  if (intent === "restore-version") {
    const r = await restoreVersion(env, tenant.id, viewer, params.id, Number(form.get("restoreVersion")), baseVersion);
    if (!r.ok) return refusal(r.code);
    return redirectWithToast(env, here, { type: "success", title: NOTE_TOASTS.versionRestored });
  }
  const values = editorValues(form);
  const r = await updateNote(env, tenant.id, viewer, params.id, { ...noteInput(form), baseVersion });
  if (!r.ok) {
    if (r.code === "not_found" || r.code === "no_edit") return refusal(r.code);
    const field = r.code === "title_too_long" ? "title" : r.code === "folder_not_found" ? "folderId" : r.code === "content_too_long" ? "body" : "form";
    return data(
      { values, errors: { [field]: NOTE_ERRORS[r.code] } as EditorErrors, current: r.code === "version_conflict" ? (r.current ?? null) : null },
      { status: r.code === "version_conflict" ? 409 : 400 },
    );
  }
  return redirectWithToast(env, here, { type: "success", title: NOTE_TOASTS.saved });
}

// eslint-disable-next-line max-lines-per-function -- notes feature, reworked by its owner in parallel
export default function NotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { note, shares, candidates, versions, folders, perms, viewerId } = loaderData;
  const location = useLocation();
  const back = location.pathname;
  const title = note.title || DEFAULT_NOTE_TITLE;
  const trashed = note.deletedAt !== null;
  const editing = actionData && "values" in actionData ? actionData : null;
  const shareError = actionData && "shareError" in actionData ? actionData.shareError : null;
  const error = actionData && "error" in actionData ? actionData.error : null;
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="noteId" value={note.id} />
      <input type="hidden" name="back" value={back} />
      <input type="hidden" name="intent" value={intent} />
    </>
  );
  return (
    <article className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/notes/all" className="underline">
          Notes
        </Link>
        {note.folderName ? (
          <>
            {" / "}
            <Link to={`/notes/folders/${note.folderId}`} className="underline">
              {note.folderName}
            </Link>
          </>
        ) : null}
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words">{title}</h1>
          <p className="text-sm opacity-70">
            {note.ownerId === viewerId ? "Your note" : `By ${note.ownerName ?? "a former member"}`} · version {note.version} · updated {note.updated}
            {note.isPinned ? " · Pinned" : ""}
            {note.isFavorite ? " · Bookmarked" : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {!trashed && perms.edit ? (
            <>
              <Form method="post">
                {hidden(note.isPinned ? "unpin" : "pin")}
                <button type="submit" className={buttonClass("secondary")}>
                  {note.isPinned ? "Unpin" : "Pin"}
                </button>
              </Form>
              <Form method="post">
                {hidden(note.isFavorite ? "unfavourite" : "favourite")}
                <button type="submit" className={buttonClass("secondary")}>
                  {note.isFavorite ? "Remove bookmark" : "Bookmark"}
                </button>
              </Form>
            </>
          ) : null}
          {!trashed && perms.delete ? (
            <Form method="post">
              {hidden("trash")}
              <button type="submit" className={buttonClass("danger")}>
                Move to trash
              </button>
            </Form>
          ) : null}
          {trashed && perms.delete ? (
            <>
              <Form method="post">
                {hidden("restore")}
                <button type="submit" className={buttonClass("secondary")}>
                  Restore
                </button>
              </Form>
              <Form method="post">
                {hidden("purge")}
                <button type="submit" className={buttonClass("danger")}>
                  Delete permanently
                </button>
              </Form>
            </>
          ) : null}
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      {trashed ? <p className="rounded-brand border border-line p-3">This note is in the trash.</p> : null}
      {!trashed && perms.edit ? (
        <NoteEditor
          key={note.version}
          values={
            editing?.values ?? {
              title: note.title,
              body: note.body,
              tags: note.tags.join(", "),
              color: note.color ?? BRAND_COLOUR,
              folderId: note.folderId ?? "",
            }
          }
          errors={editing?.errors ?? {}}
          folders={folders}
          hidden={{ version: String(note.version) }}
          saveLabel="Save Note"
          draftButton={false}
        />
      ) : (
        <div className="space-y-2">
          {/* Stored content passed the server's allow-list; it is shown as text here, never as markup. */}
          <div className="whitespace-pre-wrap break-words" data-testid="note-text">
            {note.body || "No content"}
          </div>
          {note.tags.length ? <p className="text-sm">{note.tags.map((t) => `#${t}`).join(" ")}</p> : null}
        </div>
      )}
      {!trashed && perms.share ? (
        <section aria-labelledby="share-title" className="rounded-brand border border-line p-4">
          <h2 id="share-title" className="font-semibold">
            Share Note
          </h2>
          {shares.length ? (
            <ul className="mt-2 space-y-1 text-sm" aria-label="Shared with">
              {shares.map((s) => (
                <li key={s.userId} className="flex items-center gap-2">
                  {s.name}
                  <Form method="post">
                    <input type="hidden" name="intent" value="unshare" />
                    <input type="hidden" name="userId" value={s.userId} />
                    <button type="submit" className={buttonClass("link")}>
                      Stop sharing<span className="sr-only"> with {s.name}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : null}
          {candidates.length === 0 ? (
            <p className="mt-2 text-sm">No users found</p>
          ) : (
            <Form method="post" className="mt-2 space-y-2">
              <input type="hidden" name="intent" value="share" />
              <fieldset aria-describedby={shareError ? "share-error" : undefined}>
                <legend className="text-sm">People to share with</legend>
                <div className="max-h-48 space-y-1 overflow-y-auto">
                  {candidates.map((c) => (
                    <label key={c.id} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="userIds" value={c.id} />
                      {c.name}
                    </label>
                  ))}
                </div>
              </fieldset>
              {shareError ? (
                <p id="share-error" role="alert" className="text-sm text-danger">
                  {shareError}
                </p>
              ) : null}
              <button type="submit" className={buttonClass("primary")}>
                Share
              </button>
            </Form>
          )}
        </section>
      ) : null}
      {versions.length ? (
        <section aria-labelledby="history-title" className="rounded-brand border border-line p-4">
          <h2 id="history-title" className="font-semibold">
            History
          </h2>
          <ul className="mt-2 space-y-2 text-sm">
            {versions.map((v) => (
              <li key={v.version} className="flex flex-wrap items-center gap-2">
                <span>
                  Version {v.version} · {v.title || DEFAULT_NOTE_TITLE} · {v.editedBy ?? "a former member"} · {v.saved}
                </span>
                {!trashed && perms.edit ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore-version" />
                    <input type="hidden" name="restoreVersion" value={v.version} />
                    <input type="hidden" name="version" value={note.version} />
                    <button type="submit" className={buttonClass("link")}>
                      Restore<span className="sr-only"> version {v.version}</span>
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

export function meta() {
  return [{ title: "Note" }];
}
