import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { newId } from "~/utils/ids";
import { createTenant, type TestTenant } from "../factories";
import { withPageKey } from "../factories/submission-keys";
import { cisStaff, cisTenant, newEmail, newUtr, seedSub } from "../factories/cis";
import { all, attr, field, hrefs, linksTo, one, page as parsePage, pageText, parseHtml, shownText, textsOf, valueOf } from "../factories/html";
import { count, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";
import { inviteByMail } from "./portal-helpers";

const PORTAL_COOKIE = "__Host-portal";
const STAFF_COOKIE = "__Host-session";

/** The link as the result view shows it in the read-only input. */
function linkFrom(html: string): string {
  const link = all(parseHtml(html), "input")
    .filter((el) => attr(el, "readOnly") !== null)
    .map((el) => el.getAttribute("value") ?? "")
    .find((v) => /^http.*\/portal\/auth\?token=/.test(v));
  if (!link) throw new Error("No portal link in the page");
  return link;
}

function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

/** Invites from the staff page; the link is read from the e-mail, as the subcontractor gets it. */
async function invite(t: TestTenant, browser: Browser, sub: { id: string; email: string | null }) {
  return inviteByMail(t, browser, sub);
}

async function inviteFor(settings?: { companyName: string }) {
  const t = await cisTenant({ settings });
  const { b: browser } = await cisStaff("manager", { tenant: t });
  const sub = await seedSub(t, { email: newEmail() });
  const { link, html } = await invite(t, browser, sub);
  return { t, sub, link, html, staffBrowser: browser };
}

/** Opens the link and presses the button, as a subcontractor's browser would. */
async function signInWithLink(link: string, browser = new Browser()) {
  const origin = new URL(link).origin;
  const res = await browser.post(`${origin}/portal/auth`, { token: tokenOf(link) });
  return { res, browser };
}

describe("inviting a subcontractor to the portal", () => {
  it.each(["manager", "admin"] as const)("is allowed for %s: confirm page, result with the link, invite row and audit", async (role) => {
    const t = await cisTenant();
    const { b: browser } = await cisStaff(role, { tenant: t });
    const sub = await seedSub(t, { name: "Brick & Co", email: newEmail() });
    const page = await browser.get(`${t.origin}/cis/subcontractors/${sub.id}/invite`);
    expect(page.status).toBe(200);
    const confirmDoc = await parsePage(page);
    expect(textsOf(confirmDoc, 'button[type="submit"]')).toContain("Create & Send Invite");
    expect(pageText(confirmDoc)).toContain(sub.email!);

    const { res, html, link } = await invite(t, browser, sub);
    const htmlText = pageText(parseHtml(html));
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Location")).toBeNull();
    expect(htmlText).toContain("Invitation Created");
    expect(html).not.toContain("Subcontractor created successfully!");
    expect(htmlText).toContain(`Invitation email sent to ${sub.email}`);
    // The e-mail went: the link is in it, not on the page (Show link is a separate, recorded step).
    expect(htmlText).toContain(`The portal access link (expires in 15 minutes) went to ${sub.email} only.`);
    expect(html).not.toContain("/portal/auth?token=");
    expect(textsOf(parseHtml(html), 'button[type="submit"]').includes("Show link")).toBe(role === "admin");
    expect(htmlText).toContain("This link can only be used once.");
    expect(hrefs(parseHtml(html))).toContain("/cis/subcontractors");
    expect(link.startsWith(`${t.origin}/portal/auth?token=`)).toBe(true);

    const row = await env.DB.prepare("SELECT * FROM cis_portal_invites WHERE tenant_id = ? AND subcontractor_id = ?")
      .bind(t.id, sub.id)
      .first<Record<string, unknown>>();
    expect(row).toBeTruthy();
    expect(row?.email).toBe(sub.email);
    expect(row?.email_queued).toBe(1);
    expect(row?.used_at).toBeNull();
    const expiresIn = Number(row?.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.portal.invited' AND target_id = ?", t.id, sub.id)).toBe(1);
    // No toast, no redirect: the link exists only in the action's response.
    expect(res.headers.getSetCookie().join(";")).not.toContain("flash");
  });

  it.each(["standard", "lead"] as const)("is refused with 403 for %s (page and action)", async (role) => {
    const t = await cisTenant();
    const { b: browser } = await cisStaff(role, { tenant: t });
    const sub = await seedSub(t, { email: newEmail() });
    expect((await browser.get(`${t.origin}/cis/subcontractors/${sub.id}/invite`)).status).toBe(403);
    expect((await browser.post(`${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" })).status).toBe(403);
    expect((await browser.get(`${t.origin}/cis/subcontractors/invite`)).status).toBe(403);
    expect(
      (
        await browser.post(`${t.origin}/cis/subcontractors/invite`, {
          intent: "create",
          name: "X Y",
          email: "x@example.test",
          type: "individual",
          utr: "5334567890",
        })
      ).status,
    ).toBe(403);
    expect(await count("cis_portal_invites", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(1);
  });

  it("answers 404 for another tenant's subcontractor", async () => {
    const a = await cisTenant();
    const b = await cisTenant();
    const { b: browser } = await cisStaff("admin", { tenant: a });
    const foreign = await seedSub(b, { email: newEmail() });
    expect((await browser.get(`${a.origin}/cis/subcontractors/${foreign.id}/invite`)).status).toBe(404);
    expect((await browser.post(`${a.origin}/cis/subcontractors/${foreign.id}/invite`, { intent: "invite" })).status).toBe(404);
    expect(await count("cis_portal_invites", "subcontractor_id = ?", foreign.id)).toBe(0);
  });

  it("explains a missing e-mail and offers Edit instead of inviting", async () => {
    const t = await cisTenant();
    const { b: browser } = await cisStaff("admin", { tenant: t });
    const sub = await seedSub(t, { name: "No Mail Ltd" });
    const page = await browser.get(`${t.origin}/cis/subcontractors/${sub.id}/invite`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("No Mail Ltd has no e-mail address");
    expect(hrefs(parseHtml(html))).toContain(`/cis/subcontractors/${sub.id}/edit`);
    expect(htmlText).not.toContain("Create & Send Invite");
    // No form, so no submission key: the refusal comes first all the same.
    const post = await browser.post(`${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" });
    expect(post.status).toBe(400);
    expect(await shownText(post)).toContain("has no e-mail address");
    expect(await count("cis_portal_invites", "tenant_id = ?", t.id)).toBe(0);
  });

  it("create variant: needs cis.sub.write too, validates, then creates and invites", async () => {
    const t = await cisTenant();
    // A manager can invite but not create subcontractors.
    const manager = await cisStaff("manager", { tenant: t });
    expect((await manager.b.get(`${t.origin}/cis/subcontractors/invite`)).status).toBe(403);

    const { b: browser } = await cisStaff("admin", { tenant: t });
    const form = await browser.get(`${t.origin}/cis/subcontractors/invite`);
    expect(form.status).toBe(200);
    const formDoc = await parsePage(form);
    const labels = textsOf(formDoc, "label");
    for (const label of ["Name *", "Email *", "Type", "UTR", "National Insurance Number", "Company Number"]) expect(labels, label).toContain(label);
    expect(linksTo(formDoc, "Cancel")).toHaveLength(1);
    expect(textsOf(formDoc, 'button[type="submit"]')).toContain("Create & Send Invite");
    expect(attr(field(formDoc, "utr"), "maxLength")).toBe("10");

    const missing = await browser.post(`${t.origin}/cis/subcontractors/invite`, {
      intent: "create",
      name: "Only Name",
      email: "",
      type: "individual",
      utr: "5334567890",
    });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    const missingHtmlText = pageText(parseHtml(missingHtml));
    expect(missingHtmlText).toContain("Enter the subcontractor's name and email address");
    expect(valueOf(parseHtml(missingHtml), "name")).toBe("Only Name");

    const noUtr = await browser.post(`${t.origin}/cis/subcontractors/invite`, {
      intent: "create",
      name: "Utr Less",
      email: "utrless@example.test",
      type: "individual",
      utr: "",
    });
    expect(noUtr.status).toBe(400);
    expect(await shownText(noUtr)).toContain("Enter the subcontractor's UTR: 10 digits, like 2234567890");

    const badNino = await browser.post(`${t.origin}/cis/subcontractors/invite`, {
      intent: "create",
      name: "Bad Nino",
      email: "nino@example.test",
      type: "individual",
      utr: newUtr(),
      nino: "XX",
    });
    expect(badNino.status).toBe(400);
    expect(await shownText(badNino)).toContain("Enter a National Insurance number in the correct format, like QQ 12 34 56 C");
    expect(await count("cis_subcontractors", "tenant_id = ?", t.id)).toBe(0);

    const email = newEmail("new");
    const ok = await browser.post(`${t.origin}/cis/subcontractors/invite`, {
      intent: "create",
      name: "Fresh Build Ltd",
      email,
      type: "company",
      utr: newUtr(),
      companyNumber: "ab123456",
    });
    const html = await ok.text();
    const htmlText = pageText(parseHtml(html));
    expect(ok.status, html.slice(0, 300)).toBe(200);
    expect(htmlText).toContain("Invitation Created");
    expect(htmlText).toContain("Subcontractor created successfully!");
    expect(htmlText).toContain(`Invitation email sent to ${email}`);
    const sub = await env.DB.prepare("SELECT id, company_number, active, email FROM cis_subcontractors WHERE tenant_id = ? AND name = 'Fresh Build Ltd'")
      .bind(t.id)
      .first<{ id: string; company_number: string; active: number; email: string }>();
    expect(sub?.company_number).toBe("AB123456");
    expect(sub?.active).toBe(1);
    expect(await count("cis_portal_invites", "tenant_id = ? AND subcontractor_id = ?", t.id, sub?.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.subcontractor.created'", t.id)).toBe(1);
  });

  it("e-mails the link: it arrives in the dev mailbox and is the one shown", async () => {
    const since = Date.now();
    const { sub, link } = await inviteFor({ companyName: "Acme Builders Ltd" });
    const mail = await waitForMail(sub.email!, { after: since });
    expect(mail.subject).toContain("Acme Builders Ltd");
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("15 minutes");
  });

  it("still shows the link with the warning when the e-mail queue refuses", async () => {
    const t = await cisTenant();
    const { b: browser } = await cisStaff("manager", { tenant: t });
    const sub = await seedSub(t, { email: newEmail() });
    const failingEnv = {
      ...env,
      EMAIL: { send: async () => Promise.reject(new Error("queue down")), sendBatch: async () => Promise.reject(new Error("queue down")) },
    };
    const res = await worker.fetch(
      new Request(`${t.origin}/cis/subcontractors/${sub.id}/invite`, {
        method: "POST",
        headers: { Origin: t.origin, Cookie: browser.cookieHeader(t.host) },
        body: new URLSearchParams(
          (await withPageKey(browser, `${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" })) as Record<string, string>,
        ),
      }) as Parameters<typeof worker.fetch>[0],
      failingEnv as unknown as Env,
      createExecutionContext(),
    );
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(res.status).toBe(200);
    expect(htmlText).toContain("Invitation Created");
    expect(htmlText).toContain("Note:");
    expect(htmlText).toContain("Email could not be sent. Please share the link manually.");
    expect(html).not.toContain("Invitation email sent to");
    const link = linkFrom(html);
    const row = await env.DB.prepare("SELECT email_queued FROM cis_portal_invites WHERE tenant_id = ? AND subcontractor_id = ?")
      .bind(t.id, sub.id)
      .first<{ email_queued: number }>();
    expect(row?.email_queued).toBe(0);
    // The link shown still works.
    const { res: signedIn } = await signInWithLink(link);
    expect(location(signedIn)).toBe("/portal");
  });
});

describe("the magic link", () => {
  it("GET shows the confirm page and consumes nothing", async () => {
    const { t, link } = await inviteFor({ companyName: "Confirm Co" });
    const b = new Browser();
    for (let i = 0; i < 2; i++) {
      const res = await b.get(link);
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      const html = await res.text();
      const htmlText = pageText(parseHtml(html));
      expect(htmlText).toContain("Continue to the Confirm Co portal");
      expect(valueOf(parseHtml(html), "token")).toBeTruthy();
    }
    expect(await count("used_tokens", "tenant_id = ? AND kind = 'portal-link'", t.id)).toBe(0);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal'", t.id)).toBe(0);
    expect(await count("cis_portal_invites", "tenant_id = ? AND used_at IS NOT NULL", t.id)).toBe(0);
    expect(b.cookie(t.host, PORTAL_COOKIE)).toBeUndefined();
  });

  it("POST consumes it: portal session, invite used, audit, redirect to /portal", async () => {
    const { t, sub, link } = await inviteFor();
    const { res, browser } = await signInWithLink(link);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/portal");
    expect(browser.cookie(t.host, PORTAL_COOKIE)).toBeTruthy();
    expect(browser.cookie(t.host, STAFF_COOKIE)).toBeUndefined();
    expect(await count("used_tokens", "tenant_id = ? AND kind = 'portal-link'", t.id)).toBe(1);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NULL", t.id, sub.id)).toBe(1);
    expect(await count("cis_portal_invites", "tenant_id = ? AND used_at IS NOT NULL", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.portal.signed_in' AND target_id = ?", t.id, sub.id)).toBe(1);
    const home = await browser.get(`${t.origin}/portal`);
    expect(home.status).toBe(200);
    expect(await shownText(home)).toContain(sub.name);
  });

  it("is single use: a second POST (even from another browser) is refused, and GET then says so", async () => {
    const { t, link } = await inviteFor();
    expect(location((await signInWithLink(link)).res)).toBe("/portal");
    const again = await signInWithLink(link);
    expect(again.res.status).toBe(410);
    const html = await again.res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("This link has already been used");
    expect(again.browser.cookie(t.host, PORTAL_COOKIE)).toBeUndefined();
    const get = await new Browser().get(link);
    expect(get.status).toBe(410);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal'", t.id)).toBe(1);
  });

  it("refuses an expired link with a clear page and the way to get a new one", async () => {
    const t = await cisTenant({ settings: { companyName: "Late Ltd", replyTo: "office@late.example" } });
    const sub = await seedSub(t, { email: newEmail() });
    const past = Math.floor(Date.now() / 1000) - 3600;
    const jti = newId();
    const token = await new SignJWT({ tid: t.id, knd: "portal-link" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(sub.id)
      .setAudience(t.origin)
      .setIssuedAt(past - 900)
      .setExpirationTime(past)
      .setJti(jti)
      .sign(new TextEncoder().encode(env.TOKEN_SECRET));
    await env.DB.prepare(
      "INSERT INTO cis_portal_invites (id, tenant_id, subcontractor_id, email, email_queued, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, 1, 'x', ?, ?)",
    )
      .bind(jti, t.id, sub.id, sub.email, (past - 900) * 1000, past * 1000)
      .run();
    const link = `${t.origin}/portal/auth?token=${token}`;
    const get = await new Browser().get(link);
    expect(get.status).toBe(410);
    const html = await get.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("This link has expired");
    expect(htmlText).toContain("Ask Late Ltd to send you a new link");
    expect(hrefs(parseHtml(html)).filter((h) => h.startsWith("mailto:office@late.example"))).toHaveLength(1);
    const post = await signInWithLink(link);
    expect(post.res.status).toBe(410);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal'", t.id)).toBe(0);
    expect(await count("used_tokens", "jti = ?", jti)).toBe(0);
  });

  it("refuses a link for one tenant's host on another tenant's host", async () => {
    const { t: acme, link } = await inviteFor();
    const globex = await cisTenant({ name: "Globex" });
    const foreign = `${globex.origin}/portal/auth?token=${tokenOf(link)}`;
    const get = await new Browser().get(foreign);
    expect(get.status).toBe(400);
    expect(await shownText(get)).toContain("This link is not valid");
    const post = await signInWithLink(foreign);
    expect(post.res.status).toBe(400);
    expect(post.browser.cookie(globex.host, PORTAL_COOKIE)).toBeUndefined();
    expect(await count("sessions", "tenant_id IN (?, ?) AND kind = 'portal'", acme.id, globex.id)).toBe(0);
    expect(await count("used_tokens", "tenant_id IN (?, ?)", acme.id, globex.id)).toBe(0);
  });

  it("refuses a tampered link and tells the subcontractor to ask the contractor (no mailto without a reply-to)", async () => {
    const { t, link, sub } = await inviteFor();
    const token = tokenOf(link);
    const [h, p, s] = token.split(".");
    // Swap the subject for another subcontractor's id: the signature no longer matches.
    const other = await seedSub(t, { email: newEmail() });
    const payload = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    expect(payload.sub).toBe(sub.id);
    payload.sub = other.id;
    const forgedPayload = btoa(JSON.stringify(payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    for (const bad of [`${h}.${forgedPayload}.${s}`, `${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`, "not-a-token"]) {
      const res = await new Browser().get(`${t.origin}/portal/auth?token=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      const html = await res.text();
      const htmlText = pageText(parseHtml(html));
      expect(htmlText).toContain("This link is not valid");
      expect(htmlText).toContain(`Ask ${t.name} to send you a new link`);
      expect(html).not.toContain("mailto:");
      expect(hrefs(parseHtml(html)).filter((h) => h.startsWith("mailto:"))).toEqual([]);
      const post = await signInWithLink(`${t.origin}/portal/auth?token=${encodeURIComponent(bad)}`);
      expect(post.res.status).toBe(400);
    }
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal'", t.id)).toBe(0);
    // The genuine link is untouched by the attempts.
    expect(location((await signInWithLink(link)).res)).toBe("/portal");
  });

  it("is refused when the subcontractor was deleted after the invite", async () => {
    const { t, sub, link } = await inviteFor();
    await env.DB.prepare("UPDATE cis_subcontractors SET deleted_at = ? WHERE id = ?").bind(Date.now(), sub.id).run();
    const post = await signInWithLink(link);
    expect(post.res.status).toBe(400);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal'", t.id)).toBe(0);
  });
});

describe("the portal session", () => {
  it("shows only its own subcontractor, masked, with empty invoices and statements, without the staff shell", async () => {
    const t = await cisTenant({ settings: { companyName: "Home Contractor Ltd" } });
    const { b: staffBrowser } = await cisStaff("manager", { tenant: t });
    const mine = await seedSub(t, { name: "Mine Joinery", nino: "AB123456C", email: newEmail() });
    const other = await seedSub(t, { name: "Other Roofing", email: newEmail() });
    const { link } = await invite(t, staffBrowser, mine);
    const { browser } = await signInWithLink(link);
    const res = await browser.get(`${t.origin}/portal`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Mine Joinery");
    expect(html).not.toContain("Other Roofing");
    expect(htmlText).toContain("Home Contractor Ltd");
    expect(htmlText).toContain("AB****56C");
    expect(html).not.toContain("AB123456C");
    expect(htmlText).toMatch(/\*{6}\d{4}/);
    expect(htmlText).toContain("Standard (20%)");
    expect(html).not.toContain(mine.email!);
    expect(htmlText).toContain("No invoices yet");
    expect(htmlText).toContain("No statements yet");
    expect(one(parseHtml(html), 'form[action="/portal/logout"]').getAttribute("method")).toBe("post");
    expect(parseHtml(html).querySelector('[aria-label="Modules"]')).toBeNull();
    // An id in the URL changes nothing: the portal reads the session's subcontractor only.
    const withId = await browser.get(`${t.origin}/portal?id=${other.id}`);
    const withIdHtml = await withId.text();
    const withIdHtmlText = pageText(parseHtml(withIdHtml));
    expect(withIdHtmlText).toContain("Mine Joinery");
    expect(withIdHtml).not.toContain("Other Roofing");
  });

  it("opens nothing of the staff workspace, and a staff cookie does not open the portal", async () => {
    const { t, link, staffBrowser } = await inviteFor();
    const { browser } = await signInWithLink(link);
    for (const path of ["/cis", "/welcome", "/cis/subcontractors"]) {
      const res = await browser.get(`${t.origin}${path}`);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toContain("/login");
    }
    const staffOnPortal = await staffBrowser.get(`${t.origin}/portal`);
    expect(staffOnPortal.status).toBe(302);
    expect(location(staffOnPortal)).toBe("/portal/login");
    // Replayed on another tenant's host, the portal cookie is nobody.
    const other = await cisTenant();
    const thief = new Browser();
    thief.setCookie(other.host, PORTAL_COOKIE, browser.cookie(t.host, PORTAL_COOKIE) ?? "");
    const stolen = await thief.get(`${other.origin}/portal`);
    expect(stolen.status).toBe(302);
    expect(location(stolen)).toBe("/portal/login");
  });

  it("logout is a POST that revokes the session row and returns to /portal/login", async () => {
    const { t, sub, link } = await inviteFor();
    const { browser } = await signInWithLink(link);
    const cookie = browser.cookie(t.host, PORTAL_COOKIE) ?? "";
    expect((await browser.get(`${t.origin}/portal/logout`)).status).toBe(404);
    const out = await browser.post(`${t.origin}/portal/logout`, {});
    expect(out.status).toBe(302);
    expect(location(out)).toBe("/portal/login");
    expect(browser.cookie(t.host, PORTAL_COOKIE)).toBeUndefined();
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NOT NULL", t.id, sub.id)).toBe(1);
    const replay = new Browser();
    replay.setCookie(t.host, PORTAL_COOKIE, cookie);
    const res = await replay.get(`${t.origin}/portal`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/portal/login");
  });

  it("/portal/login explains links; on the bare domain only the explanation exists", async () => {
    const t = await cisTenant({ settings: { companyName: "Explain Ltd" } });
    const page = await new Browser().get(`${t.origin}/portal/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Explain Ltd");
    expect(htmlText).toContain("not with a password");
    expect(parseHtml(html).querySelector('input[type="password"]')).toBeNull();
    const bare = await new Browser().get("http://localhost/portal/login");
    expect(bare.status).toBe(200);
    expect(await shownText(bare)).toContain("contractor's workspace");
    for (const path of ["/portal", "/portal/auth?token=x"]) expect((await new Browser().get(`http://localhost${path}`)).status, path).toBe(404);
    // Signed in already: /portal/login goes to the portal.
    const { link } = await inviteFor();
    const { browser } = await signInWithLink(link);
    const again = await browser.get(`${new URL(link).origin}/portal/login`);
    expect(location(again)).toBe("/portal");
  });

  it("keeps tokens and links out of the audit log", async () => {
    const { t, link } = await inviteFor();
    await signInWithLink(link);
    await signInWithLink(link);
    const rows = await env.DB.prepare("SELECT action, payload FROM audit_events WHERE tenant_id = ?").bind(t.id).all<{ action: string; payload: string }>();
    const actions = rows.results.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["cis.portal.invited", "cis.portal.signed_in", "cis.portal.link_refused"]));
    const token = tokenOf(link);
    for (const r of rows.results) {
      expect(r.payload).not.toContain(token);
      expect(r.payload).not.toContain(token.split(".")[2]);
      expect(r.payload).not.toContain("/portal/auth");
      expect(r.payload).not.toContain("token=");
    }
  });
});

describe("archived subcontractors and changed addresses", () => {
  async function archiveFromDetail(t: TestTenant, browser: Browser, subId: string) {
    const res = await browser.post(`${t.origin}/cis/subcontractors/${subId}`, { intent: "archive", confirmed: "yes" });
    expect(res.status, await res.clone().text()).toBe(302);
  }

  it("cannot be invited: the page says so, the action refuses, no invite is recorded", async () => {
    const t = await cisTenant();
    const { b: browser } = await cisStaff("admin", { tenant: t });
    const sub = await seedSub(t, { name: "Archived Joinery", email: newEmail() });
    await archiveFromDetail(t, browser, sub.id);
    const page = await browser.get(`${t.origin}/cis/subcontractors/${sub.id}/invite`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const htmlText = pageText(parseHtml(html));
    expect(htmlText).toContain("Archived Joinery is archived. Make them active again before inviting them to the portal.");
    expect(htmlText).not.toContain("Create & Send Invite");
    // No form, so no submission key: the refusal comes first all the same.
    const post = await browser.post(`${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" });
    expect(post.status).toBe(409);
    expect(await shownText(post)).toContain("Archived Joinery is archived. Make them active again before inviting them to the portal.");
    expect(await count("cis_portal_invites", "tenant_id = ?", t.id)).toBe(0);
    // Neither the detail page nor the list offers the invite.
    expect(hrefs(await parsePage(await browser.get(`${t.origin}/cis/subcontractors/${sub.id}`)))).not.toContain(`/cis/subcontractors/${sub.id}/invite`);
    expect(hrefs(await parsePage(await browser.get(`${t.origin}/cis/subcontractors?status=archived`)))).not.toContain(`/cis/subcontractors/${sub.id}/invite`);
  });

  it("archiving ends the portal session, from the detail page, the bulk action and the form's switch", async () => {
    for (const how of ["detail", "bulk", "form"] as const) {
      const { t, sub, link, staffBrowser } = await inviteFor();
      const { browser } = await signInWithLink(link);
      expect((await browser.get(`${t.origin}/portal`)).status, how).toBe(200);
      // The admin posts (the invite was made by a manager, who cannot archive).
      const admin = (await cisStaff("admin", { tenant: t })).b;
      if (how === "detail") await archiveFromDetail(t, admin, sub.id);
      if (how === "bulk")
        expect(
          (
            await admin.post(
              `${t.origin}/cis/subcontractors`,
              await withPageKey(admin, `${t.origin}/cis/subcontractors`, { intent: "bulk-archive", ids: [sub.id], confirmed: "yes" }),
            )
          ).status,
        ).toBe(200);
      if (how === "form") {
        const res = await admin.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, {
          type: "individual",
          name: sub.name,
          utr: "",
          email: sub.email ?? "",
          verificationStatus: "standard",
        });
        expect(res.status, how).toBe(302);
      }
      expect(staffBrowser).toBeTruthy();
      const after = await browser.get(`${t.origin}/portal`);
      expect(after.status, how).toBe(302);
      expect(location(after), how).toBe("/portal/login");
      expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NULL", t.id, sub.id), how).toBe(0);
    }
  });

  it("archiving and ending the sessions are one batch: a failed archive leaves the session live", async () => {
    const { t, sub, link } = await inviteFor();
    const { browser } = await signInWithLink(link);
    const admin = (await cisStaff("admin", { tenant: t })).b;
    const trigger = `fail_archive_${t.slug}`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_events WHEN NEW.tenant_id = '${t.id}' AND NEW.action = 'cis.subcontractor.archived' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
    ).run();
    try {
      const res = await admin.post(`${t.origin}/cis/subcontractors/${sub.id}`, { intent: "archive", confirmed: "yes" });
      expect(res.status).toBe(500);
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    expect(await count("cis_subcontractors", "id = ? AND active = 1", sub.id)).toBe(1);
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NULL", t.id, sub.id)).toBe(1);
    expect((await browser.get(`${t.origin}/portal`)).status).toBe(200);
  });

  it("refuses an archived subcontractor's link and session", async () => {
    const { t, sub, link, staffBrowser } = await inviteFor();
    const second = await invite(t, staffBrowser, sub);
    const { browser } = await signInWithLink(second.link);
    // Archived behind the application's back: the portal still refuses.
    await env.DB.prepare("UPDATE cis_subcontractors SET active = 0 WHERE id = ?").bind(sub.id).run();
    const get = await new Browser().get(link);
    expect(get.status).toBe(410);
    expect(await shownText(get)).toContain("This link has been withdrawn");
    const post = await signInWithLink(link);
    expect(post.res.status).toBe(410);
    expect(post.browser.cookie(t.host, PORTAL_COOKIE)).toBeUndefined();
    const home = await browser.get(`${t.origin}/portal`);
    expect(home.status).toBe(302);
    expect(location(home)).toBe("/portal/login");
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND revoked_at IS NULL AND user_id = ?", t.id, sub.id)).toBe(1);
  });

  it("a changed e-mail withdraws the links already sent and ends the portal sessions; a new invite works", async () => {
    const { t, sub, link, staffBrowser } = await inviteFor();
    const second = await invite(t, staffBrowser, sub);
    const { browser } = await signInWithLink(second.link);
    const admin = (await cisStaff("admin", { tenant: t })).b;
    const edit = (email: string, name = sub.name) =>
      admin.post(`${t.origin}/cis/subcontractors/${sub.id}/edit`, { type: "individual", name, utr: "", email, verificationStatus: "standard", active: "on" });

    // Another field changes: links and sessions are untouched.
    expect((await edit(sub.email ?? "", `${sub.name} Renamed`)).status).toBe(302);
    expect((await new Browser().get(link)).status).toBe(200);
    expect((await browser.get(`${t.origin}/portal`)).status).toBe(200);

    expect((await edit("moved@example.test")).status).toBe(302);
    const get = await new Browser().get(link);
    expect(get.status).toBe(410);
    expect(await shownText(get)).toContain("This link has been withdrawn");
    expect((await signInWithLink(link)).res.status).toBe(410);
    const home = await browser.get(`${t.origin}/portal`);
    expect(location(home)).toBe("/portal/login");
    expect(await count("sessions", "tenant_id = ? AND kind = 'portal' AND user_id = ? AND revoked_at IS NULL", t.id, sub.id)).toBe(0);

    const fresh = await invite(t, staffBrowser, { id: sub.id, email: "moved@example.test" });
    expect(pageText(parseHtml(fresh.html))).toContain("Invitation email sent to moved@example.test");
    expect(location((await signInWithLink(fresh.link)).res)).toBe("/portal");
  });
});

describe("the portal's module check", () => {
  it("every portal route answers 404 on a tenant host without the CIS module", async () => {
    const t = await createTenant({ modules: [] });
    const b = new Browser();
    for (const path of ["/portal", "/portal/login", "/portal/auth?token=x"]) expect((await b.get(`${t.origin}${path}`)).status, path).toBe(404);
    expect((await b.post(`${t.origin}/portal/auth`, { token: "x" })).status).toBe(404);
    expect((await b.post(`${t.origin}/portal/logout`, {})).status).toBe(404);
  });
});
