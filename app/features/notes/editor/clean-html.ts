/**
 * The browser's copy of the note allow-list, for what enters the editor from outside it (a paste,
 * a restored draft): the same tags, no attributes but a safe link's href and title. The server's
 * sanitiser stays the authority; this keeps the editor from ever holding markup it would drop.
 */
import { isSafeHref, NOTE_HTML_DROPPED, NOTE_HTML_TAGS } from "../html-allow-list";

const DROPPED = new Set<string>(NOTE_HTML_DROPPED);
/** Blocks a paste brings that the allow-list lacks become paragraphs rather than running into their neighbours. */
const AS_PARAGRAPH = new Set(["div", "section", "article", "header", "footer", "h4", "h5", "h6", "td", "th", "dd", "dt", "figcaption"]);

function cleanChildren(from: Node, into: Node, doc: Document) {
  for (const child of [...from.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) {
      into.appendChild(doc.createTextNode(child.textContent ?? ""));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const el = child as Element;
    const tag = el.tagName.toLowerCase();
    if (DROPPED.has(tag)) continue;
    const allowed = NOTE_HTML_TAGS[tag];
    // An unknown element, or a link to nowhere safe, gives way to what it holds.
    if ((!allowed && !AS_PARAGRAPH.has(tag)) || (tag === "a" && !isSafeHref(el.getAttribute("href") ?? ""))) {
      cleanChildren(el, into, doc);
      continue;
    }
    const copy = doc.createElement(allowed ? tag : "p");
    if (tag === "a") {
      copy.setAttribute("href", el.getAttribute("href") ?? "");
      const title = el.getAttribute("title");
      if (title) copy.setAttribute("title", title);
    }
    cleanChildren(el, copy, doc);
    into.appendChild(copy);
  }
}

/** `html` reduced to the note subset. Parsing with DOMParser runs no script and loads nothing. */
export function cleanNoteHtml(html: string): string {
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const out = document.implementation.createHTMLDocument("");
  const root = out.createElement("div");
  cleanChildren(parsed.body, root, out);
  return root.innerHTML;
}
