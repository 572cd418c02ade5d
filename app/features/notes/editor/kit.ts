/** What the note form loads after hydration, in one chunk of its own: the rich editor and the browser drafts. */
export { RichEditor } from "./rich-editor";
export { DraftKeeper } from "./draft-keeper";
