import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { invoiceSchema } from "~/features/cis/domain";
import { londonToday } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { runHousekeeping } from "~/features/platform/housekeeping.server";
import { SUBMISSION_KEY_MESSAGES } from "~/features/platform/submission-key-codes";
import { mintSubmissionKey, SUBMISSION_KEY_LIFETIME_MS, verifySubmissionKey } from "~/features/platform/submission-keys.server";
import { createTenant, createUser, uid, type TestTenant } from "../factories";
import { newEmail, seedSub } from "../factories/cis";
import { alerts, page, pageText, textsOf } from "../factories/html";
import { mintKey, pageKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { signedIn } from "../factories/sessions";
import { count } from "./auth-helpers";
import { location, type Browser } from "./http";

/**
 * Forms whose action reaches outside the row it updates (e-mail, jobs, HMRC, bulk changes) carry
 * a one-time submission key: the first post acts and stores its answer with the key in the same
 * D1 batch; a repeat with that key (a double click, a refreshed result page) gets the same answer
 * and does nothing. A post without a key, with a forged or expired one, or with someone else's,
 * is refused and does nothing.
 */

const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };
let seq = 0;

async function invoice(t: TestTenant, subId: string, status: "draft" | "approved" = "draft") {
  seq += 1;
  const res = await createInvoice(
    env,
    t.id,
    invoiceSchema.parse({ subcontractorId: subId, invoiceNumber: `ONCE-${seq}`, invoiceDate: londonToday(), grossP: 100_000, materialsP: 0, vatRate: 20 }),
    SEEDER,
    { source: "staff" },
  );
  if (!res.ok) throw new Error(res.code);
  if (status !== "draft") await env.DB.prepare("UPDATE cis_invoices SET status = ? WHERE id = ?").bind(status, res.id).run();
  return res.id;
}

async function staff(t: TestTenant, role: "admin" | "lead" = "admin") {
  const u = await createUser(t, { role });
  return { u, b: await signedIn(t, u) };
}

const outboxCount = (tenantId: string, template: string) => count("email_outbox", "tenant_id = ? AND template = ?", tenantId, template);

/** Posts `form` twice with the same key and returns both answers. */
async function twice(b: Browser, url: string, form: Record<string, string | string[]>) {
  const first = await b.post(url, form);
  const second = await b.post(url, form);
  return { first, second };
}

