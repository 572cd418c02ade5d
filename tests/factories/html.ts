import { parseHTML } from "linkedom";

/**
 * Pages are read through a DOM, as a reader or assistive technology meets them, rather than by
 * substrings of markup: attribute order, entity escaping and React's text separators then do not
 * decide whether a test passes.
 */
export type Doc = Document;

export function parseHtml(html: string): Doc {
  return parseHTML(html).document as unknown as Doc;
}

/** The response body as a document. */
export async function page(res: Response): Promise<Doc> {
  return parseHtml(await res.text());
}

/** What the page says, as a reader sees it. */
export async function shownText(res: Response): Promise<string> {
  return pageText(await page(res));
}

/** GETs `url` with `browser` and returns the status, the document and its text. */
export async function visit(browser: { get(url: string): Promise<Response> }, url: string) {
  const res = await browser.get(url);
  const doc = await page(res);
  return { status: res.status, doc, text: pageText(doc) };
}

const squash = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** All the text a reader sees in the page body (whitespace collapsed); what "the page says X" checks read. */
export function pageText(doc: Doc): string {
  return squash((doc.body ?? doc.documentElement).textContent);
}

/** The element matching `selector`; throws so a missing element fails the test with its selector. */
export function one(doc: Doc | Element, selector: string): Element {
  const el = doc.querySelector(selector);
  if (!el) throw new Error(`No element matches ${selector}`);
  return el;
}

export function all(doc: Doc | Element, selector: string): Element[] {
  return [...doc.querySelectorAll(selector)];
}

/** Text of the first element matching `selector`, or null when there is none. */
export function textOf(doc: Doc | Element, selector: string): string | null {
  const el = doc.querySelector(selector);
  return el ? squash(el.textContent) : null;
}

/** Texts of every element matching `selector`, in page order. */
export function textsOf(doc: Doc | Element, selector: string): string[] {
  return all(doc, selector).map((el) => squash(el.textContent));
}

const css = (s: string) => s.replace(/["\\]/g, "\\$&");

/** The form control (input, select, textarea) named `name`; with `value`, the one carrying that value (radios, checkboxes). */
export function field(doc: Doc | Element, name: string, value?: string): Element {
  const v = value === undefined ? "" : `[value="${css(value)}"]`;
  return one(doc, `input[name="${css(name)}"]${v}, select[name="${css(name)}"]${v}, textarea[name="${css(name)}"]${v}`);
}

export function hasField(doc: Doc | Element, name: string): boolean {
  return doc.querySelector(`input[name="${css(name)}"], select[name="${css(name)}"], textarea[name="${css(name)}"]`) !== null;
}

/** What the control would submit as rendered: an input's value attribute, a textarea's text, a select's selected option. */
export function valueOf(doc: Doc | Element, name: string): string | null {
  const el = field(doc, name);
  const tag = el.tagName.toLowerCase();
  if (tag === "textarea") return el.textContent ?? "";
  if (tag === "select") {
    const opt = el.querySelector("option[selected]") ?? el.querySelector("option");
    return opt ? (opt.getAttribute("value") ?? squash(opt.textContent)) : null;
  }
  if (el.getAttribute("type") === "radio") {
    const checked = doc.querySelector(`input[name="${css(name)}"][checked]`);
    return checked ? checked.getAttribute("value") : null;
  }
  return el.getAttribute("value");
}

export function isChecked(doc: Doc | Element, name: string, value?: string): boolean {
  return field(doc, name, value).hasAttribute("checked");
}

/** An attribute by name whatever its case: the parser keeps React's camel-cased names (maxLength, autoComplete) as written. */
export function attr(el: Element, name: string): string | null {
  return el.getAttribute(name) ?? el.getAttribute(name.toLowerCase());
}

export function isDisabled(el: Element): boolean {
  return el.hasAttribute("disabled");
}

/** Values of the options a select offers, and which one is selected. */
export function options(doc: Doc | Element, name: string): { value: string; label: string; selected: boolean }[] {
  return all(field(doc, name), "option").map((o) => ({
    value: o.getAttribute("value") ?? "",
    label: squash(o.textContent),
    selected: o.hasAttribute("selected"),
  }));
}

/** Texts of the alerts on the page (role="alert"), in page order. */
export function alerts(doc: Doc | Element): string[] {
  return textsOf(doc, '[role="alert"]');
}

/** Text of the elements a field points at through aria-describedby: the message a reader hears with the field. */
export function describedBy(doc: Doc, name: string, value?: string): string {
  const ids = (field(doc, name, value).getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return ids
    .map((id) => squash(doc.getElementById(id)?.textContent))
    .filter(Boolean)
    .join(" ");
}

/** Text of the first element a field's aria-describedby names: its error (or warning), which comes before its hint. */
export function fieldMessage(doc: Doc, name: string, value?: string): string {
  const [first] = (field(doc, name, value).getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return first ? squash(doc.getElementById(first)?.textContent) : "";
}

/** Whether the field is flagged invalid for assistive technology. */
export function isInvalid(doc: Doc, name: string): boolean {
  return field(doc, name).getAttribute("aria-invalid") === "true";
}

/** The href of each link whose text contains `text`. */
export function linksTo(doc: Doc | Element, text: string): string[] {
  return all(doc, "a[href]")
    .filter((a) => squash(a.textContent).includes(text))
    .map((a) => a.getAttribute("href") ?? "");
}

export function hrefs(doc: Doc | Element, selector = "a[href]"): string[] {
  return all(doc, selector).map((a) => a.getAttribute("href") ?? "");
}
