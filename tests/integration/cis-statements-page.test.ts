import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { cisStatements, jobs } from "~/db/schema";
import { currentTaxMonth, invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { BATCH_JOB_TYPE, batchJobKey, loadStatementsPage } from "~/features/cis/statements/statements-page.server";
import { generateStatement } from "~/features/cis/statements/statements.server";
import { enqueue, type JobMessage } from "~/features/platform/jobs/enqueue.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { cisStaff, seedCisSettings, seedSub } from "../factories/cis";
import { all, alerts, attr, hasField, one, pageText, parseHtml, textOf, textsOf, visit } from "../factories/html";
import { seedInvoice } from "../factories/returns";
import { pageKeys, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { signedIn } from "../factories/sessions";
import { quietEnv } from "../factories/queues";
import { audits } from "../factories/audits";
import { Browser, location } from "./http";
import { deliverMessages, poll } from "./queue-helpers";
import worker from "../../workers/app";

const JOBS_QUEUE = "cis-workspace-jobs";
const MONTH = "2026-01"; // 6 January to 5 February 2026; its statements deadline, 19 February 2026, is past
const IN_MONTH = "2026-01-10";
const LIST = (month = MONTH, extra = "") => `/cis/statements?month=${month}${extra}`;

/** The Generate All form as the page renders it, with its one-time submission key (none when the page offers no button). */
async function generateAllKeyed(b: Browser, t: TestTenant, form: Record<string, string>) {
  // Generate All is the page's first keyed form (the issue forms follow in the list).
  const [key] = await pageKeys(b, `${t.origin}${LIST(form.month)}`);
  return key ? { ...form, [SUBMISSION_KEY_FIELD]: key } : form;
}
const SEEDER = { id: "seed-stmt-page", email: "seed-stmt@example.test", name: "Seeder" };

let seq = 0;
/** A paid invoice of the month needing a statement (gross 1,000.00, materials 300.00: CIS 140.00 at 20%). */
async function pendingInvoice(t: TestTenant, subId: string, opts: { date?: string; paid?: boolean; grossP?: number } = {}) {
  seq += 1;
  const e = quietEnv();
  const number = `SP-${seq}`;
  const res = await createInvoice(
    e,
    t.id,
    invoiceSchema.parse({
      subcontractorId: subId,
      invoiceNumber: number,
      invoiceDate: opts.date ?? IN_MONTH,
      grossP: opts.grossP ?? 100_000,
      materialsP: 30_000,
      vatRate: 20,
    }),
    SEEDER,
  );
  if (!res.ok) throw new Error(res.code);
  expect((await approveInvoice(e, t.id, res.id, SEEDER)).ok).toBe(true);
  // A statement reports payments: an invoice is pending one only once paid.
  expect((await markInvoicePaid(e, t.id, res.id, SEEDER, { paymentDate: opts.date ?? IN_MONTH })).ok).toBe(true);
  expect((await requestInvoiceStatement(e, t.id, res.id, SEEDER)).ok).toBe(true);
  return { id: res.id, number };
}

async function statementsOf(tenantId: string, month = MONTH) {
  return getDb(env)
    .select()
    .from(cisStatements)
    .where(and(eq(cisStatements.tenantId, tenantId), eq(cisStatements.taxMonth, month)));
}

async function batchJobs(tenantId: string) {
  return getDb(env)
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, BATCH_JOB_TYPE)));
}

const card = (doc: Document, label: string) => textOf(doc, `[data-card="${label}"]`);
const row = (doc: Document, subId: string) => one(doc, `[data-subcontractor="${subId}"]`);

/** Two subcontractors with pending invoices in the month; the first also gets its statement. */
async function seeded(role: "admin" | "standard" | "manager" | "lead" = "admin") {
  const { t, u, b } = await cisStaff(role, { settings: {} });
  const alpha = await seedSub(t, { name: "Alpha Builders" });
  const bravo = await seedSub(t, { name: "Bravo Roofing" });
  const a1 = await pendingInvoice(t, alpha.id, { paid: true });
  const a2 = await pendingInvoice(t, alpha.id, { date: "2026-01-20" });
  const b1 = await pendingInvoice(t, bravo.id);
  const gen = await generateStatement(env, t.id, alpha.id, MONTH, SEEDER);
  if (!gen.ok) throw new Error(gen.code);
  return { t, u, b, alpha, bravo, a1, a2, b1, statementId: gen.id };
}

