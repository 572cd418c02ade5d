/**
 * Canonical XML 1.0 (inclusive, without comments), https://www.w3.org/TR/xml-c14n
 * Written here rather than taken from a library because the IRmark has to be
 * computed in the Workers runtime, where the usual C14N packages (which lean
 * on Node's crypto or on libxml) do not run.
 *
 * Canonicalising an element (a document subset: the element and everything
 * under it) renders on that element every namespace declaration in scope,
 * including ones declared on its ancestors, and the xml:* attributes it
 * inherits. That is what makes the GovTalk Body carry
 * xmlns="http://www.govtalk.gov.uk/CM/envelope" when HMRC computes an IRmark.
 */
import { NODE, isElement, type XmlDocument, type XmlElement, type XmlNode } from "./dom";

export interface C14nOptions {
  /** Elements (with their whole subtree) to leave out, e.g. the IRmark itself. */
  exclude?: (el: XmlElement) => boolean;
  /** Canonical XML with comments (the IRmark uses the default, without). */
  comments?: boolean;
}

const XML_NS = "http://www.w3.org/XML/1998/namespace";

export function escapeC14nText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
}

export function escapeC14nAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/\t/g, "&#x9;").replace(/\n/g, "&#xA;").replace(/\r/g, "&#xD;");
}

interface PlainAttr {
  name: string;
  localName: string;
  namespaceURI: string;
  value: string;
}

function isNamespaceDecl(name: string): boolean {
  return name === "xmlns" || name.startsWith("xmlns:");
}

function attributesOf(el: XmlElement): PlainAttr[] {
  const out: PlainAttr[] = [];
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i);
    if (!a) continue;
    out.push({
      name: a.name,
      localName: a.localName ?? a.name.replace(/^.*:/, ""),
      namespaceURI: a.namespaceURI ?? "",
      value: a.value,
    });
  }
  return out;
}

/** Namespace declarations in scope at `el`: prefix ('' for the default) to URI. */
function inScopeNamespaces(el: XmlElement): Map<string, string> {
  const chain: XmlElement[] = [];
  for (let n: XmlNode | null = el; n && isElement(n); n = n.parentNode) chain.unshift(n);
  const scope = new Map<string, string>();
  for (const node of chain) {
    for (const a of attributesOf(node)) {
      if (a.name === "xmlns") scope.set("", a.value);
      else if (a.name.startsWith("xmlns:")) scope.set(a.name.slice(6), a.value);
    }
  }
  return scope;
}

function namespaceDeclsToRender(scope: Map<string, string>, parentRendered: Map<string, string> | null): [string, string][] {
  const out: [string, string][] = [];
  for (const [prefix, uri] of scope) {
    if (prefix === "xml") continue;
    if (prefix === "" && uri === "") {
      // xmlns="" only undoes a non-empty default that an output ancestor rendered.
      if (parentRendered && (parentRendered.get("") ?? "") !== "") out.push(["", ""]);
      continue;
    }
    if (parentRendered && parentRendered.get(prefix) === uri) continue;
    out.push([prefix, uri]);
  }
  // Default namespace first, then by prefix (code point order).
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function compareAttrs(a: PlainAttr, b: PlainAttr): number {
  if (a.namespaceURI !== b.namespaceURI) return a.namespaceURI < b.namespaceURI ? -1 : 1;
  return a.localName < b.localName ? -1 : a.localName > b.localName ? 1 : 0;
}

/** xml:* attributes an apex element inherits from ancestors outside the subset. */
function inheritedXmlAttrs(el: XmlElement): PlainAttr[] {
  const own = new Set(
    attributesOf(el)
      .filter((a) => a.name.startsWith("xml:"))
      .map((a) => a.name),
  );
  const inherited = new Map<string, PlainAttr>();
  for (let n: XmlNode | null = el.parentNode; n && isElement(n); n = n.parentNode) {
    for (const a of attributesOf(n)) {
      if (a.name.startsWith("xml:") && !own.has(a.name) && !inherited.has(a.name)) {
        inherited.set(a.name, { ...a, namespaceURI: XML_NS });
      }
    }
  }
  return [...inherited.values()];
}

function renderElement(el: XmlElement, parentRendered: Map<string, string> | null, options: C14nOptions, out: string[]): void {
  const scope = inScopeNamespaces(el);
  const decls = namespaceDeclsToRender(scope, parentRendered);
  const attrs = attributesOf(el).filter((a) => !isNamespaceDecl(a.name));
  if (parentRendered === null) attrs.push(...inheritedXmlAttrs(el));
  attrs.sort(compareAttrs);

  out.push("<", el.nodeName);
  for (const [prefix, uri] of decls) {
    out.push(" ", prefix === "" ? "xmlns" : `xmlns:${prefix}`, '="', escapeC14nAttr(uri), '"');
  }
  for (const a of attrs) out.push(" ", a.name, '="', escapeC14nAttr(a.value), '"');
  out.push(">");

  // What an output descendant compares its own declarations against.
  const rendered = new Map(parentRendered ?? []);
  for (const [prefix, uri] of decls) rendered.set(prefix, uri);
  if (!rendered.has("")) rendered.set("", "");

  renderChildren(el, rendered, options, out);
  out.push("</", el.nodeName, ">");
}

function renderChildren(parent: XmlNode, rendered: Map<string, string>, options: C14nOptions, out: string[]): void {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    switch (n.nodeType) {
      case NODE.ELEMENT: {
        const el = n as XmlElement;
        if (options.exclude?.(el)) break;
        renderElement(el, rendered, options, out);
        break;
      }
      case NODE.TEXT:
      case NODE.CDATA:
        out.push(escapeC14nText(n.nodeValue ?? ""));
        break;
      case NODE.PROCESSING_INSTRUCTION: {
        const data = n.nodeValue ?? "";
        out.push("<?", n.nodeName, data ? ` ${data}` : "", "?>");
        break;
      }
      case NODE.ENTITY_REFERENCE:
        renderChildren(n, rendered, options, out);
        break;
      case NODE.COMMENT:
        if (options.comments) out.push("<!--", n.nodeValue ?? "", "-->");
        break;
      default:
        break;
    }
  }
}

/** Canonical form of an element subtree (document subset) or of a whole document. */
export function canonicalize(node: XmlElement | XmlDocument, options: C14nOptions = {}): string {
  const out: string[] = [];
  if (node.nodeType === NODE.DOCUMENT) {
    let seenRoot = false;
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === NODE.ELEMENT) {
        renderElement(n as XmlElement, null, options, out);
        seenRoot = true;
      } else if (n.nodeType === NODE.PROCESSING_INSTRUCTION || (n.nodeType === NODE.COMMENT && options.comments)) {
        const data = n.nodeValue ?? "";
        const text = n.nodeType === NODE.COMMENT ? `<!--${data}-->` : `<?${n.nodeName}${data ? ` ${data}` : ""}?>`;
        // Outside the root element, C14N separates nodes from the root with a line feed.
        out.push(seenRoot ? `\n${text}` : `${text}\n`);
      }
    }
    return out.join("");
  }
  renderElement(node as XmlElement, null, options, out);
  return out.join("");
}
