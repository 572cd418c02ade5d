import { describe, expect, it } from "vitest";
import { dateLabels } from "./note-dates.server";
import { htmlToText, normaliseTags, noteCountLabel, purgedToast, sharedWithLabel, textToHtml } from "./note-rules";
import { ftsQuery, snippetParts } from "./search.server";

describe("notes: pure rules", () => {
  it("lowercases, trims and de-duplicates tags, dropping a leading '#' and empty ones", () => {
    expect(normaliseTags(" Meeting, meeting,#Urgent,, todo ")).toEqual(["meeting", "urgent", "todo"]);
    expect(normaliseTags(["Site", "site, SAFETY"])).toEqual(["site", "safety"]);
  });

  it("turns typed text into escaped paragraphs and back into text", () => {
    const html = textToHtml("Line <one>\nline two\n\n\nSecond & last");
    expect(html).toBe("<p>Line &lt;one&gt;<br>line two</p><p>Second &amp; last</p>");
    expect(htmlToText(html)).toBe("Line <one>\nline two\nSecond & last");
  });

  it("counts notes in the singular and plural", () => {
    expect(noteCountLabel(1)).toBe("1 note");
    expect(noteCountLabel(0)).toBe("0 notes");
  });

  it("says how many people a note is shared with, and how many notes were purged, in proper plurals", () => {
    expect(sharedWithLabel(1)).toBe("Shared with 1 user");
    expect(sharedWithLabel(2)).toBe("Shared with 2 users");
    expect(purgedToast(1)).toBe("Permanently deleted 1 note");
    expect(purgedToast(3)).toBe("Permanently deleted 3 notes");
  });

  it("groups by London calendar days: Today, Yesterday, This Week, then month and year", () => {
    const now = Date.parse("2026-11-27T00:30:00Z");
    expect(dateLabels(Date.parse("2026-11-27T00:10:00Z"), now).group).toBe("Today");
    expect(dateLabels(Date.parse("2026-11-26T23:50:00Z"), now).group).toBe("Yesterday");
    expect(dateLabels(Date.parse("2026-11-22T12:00:00Z"), now)).toMatchObject({ group: "This Week", day: "5 days ago" });
    expect(dateLabels(Date.parse("2026-10-02T12:00:00Z"), now)).toMatchObject({ group: "October 2026", day: "Oct 2", when: "Oct 2, 1:00 PM" });
  });

  it("makes search words quoted prefix terms, so no FTS syntax can be typed", () => {
    expect(ftsQuery("snag plot-12")).toBe('"snag"* "plot"* "12"*');
    expect(ftsQuery('a" OR NEAR(b')).toBe('"a"* "OR"* "NEAR"* "b"*');
    expect(ftsQuery(" -- ")).toBeNull();
    expect(snippetParts("a \u0001hit\u0002 b")).toEqual([
      { text: "a ", hit: false },
      { text: "hit", hit: true },
      { text: " b", hit: false },
    ]);
  });
});
