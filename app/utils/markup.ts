/**
 * Markup written as a string, for the few places where the server writes the same shape many
 * times per request (the rows of the long lists): React's server renderer encodes every attribute
 * name, value and text separately, and a page of 25 rows is then most of a request's work, while
 * one string is encoded once. Everything interpolated is escaped unless it is already `Html`, so a
 * value can only ever be text or an attribute value: attribute values are always written in double
 * quotes, and URLs put in `href` must be the app's own paths. A result has the shape React's
 * `dangerouslySetInnerHTML` takes.
 */
export type Html = { readonly __html: string };

/** What may be put in a template: text (escaped), numbers, markup, nothing (null/undefined/false), or a list of these. */
export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;
const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const entity = (ch: string): string => ENTITIES[ch] ?? ch;

/** Text made safe between tags and inside a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, entity) : text;
}

function piece(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return escapeHtml(value);
  if (!Array.isArray(value)) return (value as Html).__html;
  let out = "";
  for (const item of value) out += piece(item);
  return out;
}

/** A template of markup: `markup\`<td>${name}</td>\`` escapes `name`; nested `markup` results are kept as they are. */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + (strings[i + 1] ?? "");
  return { __html: out };
}