describe("submission keys: the invoice's Email", () => {
  it("a second post with the same key sends nothing and answers as the first (same redirect and toast)", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { b } = await staff(t, "lead");
    const sub = await seedSub(t, { email: newEmail("once") });
    const id = await invoice(t, sub.id);
    const url = `${t.origin}/cis/invoices/${id}`;
    const form = { intent: "email", [SUBMISSION_KEY_FIELD]: await pageKey(b, url) };

    const { first, second } = await twice(b, url, form);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(location(second)).toBe(location(first));
    expect(await outboxCount(t.id, "cis.invoice-copy")).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.emailed'", t.id)).toBe(1);
    const shown = pageText(await page(await b.follow(second, url)));
    expect(shown).toContain(`was sent to ${sub.email}`);

    // Two at the same moment (a double click that races): still one e-mail.
    const racing = { intent: "email", [SUBMISSION_KEY_FIELD]: await pageKey(b, url) };
    const [a, c] = await Promise.all([b.post(url, racing), b.post(url, racing)]);
    expect([a.status, c.status]).toEqual([302, 302]);
    expect(await outboxCount(t.id, "cis.invoice-copy")).toBe(2);

    // A fresh render carries a fresh key, so pressing Email again later sends again.
    expect(await pageKey(b, url)).not.toBe(form[SUBMISSION_KEY_FIELD]);
  });

  it("refuses a post without a key, with a forged or expired key, or with another person's or tenant's key, and sends nothing", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { u, b } = await staff(t, "lead");
    const { u: colleague } = await staff(t, "lead");
    const other = await createTenant({ modules: ["cis"] });
    const { u: stranger } = await staff(other, "lead");
    const sub = await seedSub(t, { email: newEmail("refuse") });
    const id = await invoice(t, sub.id);
    const url = `${t.origin}/cis/invoices/${id}`;
    const action = `cis.invoice.email:${id}`;
    const genuine = await mintKey(t, u, action);
    const [issued, nonce, mac] = genuine.split(".");
    const expired = await mintSubmissionKey(env, { tenantId: t.id, userId: u.id, action }, Date.now() - SUBMISSION_KEY_LIFETIME_MS - 1000);

    const cases: [string | null, string][] = [
      [null, SUBMISSION_KEY_MESSAGES.missing],
      ["", SUBMISSION_KEY_MESSAGES.missing],
      [`${issued}.${nonce}.${mac.slice(0, -2)}AA`, SUBMISSION_KEY_MESSAGES.invalid],
      [`${(parseInt(issued, 36) + 1).toString(36)}.${nonce}.${mac}`, SUBMISSION_KEY_MESSAGES.invalid],
      ["not-a-key", SUBMISSION_KEY_MESSAGES.invalid],
      [expired, SUBMISSION_KEY_MESSAGES.expired],
      [await mintKey(t, colleague, action), SUBMISSION_KEY_MESSAGES.invalid],
      [await mintKey(other, stranger, action), SUBMISSION_KEY_MESSAGES.invalid],
      [await mintKey(t, u, `cis.invoice.email:${await invoice(t, sub.id)}`), SUBMISSION_KEY_MESSAGES.invalid],
    ];
    for (const [key, message] of cases) {
      const res = await b.post(url, key === null ? { intent: "email" } : { intent: "email", [SUBMISSION_KEY_FIELD]: key });
      expect(res.status, String(key)).toBe(409);
      expect(alerts(await page(res)), String(key)).toContain(message);
    }
    expect(await outboxCount(t.id, "cis.invoice-copy")).toBe(0);
    expect(await count("submission_keys", "tenant_id IN (?, ?)", t.id, other.id)).toBe(0);

    // The colleague's own key, used by the colleague once, is stored under them; this person cannot answer with it.
    const cb = await signedIn(t, colleague);
    const theirs = await mintKey(t, colleague, action);
    expect((await cb.post(url, { intent: "email", [SUBMISSION_KEY_FIELD]: theirs })).status).toBe(302);
    const reused = await b.post(url, { intent: "email", [SUBMISSION_KEY_FIELD]: theirs });
    expect(reused.status).toBe(409);
    expect(await outboxCount(t.id, "cis.invoice-copy")).toBe(1);

    // The guards come first: a person who may not e-mail is refused with 403 whatever the key.
    const t2 = await createTenant({ modules: ["cis"], bundles: { standard: ["cis.inv.read"] } });
    const reader = await createUser(t2, { role: "standard" });
    const rb = await signedIn(t2, reader);
    const sub2 = await seedSub(t2, { email: newEmail("reader") });
    const id2 = await invoice(t2, sub2.id);
    const denied = await rb.post(`${t2.origin}/cis/invoices/${id2}`, {
      intent: "email",
      [SUBMISSION_KEY_FIELD]: await mintKey(t2, reader, `cis.invoice.email:${id2}`),
    });
    expect(denied.status).toBe(403);
    expect(await count("submission_keys", "tenant_id = ?", t2.id)).toBe(0);
  });
});

describe("submission keys: the invoice list's bulk actions", () => {
  it("refreshing the result page (the same confirmed post again) shows the same result and changes nothing more", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { b } = await staff(t);
    const sub = await seedSub(t);
    const ids = [await invoice(t, sub.id), await invoice(t, sub.id)];
    const url = `${t.origin}/cis/invoices`;
    // Without JavaScript: the first post asks, and its confirmation step carries the key.
    const ask = await page(await b.post(url, { intent: "approve", ids }));
    const key = ask.querySelector(`[data-confirm] input[name="${SUBMISSION_KEY_FIELD}"]`)?.getAttribute("value");
    expect(key).toBeTruthy();
    const form = { intent: "approve", ids, confirmed: "yes", [SUBMISSION_KEY_FIELD]: key! };
    const { first, second } = await twice(b, url, form);
    const [one, two] = [await page(first), await page(second)];
    expect(textsOf(two, "[data-bulk-result] [role=status]")).toEqual(["Approved 2 of 2 selected items."]);
    expect(textsOf(two, "[data-succeeded-id]")).toEqual(textsOf(one, "[data-succeeded-id]"));
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.bulk.approve'", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.approved'", t.id)).toBe(2);

    // Without a key a confirmed post changes nothing.
    const third = await invoice(t, sub.id);
    const bare = await b.post(url, { intent: "delete", ids: [third], confirmed: "yes" });
    expect(bare.status).toBe(409);
    expect(alerts(await page(bare))).toContain(SUBMISSION_KEY_MESSAGES.missing);
    expect(await count("cis_invoices", "id = ? AND deleted_at IS NULL", third)).toBe(1);
  });
});

