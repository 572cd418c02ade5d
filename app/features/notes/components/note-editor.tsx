import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { useHydrated } from "~/utils/use-hydrated";
import { buttonClass } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { COLOUR_NAMES, NOTE_COLOURS, NOTE_LIMITS, SUGGESTED_TAGS } from "../note-rules";

export type EditorValues = { title: string; body: string; tags: string; color: string; folderId: string };
export type EditorErrors = Partial<Record<keyof EditorValues | "form", string>>;

/**
 * The note form. Without JavaScript the content is a textarea whose blank-line-separated blocks
 * become paragraphs; every button is a real submit answered by the page's action.
 */
// eslint-disable-next-line max-lines-per-function -- notes feature, reworked by its owner in parallel
export function NoteEditor({
  values,
  errors,
  folders,
  hidden,
  saveLabel,
  draftButton,
}: {
  values: EditorValues;
  errors: EditorErrors;
  folders: { id: string; name: string }[];
  hidden: Record<string, string>;
  saveLabel: string;
  draftButton: boolean;
}) {
  const saving = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  // With JavaScript, Save Note waits for a title or some content; without it the server says what is missing.
  const [filled, setFilled] = useState(Boolean(values.title.trim() || values.body.trim()));
  const described = (name: keyof EditorValues) => (errors[name] ? `note-${name}-error` : undefined);
  return (
    <Form
      method="post"
      className="space-y-4"
      aria-label="Note"
      onInput={(e) => {
        const form = e.currentTarget;
        const text = (name: string) => String(new FormData(form).get(name) ?? "").trim();
        setFilled(Boolean(text("title") || text("body")));
      }}
    >
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
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
      <Field id="note-body" label="Content" error={errors.body} hint="Leave a blank line between paragraphs.">
        <textarea
          id="note-body"
          name="body"
          defaultValue={values.body}
          rows={12}
          className={inputClass}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? "note-body-error note-body-description" : "note-body-description"}
        />
      </Field>
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
          <select id="note-folderId" name="folderId" defaultValue={values.folderId} className={inputClass} aria-describedby={described("folderId")}>
            <option value="">No folder</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
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