describe("statements screen: content", () => {
  it("shows the deadline, the four cards and one expandable row per subcontractor with masked UTR, invoice count, total CIS and its invoices", async () => {
    const { t, b, alpha, bravo, a1, a2, b1, statementId } = await seeded();
    const res = await b.get(`${t.origin}${LIST()}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const doc = parseHtml(html);
    const text = pageText(doc);

    expect(text).toContain("Statements deadline for 6 January to 5 February 2026: 19 February 2026");
    expect(one(doc, "[data-deadline-state]").getAttribute("data-deadline-state")).toBe("overdue");
    expect(textOf(doc, "[data-deadline-state]")).toMatch(/^\d+ days overdue$/);

    expect(card(doc, "Total Subcontractors")).toBe("2");
    expect(card(doc, "Pending Generation")).toBe("1");
    expect(card(doc, "Generated")).toBe("1");
    expect(card(doc, "Issued")).toBe("0");
    expect(text).toContain("Statements by Subcontractor");

    // By name; each row is a details/summary, so it opens without JavaScript.
    expect(textsOf(doc, "[data-subcontractor] [data-name]")).toEqual(["Alpha Builders", "Bravo Roofing"]);
    const a = row(doc, alpha.id);
    expect(a.getAttribute("data-row-status")).toBe("generated");
    expect(all(a, "details > summary")).toHaveLength(1);
    expect(textOf(a, "[data-utr]")).toMatch(/^UTR \*+\d{3,4}$/);
    expect(textOf(a, "[data-invoice-count]")).toBe("2 invoices");
    expect(textOf(a, "[data-total-cis]")).toBe("CIS £280.00");
    expect(textsOf(a, "[data-invoice] td:first-child")).toEqual([a1.number, a2.number]);
    expect(textsOf(a, `[data-invoice="${a1.id}"] td`)).toEqual([a1.number, "10/01/2026", "£1,000.00", "£140.00"]);
    // Every invoice on a statement is paid: its payment date shows.
    expect(textsOf(a, `[data-invoice="${a2.id}"] td`)[1]).toBe("20/01/2026");
    expect(textOf(a, "[data-status]")).toBe("Generated");
    // Downloads for any statement; issue forms for a generated one, posting to the statement's issue route with the list's address.
    expect(all(a, "[data-downloads] a").map((el) => el.getAttribute("href"))).toEqual([
      `/cis/statements/${statementId}/download?format=html`,
      `/cis/statements/${statementId}/download?format=pdf`,
    ]);
    const issueForms = all(a, `form[action="/cis/statements/${statementId}/issue"]`);
    expect(issueForms.map((f) => f.getAttribute("method"))).toEqual(["post", "post", "post"]);
    expect(issueForms.map((f) => one(f, 'input[name="method"]').getAttribute("value"))).toEqual(["email", "portal", "print"]);
    for (const f of issueForms) expect(one(f, 'input[name="returnTo"]').getAttribute("value")).toBe(`/cis/statements?month=${MONTH}&filter=all`);
    expect(all(a, 'input[name="intent"][value="generate"]')).toHaveLength(0);

    const bRow = row(doc, bravo.id);
    expect(bRow.getAttribute("data-row-status")).toBe("pending");
    expect(textOf(bRow, "[data-status]")).toBe("Pending");
    expect(textsOf(bRow, "[data-invoice] td:first-child")).toEqual([b1.number]);
    expect(textOf(bRow, "[data-invoice-count]")).toBe("1 invoice");
    expect(one(bRow, 'input[name="subcontractorId"]').getAttribute("value")).toBe(bravo.id);
    expect(all(bRow, "[data-downloads]")).toHaveLength(0);

    // Generate All, the month picker and the filter are real forms and links.
    expect(all(doc, 'form[method="post"] input[name="intent"][value="generate-all"]')).toHaveLength(1);
    expect(all(doc, 'a[rel="prev"]').map((el) => el.getAttribute("href"))).toEqual(["/cis/statements?month=2025-12&filter=all"]);
    expect(all(doc, 'a[rel="next"]').map((el) => el.getAttribute("href"))).toEqual(["/cis/statements?month=2026-02&filter=all"]);
    expect(all(doc, 'form[method="get"] select[name="filter"] option').map((o) => o.getAttribute("value"))).toEqual(["all", "pending", "generated", "issued"]);
    // No job, no refresh.
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it("never shows a full UTR, and never lists another tenant's statements or invoices", async () => {
    const { t, b, alpha } = await seeded();
    const other = await createTenant({ modules: ["cis"] });
    const stranger = await seedSub(other, { name: "Stranger Works" });
    await pendingInvoice(other, stranger.id);
    expect((await generateStatement(env, other.id, stranger.id, MONTH, SEEDER)).ok).toBe(true);
    const res = await b.get(`${t.origin}${LIST()}`);
    const html = await res.text();
    expect(html).not.toContain(alpha.utr);
    expect(html).not.toContain("Stranger Works");
    expect(html).not.toContain(stranger.id);
  });

  it("filters by status through the address (pending, generated, issued), shows the issued method and date, and says when nothing matches", async () => {
    const { t, b, alpha, bravo, statementId } = await seeded();
    const issued = (filter: string) => visit(b, `${t.origin}${LIST(MONTH, `&filter=${filter}`)}`);
    let { doc } = await issued("pending");
    expect(all(doc, "[data-subcontractor]").map((el) => el.getAttribute("data-subcontractor"))).toEqual([bravo.id]);
    expect(all(doc, 'select[name="filter"] option[selected]').map((o) => o.getAttribute("value"))).toEqual(["pending"]);
    ({ doc } = await issued("generated"));
    expect(all(doc, "[data-subcontractor]").map((el) => el.getAttribute("data-subcontractor"))).toEqual([alpha.id]);
    ({ doc } = await issued("issued"));
    expect(all(doc, "[data-subcontractor]")).toHaveLength(0);
    expect(textOf(doc, "[data-empty]")).toBe("No statements to display");

    await env.DB.prepare("UPDATE cis_statements SET status = 'issued', issued_at = ?, issued_method = 'portal' WHERE id = ?")
      .bind(Date.UTC(2026, 1, 3, 12), statementId)
      .run();
    ({ doc } = await issued("issued"));
    const a = row(doc, alpha.id);
    expect(textOf(a, "[data-status]")).toBe("Issued");
    expect(textOf(a, "[data-issued]")).toContain("Issued by portal on 03/02/2026");
    // Only generated statements offer Issue; downloads stay.
    expect(all(a, "form[action$='/issue']")).toHaveLength(0);
    expect(all(a, "[data-downloads] a")).toHaveLength(2);
    expect(card(doc, "Issued")).toBe("1");
    expect(card(doc, "Generated")).toBe("0");

    // An unknown filter is 'all'.
    ({ doc } = await issued("bogus"));
    expect(all(doc, "[data-subcontractor]")).toHaveLength(2);
  });

  it("lists invoices approved after the month's statement under it as not on it, with no Generate button", async () => {
    const { t, b, alpha } = await seeded();
    const late = await pendingInvoice(t, alpha.id, { date: "2026-01-25" });
    const { doc } = await visit(b, `${t.origin}${LIST()}`);
    const a = row(doc, alpha.id);
    expect(a.getAttribute("data-row-status")).toBe("generated");
    expect(textsOf(a, "[data-not-on-statement] [data-invoice] td:first-child")).toEqual([late.number]);
    expect(textOf(a, "[data-not-on-statement] p")).toContain("not on it");
    expect(all(a, 'input[name="intent"][value="generate"]')).toHaveLength(0);
    expect(card(doc, "Pending Generation")).toBe("1");
  });

  it("hides the Email issue button when the tenant does not e-mail statements", async () => {
    const { t, b, statementId } = await seeded();
    await env.DB.prepare("UPDATE cis_settings SET email_statements = 0 WHERE tenant_id = ?").bind(t.id).run();
    const { doc } = await visit(b, `${t.origin}${LIST()}`);
    const forms = all(doc, `form[action="/cis/statements/${statementId}/issue"]`);
    expect(forms.map((f) => one(f, 'input[name="method"]').getAttribute("value"))).toEqual(["portal", "print"]);
  });

  it("opens on the current London tax month, also for a malformed month, and shows the empty state", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const current = currentTaxMonth();
    for (const url of ["/cis/statements", "/cis/statements?month=2026-13", "/cis/statements?month=abc&filter=nope"]) {
      const res = await b.get(`${t.origin}${url}`);
      expect(res.status, url).toBe(200);
      const { doc } = await visit(b, `${t.origin}${url}`);
      expect(textOf(doc, "[data-period]"), url).toBe(current.displayLabel);
      expect(one(doc, 'input[name="month"]').getAttribute("value"), url).toBe(current.label);
      expect(textOf(doc, "[data-empty]"), url).toBe("No statements to display");
      expect(card(doc, "Total Subcontractors")).toBe("0");
    }
  });

  it("needs invoice read: the Statements link shows in the CIS navigation for it, and a person without it gets 403", async () => {
    const { t, b } = await cisStaff("standard", { settings: {} });
    const { doc } = await visit(b, `${t.origin}/cis`);
    expect(all(doc, 'nav[aria-label="CIS sections"] a').map((a) => a.getAttribute("href"))).toContain("/cis/statements");

    await env.DB.prepare("UPDATE role_bundles SET scopes = ? WHERE tenant_id = ? AND name = 'standard'")
      .bind(JSON.stringify(["cis.sub.read"]), t.id)
      .run();
    const res = await b.get(`${t.origin}/cis/statements`);
    expect(res.status).toBe(403);
    const nav = await visit(b, `${t.origin}/cis/subcontractors`);
    expect(all(nav.doc, 'nav[aria-label="CIS sections"] a').map((a) => a.getAttribute("href"))).not.toContain("/cis/statements");
  });
});

describe("statements screen: pages", () => {
  it("shows 25 subcontractors a page in name order with the month's counts; a link to one subcontractor opens its page, and Generate returns to it", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const subs = [];
    for (let i = 0; i < 27; i++) {
      const name = `Page ${String(i).padStart(2, "0")} Builders`;
      const sub = await seedSub(t, { name });
      await seedInvoice(t, { subcontractorId: sub.id, subcontractorName: name, statementRequired: true, paymentDate: IN_MONTH });
      subs.push(sub);
    }
    const names = (doc: Document) => textsOf(doc, "[data-statement-list] > li [data-name]");
    const first = await visit(b, `${t.origin}${LIST()}`);
    expect(names(first.doc)).toEqual(subs.slice(0, 25).map((s) => s.name));
    expect(card(first.doc, "Total Subcontractors")).toBe("27");
    expect(card(first.doc, "Pending Generation")).toBe("27");
    expect(textOf(first.doc, 'nav[aria-label="Pagination"] > span:not([aria-disabled])')).toBe("Page 1 of 2");
    const next = attr(one(first.doc, 'nav[aria-label="Pagination"] a[rel="next"]'), "href");
    expect(next).toBe(`/cis/statements?month=${MONTH}&filter=all&page=2`);

    const second = await visit(b, `${t.origin}${next}`);
    expect(names(second.doc)).toEqual(subs.slice(25).map((s) => s.name));
    expect(card(second.doc, "Total Subcontractors")).toBe("27");
    // Each Generate form says which page it was on, and so does Issue's way back.
    expect(all(second.doc, 'form input[name="page"]').map((i) => attr(i, "value"))).toEqual(["2", "2"]);

    // A link to one subcontractor's statement (the returns page's) opens the page that holds it.
    const linked = await visit(b, `${t.origin}${LIST(MONTH, `&sub=${subs[26]!.id}`)}`);
    expect(names(linked.doc)).toEqual(subs.slice(25).map((s) => s.name));
    expect(one(linked.doc, `#statement-${subs[26]!.id}`)).toBeTruthy();
    // A page past the end shows the last; a malformed one the first.
    expect(names((await visit(b, `${t.origin}${LIST(MONTH, "&page=9")}`)).doc)).toEqual(subs.slice(25).map((s) => s.name));
    expect(names((await visit(b, `${t.origin}${LIST(MONTH, "&page=x")}`)).doc)[0]).toBe(subs[0]!.name);

    const res = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: subs[26]!.id, month: MONTH, filter: "all", page: "2" });
    expect(location(res)).toBe(`/cis/statements?month=${MONTH}&filter=all&page=2`);
    const after = await visit(b, `${t.origin}${location(res)}`);
    expect(attr(one(after.doc, `[data-subcontractor="${subs[26]!.id}"]`), "data-row-status")).toBe("generated");
  });
});

