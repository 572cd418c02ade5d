import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { useHydrated } from "~/utils/use-hydrated";
import { buttonClass } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { COLOUR_NAMES, NOTE_COLOURS, NOTE_LIMITS, SUGGESTED_TAGS, textToHtml } from "../note-rules";
import type { EditorValues, LocalDraft } from "../editor/local-draft";

/** The form's fields (`body` is the textarea's text, `content` the same note as sanitised HTML), kept with the browser drafts that restore them. */
export type { EditorValues };
export type EditorErrors = Partial<Record<keyof EditorValues | "form", string>>;

type Kit = typeof import("../editor/kit");
type Loaded = { kit: Kit; start: string };

/**
 * The rich editor and the browser drafts, fetched once the page has hydrated so that they never
 * weigh on its first load. `start` is the HTML of the note's values (a restored draft replaces it);
 * what the person typed in the textarea before the editor came is added when the editor is drawn.
 */
function useEditorKit(values: EditorValues) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let live = true;
    void import("../editor/kit").then((kit) => {
      if (live) setLoaded({ kit, start: values.content || textToHtml(values.body) });
    });
    return () => {
      live = false;
    };
    // Loaded once per editor; the values it starts from are the first ones.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return [loaded, setLoaded] as const;
}

/** The content: the rich editor once loaded, else the textarea whose blank-line-separated blocks become paragraphs. */
function ContentField({
  loaded,
  values,
  error,
  typed,
  onType,
}: {
  loaded: Loaded | null;
  values: EditorValues;
  error?: string;
  /** What the textarea holds once the person typed in it (null: untouched). */
  typed: string | null;
  onType: (text: string) => void;
}) {
  if (loaded) {
    const { RichEditor } = loaded.kit;
    // The textarea's text as of its last input: the editor starts from it, whenever in the loading of
    // its code the person typed (it was read when the code arrived, and text typed after that but
    // before the swap was lost). The editor reads its start once.
    const start = typed !== null && typed !== values.body ? textToHtml(typed) : loaded.start;
    return (
      <div className="space-y-1">
        <div id="note-body-label" className="block text-sm font-medium">
          Content
        </div>
        <RichEditor id="note-body" labelId="note-body-label" describedBy={error ? "note-body-error" : undefined} invalid={Boolean(error)} initialHtml={start} />
        {error ? (
          <p id="note-body-error" className="text-sm text-danger" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <Field id="note-body" label="Content" error={error} hint="Leave a blank line between paragraphs.">
      <textarea
        onChange={(e) => onType(e.currentTarget.value)}
        id="note-body"
        name="body"
        defaultValue={values.body}
        rows={12}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "note-body-error note-body-description" : "note-body-description"}
      />
    </Field>
  );
}

function TagsField({ values }: { values: EditorValues }) {
  return (
    <>
      <Field id="note-tags" label="Tags" hint={`Separate tags with commas. Suggestions: ${SUGGESTED_TAGS.slice(0, 8).join(", ")}.`}>
        <input
          id="note-tags"
          name="tags"
          defaultValue={values.tags}
          list="note-tag-suggestions"
          className={inputClass}
          aria-describedby="note-tags-description"
        />
      </Field>
      <datalist id="note-tag-suggestions">
        {SUGGESTED_TAGS.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
    </>
  );
}

function ColourAndFolder({ values, errors, folders }: { values: EditorValues; errors: EditorErrors; folders: { id: string; name: string }[] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="note-color" label="Colour">
        <select id="note-color" name="color" defaultValue={values.color} className={inputClass}>
          {NOTE_COLOURS.map((c) => (
            <option key={c} value={c}>
              {COLOUR_NAMES[c]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="note-folderId" label="Folder" error={errors.folderId}>
        <select
          id="note-folderId"
          name="folderId"
          defaultValue={values.folderId}
          className={inputClass}
          aria-describedby={errors.folderId ? "note-folderId-error" : undefined}
        >
          <option value="">No folder</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

/** Whether the form holds a title or some content (Save Note waits for one with JavaScript). */
function isFilled(form: HTMLFormElement): boolean {
  const fd = new FormData(form);
  const text = (name: string) => String(fd.get(name) ?? "").trim();
  return Boolean(
    text("title") ||
    text("body") ||
    text("content")
      .replace(/<[^>]*>|&nbsp;/g, "")
      .trim(),
  );
}

type EditorProps = {
  values: EditorValues;
  errors: EditorErrors;
  folders: { id: string; name: string }[];
  hidden: Record<string, string>;
  saveLabel: string;
  draftButton: boolean;
  /** Where this browser keeps the draft of this form (per tenant, person and note). */
  draftKey: string;
};

/**
 * The note form. Without JavaScript the content is a textarea whose blank-line-separated blocks
 * become paragraphs; every button is a real submit answered by the page's action. With it, the
 * rich editor replaces the textarea (posting HTML in `content`) and drafts are kept in the browser.
 */
export function NoteEditor(props: EditorProps) {
  const { errors, folders, hidden, saveLabel, draftButton, draftKey } = props;
  const saving = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const [typed, setTyped] = useState<string | null>(null);
  const baseline = useRef<LocalDraft | null>(null);
  const [shown, setShown] = useState({ values: props.values, round: 0 });
  const { values } = shown;
  const [loaded, setLoaded] = useEditorKit(values);
  const [filled, setFilled] = useState(Boolean(values.title.trim() || values.body.trim()));
  const described = (name: keyof EditorValues) => (errors[name] ? `note-${name}-error` : undefined);
  const DraftKeeper = loaded?.kit.DraftKeeper;
  return (
    <Form key={shown.round} ref={form} method="post" className="space-y-4" aria-label="Note" onInput={(e) => setFilled(isFilled(e.currentTarget))}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {DraftKeeper ? (
        <DraftKeeper
          form={form}
          storageKey={draftKey}
          baseline={baseline}
          values={values}
          onRestore={(v) => {
            setLoaded((l) => (l ? { ...l, start: v.content } : l));
            setTyped(null);
            setShown((s) => ({ values: v, round: s.round + 1 }));
            setFilled(Boolean(v.title.trim() || v.body.trim()));
          }}
        />
      ) : null}
      {errors.form ? (
        <p role="alert" className="rounded-brand border border-danger p-3 text-danger">
          {errors.form}
        </p>
      ) : null}
      <Field id="note-title" label="Title" error={errors.title}>
        <input
          id="note-title"
          name="title"
          defaultValue={values.title}
          maxLength={NOTE_LIMITS.title}
          className={inputClass}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={described("title")}
        />
      </Field>
      <ContentField loaded={loaded} values={values} error={errors.body} typed={typed} onType={setTyped} />
      <TagsField values={values} />
      <ColourAndFolder values={values} errors={errors} folders={folders} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" name="intent" value="save" className={buttonClass("primary")} disabled={saving || (hydrated && !filled)}>
          {saving ? "Saving..." : saveLabel}
        </button>
        {draftButton ? (
          <button type="submit" name="intent" value="save-draft" className={buttonClass("secondary")}>
            Save draft
          </button>
        ) : null}
      </div>
    </Form>
  );
}
