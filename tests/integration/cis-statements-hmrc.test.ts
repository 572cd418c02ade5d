import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { currentTaxMonth, invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, londonToday, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { getInvoice } from "~/features/cis/invoices/queries.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { INVOICE_ERROR_MESSAGES } from "~/features/cis/invoices/invoice-codes";
import { ensureStatementPdf } from "~/features/cis/statements/files.server";
import { issueStatement, resendStatementEmail, STATEMENT_RESENT_AUDIT } from "~/features/cis/statements/issue.server";
import { pdfText, pdfTextRuns } from "~/features/cis/statements/pdf-text.test-support";
import { loadStatementsPage } from "~/features/cis/statements/statements-page.server";
import { generateStatement, pendingStatementGroups } from "~/features/cis/statements/statements.server";
import type { TestTenant } from "../factories";
import { cisStaff, newEmail, seedSub } from "../factories/cis";
import { all, attr, one, pageText, parseHtml, textOf, visit } from "../factories/html";
import { quietEnv } from "../factories/queues";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";
import { inviteByMail } from "./portal-helpers";

/**
 * The payment and deduction statement as the law asks for it: what it must show (HMRC's list for
 * the statement), which invoices go on it (payments made in the tax month), what makes an invoice
 * need one (the approval itself) and a statement whose e-mail was not sent.
 */

const actor = { id: "user-hmrc-stmt", email: "hmrc-stmt@example.test", name: "Statements" };
const MONTH = "2026-01"; // 6 January to 5 February 2026

/** A producer whose every send fails, as a queue outage would. */
function refusingQueue(): Queue {
  const fail = async () => {
    throw new Error("queue unavailable");
  };
  return { send: fail, sendBatch: fail } as unknown as Queue;
}

async function settings(t: TestTenant) {
  await env.DB.prepare(
    `INSERT INTO cis_settings (tenant_id, active, company_name, employer_ref, accounts_office_ref, warning_days, statement_deadline_days, email_statements, created_at, updated_at)
     VALUES (?, 1, 'Statement Contractor Ltd', '123/AB12345', '123PG00012345', 3, 14, 1, 0, 0)
     ON CONFLICT(tenant_id) DO UPDATE SET company_name = excluded.company_name, employer_ref = excluded.employer_ref, email_statements = 1`,
  )
    .bind(t.id)
    .run();
}

/** A valid 1x1 PNG. */
const PNG_1X1 = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);

let seq = 0;
/** An invoice approved through the data layer (gross 1,500.00, materials 500.00, VAT 20%), paid on `paid` unless null. */
async function approved(e: Env, t: TestTenant, subId: string, opts: { date?: string; paid?: string | null; grossP?: number; materialsP?: number } = {}) {
  seq += 1;
  const res = await createInvoice(
    e,
    t.id,
    invoiceSchema.parse({
      subcontractorId: subId,
      invoiceNumber: `HM-${seq}`,
      invoiceDate: opts.date ?? "2026-01-12",
      grossP: opts.grossP ?? 150_000,
      materialsP: opts.materialsP ?? 50_000,
      vatRate: 20,
      reverseCharge: false,
    }),
    actor,
  );
  if (!res.ok) throw new Error(res.code);
  expect((await approveInvoice(e, t.id, res.id, actor)).ok).toBe(true);
  const paid = opts.paid === undefined ? (opts.date ?? "2026-01-20") : opts.paid;
  if (paid) expect((await markInvoicePaid(e, t.id, res.id, actor, { paymentDate: paid })).ok).toBe(true);
  return res.id;
}

