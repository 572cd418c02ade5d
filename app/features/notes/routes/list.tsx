import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { noteViewerOf } from "../access";
import { commonNoteAction } from "../actions.server";
import { NoteGroups, ViewToggle } from "../components/note-list";
import { loadList } from "../lists.server";
import { noteCountLabel } from "../note-rules";
import type { NoteListKind } from "../notes.server";
import type { Route } from "./+types/list";

const KINDS = {
  all: { title: "All Notes", empty: "No notes yet", hint: null },
  shared: { title: "Shared with me", empty: "No shared notes", hint: "Notes shared with you will appear here" },
  bookmarks: { title: "Bookmarks", empty: "No favorite notes", hint: null },
  trash: { title: "Trash", empty: "Trash is empty", hint: `Notes in the trash are deleted for good after 30 days.` },
} as const;

function kindOf(request: Request): Exclude<NoteListKind, "folder"> {
  const k = new URL(request.url).pathname.split("/")[2];
  return k === "shared" || k === "bookmarks" || k === "trash" ? k : "all";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant, user } = await requireModule(request, context, { module: "notes" });
  const viewer = noteViewerOf(user);
  const kind = kindOf(request);
  const url = new URL(request.url);
  const list = await loadList(env, tenant.id, viewer, kind, url.searchParams);
  return {
    kind,
    ...list,
    now: Date.now(),
    perms: { create: viewer.create, edit: viewer.edit, delete: viewer.delete },
    viewerId: viewer.id,
    manageAll: viewer.manageAll,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const req = await requireModule(request, context, { module: "notes" });
  const form = await request.formData();
  const fallback = new URL(request.url).pathname;
  const done = await commonNoteAction(request, context, req, form, fallback);
  if (done) return done;
  throw data("Unknown action", { status: 400 });
}

// eslint-disable-next-line max-lines-per-function -- notes feature, reworked by its owner in parallel
export default function NotesList({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, q, searching, rows, total, next, view, perms, viewerId, manageAll } = loaderData;
  const location = useLocation();
  const back = location.pathname + location.search;
  const texts = KINDS[kind];
  const confirmEmpty = actionData && "confirmEmpty" in actionData;
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{texts.title}</h1>
          <p className="text-sm opacity-70" data-testid="note-count">
            {noteCountLabel(total)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ViewToggle view={view} back={back} />
          {kind === "trash" && total > 0 && perms.delete ? (
            <Form method="post">
              <input type="hidden" name="back" value={back} />
              <button type="submit" name="intent" value="empty-trash" className={buttonClass("danger")}>
                Empty Trash
              </button>
            </Form>
          ) : null}
          {kind !== "trash" && perms.create ? (
            <Link to="/notes/new" className={buttonClass("primary")}>
              New Note
            </Link>
          ) : null}
        </div>
      </div>
      {kind !== "trash" ? (
        <Form method="get" role="search" className="mb-4 flex gap-2">
          <label htmlFor="notes-q" className="sr-only">
            Search notes
          </label>
          <input id="notes-q" name="q" type="search" defaultValue={q} placeholder="Search notes..." className={inputClass} />
          <button type="submit" className={buttonClass("secondary")}>
            Search
          </button>
          {q ? (
            <Link to={location.pathname} className={buttonClass("ghost")}>
              Clear
            </Link>
          ) : null}
        </Form>
      ) : null}
      {confirmEmpty ? (
        <div role="alertdialog" aria-labelledby="empty-title" className="mb-4 rounded-brand border border-danger p-4">
          <h2 id="empty-title" className="font-semibold">
            Empty Trash?
          </h2>
          <p className="text-sm">This action cannot be undone. Every note in the trash will be deleted permanently.</p>
          <Form method="post" className="mt-3 flex gap-2">
            <input type="hidden" name="back" value={back} />
            <input type="hidden" name="confirm" value="yes" />
            <Link to={back} className={buttonClass("secondary")}>
              Cancel
            </Link>
            <button type="submit" name="intent" value="empty-trash" className={buttonClass("danger")}>
              Empty Trash
            </button>
          </Form>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mb-4 text-danger">
          {error}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <div className="rounded-brand border border-dashed border-line p-8 text-center">
          <p className="font-semibold">{searching || q ? `No notes found for "${q}"` : texts.empty}</p>
          {texts.hint && !q ? <p className="text-sm opacity-70">{texts.hint}</p> : null}
          {kind === "all" && !q && perms.create ? (
            <Link to="/notes/new" className={buttonClass("primary", "mt-3")}>
              Create Your First Note
            </Link>
          ) : null}
        </div>
      ) : (
        <NoteGroups notes={rows} view={view} grouped={!searching} actions={{ canEdit: perms.edit, canDelete: perms.delete, viewerId, manageAll, back }} />
      )}
      {next ? (
        <nav aria-label="Pages" className="mt-6">
          <Link to={`${location.pathname}?after=${encodeURIComponent(next)}`} rel="next" className={buttonClass("secondary")}>
            Older notes
          </Link>
        </nav>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Notes" }];
}
