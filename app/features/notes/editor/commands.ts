/**
 * The rich editor's commands: what each toolbar button and keyboard shortcut does to the
 * selection, and whether it is on there (the button's aria-pressed). They drive the browser's
 * own editing commands, which keep undo and redo working.
 */
import { isSafeHref } from "../html-allow-list";
import { escapeHtml } from "../note-rules";

export type EditorCommand = {
  id: string;
  /** The button's accessible name, and what the key hint reads. */
  label: string;
  /** What the button shows. */
  glyph: string;
  /** The shortcut with Ctrl (⌘ on a Mac): the KeyboardEvent.code, with Shift or Alt. */
  key: { code: string; shift?: boolean; alt?: boolean };
  run: (ask: (question: string, suggestion: string) => string | null) => string | null;
  active: () => boolean;
};

const exec = (name: string, value?: string) => document.execCommand(name, false, value);
const state = (name: string) => {
  try {
    return document.queryCommandState(name);
  } catch {
    return false;
  }
};
const block = () => String(document.queryCommandValue("formatBlock") || "").toLowerCase();

function inLink(): HTMLAnchorElement | null {
  const node = document.getSelection()?.anchorNode ?? null;
  const el = node instanceof Element ? node : (node?.parentElement ?? null);
  return el?.closest("a") ?? null;
}

const inline = (id: string, label: string, glyph: string, command: string, code: string, shift = false): EditorCommand => ({
  id,
  label,
  glyph,
  key: { code, shift },
  run: () => (exec(command), null),
  active: () => state(command),
});

/** A block format, toggled back to a paragraph when the block already has it. */
const blockFormat = (tag: string, label: string, glyph: string, code: string): EditorCommand => ({
  id: tag,
  label,
  glyph,
  key: { code, alt: true },
  run: () => (exec("formatBlock", block() === tag ? "p" : tag), null),
  active: () => block() === tag,
});

const list = (id: string, label: string, glyph: string, command: string, code: string): EditorCommand => ({
  id,
  label,
  glyph,
  key: { code, shift: true },
  run: () => (exec(command), null),
  active: () => state(command),
});

/** Asks for the address; a bare domain gets https://. Anything but http(s) or mailto is refused with a message. */
function link(ask: (question: string, suggestion: string) => string | null): string | null {
  if (inLink()) {
    exec("unlink");
    return null;
  }
  const typed = ask("Link address", "https://")?.trim();
  if (!typed || typed === "https://") return null;
  const href = /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(typed) ? `https://${typed}` : typed;
  if (!isSafeHref(href)) return "Links must start with https://, http:// or mailto:";
  // With nothing selected the browser would make an empty link: the address becomes its text.
  if (document.getSelection()?.isCollapsed !== false) exec("insertHTML", `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`);
  else exec("createLink", href);
  return null;
}

export const EDITOR_COMMANDS: EditorCommand[] = [
  inline("bold", "Bold", "B", "bold", "KeyB"),
  inline("italic", "Italic", "I", "italic", "KeyI"),
  inline("underline", "Underline", "U", "underline", "KeyU"),
  inline("strike", "Strikethrough", "S", "strikeThrough", "KeyX", true),
  blockFormat("h1", "Heading 1", "H1", "Digit1"),
  blockFormat("h2", "Heading 2", "H2", "Digit2"),
  blockFormat("h3", "Heading 3", "H3", "Digit3"),
  list("bullets", "Bulleted list", "•", "insertUnorderedList", "Digit8"),
  list("numbers", "Numbered list", "1.", "insertOrderedList", "Digit7"),
  blockFormat("blockquote", "Quote", "❝", "KeyQ"),
  { id: "link", label: "Link", glyph: "🔗", key: { code: "KeyK" }, run: link, active: () => inLink() !== null },
  {
    id: "clear",
    label: "Clear formatting",
    glyph: "Tx",
    key: { code: "Backslash" },
    run: () => {
      if (state("insertUnorderedList")) exec("insertUnorderedList");
      if (state("insertOrderedList")) exec("insertOrderedList");
      exec("removeFormat");
      exec("unlink");
      exec("formatBlock", "p");
      return null;
    },
    active: () => false,
  },
];

/** The shortcut as people read it, e.g. 'Ctrl+Shift+8'; aria-keyshortcuts takes the same form with 'Control'. */
export function shortcutText(c: EditorCommand, mac: boolean, aria = false): string {
  const key = c.key.code.replace(/^Key|^Digit/, "").replace("Backslash", "\\");
  const mod = aria ? (mac ? "Meta" : "Control") : mac ? "⌘" : "Ctrl";
  return [mod, c.key.shift ? "Shift" : "", c.key.alt ? (mac && !aria ? "Option" : "Alt") : "", key].filter(Boolean).join("+");
}

/** The command a key press asks for, if any. */
export function commandFor(e: KeyboardEvent | React.KeyboardEvent): EditorCommand | undefined {
  if (!(e.ctrlKey || e.metaKey)) return undefined;
  return EDITOR_COMMANDS.find((c) => c.key.code === e.code && Boolean(c.key.shift) === e.shiftKey && Boolean(c.key.alt) === e.altKey);
}