describe("the statement shows everything HMRC requires on it", () => {
  async function statementOf(t: TestTenant, sub: { id: string }) {
    await approved(quietEnv(), t, sub.id);
    const res = await generateStatement(quietEnv(), t.id, sub.id, MONTH, actor);
    if (!res.ok) throw new Error(res.code);
    return res.id;
  }

  /** Every item of HMRC's list for the statement, read from the PDF text. */
  function expectRequiredItems(bytes: Uint8Array, sub: { name: string; utr: string }, deducted: string) {
    const text = pdfText(bytes);
    const runs = pdfTextRuns(bytes);
    const after = (label: string) => runs[runs.indexOf(label) + 1];
    expect(after("Contractor")).toBe("Statement Contractor Ltd");
    expect(after("Employer reference")).toBe("123/AB12345");
    expect(text).toContain("Tax month ending 5 February 2026");
    expect(after("Subcontractor")).toBe(sub.name);
    expect(after("Subcontractor UTR")).toBe(sub.utr);
    // Gross paid excluding VAT (VAT of 300.00 would make it 1,800.00), cost of materials, amount deducted.
    expect(after("Gross amount paid (excluding VAT)")).toBe("£1,500.00");
    expect(text).not.toContain("£1,800.00");
    expect(after("Cost of materials")).toBe("£500.00");
    expect(after("Amount deducted (CIS)")).toBe(deducted);
    return { text, after };
  }

  it("standard rate: contractor and employer reference, tax month end, name and full UTR, gross excluding VAT, materials and deduction, in every copy; lists keep the UTR masked and D1 never holds it in plain text", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Standard Rate Joinery", email: newEmail("std") });
    const id = await statementOf(t, sub);

    const pdf = await ensureStatementPdf(env, t.id, id);
    if (!pdf.ok) throw new Error(pdf.code);
    const { text, after } = expectRequiredItems(pdf.bytes, sub, "£200.00");
    expect(after("CIS rate")).toBe("20%");
    expect(text).not.toContain("Verification number");

    // The HTML download and the print page carry the full UTR too.
    const html = await b.get(`${t.origin}/cis/statements/${id}/download?format=html`);
    expect(html.status).toBe(200);
    const htmlText = await html.text();
    expect(htmlText).toContain(sub.utr);
    expect(htmlText).toContain("Tax month ending 5 February 2026");
    const print = await b.get(`${t.origin}/cis/statements/${id}/print`);
    expect(print.status).toBe(200);
    expect(await print.text()).toContain(sub.utr);
    const download = await b.get(`${t.origin}/cis/statements/${id}/download?format=pdf`);
    expect(pdfText(new Uint8Array(await download.arrayBuffer()))).toContain(sub.utr);

    // The statements list shows the masked UTR only.
    const list = await b.get(`${t.origin}/cis/statements?month=${MONTH}`);
    const body = await list.text();
    expect(body).toContain(`******${sub.utr.slice(-4)}`);
    expect(body).not.toContain(sub.utr);

    // At rest: the frozen document holds the masked UTR, and the full one only encrypted beside it.
    const stored = await env.DB.prepare("SELECT document, utr_enc FROM cis_statement_documents WHERE tenant_id = ? AND statement_id = ?")
      .bind(t.id, id)
      .first<{ document: string; utr_enc: string | null }>();
    expect(stored?.document).not.toContain(sub.utr);
    expect(stored?.utr_enc).toMatch(/^v\d+\./);
    expect(stored?.utr_enc).not.toContain(sub.utr);
    const statementRow = await env.DB.prepare("SELECT * FROM cis_statements WHERE id = ?").bind(id).first();
    expect(JSON.stringify(statementRow)).not.toContain(sub.utr);

    // The subcontractor's own copy in the portal.
    expect((await issueStatement(env, t, id, "portal", actor)).ok).toBe(true);
    const { link } = await inviteByMail(t, b, sub);
    const portal = new Browser();
    expect(location(await portal.post(`${t.origin}/portal/auth`, { token: new URL(link).searchParams.get("token") ?? "" }))).toBe("/portal");
    const copy = await portal.get(`${t.origin}/portal/statements/${id}.pdf`);
    expect(copy.status).toBe(200);
    expectRequiredItems(new Uint8Array(await copy.arrayBuffer()), sub, "£200.00");
  });

  it("carries the contractor's address and logo from branding (set on the branding page), with every required item still there; a missing logo is left out", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    // The address and the logo, through the branding page as an admin sets them.
    const branding = { accentColor: "#1D4ED8", radius: "0.5rem", appearance: "auto", fontFamily: "Inter" };
    expect((await b.post(`${t.origin}/settings/branding`, { ...branding, address: "Unit 4, Riverside Park\nLeeds\nLS1 4AB" })).status).toBe(302);
    const upload = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => {
      const form = new FormData();
      form.set("intent", "logo");
      form.set("logo", new File([bytes], name, { type }));
      return b.post(`${t.origin}/settings/branding`, form);
    };
    // Not a PNG or JPEG, whatever it is called: refused with the reason next to the field, nothing stored.
    const refused = await upload(new TextEncoder().encode("GIF89a......"), "logo.png", "image/png");
    expect(refused.status).toBe(400);
    expect(pageText(parseHtml(await refused.text()))).toContain("The logo must be a PNG or JPEG image");
    expect(
      (
        await b.post(
          `${t.origin}/settings/branding`,
          (() => {
            const f = new FormData();
            f.set("intent", "logo");
            return f;
          })(),
        )
      ).status,
    ).toBe(400);
    expect((await upload(PNG_1X1, "logo.png", "image/png")).status).toBe(302);
    const stored = (await env.DB.prepare("SELECT branding FROM tenants WHERE id = ?").bind(t.id).first<{ branding: string }>())!;
    const logo = JSON.parse(stored.branding).logo as { key: string; type: string };
    expect(logo.type).toBe("image/png");
    expect(logo.key.startsWith(`tenants/${t.id}/branding/`)).toBe(true);
    expect(await env.FILES.head(logo.key)).not.toBeNull();
    expect(textOf((await visit(b, `${t.origin}/settings/branding`)).doc, '[data-testid="logo-status"]')).toContain("PNG logo");

    const sub = await seedSub(t, { name: "Branded Joinery", email: newEmail("brand") });
    const id = await statementOf(t, sub);
    const pdf = await ensureStatementPdf(env, t.id, id);
    if (!pdf.ok) throw new Error(pdf.code);
    const { after } = expectRequiredItems(pdf.bytes, sub, "£200.00");
    expect(after("Contractor address")).toBe("Unit 4, Riverside Park, Leeds, LS1 4AB");
    expect(new TextDecoder("latin1").decode(pdf.bytes)).toMatch(/\/Subtype\s*\/Image/);

    // The logo gone from storage: the next statement renders without it, every item still there.
    await env.FILES.delete(logo.key);
    const other = await seedSub(t, { name: "Logo Gone Ltd", type: "company", email: newEmail("gone") });
    const second = await statementOf(t, other);
    const plain = await ensureStatementPdf(env, t.id, second);
    if (!plain.ok) throw new Error(plain.code);
    expectRequiredItems(plain.bytes, other, "£200.00");
    expect(new TextDecoder("latin1").decode(plain.bytes)).not.toMatch(/\/Subtype\s*\/Image/);
  });

  it("higher rate (unmatched, 30%): the same items plus the verification number", async () => {
    const { t } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Unmatched Roofing", verificationStatus: "higher", verificationReference: "V1234567890AB" });
    const id = await statementOf(t, sub);
    const pdf = await ensureStatementPdf(env, t.id, id);
    if (!pdf.ok) throw new Error(pdf.code);
    const { after } = expectRequiredItems(pdf.bytes, sub, "£300.00");
    expect(after("Verification number")).toBe("V1234567890AB");
    expect(after("CIS rate")).toBe("30%");
  });
});

