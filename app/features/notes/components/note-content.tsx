/** How note HTML looks, in the reader and in the rich editor alike (the rules are in app.css: they cost no JavaScript). */
export const noteProseClass = "note-prose";

/**
 * A note's content as formatted text for someone reading it. `html` must come from the server's
 * allow-list on the way out (the loader sanitises again; stored content is never trusted as is).
 */
export function NoteContent({ html }: { html: string }) {
  if (!html) return <p className="opacity-70">No content</p>;
  return <div className={noteProseClass} data-testid="note-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
