import { useState } from "react";
import { Form, Link } from "react-router";
import { useHydrated } from "~/utils/use-hydrated";
import { buttonClass } from "~/components/ui/button";
import { BRAND_COLOUR, DEFAULT_NOTE_TITLE, initials, preview, sharedWithLabel } from "../note-rules";

export type ListNote = {
  id: string;
  title: string;
  /** Plain text, or for a search result its snippet split into runs and matches. */
  text: string;
  snippet?: { text: string; hit: boolean }[];
  titleParts?: { text: string; hit: boolean }[];
  hasLinks: boolean;
  tags: string[];
  color: string | null;
  folderName: string | null;
  isPinned: boolean;
  isFavorite: boolean;
  ownerId: string;
  ownerName: string | null;
  sharedCount: number;
  updatedAt: number;
  deletedAt: number | null;
  /** Its group heading (Today, Yesterday, This Week, month and year), a card's date and a list row's date. */
  group: string;
  day: string;
  when: string;
};

export type ListActions = {
  canEdit: boolean;
  canDelete: boolean;
  /** May create notes, so may duplicate one. */
  canCreate: boolean;
  viewerId: string;
  manageAll: boolean;
  back: string;
  /** The list's path, for opening a note beside it (side mode); absent where there is no side view. */
  sideBase?: string;
};

function Parts({ parts }: { parts: { text: string; hit: boolean }[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-black">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

function NoteButtons({ note, actions }: { note: ListNote; actions: ListActions }) {
  const mine = note.ownerId === actions.viewerId || actions.manageAll;
  const hidden = (
    <>
      <input type="hidden" name="noteId" value={note.id} />
      <input type="hidden" name="back" value={actions.back} />
    </>
  );
  if (note.deletedAt !== null) {
    return (
      <div className="mt-2 flex flex-wrap gap-2">
        {actions.canDelete && mine ? (
          <>
            <Form method="post">
              {hidden}
              <button type="submit" name="intent" value="restore" className={buttonClass("secondary", "px-2 py-1")}>
                Restore
              </button>
            </Form>
            <Form method="post">
              {hidden}
              <button type="submit" name="intent" value="purge" className={buttonClass("danger", "px-2 py-1")}>
                Delete permanently
              </button>
            </Form>
          </>
        ) : null}
      </div>
    );
  }
  if (!actions.canEdit) return null;
  return (
    <div className="mt-2 flex flex-wrap gap-2">
      <Form method="post">
        {hidden}
        <button type="submit" name="intent" value={note.isPinned ? "unpin" : "pin"} className={buttonClass("ghost", "px-2 py-1")} aria-pressed={note.isPinned}>
          {note.isPinned ? "Unpin" : "Pin"}
          <span className="sr-only"> {note.title || DEFAULT_NOTE_TITLE}</span>
        </button>
      </Form>
      <Form method="post">
        {hidden}
        <button
          type="submit"
          name="intent"
          value={note.isFavorite ? "unfavourite" : "favourite"}
          className={buttonClass("ghost", "px-2 py-1")}
          aria-pressed={note.isFavorite}
        >
          {note.isFavorite ? "Remove bookmark" : "Bookmark"}
          <span className="sr-only"> {note.title || DEFAULT_NOTE_TITLE}</span>
        </button>
      </Form>
    </div>
  );
}

function Meta({ note, viewerId, list }: { note: ListNote; viewerId: string; list: boolean }) {
  const shownTags = list ? 5 : 3;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-xs opacity-80">
      {note.tags.slice(0, shownTags).map((t) => (
        <span key={t} className="rounded-full border border-line px-2 py-0.5">
          #{t}
        </span>
      ))}
      {note.tags.length > shownTags ? <span>+{note.tags.length - shownTags}</span> : null}
      {note.ownerId !== viewerId && note.ownerName ? (
        <span title={note.ownerName} aria-label={`By ${note.ownerName}`} className="rounded-full bg-surface px-1.5 py-0.5 font-semibold">
          {initials(note.ownerName)}
        </span>
      ) : null}
      {note.folderName ? <span>{note.folderName}</span> : null}
      {note.sharedCount > 0 ? <span>{sharedWithLabel(note.sharedCount)}</span> : null}
      <span>{list ? note.when : note.day}</span>
    </div>
  );
}

const menuItem = "block w-full rounded-brand px-3 py-1.5 text-left text-sm hover:bg-surface";

/** Copies the note's words (with JavaScript only: the clipboard needs it). */
function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  if (!useHydrated()) return null;
  return (
    <button
      type="button"
      className={menuItem}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : "Copy text"}
    </button>
  );
}

/**
 * A note's actions menu: a <details> that works without JavaScript; with it, a right-click on the
 * card opens it too (the context menu) and Escape closes it.
 */
