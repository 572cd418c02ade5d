/**
 * Note HTML through an allow-list before it is stored: the formatting a note needs (paragraphs,
 * headings, emphasis, lists, quotes, code, links) and nothing else. Every attribute but a link's
 * href and title is dropped, links only go to http(s) or mailto, and the bodies of script, style,
 * SVG, MathML and embedded-content elements are removed with them.
 */
import xss, { type IFilterXSSOptions } from "xss";

// The package is CommonJS: its module object is the filter function with the class and helpers attached.
const { FilterXSS, escapeAttrValue } = xss as unknown as {
  FilterXSS: new (options: IFilterXSSOptions) => { process(html: string): string };
  escapeAttrValue: (value: string) => string;
};

const ALLOWED: Record<string, string[]> = {
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

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

const filter = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: [
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
  ],
  allowCommentTag: false,
  css: false,
  onTagAttr(tag, name, value) {
    if (tag === "a" && name === "href") {
      // Entities and control characters could hide a scheme ('jav&#x09;ascript:'); decode them before judging.
      const plain = value
        .replace(/&#x?([0-9a-f]+);?/gi, (ref: string, n: string) => {
          // A reference past the last code point names no character: it cannot make a safe scheme.
          const code = parseInt(n, /x/i.test(ref) ? 16 : 10);
          return code <= 0x10ffff ? String.fromCodePoint(code) : "\u0000";
        })
        .replace(/[\s\p{Cc}]/gu, "");
      return SAFE_URL.test(plain) ? `href="${escapeAttrValue(value)}" rel="noopener noreferrer nofollow"` : "";
    }
    return undefined;
  },
});

export function sanitiseNoteHtml(html: string): string {
  return filter.process(html).trim();
}
