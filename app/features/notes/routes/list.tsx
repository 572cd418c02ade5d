import { data, Form, Link, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { requireModule } from "~/features/auth/index.server";
import { noteViewerOf } from "../access";
import { commonNoteAction } from "../actions.server";
import { NoteGroups, ViewToggle } from "../components/note-list";
import { loadList } from "../lists.server";
import { DEFAULT_NOTE_TITLE, noteCountLabel } from "../note-rules";
import { NoteContent } from "../components/note-content";
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

type Data = Route.ComponentProps["loaderData"];

function TopBar({ data, back }: { data: Data; back: string }) {
  const { kind, total, view, perms } = data;
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold">{KINDS[kind].title}</h1>
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
  );
}

function SearchBox({ q, path }: { q: string; path: string }) {
  return (
    <Form method="get" role="search" className="mb-4 flex gap-2">
      <label htmlFor="notes-q" className="sr-only">
        Search notes
      </label>
      <input id="notes-q" name="q" type="search" defaultValue={q} placeholder="Search notes..." className={inputClass} />
      <button type="submit" className={buttonClass("secondary")}>
        Search
      </button>
      {q ? (
        <Link to={path} className={buttonClass("ghost")}>
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

function ConfirmEmptyTrash({ back }: { back: string }) {
  return (
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
  );
}

function EmptyState({ data }: { data: Data }) {
  const { kind, q, searching, perms } = data;
  const texts = KINDS[kind];
  return (
    <div className="rounded-brand border border-dashed border-line p-8 text-center">
      <p className="font-semibold">{searching || q ? `No notes found for "${q}"` : texts.empty}</p>
      {texts.hint && !q ? <p className="text-sm opacity-70">{texts.hint}</p> : null}
      {kind === "all" && !q && perms.create ? (
        <Link to="/notes/new" className={buttonClass("primary", "mt-3")}>
          Create Your First Note
        </Link>
      ) : null}
    </div>
  );
}

/** Side mode: the note opened beside the list, formatted, with the way to its full page. */
function SidePanel({ note, closeTo }: { note: NonNullable<Data["side"]>; closeTo: string }) {
  return (
    <aside aria-labelledby="side-note-title" className="mb-6 rounded-brand border border-line bg-elevated p-4 lg:sticky lg:top-4 lg:mb-0 lg:self-start">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="side-note-title" className="min-w-0 text-lg font-semibold break-words">
          {note.title || DEFAULT_NOTE_TITLE}
        </h2>
        <Link to={closeTo} className={buttonClass("ghost", "px-2 py-1")}>
          Close<span className="sr-only"> side view</span>
        </Link>
      </div>
      <p className="text-xs opacity-70">
        {note.ownerName ? `By ${note.ownerName} · ` : ""}updated {note.updated}
        {note.folderName ? ` · ${note.folderName}` : ""}
      </p>
      <div className="mt-3 max-h-[60vh] overflow-y-auto">
        <NoteContent html={note.html} />
      </div>
      {note.tags.length ? <p className="mt-2 text-sm">{note.tags.map((t) => `#${t}`).join(" ")}</p> : null}
      <Link to={`/notes/${note.id}`} className={buttonClass("secondary", "mt-3")}>
        Open full page
      </Link>
    </aside>
  );
}

export default function NotesList({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, q, searching, rows, next, view, perms, viewerId, manageAll, side } = loaderData;
  const location = useLocation();
  const back = location.pathname + location.search;
  const error = actionData && "error" in actionData ? actionData.error : null;
  const actions = { canEdit: perms.edit, canDelete: perms.delete, canCreate: perms.create, viewerId, manageAll, back, sideBase: location.pathname };
  return (
    <section>
      <TopBar data={loaderData} back={back} />
      {kind !== "trash" ? <SearchBox q={q} path={location.pathname} /> : null}
      {actionData && "confirmEmpty" in actionData ? <ConfirmEmptyTrash back={back} /> : null}
      {error ? (
        <p role="alert" className="mb-4 text-danger">
          {error}
        </p>
      ) : null}
      <div className={side ? "lg:grid lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-6" : undefined}>
        {side ? <SidePanel note={side} closeTo={location.pathname + (q ? `?q=${encodeURIComponent(q)}` : "")} /> : null}
        <div className="lg:order-first">
          {rows.length === 0 ? <EmptyState data={loaderData} /> : <NoteGroups notes={rows} view={view} grouped={!searching} actions={actions} />}
          {next ? (
            <nav aria-label="Pages" className="mt-6">
              <Link to={`${location.pathname}?after=${encodeURIComponent(next)}`} rel="next" className={buttonClass("secondary")}>
                Older notes
              </Link>
            </nav>
          ) : null}
        </div>
      </div>
    </section>
  );
}

export function meta() {
  return [{ title: "Notes" }];
}
