/** Reading the note form's fields (with or without JavaScript) into the data code's input. */
import type { NoteInput } from "./notes.server";
import type { EditorValues } from "./components/note-editor";
import { textToHtml } from "./note-rules";

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** The fields as typed, to show back on a refusal. */
export function editorValues(form: FormData): EditorValues {
  return { title: str(form, "title"), body: str(form, "body"), tags: str(form, "tags"), color: str(form, "color"), folderId: str(form, "folderId") };
}

/** The note as the data code takes it: a rich editor posts `content` (HTML, sanitised there); the textarea's text becomes paragraphs. */
export function noteInput(form: FormData): NoteInput {
  const content = form.has("content") ? str(form, "content") : textToHtml(str(form, "body"));
  return { title: str(form, "title"), content, tags: str(form, "tags"), color: str(form, "color") || null, folderId: str(form, "folderId") || null };
}