describe("statements screen: pages across statements and pending rows", () => {
  it("pages statements and pending subcontractors together in name order, pages a filter on its own, reads only the page's invoices and keeps a late invoice under its statement", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    // 30 subcontractors, named out of seeding order; every third gets its statement, and the first of
    // those an invoice paid after it was generated.
    const subs: { id: string; name: string; generated: boolean }[] = [];
    const invoiceOf = new Map<string, string>();
    for (let i = 0; i < 30; i++) {
      const name = `${String.fromCharCode(65 + ((i * 7) % 26))}${String(i).padStart(2, "0")} Trades`;
      const sub = await seedSub(t, { name });
      const inv = await pendingInvoice(t, sub.id);
      invoiceOf.set(sub.id, inv.number);
      const generated = i % 3 === 0;
      if (generated) {
        const gen = await generateStatement(env, t.id, sub.id, MONTH, SEEDER);
        if (!gen.ok) throw new Error(gen.code);
      }
      subs.push({ id: sub.id, name, generated });
    }
    const firstGenerated = subs.find((s) => s.generated)!;
    const late = await pendingInvoice(t, firstGenerated.id, { date: "2026-01-25" });
    const byName = [...subs].sort((x, y) => x.name.toLowerCase().localeCompare(y.name.toLowerCase()) || x.id.localeCompare(y.id));
    const names = (doc: Document) => textsOf(doc, "[data-statement-list] > li [data-name]");

    const first = await visit(b, `${t.origin}${LIST()}`);
    expect(names(first.doc)).toEqual(byName.slice(0, 25).map((s) => s.name));
    expect(card(first.doc, "Total Subcontractors")).toBe("30");
    expect(card(first.doc, "Pending Generation")).toBe("20");
    expect(card(first.doc, "Generated")).toBe("10");
    expect(textOf(first.doc, 'nav[aria-label="Pagination"] > span:not([aria-disabled])')).toBe("Page 1 of 2");
    // Only the page's invoices are in it.
    const onPage = all(first.doc, "[data-statement-list] [data-invoice] td:first-child").map((td) => td.textContent);
    expect(new Set(onPage)).toEqual(
      new Set([...byName.slice(0, 25).map((s) => invoiceOf.get(s.id)), ...(byName.slice(0, 25).includes(firstGenerated) ? [late.number] : [])]),
    );
    for (const s of byName.slice(25)) expect(onPage).not.toContain(invoiceOf.get(s.id));
    const second = await visit(b, `${t.origin}${LIST(MONTH, "&page=2")}`);
    expect(names(second.doc)).toEqual(byName.slice(25).map((s) => s.name));
    // Paged in SQL: the data access hands back the page's rows and their invoices, never the month's.
    const data = await loadStatementsPage(env, t.id, MONTH, { filter: "all", page: 2, sub: null });
    expect({ page: data.page, pageCount: data.pageCount, total: data.counts.total }).toEqual({ page: 2, pageCount: 2, total: 30 });
    expect(data.rows.map((r) => r.subcontractorId)).toEqual(byName.slice(25).map((s) => s.id));
    expect(
      data.rows
        .flatMap((r) => [...r.invoices, ...r.notOnStatement])
        .map((i) => i.invoiceNumber)
        .sort(),
    ).toEqual([...byName.slice(25).map((s) => invoiceOf.get(s.id)!), ...(byName.slice(25).includes(firstGenerated) ? [late.number] : [])].sort());

    // The late invoice is under its statement, not a row of its own, wherever that row is.
    const lateRow = await visit(b, `${t.origin}${LIST(MONTH, `&sub=${firstGenerated.id}`)}`);
    const r = row(lateRow.doc, firstGenerated.id);
    expect(r.getAttribute("data-row-status")).toBe("generated");
    expect(textsOf(r, "[data-not-on-statement] [data-invoice] td:first-child")).toEqual([late.number]);
    expect(all(lateRow.doc, `[data-subcontractor="${firstGenerated.id}"]`)).toHaveLength(1);

    // A filter pages its own rows; the cards stay the month's. A linked subcontractor the filter hides opens the page asked for.
    const generatedOnly = byName.filter((s) => s.generated);
    const filtered = await visit(b, `${t.origin}${LIST(MONTH, "&filter=generated")}`);
    expect(names(filtered.doc)).toEqual(generatedOnly.map((s) => s.name));
    expect(card(filtered.doc, "Total Subcontractors")).toBe("30");
    const pendingOnly = byName.filter((s) => !s.generated);
    const hidden = await visit(b, `${t.origin}${LIST(MONTH, `&filter=pending&sub=${firstGenerated.id}`)}`);
    expect(names(hidden.doc)).toEqual(pendingOnly.slice(0, 20).map((s) => s.name));
    // A filter nothing passes: no rows, one page, the month's counts.
    const none = await visit(b, `${t.origin}${LIST(MONTH, "&filter=issued&page=3")}`);
    expect(names(none.doc)).toEqual([]);
    expect(card(none.doc, "Generated")).toBe("10");
  });
});

