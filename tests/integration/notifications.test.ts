import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { newId } from "~/utils/ids";
import { createTenant, createUser, type TestTenant } from "../factories";
import { all, attr, one, textOf, textsOf, visit } from "../factories/html";
import { signedIn as withSession } from "../factories/sessions";
import { Browser, location } from "./http";

const DAY = 86_400_000;

async function notify(t: TestTenant, userId: string, opts: { title?: string; link?: string | null; read?: boolean; createdAt?: number } = {}) {
  const id = `test-notification:${newId()}`;
  await getDb(env)
    .insert(notifications)
    .values({
      id,
      tenantId: t.id,
      targetUserId: userId,
      type: "test",
      title: opts.title ?? "Something happened",
      message: "A message",
      link: opts.link === undefined ? "/cis" : opts.link,
      read: opts.read ?? false,
      createdAt: opts.createdAt ?? Date.now(),
    });
  return id;
}

async function isRead(id: string): Promise<boolean> {
  const row = await env.DB.prepare("SELECT read FROM notifications WHERE id = ?").bind(id).first<{ read: number }>();
  if (!row) throw new Error(`no notification ${id}`);
  return row.read === 1;
}

async function signedIn(opts: { modules?: string[] } = {}) {
  const t = await createTenant({ modules: opts.modules ?? [] });
  const u = await createUser(t, { role: "standard" });
  const b = await withSession(t, u);
  return { t, u, b };
}

const bellLabel = (doc: Document) => attr(one(doc, '[data-testid="notifications-link"]'), "aria-label");

