import { data, Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { requireModule } from "~/features/auth/index.server";
import { redirectWithToast } from "~/features/platform/index.server";
import { NOTE_SCOPES, noteViewerOf } from "../access";
import { NoteEditor, type EditorErrors, type EditorValues } from "../components/note-editor";
import { clearDrafts, deleteDraft, dropDraftStatement, saveDraft } from "../drafts.server";
import { editorValues, noteInput } from "../editor-form.server";
import { newNotePage } from "../pages.server";
import { BRAND_COLOUR, DEFAULT_DRAFT_TITLE, htmlToEditableText, htmlToText, localDraftKey, NOTE_ERRORS, NOTE_TOASTS, preview } from "../note-rules";
import { relativeDay } from "../note-dates.server";
import { createNote } from "../notes.server";
import { sanitiseNoteHtml } from "../sanitise.server";
import type { Route } from "./+types/new";

const EMPTY: EditorValues = { title: "", body: "", content: "", tags: "", color: BRAND_COLOUR, folderId: "" };

/** The new-note editor: the folders to file it in and the person's server drafts (one of them loaded with ?draft=). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "notes",
    scope: NOTE_SCOPES.create,
    message: NOTE_ERRORS.no_create,
  });
  const viewer = noteViewerOf(user);
  const { folders, drafts } = await newNotePage(env, tenant.id, viewer);
  const draftId = new URL(request.url).searchParams.get("draft");
  const now = Date.now();
  const draft = drafts.find((d) => d.id === draftId);
  return {
    folders: folders.map((f) => ({ id: f.id, name: f.name })),
    drafts: drafts.map((d) => {
      const text = htmlToText(d.content);
      return {
        id: d.id,
        title: d.title || DEFAULT_DRAFT_TITLE,
        preview: preview(text, 200),
        chars: text.length,
        tags: d.tags.slice(0, 3),
        saved: relativeDay(d.savedAt, now),
      };
    }),
    draftId: draft?.id ?? null,
    draftKey: localDraftKey(tenant.id, user.id, draft ? `draft-${draft.id}` : "new"),
    values: draft
      ? {
          title: draft.title,
          body: htmlToEditableText(draft.content),
          content: sanitiseNoteHtml(draft.content),
          tags: draft.tags.join(", "),
          color: draft.color ?? BRAND_COLOUR,
          folderId: draft.folderId ?? "",
        }
      : EMPTY,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, tenant, user } = await requireModule(request, context, {
    module: "notes",
    scope: NOTE_SCOPES.create,
    message: NOTE_ERRORS.no_create,
  });
  const viewer = noteViewerOf(user);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const draftId = String(form.get("draftId") ?? "") || null;
  if (intent === "delete-draft") {
    await deleteDraft(env, tenant.id, user.id, String(form.get("id") ?? ""));
    return redirectWithToast(env, "/notes/new", { type: "success", title: NOTE_TOASTS.draftDeleted });
  }
  if (intent === "clear-drafts") {
    await clearDrafts(env, tenant.id, user.id);
    return redirectWithToast(env, "/notes/new", { type: "success", title: NOTE_TOASTS.draftsCleared });
  }
  const values = editorValues(form);
  const input = noteInput(form);
  if (intent === "save-draft") {
    const id = await saveDraft(env, tenant.id, user.id, draftId, { ...input, tags: values.tags });
    if (!id) return data({ values, draftId, errors: { form: NOTE_ERRORS.empty } as EditorErrors }, { status: 400 });
    return redirectWithToast(env, `/notes/new?draft=${id}`, { type: "success", title: NOTE_TOASTS.draftSaved });
  }
  const r = await createNote(env, tenant.id, viewer, input, {
    dropDraft: draftId ? (db) => dropDraftStatement(db, tenant.id, user.id, draftId) : undefined,
  });
  if (!r.ok) {
    const field = r.code === "title_too_long" ? "title" : r.code === "folder_not_found" ? "folderId" : r.code === "content_too_long" ? "body" : "form";
    return data({ values, draftId, errors: { [field]: NOTE_ERRORS[r.code] } as EditorErrors }, { status: 400 });
  }
  return redirectWithToast(env, `/notes/${r.id}`, { type: "success", title: NOTE_TOASTS.created });
}

export default function NewNote({ loaderData, actionData }: Route.ComponentProps) {
  const { folders, drafts } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const draftId = actionData ? actionData.draftId : loaderData.draftId;
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">New Note</h1>
        <Link to="/notes/all" className={buttonClass("secondary")}>
          Close
        </Link>
      </div>
      {draftId ? <p className="text-sm text-accent-ink">Draft saved</p> : null}
      <NoteEditor
        key={draftId ?? "new"}
        values={values}
        errors={actionData?.errors ?? {}}
        folders={folders}
        hidden={draftId ? { draftId } : {}}
        saveLabel="Save Note"
        draftButton
        draftKey={loaderData.draftKey}
      />
      <details className="rounded-brand border border-line p-3" open={drafts.length > 0 && !draftId ? undefined : undefined}>
        <summary className="cursor-pointer font-semibold">
          Drafts <span className="rounded-full bg-surface px-2 text-sm">{drafts.length}</span>
        </summary>
        {drafts.length === 0 ? (
          <p className="mt-2 text-sm opacity-70">No drafts yet</p>
        ) : (
          <>
            <ul className="mt-3 space-y-3" aria-label="Drafts">
              {drafts.map((d) => (
                <li key={d.id} className="rounded-brand border border-line p-3" data-draft-id={d.id}>
                  <Link to={`/notes/new?draft=${d.id}`} className="font-semibold hover:underline">
                    {d.title}
                  </Link>
                  <p className="text-sm break-words opacity-80">{d.preview}</p>
                  <p className="text-xs opacity-70">
                    {d.saved} · {d.chars} characters{d.tags.length ? ` · ${d.tags.map((t) => `#${t}`).join(" ")}` : ""}
                  </p>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="id" value={d.id} />
                    <button type="submit" name="intent" value="delete-draft" className={buttonClass("ghost", "px-2 py-1")}>
                      Delete<span className="sr-only"> draft {d.title}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
            <Form method="post" className="mt-3">
              <button type="submit" name="intent" value="clear-drafts" className={buttonClass("danger")}>
                Clear All Drafts
              </button>
            </Form>
          </>
        )}
      </details>
    </section>
  );
}

export function meta() {
  return [{ title: "New Note" }];
}
