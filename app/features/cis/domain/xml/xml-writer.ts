import { escapeXml } from "./hmrc-input";

/**
 * A tiny element tree and serialiser. Messages are written indented the way
 * HMRC's own sample is; the IRmark is computed over exactly this text, so the
 * layout only has to be stable, not pretty.
 */
export interface XmlTree {
  name: string;
  attrs?: Record<string, string>;
  /** Text content; '' renders <X></X>, undefined with no children renders <X/>. */
  text?: string;
  children?: (XmlTree | null | undefined | false)[];
}

export const INDENT = "    ";

export function x(name: string, content?: string | (XmlTree | null | undefined | false)[], attrs?: Record<string, string>): XmlTree {
  if (typeof content === "string") return { name, text: content, attrs };
  return { name, children: content, attrs };
}

export function serializeTree(node: XmlTree, depth = 0): string {
  const pad = INDENT.repeat(depth);
  const attrs = Object.entries(node.attrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join("");
  const kids = (node.children ?? []).filter((c): c is XmlTree => Boolean(c));
  if (kids.length > 0) {
    const inner = kids.map((c) => serializeTree(c, depth + 1)).join("\n");
    return `${pad}<${node.name}${attrs}>\n${inner}\n${pad}</${node.name}>`;
  }
  if (node.text !== undefined) return `${pad}<${node.name}${attrs}>${escapeXml(node.text)}</${node.name}>`;
  return `${pad}<${node.name}${attrs}/>`;
}