describe("Notifications inbox", () => {
  it("shows the unread count on the shell's bell, and lists the person's own notifications newest first with unread marked", async () => {
    const { t, u, b } = await signedIn();
    const base = Date.UTC(2026, 6, 1, 12, 30); // 1 July 2026, 13:30 in London (BST)
    await notify(t, u.id, { title: "Oldest", createdAt: base - 2 * DAY, read: true });
    await notify(t, u.id, { title: "Middle", createdAt: base - DAY, link: "/cis/returns?month=2026-05" });
    await notify(t, u.id, { title: "Newest", createdAt: base, link: "https://evil.example/phish" });
    await notify(t, u.id, { title: "Second newest", createdAt: base - 1000, link: null });

    const welcome = await visit(b, `${t.origin}/welcome`);
    expect(welcome.status).toBe(200);
    expect(bellLabel(welcome.doc)).toBe("Notifications, 3 unread");
    expect(textOf(welcome.doc, '[data-testid="notifications-badge"]')).toBe("3");
    expect(attr(one(welcome.doc, '[data-testid="notifications-link"]'), "href")).toBe("/notifications");

    const { status, doc, text } = await visit(b, `${t.origin}/notifications`);
    expect(status).toBe(200);
    expect(one(doc, "h1").textContent).toBe("Notifications");
    expect(text).toContain("3 unread");
    const items = all(doc, '[data-testid="notification"]');
    expect(items.map((li) => textOf(li, "h2"))).toEqual(["Unread Newest", "Unread Second newest", "Unread Middle", "Oldest"]);
    expect(items.map((li) => attr(li, "data-unread"))).toEqual(["true", "true", "true", "false"]);
    // Dates in en-GB, London time.
    expect(items[0].textContent).toContain("01/07/2026, 13:30");
    // Only our own paths become links: the subject's page.
    expect(attr(one(items[2], "h2 a"), "href")).toBe("/cis/returns?month=2026-05");
    expect(items[0].querySelector("h2 a")).toBeNull();
    expect(items[1].querySelector("h2 a")).toBeNull();
    // Unread items have their own Mark as read form; read ones do not.
    expect(items.map((li) => li.querySelectorAll('form[method="post"] button[name="intent"][value="read"]').length)).toEqual([1, 1, 1, 0]);
    expect(all(doc, 'form[method="post"] button[name="intent"][value="read-all"]')).toHaveLength(1);
  });

  it("shows an empty state and a bell with nothing unread to someone without notifications", async () => {
    const { t, b } = await signedIn();
    const { status, doc } = await visit(b, `${t.origin}/notifications`);
    expect(status).toBe(200);
    expect(textOf(doc, '[data-testid="notifications-empty"]')).toContain("No notifications yet");
    expect(bellLabel(doc)).toBe("Notifications, none unread");
    expect(doc.querySelector('[data-testid="notifications-badge"]')).toBeNull();
    expect(all(doc, 'button[value="read-all"]')).toHaveLength(0);
  });

  it("shows 99+ once the unread count reaches the cap", async () => {
    const { t, u, b } = await signedIn();
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: `bulk:${newId()}`,
      tenantId: t.id,
      targetUserId: u.id,
      type: "test",
      title: `Bulk ${i}`,
      message: "",
      createdAt: Date.now() - i * 1000,
    }));
    for (let i = 0; i < rows.length; i += 10)
      await getDb(env)
        .insert(notifications)
        .values(rows.slice(i, i + 10));
    const { doc } = await visit(b, `${t.origin}/notifications`);
    expect(bellLabel(doc)).toBe("Notifications, 99+ unread");
    expect(textOf(doc, '[data-testid="notifications-badge"]')).toBe("99+");
    // Pages of 25, newest first, with a link to the older ones.
    expect(all(doc, '[data-testid="notification"]')).toHaveLength(25);
    expect(attr(one(doc, 'nav[aria-label="Pages"] a'), "href")).toBe("/notifications?page=2");
    const second = await visit(b, `${t.origin}/notifications?page=2`);
    expect(textsOf(second.doc, '[data-testid="notification"] h2')[0]).toBe("Unread Bulk 25");
    const junk = await visit(b, `${t.origin}/notifications?page=abc`);
    expect(junk.status).toBe(200);
    expect(textsOf(junk.doc, '[data-testid="notification"] h2')[0]).toBe("Unread Bulk 0");
  });

  it("marks one as read with a plain form post (no JavaScript) and the bell's count drops", async () => {
    const { t, u, b } = await signedIn();
    const first = await notify(t, u.id, { title: "First" });
    const second = await notify(t, u.id, { title: "Second" });
    const res = await b.post(`${t.origin}/notifications`, { intent: "read", id: first, page: "1" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/notifications");
    expect(await isRead(first)).toBe(true);
    expect(await isRead(second)).toBe(false);
    const { doc } = await visit(b, `${t.origin}/notifications`);
    expect(bellLabel(doc)).toBe("Notifications, 1 unread");
    expect(all(doc, '[data-testid="notification"][data-unread="true"]').map((li) => textOf(li, "h2"))).toEqual(["Unread Second"]);
  });

  it("marks one as read through React Router's data request (with JavaScript)", async () => {
    const { t, u, b } = await signedIn();
    const id = await notify(t, u.id);
    const res = await b.post(`${t.origin}/notifications.data`, { intent: "read", id, page: "1" });
    expect(res.status).toBeLessThan(400);
    expect(await isRead(id)).toBe(true);
  });

  it("marks all as read, with and without JavaScript, leaving what arrived after the page was shown", async () => {
    const { t, u, b } = await signedIn();
    const shownAt = Date.now();
    const before = [await notify(t, u.id, { createdAt: shownAt - 2000 }), await notify(t, u.id, { createdAt: shownAt - 1000 })];
    const later = await notify(t, u.id, { createdAt: shownAt + 60_000 });
    const { doc } = await visit(b, `${t.origin}/notifications`);
    const upTo = Number(attr(one(doc, 'input[name="upTo"]'), "value"));
    expect(upTo).toBeGreaterThanOrEqual(shownAt);
    expect(upTo).toBeLessThan(shownAt + 60_000);
    const res = await b.post(`${t.origin}/notifications`, { intent: "read-all", upTo: String(upTo) });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/notifications");
    for (const id of before) expect(await isRead(id)).toBe(true);
    expect(await isRead(later)).toBe(false);

    const js = await b.post(`${t.origin}/notifications.data`, { intent: "read-all", upTo: String(shownAt + 120_000) });
    expect(js.status).toBeLessThan(400);
    expect(await isRead(later)).toBe(true);
  });

  it("never shows or changes another person's notifications, nor another tenant's: their ids are 404", async () => {
    const { t, u, b } = await signedIn();
    const colleague = await createUser(t, { role: "admin" });
    const theirs = await notify(t, colleague.id, { title: "Colleague's secret" });
    const other = await createTenant();
    const stranger = await createUser(other, { role: "admin" });
    // A notification of the other tenant, even one addressed to an id equal to ours, is not ours.
    const foreign = await notify(other, stranger.id, { title: "Other tenant's secret" });
    const foreignToMe = await notify(other, u.id, { title: "Misaddressed" });
    const mine = await notify(t, u.id, { title: "Mine" });

    const { doc, text } = await visit(b, `${t.origin}/notifications`);
    expect(textsOf(doc, '[data-testid="notification"] h2')).toEqual(["Unread Mine"]);
    expect(text).not.toContain("secret");
    expect(text).not.toContain("Misaddressed");
    expect(bellLabel(doc)).toBe("Notifications, 1 unread");

    for (const id of [theirs, foreign, foreignToMe]) {
      const res = await b.post(`${t.origin}/notifications`, { intent: "read", id, page: "1" });
      expect(res.status).toBe(404);
      expect(await isRead(id)).toBe(false);
    }
    await b.post(`${t.origin}/notifications`, { intent: "read-all", upTo: String(Date.now() + 1000) });
    expect(await isRead(mine)).toBe(true);
    for (const id of [theirs, foreign, foreignToMe]) expect(await isRead(id)).toBe(false);
  });

  it("sends signed-out visitors to sign in and refuses a malformed post", async () => {
    const t = await createTenant();
    const anon = await new Browser().get(`${t.origin}/notifications`);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe("/login?redirectTo=%2Fnotifications");
    const anonPost = await new Browser().post(`${t.origin}/notifications`, { intent: "read-all", upTo: "1" });
    expect(anonPost.status).toBe(302);
    const signed = await signedIn();
    const bad = await signed.b.post(`${signed.t.origin}/notifications`, { intent: "delete-everything" });
    expect(bad.status).toBe(400);
  });

  it("refuses a cross-site post (no matching Origin)", async () => {
    const { t, u, b } = await signedIn();
    const id = await notify(t, u.id);
    const res = await b.post(`${t.origin}/notifications`, { intent: "read", id, page: "1" }, { origin: "http://evil.localhost" });
    expect(res.status).toBe(403);
    expect(await isRead(id)).toBe(false);
  });
});
