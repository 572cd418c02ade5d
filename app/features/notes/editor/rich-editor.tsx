import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { inputClass } from "~/components/ui/field";
import { noteProseClass } from "../components/note-content";
import { cleanNoteHtml } from "./clean-html";
import { commandFor, EDITOR_COMMANDS, shortcutText, type EditorCommand } from "./commands";

type Props = {
  id: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  /** The note's HTML to start from (already through the server's allow-list). */
  initialHtml: string;
};

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

function activeStates(): Record<string, boolean> {
  return Object.fromEntries(EDITOR_COMMANDS.map((c) => [c.id, c.active()]));
}

/** Buttons for the commands, one tab stop: arrow keys, Home and End move between them. */
function Toolbar({ editorId, active, onCommand }: { editorId: string; active: Record<string, boolean>; onCommand: (c: EditorCommand) => void }) {
  const [focus, setFocus] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const mac = isMac();
  const move = (to: number) => {
    const n = EDITOR_COMMANDS.length;
    const next = (to + n) % n;
    setFocus(next);
    buttons.current[next]?.focus();
  };
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      aria-controls={editorId}
      className="flex flex-wrap gap-1 rounded-t-brand border border-b-0 border-line bg-surface p-1"
      onKeyDown={(e) => {
        const keys: Record<string, number> = { ArrowRight: focus + 1, ArrowLeft: focus - 1, Home: 0, End: EDITOR_COMMANDS.length - 1 };
        if (e.key in keys) {
          e.preventDefault();
          move(keys[e.key]!);
        }
      }}
    >
      {EDITOR_COMMANDS.map((c, i) => (
        <button
          key={c.id}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          tabIndex={i === focus ? 0 : -1}
          aria-label={c.label}
          aria-pressed={c.id === "clear" ? undefined : Boolean(active[c.id])}
          aria-keyshortcuts={shortcutText(c, mac, true)}
          title={`${c.label} (${shortcutText(c, mac)})`}
          // Keeps the selection in the text while the button is pressed.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            setFocus(i);
            onCommand(c);
          }}
          className="min-w-9 rounded-brand px-2 py-1 text-sm font-semibold hover:bg-elevated aria-pressed:bg-accent aria-pressed:text-accent-foreground"
        >
          <span aria-hidden="true">{c.glyph}</span>
        </button>
      ))}
    </div>
  );
}

/**
 * The rich-text content field: a toolbar over an editable region, whose HTML travels in the hidden
 * `content` field of the same form. The server sanitises what it receives; a paste is cleaned to
 * the note subset on the way in.
 */
export function RichEditor({ id, labelId, describedBy, invalid, initialHtml }: Props) {
  const editor = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // Set once: React leaves the editable region's DOM alone after the first render.
  const [start] = useState(() => cleanNoteHtml(initialHtml));
  const [active, setActive] = useState<Record<string, boolean>>({});
  const [message, setMessage] = useState("");

  // Before any effect of the page runs (the draft keeper reads the form in one).
  useLayoutEffect(() => {
    if (field.current) field.current.value = start;
  }, [start]);

  useEffect(() => {
    document.execCommand("defaultParagraphSeparator", false, "p");
    document.execCommand("styleWithCSS", false, "false");
    const onSelection = () => {
      const at = document.getSelection()?.anchorNode ?? null;
      if (editor.current && at && editor.current.contains(at)) setActive(activeStates());
    };
    document.addEventListener("selectionchange", onSelection);
    return () => document.removeEventListener("selectionchange", onSelection);
  }, []);

  const sync = () => {
    if (editor.current && field.current) field.current.value = editor.current.innerHTML;
    setActive(activeStates());
  };
  const run = (c: EditorCommand) => {
    editor.current?.focus();
    setMessage(c.run((q, s) => window.prompt(q, s)) ?? "");
    sync();
  };

  return (
    <div>
      <Toolbar editorId={id} active={active} onCommand={run} />
      <div
        ref={editor}
        id={id}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        contentEditable
        suppressContentEditableWarning
        className={`${inputClass} min-h-64 rounded-t-none ${noteProseClass}`}
        dangerouslySetInnerHTML={{ __html: start }}
        onInput={sync}
        onKeyDown={(e) => {
          const c = commandFor(e);
          if (!c) return;
          e.preventDefault();
          run(c);
        }}
        onPaste={(e) => {
          const html = e.clipboardData.getData("text/html");
          e.preventDefault();
          if (html) document.execCommand("insertHTML", false, cleanNoteHtml(html));
          else document.execCommand("insertText", false, e.clipboardData.getData("text/plain"));
        }}
      />
      {/* No value prop: React would put its default back on every render, over what was typed. */}
      <input ref={field} type="hidden" name="content" />
      <p role="status" className="text-sm text-danger">
        {message}
      </p>
    </div>
  );
}
