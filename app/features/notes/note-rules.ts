/** The notes module's pure rules: limits, palettes, tags, grouping and dates, messages. Client-safe. */

export const NOTE_LIMITS = {
  title: 200,
  /** Characters of stored HTML. */
  content: 100_000,
  tags: 20,
  tag: 40,
  folderName: 80,
  /** Versions kept per note; older ones are dropped when a new one is saved. */
  versionsKept: 50,
  /** Days a note stays in the trash before the daily clean-up deletes it for good. */
  trashDays: 30,
  pageSize: 30,
  draftsShown: 50,
} as const;

export const DEFAULT_NOTE_TITLE = "Untitled Note";
export const DEFAULT_DRAFT_TITLE = "Untitled Draft";

/** The brand colour counts as no colour: it is the default and is not painted. */
export const BRAND_COLOUR = "#00D26A";
export const NOTE_COLOURS = [BRAND_COLOUR, "#3B82F6", "#8B5CF6", "#EC4899", "#F59E0B", "#EF4444", "#10B981"] as const;
export const FOLDER_COLOURS = [BRAND_COLOUR, "#3B82F6", "#8B5CF6", "#EC4899", "#F59E0B", "#EF4444", "#10B981", "#6366F1"] as const;
export const COLOUR_NAMES: Record<string, string> = {
  [BRAND_COLOUR]: "Green (default)",
  "#3B82F6": "Blue",
  "#8B5CF6": "Violet",
  "#EC4899": "Pink",
  "#F59E0B": "Amber",
  "#EF4444": "Red",
  "#10B981": "Emerald",
  "#6366F1": "Indigo",
};

export const SUGGESTED_TAGS = [
  "important",
  "todo",
  "idea",
  "meeting",
  "project",
  "personal",
  "work",
  "urgent",
  "reference",
  "draft",
  "review",
  "followup",
  "research",
  "planning",
  "notes",
] as const;

/** Tags as stored: trimmed, lower case, without a leading '#', de-duplicated in the order given, at most NOTE_LIMITS.tags. */
export function normaliseTags(input: readonly string[] | string): string[] {
  const parts = typeof input === "string" ? input.split(/[,\n]/) : input.flatMap((t) => t.split(","));
  const seen = new Set<string>();
  for (const raw of parts) {
    const tag = raw.trim().replace(/^#+/, "").replace(/\s+/g, " ").toLowerCase().slice(0, NOTE_LIMITS.tag);
    if (tag && !seen.has(tag)) seen.add(tag);
    if (seen.size >= NOTE_LIMITS.tags) break;
  }
  return [...seen];
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Plain text typed without JavaScript as HTML: each blank-line-separated block a paragraph, single line breaks kept. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** The plain text of (already sanitised) note HTML: blocks and line breaks become new lines. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h[1-6]|\/blockquote|\/pre|hr)[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      const named = ENTITIES[e.toLowerCase()];
      if (named) return named;
      if (e.startsWith("#x") || e.startsWith("#X")) return String.fromCodePoint(parseInt(e.slice(2), 16));
      if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
      return m;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A note's HTML as the text a textarea edits (the no-JavaScript editor): paragraphs separated by blank lines. */
export function htmlToEditableText(html: string): string {
  return htmlToText(html.replace(/<\/p>/gi, "</p>\n"));
}

export function preview(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max).trimEnd()}…` : flat;
}

export function hasLinks(html: string): boolean {
  return /<a\s[^>]*href=/i.test(html);
}

export function noteCountLabel(n: number): string {
  return `${n} ${n === 1 ? "note" : "notes"}`;
}

/** Where a browser keeps a person's draft of one note ('new' for the new-note editor): keys begin notesDraft_. */
export function localDraftKey(tenantId: string, userId: string, note: string): string {
  return `notesDraft_${tenantId}_${userId}_${note}`;
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? words[0]![0]! + words[words.length - 1]![0]! : (words[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

/** Why a notes change was refused. */
export const NOTE_ERRORS = {
  not_found: "Note not found",
  empty: "Please add a title or content to save the note",
  version_conflict:
    "Someone else saved this note while you were editing it. Your text is kept below: copy what you need, reload the note and make your change again.",
  no_edit: "You do not have permission to edit notes",
  no_create: "You do not have permission to create notes",
  no_delete: "You do not have permission to delete notes",
  no_share: "You do not have permission to share notes. Please contact your administrator.",
  no_recipients: "Choose at least one person to share with",
  not_in_trash: "The note is not in the trash",
  folder_not_found: "That folder no longer exists",
  folder_name: "Enter a folder name",
  title_too_long: `The title must be ${NOTE_LIMITS.title} characters or fewer`,
  content_too_long: "The note is too long to save",
  version_not_found: "That version is no longer kept",
} as const;
export type NoteErrorCode = keyof typeof NOTE_ERRORS;

/** What the toasts say after a change went through. */
export const NOTE_TOASTS = {
  created: "Note created successfully",
  saved: "Note saved",
  trashed: "Note moved to trash",
  restored: "Note restored from trash",
  deleted: "Note deleted successfully",
  shared: "Note shared successfully",
  bookmarkAdded: "Bookmark added",
  bookmarkRemoved: "Bookmark removed",
  pinned: "Note pinned",
  unpinned: "Note unpinned",
  folderCreated: "Folder created",
  folderSaved: "Folder saved",
  folderDeleted: "Folder deleted successfully",
  draftSaved: "Draft saved",
  draftDeleted: "Draft deleted",
  draftsCleared: "Drafts cleared",
  trashEmpty: "Trash is already empty",
  versionRestored: "Version restored",
  duplicated: "Note duplicated",
} as const;

export function purgedToast(n: number): string {
  return `Permanently deleted ${noteCountLabel(n)}`;
}

export function sharedWithLabel(n: number): string {
  return `Shared with ${n} ${n === 1 ? "user" : "users"}`;
}