describe("statements screen: a row's invoices", () => {
  it("lists a row's invoices by invoice date, then number, on its statement and after it, with every field as stored", async () => {
    const { t } = await cisStaff("admin", { settings: {} });
    const sub = await seedSub(t, { name: "Order Trades" });
    const later = await pendingInvoice(t, sub.id, { date: "2026-01-20", grossP: 120_000 });
    const earliest = await pendingInvoice(t, sub.id, { date: "2026-01-10" });
    const sameDay = await pendingInvoice(t, sub.id, { date: "2026-01-20", grossP: 90_000 });
    // Numbers that need escaping on their way through the page's JSON, and that sort the other way round to seeding.
    const rename = (id: string, number: string) => env.DB.prepare("UPDATE cis_invoices SET invoice_number = ? WHERE id = ?").bind(number, id).run();
    await rename(later.id, 'B-2 "quoted" \\ é 👷');
    await rename(sameDay.id, "A-1");
    const numbers = (list: { invoiceNumber: string }[]) => list.map((i) => i.invoiceNumber);

    const pending = await loadStatementsPage(env, t.id, MONTH);
    expect(pending.rows).toHaveLength(1);
    expect(numbers(pending.rows[0].invoices)).toEqual([earliest.number, "A-1", 'B-2 "quoted" \\ é 👷']);
    expect(pending.rows[0].invoices[2]).toEqual({
      id: later.id,
      invoiceNumber: 'B-2 "quoted" \\ é 👷',
      paymentDate: "2026-01-20",
      grossP: 120_000,
      cisDeductionP: expect.any(Number),
    });
    expect(pending.rows[0].notOnStatement).toEqual([]);

    const gen = await generateStatement(env, t.id, sub.id, MONTH, SEEDER);
    if (!gen.ok) throw new Error(gen.code);
    const late2 = await pendingInvoice(t, sub.id, { date: "2026-01-25" });
    const late1 = await pendingInvoice(t, sub.id, { date: "2026-01-22" });
    const generated = await loadStatementsPage(env, t.id, MONTH);
    expect(generated.rows[0].status).toBe("generated");
    expect(numbers(generated.rows[0].invoices)).toEqual([earliest.number, "A-1", 'B-2 "quoted" \\ é 👷']);
    expect(numbers(generated.rows[0].notOnStatement)).toEqual([late1.number, late2.number]);
  });
});

