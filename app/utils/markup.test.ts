import fc from "fast-check";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { escapeHtml, markup } from "./markup";

/** The markup as a browser reads it, inside a table row (where the lists put it). */
function cells(html: string) {
  const { document } = parseHTML(`<!doctype html><html><body><table><tbody><tr>${html}</tr></tbody></table></body></html>`);
  return document;
}

describe("markup", () => {
  it("keeps a value that tries to close its attribute or open a tag as text", () => {
    const hostile = `"><img src=x onerror="alert(1)"><script>alert('x')</script>&amp;`;
    const doc = cells(markup`<td title="${hostile}"><a href="/cis/subcontractors/1">${hostile}</a></td>`.__html);
    expect(doc.querySelectorAll("img, script").length).toBe(0);
    const cell = doc.querySelector("td");
    expect(cell?.getAttribute("title")).toBe(hostile);
    expect(cell?.querySelector("a")?.textContent).toBe(hostile);
    expect(cell?.children.length).toBe(1);
  });

  it("reads back any text exactly, in an attribute and between tags, and adds no element", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.constantFrom(..."\"'&<>;#=/ amp"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 40 }),
        (text) => {
          // A browser drops NUL and folds CR LF: markup is for text a form accepted, which has neither.
          fc.pre(!/[\0\r]/.test(text));
          const doc = cells(markup`<td data-value="${text}">${text}</td>`.__html);
          const cell = doc.querySelector("td");
          expect(doc.querySelectorAll("td *").length).toBe(0);
          expect(cell?.getAttribute("data-value")).toBe(text);
          expect(cell?.textContent).toBe(text);
        },
      ),
    );
  });

  it("keeps nested markup as markup, joins lists, writes numbers and leaves out nothing-values", () => {
    const badge = markup`<span class="pill">Active</span>`;
    const out = markup`<td>${badge}${[markup`<b>${"a<b"}</b>`, "&", 25]}${null}${undefined}${false}</td>`;
    expect(out.__html).toBe(`<td><span class="pill">Active</span><b>a&lt;b</b>&amp;25</td>`);
  });

  it("escapes the five characters that matter and returns other text as it is", () => {
    expect(escapeHtml(`a & b < c > d " e ' f`)).toBe("a &amp; b &lt; c &gt; d &quot; e &#x27; f");
    const plain = "Plain Roofing Ltd · 20%";
    expect(escapeHtml(plain)).toBe(plain);
  });
});