function NoteMenu({ note, actions }: { note: ListNote; actions: ListActions }) {
  const title = note.title || DEFAULT_NOTE_TITLE;
  const live = note.deletedAt === null;
  return (
    <details
      className="relative"
      data-note-menu
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.currentTarget.open = false;
        e.currentTarget.querySelector("summary")?.focus();
      }}
    >
      <summary className="cursor-pointer list-none rounded-brand px-2 py-0.5 text-lg leading-none hover:bg-surface">
        <span aria-hidden="true">⋯</span>
        <span className="sr-only">Actions for {title}</span>
      </summary>
      <div className="absolute right-0 z-10 mt-1 w-48 rounded-brand border border-line bg-elevated p-1 shadow-lg">
        <Link to={`/notes/${note.id}`} className={menuItem}>
          Open
        </Link>
        {actions.sideBase && live ? (
          <Link to={`${actions.sideBase}?side=${note.id}`} className={menuItem}>
            Open beside the list
          </Link>
        ) : null}
        {actions.canCreate && live ? (
          <Form method="post">
            <input type="hidden" name="noteId" value={note.id} />
            <input type="hidden" name="back" value={actions.back} />
            <button type="submit" name="intent" value="duplicate" className={menuItem}>
              Duplicate
            </button>
          </Form>
        ) : null}
        <CopyButton text={[note.title, note.text].filter(Boolean).join("\n\n")} />
      </div>
    </details>
  );
}

/** The right-click menu of a card: its actions menu, opened where the card is. */
function openMenu(e: React.MouseEvent<HTMLLIElement>) {
  const menu = e.currentTarget.querySelector<HTMLDetailsElement>("details[data-note-menu]");
  if (!menu) return;
  e.preventDefault();
  menu.open = true;
  menu.querySelector<HTMLElement>("a, button")?.focus();
}

function NoteItem({ note, actions, view }: { note: ListNote; actions: ListActions; view: "grid" | "list" }) {
  const colour = note.color && note.color !== BRAND_COLOUR ? note.color : null;
  return (
    <li data-note-id={note.id} className="rounded-brand border border-line bg-elevated" onContextMenu={openMenu}>
      {colour ? <div className="h-1.5 rounded-t-brand" style={{ backgroundColor: colour }} /> : null}
      <div className="p-3">
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 font-semibold break-words">
            <Link to={`/notes/${note.id}`} className="hover:underline">
              {note.titleParts ? <Parts parts={note.titleParts} /> : note.title || DEFAULT_NOTE_TITLE}
            </Link>
          </h3>
          <span className="flex shrink-0 items-start gap-1 text-xs">
            {note.isFavorite ? <span aria-label="Bookmarked">★</span> : null}
            {note.isPinned ? <span aria-label="Pinned"> ●</span> : null}
            <NoteMenu note={note} actions={actions} />
          </span>
        </div>
        <p className="mt-1 text-sm break-words opacity-80">
          {note.snippet ? <Parts parts={note.snippet} /> : preview(note.text, view === "grid" ? 160 : 100) || "No content"}
          {note.hasLinks ? <span aria-label="Has links"> 🔗</span> : null}
        </p>
        <Meta note={note} viewerId={actions.viewerId} list={view === "list"} />
        <NoteButtons note={note} actions={actions} />
      </div>
    </li>
  );
}

/** Notes under their group headings (Today, Yesterday, This Week, month and year), in the order given. */
export function NoteGroups({ notes, actions, view, grouped = true }: { notes: ListNote[]; actions: ListActions; view: "grid" | "list"; grouped?: boolean }) {
  const groups: { label: string; notes: ListNote[] }[] = [];
  for (const n of notes) {
    const label = grouped ? (n.isPinned && n.deletedAt === null ? "Pinned" : n.group) : "Results";
    const last = groups[groups.length - 1];
    if (last && last.label === label) last.notes.push(n);
    else groups.push({ label, notes: [n] });
  }
  const listClass = view === "grid" ? "grid gap-3 sm:grid-cols-2 lg:grid-cols-3" : "flex flex-col gap-2";
  return (
    <div className="space-y-6">
      {groups.map((g, i) => (
        <section key={`${g.label}-${i}`} aria-label={g.label}>
          <h2 className="mb-2 text-sm font-semibold tracking-wide uppercase opacity-70">{g.label}</h2>
          <ul className={listClass}>
            {g.notes.map((n) => (
              <NoteItem key={n.id} note={n} actions={actions} view={view} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export function ViewToggle({ view, back }: { view: "grid" | "list"; back: string }) {
  return (
    <Form method="post" className="flex gap-1" aria-label="Layout">
      <input type="hidden" name="intent" value="view" />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        name="view"
        value="grid"
        aria-pressed={view === "grid"}
        className={buttonClass(view === "grid" ? "primary" : "secondary", "px-3 py-1")}
      >
        Grid
      </button>
      <button
        type="submit"
        name="view"
        value="list"
        aria-pressed={view === "list"}
        className={buttonClass(view === "list" ? "primary" : "secondary", "px-3 py-1")}
      >
        List
      </button>
    </Form>
  );
}