describe("statements screen: the invoice tables", () => {
  it("names each row's invoice table by its caption, unique on the page, and keeps a name with markup characters as text", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const name = `O'Neil & "Sons" <img src=x onerror="alert(1)">`;
    const sub = await seedSub(t, { name });
    const other = await seedSub(t, { name: "Plain Builders" });
    for (const s of [sub, other]) await seedInvoice(t, { subcontractorId: s.id, subcontractorName: s.name, statementRequired: true, paymentDate: IN_MONTH });
    const { doc } = await visit(b, `${t.origin}${LIST()}`);
    expect(all(doc, "[data-statement-list] img").length, "elements from the name").toBe(0);
    const regions = all(doc, '[data-statement-list] [role="region"]');
    expect(regions).toHaveLength(2);
    const labels = regions.map((r) => attr(r, "aria-labelledby")!);
    expect(new Set(labels).size).toBe(2);
    expect(labels.map((id) => doc.getElementById(id)?.tagName.toLowerCase())).toEqual(["caption", "caption"]);
    const mine = one(doc, `[data-subcontractor="${sub.id}"]`);
    expect(textOf(mine, "caption")).toBe(`Invoices of ${name}`);
    expect(textsOf(mine, "[data-invoice] td").length).toBe(4);
  });
});

describe("statements screen: scopes", () => {
  it("read-only staff see statements and downloads but no Generate, Generate All or Issue, and every POST is 403 with an audited denial", async () => {
    const { t, b, bravo } = await seeded("standard");
    const { doc } = await visit(b, `${t.origin}${LIST()}`);
    expect(all(doc, "[data-subcontractor]")).toHaveLength(2);
    expect(hasField(doc, "intent")).toBe(false);
    expect(all(doc, "form[action$='/issue']")).toHaveLength(0);
    expect(all(doc, "[data-downloads] a")).toHaveLength(2);

    const before = (await audits(t.id, "cis.permission.denied")).length;
    const single = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: bravo.id, month: MONTH });
    expect(single.status).toBe(403);
    const batch = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH }));
    expect(batch.status).toBe(403);
    const denials = await audits(t.id, "cis.permission.denied");
    expect(denials.length - before).toBe(2);
    expect(denials.map((d) => d.payload)).toContainEqual(expect.objectContaining({ scope: "cis.stmt.issue", method: "POST" }));
    expect(await statementsOf(t.id)).toHaveLength(1);
    expect(await batchJobs(t.id)).toHaveLength(0);
  });

  it("a manager (cis.stmt.issue without coarse write) and a lead (coarse write) may generate", async () => {
    for (const role of ["manager", "lead"] as const) {
      const { t, b, bravo } = await seeded(role);
      const { doc } = await visit(b, `${t.origin}${LIST()}`);
      expect(all(doc, 'input[name="intent"][value="generate-all"]'), role).toHaveLength(1);
      const res = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: bravo.id, month: MONTH });
      expect(res.status, role).toBe(302);
      expect(await statementsOf(t.id), role).toHaveLength(2);
    }
  });
});

