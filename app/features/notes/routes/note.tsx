import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { requireModule, requireScope } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { NOTE_SCOPES, notePermissions, noteViewerOf } from "../access";
import { commonNoteAction, refusal } from "../actions.server";
import { NoteEditor, type EditorErrors } from "../components/note-editor";
import { editorValues, noteInput } from "../editor-form.server";
import { notePage } from "../pages.server";
import { BRAND_COLOUR, DEFAULT_NOTE_TITLE, htmlToEditableText, localDraftKey, NOTE_ERRORS, NOTE_TOASTS } from "../note-rules";
import { restoreVersion, shareNote, unshareNote, updateNote } from "../notes.server";
import { sanitiseNoteHtml } from "../sanitise.server";
import { NoteContent } from "../components/note-content";
import type { Route } from "./+types/note";

/** One note: read it, edit it (from the version shown), pin, bookmark, share, trash, its history. A note the person may not see is a 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "notes" });
  const viewer = noteViewerOf(user);
  const { note, shares, candidates, versions, folders } = await notePage(env, tenant.id, viewer, params.id);
  if (!note) throw data("Note not found", { status: 404 });
  const perms = notePermissions(viewer, note);
  // Stored content is never trusted as is: it goes through the allow-list again on its way to the page.
  const { content, ...rest } = note;
  const html = sanitiseNoteHtml(content);
  return {
    note: { ...rest, html, body: htmlToEditableText(html) },
    shares,
    candidates: perms.share ? candidates.filter((c) => c.id !== note.ownerId) : [],
    versions: versions.filter((v) => v.version !== note.version),
    folders: folders.map((f) => ({ id: f.id, name: f.name })),
    perms: { ...perms, create: viewer.create },
    viewerId: viewer.id,
    draftKey: localDraftKey(tenant.id, user.id, note.id),
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

type Data = Route.ComponentProps["loaderData"];
type Note = Data["note"];

/** A one-button form about this note (pin, bookmark, duplicate, trash...), answered by the shared note actions. */
function NoteButton({ note, intent, label, variant = "secondary" }: { note: Note; intent: string; label: string; variant?: "secondary" | "danger" }) {
  const location = useLocation();
  return (
    <Form method="post">
      <input type="hidden" name="noteId" value={note.id} />
      <input type="hidden" name="back" value={location.pathname} />
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={buttonClass(variant)}>
        {label}
      </button>
    </Form>
  );
}

function NoteHeader({ data }: { data: Data }) {
  const { note, perms, viewerId } = data;
  const trashed = note.deletedAt !== null;
  return (
    <>
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
          <h1 className="text-2xl font-semibold break-words">{note.title || DEFAULT_NOTE_TITLE}</h1>
          <p className="text-sm opacity-70">
            {note.ownerId === viewerId ? "Your note" : `By ${note.ownerName ?? "a former member"}`} · version {note.version} · updated {note.updated}
            {note.isPinned ? " · Pinned" : ""}
            {note.isFavorite ? " · Bookmarked" : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {!trashed && perms.edit ? (
            <>
              <NoteButton note={note} intent={note.isPinned ? "unpin" : "pin"} label={note.isPinned ? "Unpin" : "Pin"} />
              <NoteButton note={note} intent={note.isFavorite ? "unfavourite" : "favourite"} label={note.isFavorite ? "Remove bookmark" : "Bookmark"} />
            </>
          ) : null}
          {!trashed && perms.create ? <NoteButton note={note} intent="duplicate" label="Duplicate" /> : null}
          {!trashed && perms.delete ? <NoteButton note={note} intent="trash" label="Move to trash" variant="danger" /> : null}
          {trashed && perms.delete ? (
            <>
              <NoteButton note={note} intent="restore" label="Restore" />
              <NoteButton note={note} intent="purge" label="Delete permanently" variant="danger" />
            </>
          ) : null}
        </div>
      </div>
    </>
  );
}

function SharePanel({ shares, candidates, shareError }: { shares: Data["shares"]; candidates: Data["candidates"]; shareError: string | null }) {
  return (
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
  );
}

function HistoryPanel({ versions, current, canRestore }: { versions: Data["versions"]; current: number; canRestore: boolean }) {
  return (
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
            {canRestore ? (
              <Form method="post">
                <input type="hidden" name="intent" value="restore-version" />
                <input type="hidden" name="restoreVersion" value={v.version} />
                <input type="hidden" name="version" value={current} />
                <button type="submit" className={buttonClass("link")}>
                  Restore<span className="sr-only"> version {v.version}</span>
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function NotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { note, shares, candidates, versions, folders, perms, draftKey } = loaderData;
  const trashed = note.deletedAt !== null;
  const editing = actionData && "values" in actionData ? actionData : null;
  const shareError = actionData && "shareError" in actionData ? actionData.shareError : null;
  const error = actionData && "error" in actionData ? actionData.error : null;
  const saved = {
    title: note.title,
    body: note.body,
    content: note.html,
    tags: note.tags.join(", "),
    color: note.color ?? BRAND_COLOUR,
    folderId: note.folderId ?? "",
  };
  return (
    <article className="space-y-6">
      <NoteHeader data={loaderData} />
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
      {trashed ? <p className="rounded-brand border border-line p-3">This note is in the trash.</p> : null}
      {!trashed && perms.edit ? (
        <NoteEditor
          key={note.version}
          values={editing?.values ?? saved}
          errors={editing?.errors ?? {}}
          folders={folders}
          hidden={{ version: String(note.version) }}
          saveLabel="Save Note"
          draftButton={false}
          draftKey={draftKey}
        />
      ) : (
        <div className="space-y-2">
          <NoteContent html={note.html} />
          {note.tags.length ? <p className="text-sm">{note.tags.map((t) => `#${t}`).join(" ")}</p> : null}
        </div>
      )}
      {!trashed && perms.share ? <SharePanel shares={shares} candidates={candidates} shareError={shareError} /> : null}
      {versions.length ? <HistoryPanel versions={versions} current={note.version} canRestore={!trashed && perms.edit} /> : null}
    </article>
  );
}

export function meta() {
  return [{ title: "Note" }];
}
