import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
import { all, one, textOf, textsOf, visit } from "../factories/html";
import { location } from "./http";
import { sanitiseNoteHtml } from "~/features/notes/sanitise.server";

/** Stored-XSS payloads a note's content might carry: none may survive into what is stored. */
const PAYLOADS = [
  `<script>alert(1)</script>`,
  `<p>hi<script src="https://evil.example/x.js"></script></p>`,
  `<img src=x onerror="alert(1)">`,
  `<p onclick="alert(1)" onmouseover=alert(1)>click</p>`,
  `<a href="javascript:alert(1)">link</a>`,
  `<a href="  JaVaScRiPt:alert(1)">link</a>`,
  `<a href="jav&#x09;ascript:alert(1)">link</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>`,
  `<svg onload="alert(1)"><script>alert(1)</script></svg>`,
  `<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`,
  `<math><mtext><img src=x onerror=alert(1)></mtext></math>`,
  `<style>body{background:url(javascript:alert(1))}</style>`,
  `<p style="background-image:url(javascript:alert(1))">styled</p>`,
  `<iframe src="javascript:alert(1)"></iframe>`,
  `<object data="javascript:alert(1)"></object><embed src="x.swf">`,
  `<form action="https://evil.example"><input name=x autofocus onfocus=alert(1)></form>`,
  `<details open ontoggle=alert(1)>`,
  `<body onload=alert(1)>`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
  `<!--<script>alert(1)</script>-->`,
  `<p>ok</p><template><script>alert(1)</script></template>`,
];

const DANGER = /<script|<svg|<math|<iframe|<object|<embed|<style|<form|<input|<meta|<img|<body|<template|\son\w+\s*=|javascript:|data:text|style=|xlink:/i;

describe("notes: HTML content through the allow-list", () => {
  it("keeps nothing executable from the usual stored-XSS payloads", () => {
    for (const p of PAYLOADS) expect(sanitiseNoteHtml(p), p).not.toMatch(DANGER);
  });

  it("drops a link whose character references name no character, rather than failing the save", () => {
    for (const href of ["&#x110000;javascript:alert(1)", "&#99999999;", "&#x0;javascript:alert(1)"]) {
      expect(sanitiseNoteHtml(`<a href="${href}">x</a>`), href).not.toMatch(/href/);
    }
  });

  it("keeps the formatting a note needs, and safe links", () => {
    const html = `<h2>Site meeting</h2><p><strong>Bold</strong> <em>it</em> <u>u</u></p><ul><li>one</li></ul><blockquote>q</blockquote><a href="https://example.com/x" target="_blank">doc</a>`;
    const out = sanitiseNoteHtml(html);
    expect(out).toContain("<h2>Site meeting</h2>");
    expect(out).toContain("<strong>Bold</strong>");
    expect(out).toContain("<ul><li>one</li></ul>");
    expect(out).toContain(`<a href="https://example.com/x" rel="noopener noreferrer nofollow">doc</a>`);
  });

  it("stores sanitised HTML when a note is posted with content, and the note page carries no markup from it", async () => {
    const t = await createTenant({ modules: ["notes"] });
    const b = await signedIn(t, await createUser(t, { role: "lead" }));
    for (const p of PAYLOADS) {
      const res = await b.post(`${t.origin}/notes/new`, { intent: "save", title: "XSS", content: `<p>before</p>${p}` });
      expect(res.status, p).toBe(302);
      const id = location(res)!.split("/").pop()!;
      const row = await env.DB.prepare("SELECT content FROM notes WHERE tenant_id = ? AND id = ?").bind(t.id, id).first<{ content: string }>();
      expect(row!.content, p).not.toMatch(DANGER);
      const page = await b.get(`${t.origin}/notes/${id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html, p).not.toMatch(/<script>alert|onerror=|onload=|javascript:alert/i);
    }
  });
});

describe("notes: formatting shown to read-only viewers", () => {
  const RICH = `<h2>Lift plan</h2><p><strong>Crane</strong> on <em>Monday</em> <u>early</u></p><ul><li>Gate 2 closed</li></ul><script>alert(1)</script><a href="javascript:alert(1)">bad</a><a href="https://example.com/plan">plan</a>`;

  async function sharedNote(content: string) {
    const t = await createTenant({ modules: ["notes"], bundles: { standard: ["notes.view"] } });
    const owner = await createUser(t, { role: "lead" });
    const reader = await createUser(t, { role: "standard" });
    const ownerB = await signedIn(t, owner);
    const res = await ownerB.post(`${t.origin}/notes/new`, { intent: "save", title: "Lift", content });
    const id = location(res)!.split("/").pop()!;
    expect((await ownerB.post(`${t.origin}/notes/${id}`, { intent: "share", userIds: reader.id })).status).toBe(302);
    return { t, id, readerB: await signedIn(t, reader) };
  }

  it("shows a viewer without notes.edit the note's headings, emphasis, lists and safe links, and no script", async () => {
    const { t, id, readerB } = await sharedNote(RICH);
    const view = await visit(readerB, `${t.origin}/notes/${id}`);
    expect(view.status).toBe(200);
    const body = one(view.doc, "[data-testid='note-content']");
    expect(textOf(body, "h2")).toBe("Lift plan");
    expect(textOf(body, "strong")).toBe("Crane");
    expect(textOf(body, "em")).toBe("Monday");
    expect(textOf(body, "u")).toBe("early");
    expect(textsOf(body, "ul li")).toEqual(["Gate 2 closed"]);
    expect(all(body, "a").map((a) => a.getAttribute("href"))).toEqual([null, "https://example.com/plan"]);
    expect(all(view.doc, "script").some((s) => /alert/.test(s.textContent ?? ""))).toBe(false);
    expect(body.innerHTML).not.toMatch(DANGER);
  });

  it("sanitises again when showing: markup written straight into the table never reaches the page as markup", async () => {
    const { t, id, readerB } = await sharedNote("<p>clean</p>");
    await env.DB.prepare("UPDATE notes SET content = ? WHERE tenant_id = ? AND id = ?")
      .bind(`<p><b>kept</b></p><img src=x onerror="alert(1)"><script>alert(2)</script><p onclick="alert(3)">p</p>`, t.id, id)
      .run();
    const view = await visit(readerB, `${t.origin}/notes/${id}`);
    const body = one(view.doc, "[data-testid='note-content']");
    expect(textOf(body, "b")).toBe("kept");
    expect(body.innerHTML).not.toMatch(DANGER);
    expect(body.querySelector("img, script, [onclick]")).toBeNull();
  });
});