describe("statements screen: Generate", () => {
  it("generates a pending subcontractor's statement and says so; a second Generate is 'Statement Already Exists'; nothing pending is 'No Pending Statements'", async () => {
    const { t, b, bravo, b1 } = await seeded();
    const res = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: bravo.id, month: MONTH, filter: "pending" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/cis/statements?month=${MONTH}&filter=pending`);
    let shown = await visit(b, `${t.origin}${location(res)}`);
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("Statement Generated");
    const rows = await statementsOf(t.id);
    const mine = rows.find((s) => s.subcontractorId === bravo.id);
    expect(mine).toMatchObject({ status: "generated", invoiceCount: 1, cisDeductionP: 14_000 });
    expect(JSON.parse(mine!.invoiceIds)).toEqual([b1.id]);
    expect((await audits(t.id, "cis.statement.generated")).length).toBe(2);

    const again = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: bravo.id, month: MONTH });
    shown = await visit(b, `${t.origin}${location(again)}`);
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("Statement Already Exists");
    expect(await statementsOf(t.id)).toHaveLength(2);
    expect((await audits(t.id, "cis.statement.generated")).length).toBe(2);

    const idle = await seedSub(t, { name: "Charlie Idle" });
    const none = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: idle.id, month: MONTH });
    shown = await visit(b, `${t.origin}${location(none)}`);
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("No Pending Statements");
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("All subcontractors already have statements for this tax month.");
  });

  it("another tenant's subcontractor is 404 and gets no statement; a malformed form is 400", async () => {
    const { t, b } = await seeded();
    const other = await createTenant({ modules: ["cis"] });
    const stranger = await seedSub(other, { name: "Stranger Roofing" });
    await pendingInvoice(other, stranger.id);
    const res = await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: stranger.id, month: MONTH });
    expect(res.status).toBe(404);
    expect(await statementsOf(other.id)).toHaveLength(0);
    expect(await statementsOf(t.id)).toHaveLength(1);

    expect((await b.post(`${t.origin}${LIST()}`, { intent: "generate", subcontractorId: stranger.id, month: "2026-13" })).status).toBe(400);
    expect((await b.post(`${t.origin}${LIST()}`, { intent: "explode", month: MONTH })).status).toBe(400);
  });
});

/** The message the JOBS queue carries for a job row. */
function messageFor(job: typeof jobs.$inferSelect): JobMessage {
  return { jobId: job.id, tenantId: job.tenantId, type: job.type, idempotencyKey: job.idempotencyKey };
}

describe("statements screen: Generate All", () => {
  it("runs as one job per month: a double click reuses it, the page shows its progress and refreshes, and it ends with the counts", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    for (const name of ["Delta Joinery", "Echo Plastering", "Foxtrot Scaffolding"]) await pendingInvoice(t, (await seedSub(t, { name })).id);
    const first = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH, filter: "all" }));
    expect(first.status).toBe(302);
    const [job] = await batchJobs(t.id);
    expect(job).toMatchObject({ inputs: { taxMonth: MONTH }, idempotencyKey: batchJobKey(MONTH, null) });
    expect(location(first)).toBe(`/cis/statements?month=${MONTH}&filter=all&job=${job.id}`);

    // The job runs in the background; whatever its state, a second click gives no second job.
    const second = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH, filter: "all" }));
    expect(second.status).toBe(302);
    expect(await batchJobs(t.id)).toHaveLength(1);

    const done = await poll(async () => {
      const [row] = await batchJobs(t.id);
      return row.status === "done" ? row : null;
    });
    expect(done.result).toMatchObject({ taxMonth: MONTH, total: 3, generated: 3, failed: 0 });
    expect(done.progress).toBe(100);
    expect(await statementsOf(t.id)).toHaveLength(3);
    expect(await audits(t.id, "cis.statement.generated")).toHaveLength(3);

    const res = await b.get(`${t.origin}${location(first)}`);
    const html = await res.text();
    expect(html).not.toContain('http-equiv="refresh"');
    const doc = parseHtml(html);
    expect(one(doc, "[data-batch]").getAttribute("data-batch")).toBe("complete");
    expect(textOf(doc, "[data-batch]")).toContain("Batch Generation Complete");
    expect(textOf(doc, "[data-batch-generated]")).toBe("3 generated");
    expect(textOf(doc, "[data-batch-failed]")).toBe("0 failed");
    expect(card(doc, "Generated")).toBe("3");
    // The outcome belongs to the address the job was started from; the plain list does not repeat it.
    expect(all((await visit(b, `${t.origin}${LIST()}`)).doc, "[data-batch]")).toHaveLength(0);

    // Redelivered after it finished: acknowledged, nothing generated or audited twice.
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id: "again", body: messageFor(done) }]);
    expect(result.explicitAcks).toEqual(["again"]);
    // Run again as after a crash between the work and 'done': every statement exists, so nothing happens.
    await env.DB.prepare("UPDATE jobs SET status = 'pending', finished_at = NULL, claim_id = NULL WHERE id = ?").bind(done.id).run();
    await deliverMessages(JOBS_QUEUE, [{ body: messageFor(done) }]);
    const [rerun] = await batchJobs(t.id);
    expect(rerun).toMatchObject({ status: "done", result: { total: 0, generated: 0, failed: 0 } });
    expect(await statementsOf(t.id)).toHaveLength(3);
    expect(await audits(t.id, "cis.statement.generated")).toHaveLength(3);

    // Once it is over, a new pending invoice gets a new job (the key names the one before it).
    const late = await seedSub(t, { name: "Golf Glazing" });
    await pendingInvoice(t, late.id);
    const next = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH }));
    expect(next.status).toBe(302);
    const all2 = await batchJobs(t.id);
    expect(all2).toHaveLength(2);
    expect(all2.map((j) => j.idempotencyKey)).toContain(batchJobKey(MONTH, done.id));
    await poll(async () => ((await batchJobs(t.id)).every((j) => j.status === "done") ? true : null));
    expect(await statementsOf(t.id)).toHaveLength(4);
  });

  it("two clicks at the same moment make one job", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    await pendingInvoice(t, (await seedSub(t, { name: "Mike Millwork" })).id);
    // A double click posts the same form, with the same submission key, twice.
    const form = await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH });
    const [one1, two] = await Promise.all([b.post(`${t.origin}${LIST()}`, form), b.post(`${t.origin}${LIST()}`, form)]);
    const jobsMade = await batchJobs(t.id);
    expect(jobsMade).toHaveLength(1);
    expect([location(one1), location(two)]).toEqual([
      `/cis/statements?month=${MONTH}&filter=all&job=${jobsMade[0].id}`,
      `/cis/statements?month=${MONTH}&filter=all&job=${jobsMade[0].id}`,
    ]);
    await poll(async () => ((await batchJobs(t.id))[0].status === "done" ? true : null));
    expect(await statementsOf(t.id)).toHaveLength(1);
  });

  it("while the job runs the page shows a progress bar with its text and refreshes itself without JavaScript; a click then reuses the job", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    const s = await seedSub(t, { name: "Hotel Drylining" });
    await pendingInvoice(t, s.id);
    // Queued without the real producer, so it stays where the test puts it.
    const { jobId } = await enqueue(quietEnv(), {
      tenantId: t.id,
      type: BATCH_JOB_TYPE,
      input: { taxMonth: MONTH, actorEmail: u.email },
      performedBy: u.id,
      idempotencyKey: batchJobKey(MONTH, null),
    });
    await env.DB.prepare("UPDATE jobs SET status = 'running', progress = 40 WHERE id = ?").bind(jobId).run();

    const res = await b.get(`${t.origin}${LIST()}`);
    const html = await res.text();
    expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="2"\/?><\/noscript>/);
    const doc = parseHtml(html);
    const panel = one(doc, '[data-batch="running"]');
    expect(one(panel, "progress").getAttribute("value")).toBe("40");
    expect(one(panel, "progress").getAttribute("aria-labelledby")).toBe("batch-heading");
    expect(textOf(panel, "[role=status]")).toBe("40% complete");
    expect(textOf(panel, "h3")).toBe("Generating statements");
    // The button waits for the run to end.
    const generateAll = all(doc, 'form[method="post"]').find((f) => f.querySelector('input[name="intent"][value="generate-all"]'));
    const button = one(generateAll!, 'button[type="submit"]');
    expect(button.hasAttribute("disabled")).toBe(true);

    const again = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH }));
    expect(location(again)).toBe(`/cis/statements?month=${MONTH}&filter=all&job=${jobId}`);
    expect(textOf((await visit(b, `${t.origin}${location(again)}`)).doc, "[data-toast-type]")).toContain("already running");
    expect(await batchJobs(t.id)).toHaveLength(1);

    // A failed attempt waiting for its retry still counts as running.
    await env.DB.prepare("UPDATE jobs SET status = 'failed', finished_at = NULL WHERE id = ?").bind(jobId).run();
    expect(all((await visit(b, `${t.origin}${LIST()}`)).doc, '[data-batch="running"]')).toHaveLength(1);
    // Failed for good: said so to the person who started it, and Generate All may start again.
    await env.DB.prepare("UPDATE jobs SET status = 'failed', finished_at = ? WHERE id = ?").bind(Date.now(), jobId).run();
    const failed = await visit(b, `${t.origin}${LIST(MONTH, `&job=${jobId}`)}`);
    expect(textOf(failed.doc, '[data-batch="failed"]')).toContain("Batch statement generation failed");
    expect(alerts(failed.doc).join(" ")).toContain("Batch statement generation failed");
  });

  it("nothing pending: no job, and the page says 'No Pending Statements'", async () => {
    const { t, b, alpha, bravo } = await seeded();
    expect((await generateStatement(env, t.id, bravo.id, MONTH, SEEDER)).ok).toBe(true);
    // Alpha's late invoice cannot join its statement, so it leaves nothing to generate.
    await pendingInvoice(t, alpha.id, { date: "2026-01-30" });

    const res = await b.post(`${t.origin}${LIST()}`, await generateAllKeyed(b, t, { intent: "generate-all", month: MONTH }));
    expect(location(res)).toBe(`/cis/statements?month=${MONTH}&filter=all`);
    const shown = await visit(b, `${t.origin}${location(res)}`);
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("No Pending Statements");
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("All subcontractors already have statements for this tax month.");
    expect(await batchJobs(t.id)).toHaveLength(0);
  });

  it("counts a subcontractor it cannot generate for as failed, goes on with the rest and shows a warning", async () => {
    const { t, u, b } = await cisStaff("admin", { settings: {} });
    const ok = await seedSub(t, { name: "India Insulation" });
    const gone = await seedSub(t, { name: "Juliet Groundworks" });
    await pendingInvoice(t, ok.id);
    await pendingInvoice(t, gone.id);
    await env.DB.prepare("UPDATE cis_subcontractors SET deleted_at = ? WHERE id = ?").bind(Date.now(), gone.id).run();
    const { jobId } = await enqueue(quietEnv(), {
      tenantId: t.id,
      type: BATCH_JOB_TYPE,
      input: { taxMonth: MONTH, actorEmail: u.email },
      performedBy: u.id,
      idempotencyKey: batchJobKey(MONTH, null),
    });
    const [job] = await batchJobs(t.id);
    await deliverMessages(JOBS_QUEUE, [{ body: messageFor(job) }]);
    const [done] = await batchJobs(t.id);
    expect(done).toMatchObject({ status: "done", result: { total: 2, generated: 1, failed: 1 } });
    const [audit] = await audits(t.id, "cis.statement.generated");
    expect(audit).toMatchObject({ actorId: u.id, actorEmail: u.email });

    const { doc } = await visit(b, `${t.origin}${LIST(MONTH, `&job=${jobId}`)}`);
    expect(one(doc, "[data-batch]").getAttribute("data-batch")).toBe("warning");
    expect(textOf(doc, "[data-batch-generated]")).toBe("1 generated");
    expect(textOf(doc, "[data-batch-failed]")).toBe("1 failed");
  });

  it("jobs are per tenant: another tenant's Generate All never touches this tenant's invoices", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const other = await createTenant({ modules: ["cis"] });
    await seedCisSettings(other);
    const otherAdmin = await createUser(other, { role: "admin" });
    const ob = await signedIn(other, otherAdmin, new Browser());
    const mine = await seedSub(t, { name: "Kilo Kitchens" });
    const theirs = await seedSub(other, { name: "Lima Lofts" });
    await pendingInvoice(t, mine.id);
    await pendingInvoice(other, theirs.id);
    await ob.post(`${other.origin}${LIST()}`, await generateAllKeyed(ob, other, { intent: "generate-all", month: MONTH }));
    await poll(async () => ((await batchJobs(other.id))[0]?.status === "done" ? true : null));
    expect(await statementsOf(other.id)).toHaveLength(1);
    expect(await statementsOf(t.id)).toHaveLength(0);
    expect(await batchJobs(t.id)).toHaveLength(0);
    const { doc } = await visit(b, `${t.origin}${LIST()}`);
    expect(card(doc, "Pending Generation")).toBe("1");
    expect(all(doc, "[data-batch]")).toHaveLength(0);
  });
});

describe("statements screen: a failing read", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows 'Error loading statements' with a reference, never the error's own text, and keeps the month picker and filter", async () => {
    const { t, b } = await cisStaff("admin", { settings: {} });
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "));
    });
    // The database answers the session lookup but fails any statement on the statements table.
    const failingDb = new Proxy(env.DB, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        if (prop === "prepare")
          return (sql: string) => {
            if (sql.includes("cis_statements")) throw new Error("D1_ERROR: no such column: secret_column in SELECT cis_statements");
            return value.call(target, sql);
          };
        return value.bind(target);
      },
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${t.origin}${LIST()}`, { headers: { Cookie: b.cookieHeader(t.host) } }) as Parameters<typeof worker.fetch>[0],
      { ...env, DB: failingDb } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("secret_column");
    const doc = parseHtml(body);
    const text = pageText(doc);
    expect(text).toMatch(/Error loading statements: Something went wrong\. Reference: [A-Z0-9]{6,}/);
    const ref = /Reference: ([A-Z0-9]{6,})/.exec(text)?.[1] ?? "?";
    expect(logged.find((l) => l.includes(ref))).toContain("secret_column");
    expect(hasField(doc, "filter")).toBe(true);
    expect(all(doc, "[data-card]")).toHaveLength(0);
  });
});
