import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { requireModule, requireScope } from "~/features/auth/index.server";
import { formatBytes } from "~/features/files";
import { redirectWithToast } from "~/features/platform/index.server";
import { NOTE_SCOPES, noteViewerOf } from "../access";
import { commonNoteAction } from "../actions.server";
import { NoteGroups, type ListNote } from "../components/note-list";
import { createFolder, deleteFolder, updateFolder } from "../folders.server";
import { foldersPage } from "../pages.server";
import { COLOUR_NAMES, FOLDER_COLOURS, NOTE_ERRORS, NOTE_TOASTS, noteCountLabel } from "../note-rules";
import type { Route } from "./+types/folders";

/** The folders (with note counts and the storage meter), or one folder's notes. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "notes" });
  const viewer = noteViewerOf(user);
  const folderId = params.folderId ?? null;
  const { folders, usage: u, page: list, total, view } = await foldersPage(env, tenant.id, viewer, folderId, new URL(request.url).searchParams.get("after"));
  const folder = folderId ? folders.find((f) => f.id === folderId) : null;
  if (folderId && !folder) throw data("Folder not found", { status: 404 });
  const page = folder ? list : { rows: [], next: null };
  const rows: ListNote[] = page.rows;
  return {
    folders: folders.map((f) => ({ ...f, noteCount: Number(f.noteCount) })),
    folder: folder ?? null,
    rows,
    total: folder ? total : 0,
    next: page.next,
    view,
    storage: `${formatBytes(u.used)} of ${formatBytes(u.cap)}`,
    perms: { createFolders: viewer.createFolders, manageFolders: viewer.manageFolders, create: viewer.create, edit: viewer.edit, delete: viewer.delete },
    viewerId: viewer.id,
    manageAll: viewer.manageAll,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "notes" });
  const { env, tenant, user } = req;
  const viewer = noteViewerOf(user);
  const form = await request.formData();
  const here = new URL(request.url).pathname;
  const common = await commonNoteAction(request, context, req, form, here);
  if (common) return common;
  const intent = String(form.get("intent") ?? "");
  const input = { name: String(form.get("name") ?? ""), color: String(form.get("color") ?? "") };
  if (intent === "create-folder") {
    await requireScope(request, context, user, NOTE_SCOPES.createFolders, "You do not have permission to create folders");
    const r = await createFolder(env, tenant.id, viewer, input);
    if (!r.ok) return data({ folderError: NOTE_ERRORS[r.code], name: input.name }, { status: 400 });
    return redirectWithToast(env, `/notes/folders/${r.id}`, { type: "success", title: NOTE_TOASTS.folderCreated });
  }
  if (!params.folderId) throw data("Unknown action", { status: 400 });
  await requireScope(request, context, user, NOTE_SCOPES.manageFolders, "You do not have permission to manage folders");
  if (intent === "update-folder") {
    const r = await updateFolder(env, tenant.id, viewer, params.folderId, input);
    if (!r.ok) return data({ folderError: NOTE_ERRORS[r.code], name: input.name }, { status: r.code === "folder_not_found" ? 404 : 400 });
    return redirectWithToast(env, here, { type: "success", title: NOTE_TOASTS.folderSaved });
  }
  if (intent === "delete-folder") {
    if (form.get("confirm") !== "yes") return data({ confirmDelete: true as const });
    const r = await deleteFolder(env, tenant.id, viewer, params.folderId);
    if (!r.ok) throw data("Folder not found", { status: 404 });
    return redirectWithToast(env, "/notes/folders", { type: "success", title: NOTE_TOASTS.folderDeleted });
  }
  throw data("Unknown action", { status: 400 });
}

function FolderForm({ label, intent, name, color, error }: { label: string; intent: string; name: string; color: string; error: string | null }) {
  return (
    <Form method="post" aria-label={label} className="space-y-3 rounded-brand border border-line p-4">
      <input type="hidden" name="intent" value={intent} />
      <Field id={`${intent}-name`} label="Folder Name" error={error}>
        <input
          id={`${intent}-name`}
          name="name"
          required
          defaultValue={name}
          maxLength={80}
          className={inputClass}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${intent}-name-error` : undefined}
        />
      </Field>
      <fieldset>
        <legend className="text-sm font-medium">Folder Color</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {FOLDER_COLOURS.map((c) => (
            <label key={c} className="flex items-center gap-1 text-sm">
              <input type="radio" name="color" value={c} defaultChecked={c === color} />
              <span className="inline-block h-4 w-4 rounded-full border border-line" style={{ backgroundColor: c }} aria-hidden="true" />
              {COLOUR_NAMES[c]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={buttonClass("primary")}>
        {intent === "create-folder" ? "Create Folder" : "Save Changes"}
      </button>
    </Form>
  );
}

// eslint-disable-next-line max-lines-per-function -- notes feature, reworked by its owner in parallel
export default function NoteFolders({ loaderData, actionData }: Route.ComponentProps) {
  const { folders, folder, rows, total, next, view, storage, perms, viewerId, manageAll } = loaderData;
  const location = useLocation();
  const folderError = actionData && "folderError" in actionData ? actionData.folderError : null;
  const typedName = actionData && "name" in actionData ? actionData.name : null;
  const confirmDelete = actionData && "confirmDelete" in actionData;
  return (
    <section className="space-y-6">
      <nav aria-label="Breadcrumb">
        <ol className="flex gap-2 text-sm">
          <li>{folder ? <Link to="/notes/folders">Folders</Link> : "Folders"}</li>
          {folder ? <li>/ {folder.name}</li> : null}
        </ol>
      </nav>
      <h1 className="text-2xl font-semibold">{folder ? folder.name : "Folders"}</h1>
      {!folder ? (
        <>
          {folders.length === 0 ? (
            <p className="rounded-brand border border-dashed border-line p-8 text-center font-semibold">No folders yet</p>
          ) : (
            <ul aria-label="Folders" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {folders.map((f) => (
                <li key={f.id} className="rounded-brand border border-line p-3" style={{ borderLeft: `6px solid ${f.color}` }}>
                  <Link to={`/notes/folders/${f.id}`} className="font-semibold hover:underline">
                    {f.name}
                  </Link>
                  {f.noteCount > 0 ? <p className="text-sm opacity-70">{noteCountLabel(f.noteCount)}</p> : null}
                </li>
              ))}
            </ul>
          )}
          {perms.createFolders ? (
            <FolderForm label="New Folder" intent="create-folder" name={typedName ?? ""} color={FOLDER_COLOURS[0]} error={folderError} />
          ) : null}
          <p className="text-sm opacity-80" data-testid="storage-meter">
            Storage: {storage}
          </p>
        </>
      ) : (
        <>
          <p className="text-sm opacity-70">{noteCountLabel(total)}</p>
          {rows.length === 0 ? (
            <div className="rounded-brand border border-dashed border-line p-8 text-center">
              <p className="font-semibold">No notes in this folder</p>
              <p className="text-sm opacity-70">Add notes to organize them here</p>
              {perms.create ? (
                <Link to="/notes/new" className={buttonClass("primary", "mt-3")}>
                  Create Note
                </Link>
              ) : null}
            </div>
          ) : (
            <NoteGroups notes={rows} view={view} actions={{ canEdit: perms.edit, canDelete: perms.delete, viewerId, manageAll, back: location.pathname }} />
          )}
          {next ? (
            <Link to={`${location.pathname}?after=${encodeURIComponent(next)}`} rel="next" className={buttonClass("secondary")}>
              Older notes
            </Link>
          ) : null}
          {perms.manageFolders ? (
            <>
              <FolderForm label="Edit Folder" intent="update-folder" name={typedName ?? folder.name} color={folder.color} error={folderError} />
              {confirmDelete ? (
                <div role="alertdialog" aria-labelledby="delete-folder-title" className="rounded-brand border border-danger p-4">
                  <h2 id="delete-folder-title" className="font-semibold">
                    Delete Folder?
                  </h2>
                  <p className="text-sm">Are you sure you want to delete this folder? Notes will be moved to &quot;No folder&quot;.</p>
                  <Form method="post" className="mt-3 flex gap-2">
                    <input type="hidden" name="confirm" value="yes" />
                    <Link to={location.pathname} className={buttonClass("secondary")}>
                      Cancel
                    </Link>
                    <button type="submit" name="intent" value="delete-folder" className={buttonClass("danger")}>
                      Delete Folder
                    </button>
                  </Form>
                </div>
              ) : (
                <Form method="post">
                  <button type="submit" name="intent" value="delete-folder" className={buttonClass("danger")}>
                    Delete Folder
                  </button>
                </Form>
              )}
            </>
          ) : null}
        </>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Note folders" }];
}
