import { describe, expect, it } from "vitest";
import { backoffMs, mergeMessage } from "../components/use-chat-socket";
import {
  checkMessageText,
  decodeCursor,
  directKey,
  encodeCursor,
  linkify,
  mentionedPeople,
  parseClientFrame,
  readTimeFor,
  unreadLabel,
  type WireMessage,
} from "./rules";

const person = (id: string, displayName: string, email = `${id}@example.test`) => ({ id, displayName, email });

describe("message text", () => {
  it("trims, unifies line endings and allows exactly 4,000 characters", () => {
    expect(checkMessageText("  hi\r\nthere  ")).toEqual({ ok: true, text: "hi\nthere" });
    expect(checkMessageText("   ")).toEqual({ ok: false, code: "empty" });
    expect(checkMessageText(42)).toEqual({ ok: false, code: "empty" });
    expect(checkMessageText("a".repeat(4000)).ok).toBe(true);
    expect(checkMessageText("a".repeat(4001))).toEqual({ ok: false, code: "too_long" });
    // Counted in characters, not UTF-16 units: 4,000 emoji fit.
    expect(checkMessageText("🧱".repeat(4000)).ok).toBe(true);
  });
});

describe("links", () => {
  it("makes only http(s) addresses links and leaves trailing punctuation as text", () => {
    expect(linkify("see https://example.com/a?b=1, then")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "https://example.com/a?b=1", href: "https://example.com/a?b=1" },
      { kind: "text", text: ", then" },
    ]);
    expect(linkify("javascript:alert(1) data:text/html,x").every((p) => p.kind === "text")).toBe(true);
    expect(linkify("(http://site.test/x)")).toEqual([
      { kind: "text", text: "(" },
      { kind: "link", text: "http://site.test/x", href: "http://site.test/x" },
      { kind: "text", text: ")" },
    ]);
  });
});

describe("mentions", () => {
  const people = [person("1", "Sam"), person("2", "Sam Jones"), person("3", "Priya Patel", "priya.p@site.test")];
  it("matches the longest name at a word boundary, case-insensitively, and e-mail handles", () => {
    expect(mentionedPeople("@sam jones can you?", people).map((p) => p.id)).toEqual(["2"]);
    expect(mentionedPeople("@Sam, the skip", people).map((p) => p.id)).toEqual(["1"]);
    expect(mentionedPeople("ask @priya.p", people).map((p) => p.id)).toEqual(["3"]);
    expect(mentionedPeople("mail sam@samuel.test or @Samuel", people)).toEqual([]);
    expect(mentionedPeople("@Sam and @sam again", people).map((p) => p.id)).toEqual(["1"]);
  });
});

describe("reads, keys and cursors", () => {
  it("sets the read time 5 seconds ahead", () => {
    expect(readTimeFor(1_000_000)).toBe(1_005_000);
  });
  it("shows 99+ at the cap and nothing at zero", () => {
    expect(unreadLabel(0)).toBe("");
    expect(unreadLabel(7)).toBe("7");
    expect(unreadLabel(100)).toBe("99+");
  });
  it("makes one direct key per pair whoever starts", () => {
    expect(directKey("b", "a")).toBe(directKey("a", "b"));
  });
  it("round-trips a cursor and refuses a malformed one", () => {
    expect(decodeCursor(encodeCursor({ createdAt: 123, id: "abc_D-9" }))).toEqual({ createdAt: 123, id: "abc_D-9" });
    expect(decodeCursor("123.a b")).toBeNull();
    expect(decodeCursor("x.y")).toBeNull();
    expect(decodeCursor(null)).toBeNull();
  });
});

describe("socket frames", () => {
  it("accepts the known frames and nothing else", () => {
    expect(parseClientFrame(JSON.stringify({ type: "send", clientId: "abcdefgh", text: "hi" }))).toEqual({ type: "send", clientId: "abcdefgh", text: "hi" });
    expect(parseClientFrame(JSON.stringify({ type: "send", clientId: "short", text: "hi" }))).toBeNull();
    expect(parseClientFrame(JSON.stringify({ type: "typing", extra: 1 }))).toEqual({ type: "typing" });
    expect(parseClientFrame(JSON.stringify({ type: "admin" }))).toBeNull();
    expect(parseClientFrame("not json")).toBeNull();
    expect(parseClientFrame("x".repeat(20_001))).toBeNull();
  });
});

describe("the live client", () => {
  const m = (id: string, createdAt: number, text = id): WireMessage => ({
    id,
    clientId: id,
    senderId: "u",
    senderName: "U",
    text,
    createdAt,
    editedAt: null,
    deletedAt: null,
    fileCount: 0,
  });
  it("keeps messages ordered by time then id and never twice", () => {
    let list = [m("a", 1), m("c", 3)];
    list = mergeMessage(list, m("b", 2));
    list = mergeMessage(list, m("b", 2, "edited"));
    list = mergeMessage(list, m("d", 4));
    expect(list.map((x) => `${x.id}:${x.text}`)).toEqual(["a:a", "b:edited", "c:c", "d:d"]);
  });
  it("keeps the files the page read for this reader when a broadcast copy (which names none) replaces a message", () => {
    const files = [
      { id: "f1", file: { name: "Plan.pdf", size: 10 } },
      { id: "f2", file: null },
    ];
    let list: WireMessage[] = [{ ...m("a", 1), fileCount: 2, files }];
    list = mergeMessage(list, { ...m("a", 1, "edited"), fileCount: 2 });
    expect(list[0]).toMatchObject({ text: "edited", files });
  });
  it("backs off from about a second to at most about 31 seconds", () => {
    expect(backoffMs(0)).toBeGreaterThanOrEqual(1000);
    expect(backoffMs(0)).toBeLessThan(2000);
    expect(backoffMs(20)).toBeLessThanOrEqual(31_000);
  });
});
