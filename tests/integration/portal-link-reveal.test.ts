import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { approveInvoice, bulkInvoiceAction, markInvoicePaid } from "~/features/cis/invoices/transitions.server";
import { createUser, type TestTenant } from "../factories";
import { cisTenant, newEmail, newUtr, seedSub } from "../factories/cis";
import { all, attr, page, pageText, parseHtml, textOf, textsOf } from "../factories/html";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";
import { mailedPortalLink, PORTAL_LINK } from "./portal-helpers";
import { signedIn } from "../factories/sessions";
import { SUBMISSION_KEY_FIELD, withPageKey } from "../factories/submission-keys";

/**
 * The attack: someone who may invite subcontractors to the portal sees the invite's magic link,
 * opens it, submits an invoice "from the subcontractor" and approves it themselves. The link is
 * shown only when the e-mail did not go or on an audited 'Show link' step (invite and invoice
 * write scopes), the portal session and its invoices carry who saw the link, and that person can
 * neither approve nor pay those invoices.
 */

type Person = { b: Browser; id: string; email: string; name: string };

async function person(t: TestTenant, role: "manager" | "admin" | "lead" | "standard"): Promise<Person> {
  const u = await createUser(t, { role });
  return { b: await signedIn(t, u), id: u.id, email: u.email, name: `User ${u.email.split("@")[0]}` };
}