describe("an invoice needs a statement because its approval says so", () => {
  it("approved while the JOBS queue refuses every message: still statement required, and once paid it is pending", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Queue Outage Ltd" });
    const down = { ...env, JOBS: refusingQueue() } as Env;
    const id = await approved(down, t, sub.id, { paid: null });
    const row = await getInvoice(env, t.id, id);
    expect(row).toMatchObject({ status: "approved", statementRequired: true, statementRequestedBy: actor.id });
    expect(await count("jobs", "tenant_id = ? AND type = 'statements.generate'", t.id)).toBe(0);

    expect((await markInvoicePaid(down, t.id, id, actor, { paymentDate: "2026-01-20" })).ok).toBe(true);
    expect((await pendingStatementGroups(env, t.id, MONTH)).map((g) => g.invoiceIds)).toEqual([[id]]);
    const { doc } = await visit(b, `${t.origin}/cis/statements?month=${MONTH}`);
    expect(textOf(doc, '[data-card="Pending Generation"]')).toBe("1");
  });

  it("an approval that deducts nothing does not ask for a statement", async () => {
    const { t } = await cisStaff("admin");
    const gross = await seedSub(t, { verificationStatus: "gross" });
    const id = await approved(quietEnv(), t, gross.id, { paid: null });
    expect((await getInvoice(env, t.id, id))?.statementRequired).toBe(false);
  });
});

