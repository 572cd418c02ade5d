import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createTenant, createUser } from "../factories";
import { signedIn } from "../factories/sessions";
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
