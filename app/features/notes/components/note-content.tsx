/** How note HTML looks, in the reader and in the rich editor alike. */
export const noteProseClass =
  "break-words [&_a]:text-accent-ink [&_a]:underline [&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-line [&_blockquote]:pl-3 [&_h1]:my-3 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:my-3 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:my-2 [&_h3]:text-lg [&_h3]:font-semibold [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-brand [&_pre]:bg-surface [&_pre]:p-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6";

/**
 * A note's content as formatted text for someone reading it. `html` must come from the server's
 * allow-list on the way out (the loader sanitises again; stored content is never trusted as is).
 */
export function NoteContent({ html }: { html: string }) {
  if (!html) return <p className="opacity-70">No content</p>;
  return <div className={noteProseClass} data-testid="note-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
