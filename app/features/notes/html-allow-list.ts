/** The note HTML allow-list, in its own module so that only the sanitiser and the lazily loaded editor carry it. */

/**
 * The markup a note may hold: paragraphs, headings, emphasis, lists, quotes, code and links. Only
 * a link's href and title survive as attributes. Shared by the server's sanitiser (the authority)
 * and the browser's editor, which cleans pasted and restored content to the same subset.
 */
export const NOTE_HTML_TAGS: Record<string, string[]> = {
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  strike: [],
  mark: [],
  code: [],
  pre: [],
  blockquote: [],
  ul: [],
  ol: [],
  li: [],
  a: ["href", "title"],
};

/** Elements removed together with everything inside them. */
export const NOTE_HTML_DROPPED = [
  "script",
  "style",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "textarea",
  "select",
  "title",
  "xmp",
  "noembed",
  "noframes",
] as const;

/** Whether a link target is http(s) or mailto once character references and control characters are taken out ('jav&#x09;ascript:' is not). */
export function isSafeHref(value: string): boolean {
  const plain = value
    .replace(/&#x?([0-9a-f]+);?/gi, (ref: string, n: string) => {
      // A reference past the last code point names no character: it cannot make a safe scheme.
      const code = parseInt(n, /x/i.test(ref) ? 16 : 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "\u0000";
    })
    .replace(/[\s\p{Cc}]/gu, "");
  return /^(https?:\/\/|mailto:)/i.test(plain);
}