describe("a statement reports payments made: only paid invoices go on it", () => {
  it("an approved unpaid invoice is not pending, is on no statement, and asking for its statement says why", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Not Paid Yet Ltd" });
    const id = await approved(quietEnv(), t, sub.id, { paid: null });

    expect(await pendingStatementGroups(env, t.id, MONTH)).toEqual([]);
    expect(await generateStatement(quietEnv(), t.id, sub.id, MONTH, actor)).toEqual({ ok: false, code: "no_pending" });
    expect(await requestInvoiceStatement(quietEnv(), t.id, id, actor)).toEqual({ ok: false, code: "statement_unpaid" });
    const page = await loadStatementsPage(env, t.id, MONTH);
    expect(page.counts.pending).toBe(0);
    expect(page.rows).toEqual([]);

    // The invoice page offers no Generate Statement, and a hand-made post gets the typed message.
    const detail = await visit(b, `${t.origin}/cis/invoices/${id}`);
    expect(all(detail.doc, 'button[name="intent"][value="statement"]')).toHaveLength(0);
    const res = await b.post(`${t.origin}/cis/invoices/${id}`, { intent: "statement" });
    expect(res.status).toBe(409);
    expect(pageText(parseHtml(await res.text()))).toContain(INVOICE_ERROR_MESSAGES.statement_unpaid);
    expect((await getInvoice(env, t.id, id))?.statementId).toBeNull();
  });

  it("paying makes it pending in the tax month of the payment date: 5 April in the old tax year's last month, 6 April in the new one's first", async () => {
    const { t } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "April Payments Ltd" });
    const onFifth = await approved(quietEnv(), t, sub.id, { date: "2026-03-20", paid: "2026-04-05" });
    const onSixth = await approved(quietEnv(), t, sub.id, { date: "2026-03-20", paid: "2026-04-06" });
    expect((await pendingStatementGroups(env, t.id, "2026-03")).flatMap((g) => g.invoiceIds)).toEqual([onFifth]);
    expect((await pendingStatementGroups(env, t.id, "2026-04")).flatMap((g) => g.invoiceIds)).toEqual([onSixth]);

    const march = await generateStatement(quietEnv(), t.id, sub.id, "2026-03", actor);
    if (!march.ok) throw new Error(march.code);
    const pdf = await ensureStatementPdf(env, t.id, march.id);
    if (!pdf.ok) throw new Error(pdf.code);
    expect(pdfText(pdf.bytes)).toContain("Tax month ending 5 April 2026");
    expect(pdfText(pdf.bytes)).toContain("05/04/2026");
  });

  it("the dashboard's Pending Statements card counts the current tax month as the statements page does, and names it", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const today = londonToday();
    const month = currentTaxMonth(new Date());
    const one_ = await seedSub(t, { name: "Card One Ltd" });
    const two = await seedSub(t, { name: "Card Two Ltd" });
    await approved(quietEnv(), t, one_.id, { date: today, paid: today });
    await approved(quietEnv(), t, one_.id, { date: today, paid: today });
    await approved(quietEnv(), t, two.id, { date: today, paid: today });
    // Approved, not paid: on neither.
    await approved(quietEnv(), t, (await seedSub(t)).id, { date: today, paid: null });

    const dash = await visit(b, `${t.origin}/cis`);
    const statements = await visit(b, `${t.origin}/cis/statements?month=${month.label}`);
    expect(textOf(statements.doc, '[data-card="Pending Generation"]')).toBe("2");
    expect(textOf(dash.doc, '[data-testid="stat-pending-statements"] > dd')).toBe("2");
    const link = one(dash.doc, '[data-testid="stat-pending-statements"] a');
    expect(attr(link, "href")).toBe(`/cis/statements?month=${month.label}`);
    expect(link?.textContent).toContain(month.displayLabel);
  });
});

