import { afterEach, describe, expect, it, vi } from "vitest";
import { SHORT_STRING_LIMIT, ShortTextEncoder } from "./short-text-encoder";

const platform = new TextEncoder();
const short = new ShortTextEncoder();

const ascii = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(32 + (i % 95))).join("");

// Every kind of input React and the app hand an encoder: attribute values, text, markup, and
// the odd cases the platform's argument rules cover.
const corpus: unknown[] = [
  undefined,
  "",
  "a",
  "menu-item hover:bg-surface",
  "\u0000\u0001\u007f",
  ascii(SHORT_STRING_LIMIT - 1),
  ascii(SHORT_STRING_LIMIT),
  ascii(SHORT_STRING_LIMIT + 1),
  ascii(4096),
  "£1,234.56",
  "Ŵelsh Ŵorks Cyf",
  "naïve café",
  "👷 site",
  "\ud83d", // a lone surrogate: the platform writes U+FFFD
  "ab\udc00cd",
  `${ascii(SHORT_STRING_LIMIT - 1)}é`,
  null,
  0,
  12345,
  true,
  { toString: () => "from toString" },
];

describe("ShortTextEncoder", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(corpus.map((input) => [JSON.stringify(String(input)).slice(0, 40), input]))("encodes %s to exactly the platform's bytes", (_, input) => {
    const got = short.encode(input as string);
    const want = platform.encode(input as string);
    expect(got).toBeInstanceOf(Uint8Array);
    expect(got.byteOffset).toBe(0);
    expect(got.buffer.byteLength).toBe(want.byteLength);
    expect([...got]).toEqual([...want]);
  });

  it("encodes short ASCII strings itself and hands everything else to the platform", () => {
    const spy = vi.spyOn(TextEncoder.prototype, "encode");
    short.encode("class-name");
    short.encode(ascii(SHORT_STRING_LIMIT));
    expect(spy).not.toHaveBeenCalled();
    short.encode(ascii(SHORT_STRING_LIMIT + 1));
    short.encode("café");
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("gives every call its own bytes", () => {
    const a = short.encode("same");
    const b = short.encode("same");
    a[0] = 0;
    expect(b[0]).toBe("s".charCodeAt(0));
    expect(a.buffer).not.toBe(b.buffer);
  });

  it("rejects what the platform rejects", () => {
    expect(() => platform.encode(Symbol("x") as unknown as string)).toThrow(TypeError);
    expect(() => short.encode(Symbol("x") as unknown as string)).toThrow(TypeError);
  });

  it("is still a TextEncoder in every other respect", () => {
    expect(short).toBeInstanceOf(TextEncoder);
    expect(short.encoding).toBe("utf-8");
    const into = new Uint8Array(8);
    expect(short.encodeInto("abc", into)).toEqual({ read: 3, written: 3 });
  });
});