describe("submission keys: portal invites and the team page", () => {
  it("a repeated portal invite sends one link and says it was already sent", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const { b } = await staff(t);
    const sub = await seedSub(t, { email: newEmail("invite") });
    const url = `${t.origin}/cis/subcontractors/${sub.id}/invite`;
    const form = { intent: "invite", [SUBMISSION_KEY_FIELD]: await pageKey(b, url) };
    const { first, second } = await twice(b, url, form);
    expect(first.status).toBe(200);
    expect(pageText(await page(first))).toContain("Invitation Created");
    expect(second.status).toBe(409);
    const repeat = pageText(await page(second));
    expect(repeat).toContain(`This invitation was already sent to ${sub.email}`);
    expect(repeat).not.toContain("/portal/auth?token=");
    expect(await count("cis_portal_invites", "tenant_id = ?", t.id)).toBe(1);
    expect(await outboxCount(t.id, "portal.invite")).toBe(1);
  });

  it("invite, password reset and resend invitation each send once per key", async () => {
    const t = await createTenant();
    const { b } = await staff(t);
    const url = `${t.origin}/settings/users`;
    const email = `${uid("once")}@example.test`;
    const invite = { intent: "invite", email, role: "standard", [SUBMISSION_KEY_FIELD]: await pageKey(b, url, 'section[aria-labelledby="invite-heading"]') };
    const sent = await twice(b, url, invite);
    expect([sent.first.status, sent.second.status]).toEqual([302, 302]);
    expect(await outboxCount(t.id, "team.invite")).toBe(1);

    const member = await createUser(t);
    const resetForm = async () => {
      const doc = await page(await b.get(url));
      const key = doc.querySelector(`tr[data-user="${member.email}"] input[name="${SUBMISSION_KEY_FIELD}"]`)?.getAttribute("value");
      return { intent: "reset", userId: member.id, [SUBMISSION_KEY_FIELD]: key ?? "" };
    };
    const reset = await resetForm();
    expect(reset[SUBMISSION_KEY_FIELD]).not.toBe("");
    await twice(b, url, reset);
    expect(await outboxCount(t.id, "team.password-reset")).toBe(1);
    // A new render, a new key: a deliberate second reset link is sent.
    await b.post(url, await resetForm());
    expect(await outboxCount(t.id, "team.password-reset")).toBe(2);
  });
});

describe("submission keys: lifetime", () => {
  it("a key is bound to its scope and a day; stored keys are purged by the hourly housekeeping a day after use", async () => {
    const scope = { tenantId: "t1", userId: "u1", action: "x" };
    const key = await mintSubmissionKey(env, scope);
    expect(key.split(".")[1].length).toBeGreaterThanOrEqual(22); // 128 random bits, base64url
    expect(await verifySubmissionKey(env, scope, key)).toMatchObject({ ok: true });
    expect(await verifySubmissionKey(env, { ...scope, userId: "u2" }, key)).toEqual({ ok: false, code: "invalid" });
    expect(await verifySubmissionKey(env, { ...scope, tenantId: "t2" }, key)).toEqual({ ok: false, code: "invalid" });
    expect(await verifySubmissionKey(env, scope, key, Date.now() + SUBMISSION_KEY_LIFETIME_MS + 1000)).toEqual({ ok: false, code: "expired" });
    expect(await mintSubmissionKey(env, scope)).not.toBe(key);

    const t = await createTenant();
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO submission_keys (tenant_id, key, user_id, action, result, claim_id, created_at) VALUES (?, 'old', 'u', 'a', NULL, 'c', ?), (?, 'new', 'u', 'a', NULL, 'c', ?)",
    )
      .bind(t.id, now - SUBMISSION_KEY_LIFETIME_MS - 1000, t.id, now - 1000)
      .run();
    await runHousekeeping(env, now);
    expect(await count("submission_keys", "tenant_id = ? AND key = 'old'", t.id)).toBe(0);
    expect(await count("submission_keys", "tenant_id = ? AND key = 'new'", t.id)).toBe(1);
  });
});
