import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalize } from "./c14n";
import { child, parseXml } from "./dom";
import { libxml2C14n } from "./libxml2.test-support";

const docs: [string, string][] = [
  ["attribute order and quoting", `<r b='2' a="1" c = "3"><e/></r>`],
  [
    "namespaces: sorted, superfluous redeclarations dropped, prefixed attributes sorted by URI",
    `<r xmlns:z="urn:z" xmlns:a="urn:a" xmlns="urn:d" a:y="1" z:x="2" b="3" a="4"><a:c xmlns:a="urn:a" xmlns:z="urn:z2"><z:d/></a:c><e xmlns=""/><f xmlns="urn:d"/></r>`,
  ],
  ["default namespace undeclared and redeclared", `<r xmlns="urn:a"><s xmlns=""><t xmlns="urn:b"><u xmlns=""/></t></s></r>`],
  ["escaping in text and attributes", `<r a="x &amp; &lt; &gt; &quot; '&#9;&#10;&#13;" b='"q"'>a &amp; b &lt; c &gt; d " ' &#13; end</r>`],
  ["CDATA becomes escaped text", `<r><![CDATA[<b> & ]]]]><![CDATA[> x]]> stays</r>`],
  [
    "comments dropped, processing instructions kept",
    `<?pi-before data?><!-- c --><r><!-- inner --><?pi  spaced   data ?><?bare?>t</r><?pi-after?><!-- after -->`,
  ],
  ["whitespace kept exactly", `<r>\n  <a>  x  </a>\n\t<b/>\n</r>`],
  ["non-ASCII text", `<r a="£€">£100 — café 𝄞</r>`],
  ["xml:lang and xml:space", `<r xml:lang="en" xml:space="preserve"><s xml:lang="fr">x</s></r>`],
  ["numeric references", `<r>&#65;&#x42;&#x20AC;</r>`],
  ["literal whitespace in attributes is normalised", `<r a="x\ty\nz" b="  two  spaces "/>`],
  ["CRLF line ends become LF", `<r>\r\n a\r b\r\n</r>`],
];

// The reference is the with-comments variant (what `xmllint --c14n` prints), so ours runs with
// comments too; the without-comments form (what the IRmark uses) is checked below.
describe("canonicalize (whole documents) agrees with libxml2's C14N", () => {
  it.each(docs)("%s", (_name, xml) => {
    expect(canonicalize(parseXml(xml), { comments: true })).toBe(libxml2C14n(xml));
  });

  it("drops comments by default", () => {
    const xml = `<?pi-before data?><!-- c --><r><!-- inner -->t<?p?></r><!-- after -->`;
    expect(canonicalize(parseXml(xml))).toBe(`<?pi-before data?>\n<r>t<?p?></r>`);
    expect(canonicalize(parseXml(xml), { comments: true })).toBe(libxml2C14n(xml));
  });
});

describe("canonicalize (element subsets)", () => {
  it("renders the namespaces in scope from ancestors on the apex element", () => {
    const xml = `<a xmlns="urn:env" xmlns:p="urn:p" xmlns:unused="urn:u"><Body><p:x>1</p:x><y xmlns="urn:inner"/></Body></a>`;
    const body = child(parseXml(xml).documentElement!, "Body")!;
    expect(canonicalize(body)).toBe(`<Body xmlns="urn:env" xmlns:p="urn:p" xmlns:unused="urn:u"><p:x>1</p:x><y xmlns="urn:inner"></y></Body>`);
    // Same bytes as libxml2 canonicalising the extracted element with those declarations.
    expect(canonicalize(body)).toBe(libxml2C14n(`<Body xmlns:unused="urn:u" xmlns:p="urn:p" xmlns="urn:env"><p:x>1</p:x><y xmlns="urn:inner"/></Body>`));
  });

  it("inherits xml:* attributes onto the apex", () => {
    const doc = parseXml(`<a xml:lang="en"><b x="1"/></a>`);
    expect(canonicalize(child(doc.documentElement!, "b")!)).toBe(`<b x="1" xml:lang="en"></b>`);
  });

  it("leaves out excluded elements but keeps the whitespace around them", () => {
    const doc = parseXml(`<r>\n  <keep/>\n  <drop><x/></drop>\n</r>`);
    expect(canonicalize(doc.documentElement!, { exclude: (el) => el.nodeName === "drop" })).toBe(`<r>\n  <keep></keep>\n  \n</r>`);
  });
});

// Random documents with the awkward parts (namespaces, attribute order, escapes,
// CDATA, comments) written non-canonically, checked against libxml2.
const nameArb = fc.constantFrom("a", "b", "Item", "x-y", "z1");
const textArb = fc.stringMatching(/^[a-z &<>"'\t\n\r£]{0,12}$/);
const escapeText = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
const escapeAttr = (t: string) =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");

type Gen = { xml: string };
const elementArb: fc.Memo<Gen> = fc.memo((depth) =>
  fc
    .record({
      name: nameArb,
      ns: fc.constantFrom("", "p:", "q:"),
      declare: fc.constantFrom(null, 'xmlns="urn:d1"', 'xmlns=""', 'xmlns:p="urn:p"', 'xmlns:q="urn:q2"'),
      attrs: fc.uniqueArray(fc.record({ name: fc.constantFrom("b", "a", "p:c", "q:a", "zz"), value: textArb }), {
        selector: (a) => a.name,
        maxLength: 3,
      }),
      content:
        depth > 1
          ? fc.array(
              fc.oneof(
                textArb.map((t) => escapeText(t)),
                textArb.map((t) => `<![CDATA[${t.replace(/]]>/g, "")}]]>`),
                fc.constant("<!-- note -->"),
                elementArb(depth - 1).map((g) => g.xml),
              ),
              { maxLength: 4 },
            )
          : fc.array(
              textArb.map((t) => escapeText(t)),
              { maxLength: 1 },
            ),
    })
    .map(({ name, ns, declare, attrs, content }) => {
      const attrText = attrs.map((a) => ` ${a.name}="${escapeAttr(a.value)}"`).join("");
      const open = `${ns}${name}${declare ? ` ${declare}` : ""}${attrText}`;
      const inner = content.join("");
      return { xml: inner === "" ? `<${open}/>` : `<${open}>${inner}</${ns}${name}>` };
    }),
);

describe("canonicalize agrees with libxml2 on random documents", () => {
  it("property", () => {
    fc.assert(
      fc.property(elementArb(3), (g) => {
        const xml = `<root xmlns:p="urn:p" xmlns:q="urn:q">${g.xml}</root>`;
        expect(canonicalize(parseXml(xml), { comments: true })).toBe(libxml2C14n(xml));
        expect(canonicalize(parseXml(xml))).toBe(canonicalize(parseXml(xml), { comments: true }).replace(/<!-- note -->/g, ""));
      }),
      { numRuns: 60 },
    );
  });
});