/** The link as the result view shows it in its read-only field; null when it shows none. */
function shownLink(html: string): string | null {
  return (
    all(parseHtml(html), "input")
      .filter((el) => attr(el, "readOnly") !== null)
      .map((el) => el.getAttribute("value") ?? "")
      .find((v) => PORTAL_LINK.test(v)) ?? null
  );
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

async function inviteRow(tenantId: string, subId: string) {
  return env.DB.prepare("SELECT * FROM cis_portal_invites WHERE tenant_id = ? AND subcontractor_id = ? ORDER BY created_at DESC LIMIT 1")
    .bind(tenantId, subId)
    .first<Record<string, unknown>>();
}

/** The invite as the page posts it, with an e-mail queue that refuses: the sender is shown the link. */
async function inviteWithFailingMail(t: TestTenant, staff: Person, subId: string) {
  const failingEnv = {
    ...env,
    EMAIL: { send: async () => Promise.reject(new Error("queue down")), sendBatch: async () => Promise.reject(new Error("queue down")) },
  };
  const res = await worker.fetch(
    new Request(`${t.origin}/cis/subcontractors/${subId}/invite`, {
      method: "POST",
      headers: { Origin: t.origin, Cookie: staff.b.cookieHeader(t.host) },
      body: new URLSearchParams((await withPageKey(staff.b, `${t.origin}/cis/subcontractors/${subId}/invite`, { intent: "invite" })) as Record<string, string>),
    }) as Parameters<typeof worker.fetch>[0],
    failingEnv as unknown as Env,
    createExecutionContext(),
  );
  return { res, html: await res.text() };
}

async function signInWithLink(link: string): Promise<Browser> {
  const browser = new Browser();
  const res = await browser.post(`${new URL(link).origin}/portal/auth`, { token: tokenOf(link) });
  expect(location(res)).toBe("/portal");
  return browser;
}

let seq = 0;
/** Submits an invoice through the portal form, as the subcontractor's browser would; returns its id. */
async function submitFromPortal(t: TestTenant, portal: Browser): Promise<string> {
  seq += 1;
  const invoiceNumber = `REV-${seq}-${Date.now().toString(36)}`;
  const f = new FormData();
  for (const [k, v] of Object.entries({ invoiceNumber, invoiceDate: "2026-03-10", gross: "1,000.00", materials: "200.00", vatRate: "20" })) f.append(k, v);
  f.append("attachment", new File([], "", { type: "application/octet-stream" }));
  const res = await portal.post(`${t.origin}/portal/invoices/new`, f);
  expect(res.status).toBe(302);
  const row = await env.DB.prepare("SELECT id FROM cis_invoices WHERE tenant_id = ? AND invoice_number = ?").bind(t.id, invoiceNumber).first<{ id: string }>();
  if (!row) throw new Error("invoice not saved");
  return row.id;
}

async function invoice(id: string) {
  return env.DB.prepare("SELECT * FROM cis_invoices WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

const APPROVE_REFUSED = "You revealed the portal link this invoice was submitted through, so another person must approve it.";
const PAY_REFUSED = "You revealed the portal link this invoice was submitted through, so another person must mark it paid.";

describe("the invite result", () => {
  it("does not carry the link when the e-mail was queued; it offers Show link to someone who may see it", async () => {
    const t = await cisTenant();
    const manager = await person(t, "manager");
    const sub = await seedSub(t, { email: newEmail() });
    const since = Date.now();
    const res = await manager.b.post(
      `${t.origin}/cis/subcontractors/${sub.id}/invite`,
      await withPageKey(manager.b, `${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" }),
    );
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(pageText(parseHtml(html))).toContain(`Invitation email sent to ${sub.email}`);
    const link = await mailedPortalLink(sub.email!, since);
    expect(html).not.toContain("/portal/auth?token=");
    expect(html).not.toContain(tokenOf(link));
    expect(shownLink(html)).toBeNull();
    // A manager may invite but not write invoices: no Show link for them.
    expect(textsOf(parseHtml(html), 'button[type="submit"]')).not.toContain("Show link");
    expect((await inviteRow(t.id, sub.id))?.revealed_by).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'portal.link.revealed'", t.id)).toBe(0);

    const admin = await person(t, "admin");
    const again = await admin.b.post(
      `${t.origin}/cis/subcontractors/${sub.id}/invite`,
      await withPageKey(admin.b, `${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" }),
    );
    const againHtml = await again.text();
    expect(shownLink(againHtml)).toBeNull();
    const doc = parseHtml(againHtml);
    expect(textsOf(doc, 'button[type="submit"]')).toContain("Show link");
    const form = all(doc, "form").find((f) => all(f, 'input[name="intent"]').some((i) => i.getAttribute("value") === "reveal"));
    expect(form?.getAttribute("method")).toBe("post");
    expect(form?.getAttribute("action")).toBe(`/cis/subcontractors/${sub.id}/invite`);
  });

  it("create-and-invite: the result's Show link posts to the new subcontractor's invite and shows the e-mailed link", async () => {
    const t = await cisTenant();
    const admin = await person(t, "admin");
    const email = newEmail("created");
    const since = Date.now();
    const res = await admin.b.post(`${t.origin}/cis/subcontractors/invite`, {
      intent: "create",
      name: "Created Then Shown Ltd",
      email,
      type: "company",
      utr: newUtr(),
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(shownLink(html)).toBeNull();
    const mailed = await mailedPortalLink(email, since);
    const created = await env.DB.prepare("SELECT id FROM cis_subcontractors WHERE tenant_id = ? AND email = ?").bind(t.id, email).first<{ id: string }>();
    const form = all(parseHtml(html), "form").find((f) => all(f, 'input[name="intent"]').some((i) => i.getAttribute("value") === "reveal"));
    expect(form?.getAttribute("action")).toBe(`/cis/subcontractors/${created?.id}/invite`);
    const inviteId = form ? all(form, 'input[name="invite"]')[0]?.getAttribute("value") : null;
    const shown = await admin.b.post(`${t.origin}${form?.getAttribute("action")}`, { intent: "reveal", invite: inviteId ?? "" });
    expect(shown.status).toBe(200);
    expect(shownLink(await shown.text())).toBe(mailed);
  });

  it("shows the link when the e-mail could not be sent, and records it as shown to the sender (one batch with the audit)", async () => {
    const t = await cisTenant();
    const manager = await person(t, "manager");
    const sub = await seedSub(t, { email: newEmail() });
    const { res, html } = await inviteWithFailingMail(t, manager, sub.id);
    expect(res.status).toBe(200);
    expect(pageText(parseHtml(html))).toContain("Email could not be sent. Please share the link manually.");
    const link = shownLink(html);
    expect(link).toBeTruthy();
    const row = await inviteRow(t.id, sub.id);
    expect(row?.revealed_by).toBe(manager.id);
    const audits = await env.DB.prepare(
      "SELECT actor_id, actor_email, target_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'portal.link.revealed'",
    )
      .bind(t.id)
      .all<{ actor_id: string; actor_email: string; target_id: string; payload: string }>();
    expect(audits.results).toHaveLength(1);
    expect(audits.results[0]).toMatchObject({ actor_id: manager.id, actor_email: manager.email, target_id: sub.id });
    expect(JSON.parse(audits.results[0].payload)).toMatchObject({ inviteId: row?.id, reason: "email_not_sent" });
    expect(audits.results[0].payload).not.toContain(tokenOf(link!));
  });
});

describe("the attack: a manager acts as the subcontractor through the link they saw", () => {
  it("is refused at approval (page, data layer and bulk); another approver approves", async () => {
    const t = await cisTenant();
    const manager = await person(t, "manager");
    const sub = await seedSub(t, { name: "Victim Groundworks", email: newEmail() });
    const { html } = await inviteWithFailingMail(t, manager, sub.id);
    const link = shownLink(html)!;

    const portal = await signInWithLink(link);
    const session = await env.DB.prepare("SELECT portal_link_revealed_by FROM sessions WHERE tenant_id = ? AND kind = 'portal' AND user_id = ?")
      .bind(t.id, sub.id)
      .first<{ portal_link_revealed_by: string | null }>();
    expect(session?.portal_link_revealed_by).toBe(manager.id);
    const id = await submitFromPortal(t, portal);
    expect(await invoice(id)).toMatchObject({ source: "portal", status: "portal_draft", created_by: sub.id, portal_link_revealed_by: manager.id });

    // The detail page offers the manager no Approve, and says why.
    const detail = await page(await manager.b.get(`${t.origin}/cis/invoices/${id}`));
    expect(textsOf(detail, 'button[type="submit"]')).not.toContain("Approve");
    expect(pageText(detail)).toContain(`Submitted through a link shown to ${manager.name}`);
    expect(pageText(detail)).toContain(APPROVE_REFUSED);
    // The list marks it.
    const list = await page(await manager.b.get(`${t.origin}/cis/invoices`));
    const mark = all(list, `[data-row="${id}"] [data-link-revealed]`);
    expect(mark).toHaveLength(1);
    expect(mark[0].textContent).toContain(`Submitted through a link shown to ${manager.name}`);

    // The post itself is refused, with the reason; nothing changes.
    const approve = await manager.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" });
    expect(approve.status).toBe(403);
    expect(pageText(await page(approve))).toContain(APPROVE_REFUSED);
    const actor = { id: manager.id, email: manager.email, name: manager.name };
    expect(await approveInvoice(env, t.id, id, actor)).toEqual({ ok: false, code: "revealer_cannot_approve" });
    // Bulk: the confirmation step (without JavaScript) already says so, and the action refuses it.
    const ask = await page(await manager.b.post(`${t.origin}/cis/invoices`, { intent: "approve", ids: [id] }));
    expect(textOf(ask, `[data-confirm-id="${id}"] [data-confirm-note]`)).toBe(APPROVE_REFUSED);
    const key = all(ask, `input[name="${SUBMISSION_KEY_FIELD}"]`)[0]?.getAttribute("value") ?? "";
    const bulk = await manager.b.post(`${t.origin}/cis/invoices`, { intent: "approve", ids: [id], confirmed: "yes", [SUBMISSION_KEY_FIELD]: key });
    expect(bulk.status).toBe(200);
    expect(pageText(await page(bulk))).toContain(APPROVE_REFUSED);
    expect((await invoice(id))?.status).toBe("portal_draft");
    expect(await count("audit_events", "tenant_id = ? AND action IN ('cis.invoice.approved', 'cis.invoice.bulk.approve')", t.id)).toBe(0);

    // Another approver may.
    const admin = await person(t, "admin");
    const ok = await admin.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" });
    expect(ok.status).toBe(302);
    expect(await invoice(id)).toMatchObject({ status: "approved", approved_by: admin.id });
  });

  it("an invoice sent through the e-mailed link (never shown) is approved by the inviter as before", async () => {
    const t = await cisTenant();
    const manager = await person(t, "manager");
    const sub = await seedSub(t, { email: newEmail() });
    const since = Date.now();
    expect(
      (
        await manager.b.post(
          `${t.origin}/cis/subcontractors/${sub.id}/invite`,
          await withPageKey(manager.b, `${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" }),
        )
      ).status,
    ).toBe(200);
    const portal = await signInWithLink(await mailedPortalLink(sub.email!, since));
    const id = await submitFromPortal(t, portal);
    expect((await invoice(id))?.portal_link_revealed_by).toBeNull();
    const detail = await page(await manager.b.get(`${t.origin}/cis/invoices/${id}`));
    expect(textsOf(detail, 'button[type="submit"]')).toContain("Approve");
    expect(pageText(detail)).not.toContain("Submitted through a link shown to");
    expect((await manager.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" })).status).toBe(302);
  });
});

describe("Show link", () => {
  async function invited() {
    const t = await cisTenant();
    const manager = await person(t, "manager");
    const sub = await seedSub(t, { email: newEmail() });
    const since = Date.now();
    expect(
      (
        await manager.b.post(
          `${t.origin}/cis/subcontractors/${sub.id}/invite`,
          await withPageKey(manager.b, `${t.origin}/cis/subcontractors/${sub.id}/invite`, { intent: "invite" }),
        )
      ).status,
    ).toBe(200);
    const mailed = await mailedPortalLink(sub.email!, since);
    const row = await inviteRow(t.id, sub.id);
    return { t, manager, sub, mailed, inviteId: String(row?.id) };
  }
  const reveal = (t: TestTenant, who: Person, subId: string, inviteId: string) =>
    who.b.post(`${t.origin}/cis/subcontractors/${subId}/invite`, { intent: "reveal", invite: inviteId });

  it("needs cis.portal.invite and cis.inv.write: 403 and an audited denial otherwise", async () => {
    const { t, manager, sub, inviteId } = await invited();
    const lead = await person(t, "lead");
    // The manager may invite but not write invoices; the lead writes invoices but may not invite.
    for (const who of [manager, lead]) {
      const res = await reveal(t, who, sub.id, inviteId);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("/portal/auth?token=");
    }
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, manager.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, lead.id)).toBe(1);
    expect((await inviteRow(t.id, sub.id))?.revealed_by).toBeNull();
    expect(await count("audit_events", "tenant_id = ? AND action = 'portal.link.revealed'", t.id)).toBe(0);
  });

  it("shows the e-mailed link to someone with both, audited; its invoices cannot be approved or paid by them", async () => {
    const { t, manager, sub, mailed, inviteId } = await invited();
    const admin = await person(t, "admin");
    const res = await reveal(t, admin, sub.id, inviteId);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(shownLink(html)).toBe(mailed);
    expect(pageText(parseHtml(html))).toContain("Portal access link (expires in 15 minutes)");
    expect((await inviteRow(t.id, sub.id))?.revealed_by).toBe(admin.id);
    const audit = await env.DB.prepare(
      "SELECT actor_id, actor_email, target_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'portal.link.revealed'",
    )
      .bind(t.id)
      .first<{ actor_id: string; actor_email: string; target_id: string; payload: string }>();
    expect(audit).toMatchObject({ actor_id: admin.id, actor_email: admin.email, target_id: sub.id });
    expect(JSON.parse(audit!.payload)).toMatchObject({ inviteId, reason: "show_link" });
    expect(audit!.payload).not.toContain(tokenOf(mailed));

    const portal = await signInWithLink(mailed);
    const id = await submitFromPortal(t, portal);
    expect((await invoice(id))?.portal_link_revealed_by).toBe(admin.id);
    const adminActor = { id: admin.id, email: admin.email, name: admin.name };
    expect(await approveInvoice(env, t.id, id, adminActor)).toEqual({ ok: false, code: "revealer_cannot_approve" });
    expect((await manager.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "approve" })).status).toBe(302);

    // Paying: refused to the one who saw the link, single and bulk; someone else pays.
    const detail = await page(await admin.b.get(`${t.origin}/cis/invoices/${id}`));
    expect(textsOf(detail, 'button[type="submit"]')).not.toContain("Mark Paid");
    expect(pageText(detail)).toContain(PAY_REFUSED);
    const pay = await admin.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "pay", paymentDate: "2026-04-01" });
    expect(pay.status).toBe(403);
    expect(pageText(await page(pay))).toContain(PAY_REFUSED);
    expect(await markInvoicePaid(env, t.id, id, adminActor, { paymentDate: "2026-04-01" })).toEqual({ ok: false, code: "revealer_cannot_pay" });
    const bulk = await bulkInvoiceAction(env, t.id, "pay", [id], adminActor, { paymentDate: "2026-04-01" });
    expect(bulk.failed).toEqual([{ id, code: "revealer_cannot_pay" }]);
    expect((await invoice(id))?.status).toBe("approved");
    const lead = await person(t, "lead");
    expect((await lead.b.post(`${t.origin}/cis/invoices/${id}`, { intent: "pay", paymentDate: "2026-04-01" })).status).toBe(302);
    expect(await invoice(id)).toMatchObject({ status: "paid", paid_by: lead.id });
  });

  it("is refused once the link is used, and to a second person; nothing is recorded", async () => {
    const { t, sub, mailed, inviteId } = await invited();
    const admin = await person(t, "admin");
    const other = await person(t, "admin");
    expect((await reveal(t, admin, sub.id, inviteId)).status).toBe(200);
    // A second person would also have seen it: they get a new invite instead.
    const second = await reveal(t, other, sub.id, inviteId);
    expect(second.status).toBe(409);
    expect(shownLink(await second.text())).toBeNull();
    await signInWithLink(mailed);
    const used = await reveal(t, admin, sub.id, inviteId);
    expect(used.status).toBe(410);
    expect(shownLink(await used.text())).toBeNull();
    expect((await inviteRow(t.id, sub.id))?.revealed_by).toBe(admin.id);
    expect(await count("audit_events", "tenant_id = ? AND action = 'portal.link.revealed'", t.id)).toBe(1);
  });

  it("answers 404 for another tenant's subcontractor or invite", async () => {
    const { t: other, sub: foreignSub, inviteId: foreignInvite } = await invited();
    const t = await cisTenant();
    const admin = await person(t, "admin");
    const mine = await seedSub(t, { email: newEmail() });
    expect((await reveal(t, admin, foreignSub.id, foreignInvite)).status).toBe(404);
    expect((await reveal(t, admin, mine.id, foreignInvite)).status).toBe(404);
    expect((await inviteRow(other.id, foreignSub.id))?.revealed_by).toBeNull();
    expect(await count("audit_events", "action = 'portal.link.revealed' AND tenant_id IN (?, ?)", t.id, other.id)).toBe(0);
  });

  it("records nothing and shows nothing when its audit entry cannot be written", async () => {
    const { t, sub, inviteId } = await invited();
    const admin = await person(t, "admin");
    const trigger = `fail_reveal_${t.slug}`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON audit_events WHEN NEW.tenant_id = '${t.id}' AND NEW.action = 'portal.link.revealed' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
    ).run();
    try {
      const res = await reveal(t, admin, sub.id, inviteId);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain("/portal/auth?token=");
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    expect((await inviteRow(t.id, sub.id))?.revealed_by).toBeNull();
  });
});
