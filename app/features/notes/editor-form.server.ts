/** Reading the note form's fields (with or without JavaScript) into the data code's input. */
import type { NoteInput } from "./notes.server";
import type { EditorValues } from "./components/note-editor";
import { htmlToEditableText, textToHtml } from "./note-rules";
import { sanitiseNoteHtml } from "./sanitise.server";

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** The content as posted: the rich editor's HTML (`content`), or the textarea's text as paragraphs. Not yet sanitised. */
function postedHtml(form: FormData): string {
  return form.has("content") ? str(form, "content") : textToHtml(str(form, "body"));
}

/**
 * The fields as typed, to show back on a refusal. The content goes back through the allow-list:
 * the rich editor puts it into the page as markup.
 */
export function editorValues(form: FormData): EditorValues {
  const content = sanitiseNoteHtml(postedHtml(form));
  const body = form.has("content") ? htmlToEditableText(content) : str(form, "body");
  return { title: str(form, "title"), body, content, tags: str(form, "tags"), color: str(form, "color"), folderId: str(form, "folderId") };
}

/** The note as the data code takes it: a rich editor posts `content` (HTML, sanitised there); the textarea's text becomes paragraphs. */
export function noteInput(form: FormData): NoteInput {
  return {
    title: str(form, "title"),
    content: postedHtml(form),
    tags: str(form, "tags"),
    color: str(form, "color") || null,
    folderId: str(form, "folderId") || null,
  };
}
