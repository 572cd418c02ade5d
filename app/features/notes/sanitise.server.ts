/**
 * Note HTML through an allow-list before it is stored: the formatting a note needs (paragraphs,
 * headings, emphasis, lists, quotes, code, links) and nothing else. Every attribute but a link's
 * href and title is dropped, links only go to http(s) or mailto, and the bodies of script, style,
 * SVG, MathML and embedded-content elements are removed with them.
 */
import xss, { type IFilterXSSOptions } from "xss";
import { isSafeHref, NOTE_HTML_DROPPED, NOTE_HTML_TAGS } from "./html-allow-list";

// The package is CommonJS: its module object is the filter function with the class and helpers attached.
const { FilterXSS, escapeAttrValue } = xss as unknown as {
  FilterXSS: new (options: IFilterXSSOptions) => { process(html: string): string };
  escapeAttrValue: (value: string) => string;
};

const filter = new FilterXSS({
  whiteList: NOTE_HTML_TAGS,
  stripIgnoreTag: true,
  stripIgnoreTagBody: [...NOTE_HTML_DROPPED],
  allowCommentTag: false,
  css: false,
  onTagAttr(tag, name, value) {
    if (tag === "a" && name === "href") {
      return isSafeHref(value) ? `href="${escapeAttrValue(value)}" rel="noopener noreferrer nofollow"` : "";
    }
    return undefined;
  },
});

export function sanitiseNoteHtml(html: string): string {
  return filter.process(html).trim();
}
