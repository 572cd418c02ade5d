import { describe, expect, it } from "vitest";
import { CSV_BOM, csvField, csvRow, neutraliseCell, toCsv, unneutraliseCell } from "./csv";
import { CsvParseError, isBlankRecord, parseCsv } from "./csv-read.server";

describe("neutraliseCell", () => {
  it.each(["=1+1", "+44 7700 900123", "-5", "@SUM(A1)", "\tx", "\rx", '=HYPERLINK("x")'])("prefixes %j with a quote", (v) => {
    expect(neutraliseCell(v)).toBe(`'${v}`);
  });
  it.each(["Alice", "", "1234", "'quoted", " =leading space", "a=b"])("leaves %j alone", (v) => {
    expect(neutraliseCell(v)).toBe(v);
  });
  it("is undone on import only for its own prefix", () => {
    expect(unneutraliseCell("'+447700900123")).toBe("+447700900123");
    expect(unneutraliseCell("'=1")).toBe("=1");
    expect(unneutraliseCell("'tis")).toBe("'tis");
    expect(unneutraliseCell("'")).toBe("'");
  });
});

describe("csvField / csvRow", () => {
  it("quotes commas, quotes and line breaks per RFC 4180", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField("plain")).toBe("plain");
  });
  it("neutralises before quoting, so the quote prefix sits inside the quotes", () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("-1,2")).toBe('"\'-1,2"');
  });
  it("writes null and undefined as empty cells and numbers as text", () => {
    expect(csvRow([null, undefined, 20, true, "£5"])).toBe(",,20,true,£5\r\n");
  });
  it("toCsv starts with a BOM and ends every record with CRLF", () => {
    expect(toCsv(["A", "B"], [["1", "2"]])).toBe(`${CSV_BOM}A,B\r\n1,2\r\n`);
  });
});

describe("parseCsv", () => {
  it("reads simple records with LF, CRLF and CR line ends", () => {
    expect(parseCsv("a,b\n1,2").map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(parseCsv("a,b\r\n1,2\r\n").map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(parseCsv("a,b\r1,2\r").map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });
  it("strips a BOM and keeps £ and accents", () => {
    expect(parseCsv(`${CSV_BOM}Name\nZoë £5`).map((r) => r.cells)).toEqual([["Name"], ["Zoë £5"]]);
  });
  it("reads quoted fields with commas, doubled quotes and line breaks, and reports the line each record starts on", () => {
    const records = parseCsv('name,notes\n"Smith, J","said ""hi""\nand left"\nlast,""\n');
    expect(records.map((r) => r.cells)).toEqual([
      ["name", "notes"],
      ["Smith, J", 'said "hi"\nand left'],
      ["last", ""],
    ]);
    expect(records.map((r) => r.line)).toEqual([1, 2, 4]);
  });
  it("keeps empty cells and empty lines (as blank records)", () => {
    const records = parseCsv("a,,c\n\n,,\n");
    expect(records.map((r) => r.cells)).toEqual([["a", "", "c"], [""], ["", "", ""]]);
    expect(records.map(isBlankRecord)).toEqual([false, true, true]);
  });
  it("round-trips what csvRow writes", () => {
    const values = ["plain", "a,b", 'q"uote', "multi\r\nline", "", "£ é"];
    const [record] = parseCsv(csvRow(values));
    expect(record.cells).toEqual(values);
  });
  it("refuses a quote that never closes and text after a closing quote", () => {
    expect(() => parseCsv('a\n"open,1\n2')).toThrow(CsvParseError);
    expect(() => parseCsv('a\n"open,1\n2')).toThrow(/line 2/);
    expect(() => parseCsv('"x"y,1')).toThrow(CsvParseError);
  });
  it("returns nothing for an empty input", () => {
    expect(parseCsv("")).toEqual([]);
    expect(parseCsv(CSV_BOM)).toEqual([]);
  });
});