describe("a statement whose e-mail was not sent", () => {
  it("shows 'E-mail not sent' on its row and offers Resend, which sends it once, audited", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Bounced Mail Ltd", email: newEmail("bounce") });
    await approved(quietEnv(), t, sub.id);
    const gen = await generateStatement(quietEnv(), t.id, sub.id, MONTH, actor);
    if (!gen.ok) throw new Error(gen.code);

    const mailDown = { ...env, EMAIL: refusingQueue() } as Env;
    expect(await issueStatement(mailDown, t, gen.id, "email", actor)).toEqual({ ok: false, code: "email_not_queued" });

    const list = `${t.origin}/cis/statements?month=${MONTH}`;
    let { doc } = await visit(b, list);
    const row = one(doc, `[data-subcontractor="${sub.id}"]`);
    expect(textOf(row, "[data-email-not-sent]")).toBe("E-mail not sent");
    expect(textOf(row, "[data-email-failure]")).toContain("E-mail not sent: it could not be queued");
    const form = one(row!, `form[action="/cis/statements/${gen.id}/resend"]`);
    expect(attr(form, "method")).toBe("post");

    // A read-only person sees the failure but no Resend, and the action refuses them.
    const reader = await cisStaff("standard", { tenant: t });
    const readerView = await visit(reader.b, list);
    expect(pageText(readerView.doc)).toContain("E-mail not sent");
    expect(all(readerView.doc, `form[action="/cis/statements/${gen.id}/resend"]`)).toHaveLength(0);
    expect((await reader.b.post(`${t.origin}/cis/statements/${gen.id}/resend`, {})).status).toBe(403);

    // Resend, as a plain form post.
    const res = await b.post(`${t.origin}/cis/statements/${gen.id}/resend`, { returnTo: `/cis/statements?month=${MONTH}` });
    expect(location(res)).toBe(`/cis/statements?month=${MONTH}`);
    ({ doc } = await visit(b, list));
    expect(textOf(doc, "[data-toast-type]")).toContain("Statement e-mail sent again");
    expect(all(doc, "[data-email-not-sent]")).toHaveLength(0);
    expect(await count("audit_events", "tenant_id = ? AND action = ? AND target_id = ?", t.id, STATEMENT_RESENT_AUDIT, gen.id)).toBe(1);
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.statement' AND status != 'failed'", t.id)).toBe(1);

    // Nothing failed any more: a second Resend sends nothing.
    expect(await resendStatementEmail(env, t, gen.id, actor)).toEqual({ ok: false, code: "not_failed" });
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.statement'", t.id)).toBe(2);
  });

  it("two Resends at once send one e-mail and write one audit entry; a statement issued another way offers none", async () => {
    const { t, b } = await cisStaff("admin");
    await settings(t);
    const sub = await seedSub(t, { name: "Twice Resent Ltd", email: newEmail("twice") });
    await approved(quietEnv(), t, sub.id);
    const gen = await generateStatement(quietEnv(), t.id, sub.id, MONTH, actor);
    if (!gen.ok) throw new Error(gen.code);
    expect(await issueStatement({ ...env, EMAIL: refusingQueue() } as Env, t, gen.id, "email", actor)).toEqual({ ok: false, code: "email_not_queued" });

    const results = await Promise.all([resendStatementEmail(env, t, gen.id, actor), resendStatementEmail(env, t, gen.id, actor)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, code: "not_failed" }]);
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.statement'", t.id)).toBe(2);
    expect(await count("audit_events", "tenant_id = ? AND action = ? AND target_id = ?", t.id, STATEMENT_RESENT_AUDIT, gen.id)).toBe(1);

    // Issued by print: nothing failed, nothing to resend, and the page offers no Resend.
    const other = await seedSub(t, { name: "Printed Ltd", email: newEmail("printed") });
    await approved(quietEnv(), t, other.id);
    const printed = await generateStatement(quietEnv(), t.id, other.id, MONTH, actor);
    if (!printed.ok) throw new Error(printed.code);
    expect((await issueStatement(env, t, printed.id, "print", actor)).ok).toBe(true);
    expect(await resendStatementEmail(env, t, printed.id, actor)).toEqual({ ok: false, code: "not_failed" });
    const { doc } = await visit(b, `${t.origin}/cis/statements?month=${MONTH}`);
    expect(all(doc, `form[action="/cis/statements/${printed.id}/resend"]`)).toHaveLength(0);
    // Another tenant's statement is not there at all.
    const stranger = await cisStaff("admin");
    expect((await stranger.b.post(`${stranger.t.origin}/cis/statements/${gen.id}/resend`, {})).status).toBe(404);
  });
});
