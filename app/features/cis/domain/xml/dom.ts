import { DOMParser } from "@xmldom/xmldom";
import type { Document as XmlDocument, Element as XmlElement, Node as XmlNode } from "@xmldom/xmldom";

export type { XmlDocument, XmlElement, XmlNode };

export const NODE = {
  ELEMENT: 1,
  ATTRIBUTE: 2,
  TEXT: 3,
  CDATA: 4,
  ENTITY_REFERENCE: 5,
  PROCESSING_INSTRUCTION: 7,
  COMMENT: 8,
  DOCUMENT: 9,
  DOCUMENT_TYPE: 10,
  DOCUMENT_FRAGMENT: 11,
} as const;

export class XmlParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlParseError";
  }
}

/**
 * Parses strictly: xmldom only reports most well-formedness problems through
 * onError, and a message we sign or trust must not be silently "repaired".
 */
export function parseXml(xml: string): XmlDocument {
  let doc: XmlDocument;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new XmlParseError(`Invalid XML: ${message}`);
      },
    }).parseFromString(xml, "text/xml");
  } catch (e) {
    if (e instanceof XmlParseError) throw e;
    throw new XmlParseError(`Invalid XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!doc.documentElement) throw new XmlParseError("Invalid XML: no root element");
  return doc;
}

export function isElement(node: XmlNode | null | undefined): node is XmlElement {
  return !!node && node.nodeType === NODE.ELEMENT;
}

export function childElements(parent: XmlNode): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (isElement(n)) out.push(n);
  return out;
}

export function localNameOf(el: XmlElement): string {
  return el.localName ?? el.nodeName.replace(/^.*:/, "");
}

/** First child element with this local name, whatever its namespace (answers come with and without one). */
export function child(parent: XmlNode | null | undefined, localName: string): XmlElement | null {
  if (!parent) return null;
  return childElements(parent).find((el) => localNameOf(el) === localName) ?? null;
}

export function children(parent: XmlNode | null | undefined, localName: string): XmlElement[] {
  if (!parent) return [];
  return childElements(parent).filter((el) => localNameOf(el) === localName);
}

/** Follows a path of local names from `start`. */
export function path(start: XmlNode | null | undefined, ...names: string[]): XmlElement | null {
  let cur: XmlNode | null | undefined = start;
  for (const name of names) {
    cur = child(cur, name);
    if (!cur) return null;
  }
  return (cur as XmlElement | null) ?? null;
}

export function textOf(el: XmlElement | null | undefined): string | null {
  if (!el) return null;
  return el.textContent ?? "";
}

/** Trimmed text, null when the element is missing or blank. */
export function nonBlankText(el: XmlElement | null | undefined): string | null {
  const t = textOf(el)?.trim();
  return t ? t : null;
}

export function descendants(root: XmlNode, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (node: XmlNode) => {
    for (const el of childElements(node)) {
      if (localNameOf(el) === localName) out.push(el);
      walk(el);
    }
  };
  walk(root);
  return out;
}
