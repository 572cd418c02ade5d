import { linkify } from "../domain/rules";

/** A message's text, escaped by React, with http(s) addresses as links that open apart from the app. */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">
      {linkify(text).map((part, i) =>
        part.kind === "link" ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc" className="underline">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
