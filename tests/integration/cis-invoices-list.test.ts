import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { formatInTimeZone } from "date-fns-tz";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "~/db/schema";
import { currentTaxMonth, invoiceSchema, previousTaxMonth, taxMonthOfDate, type InvoiceStatus } from "~/features/cis/domain";
import { exportInvoices, INVOICE_EXPORT_MAX_ROWS } from "~/features/cis/invoices/export.server";
import { londonToday } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { INVOICE_BULK_LIMIT, INVOICE_ERROR_MESSAGES, INVOICE_PAGE_SIZE } from "~/features/cis/invoices/invoice-codes";
import { createTenant, type TestTenant } from "../factories";
import { cisStaff, seedSub } from "../factories/cis";
import {
  alerts,
  all,
  describedBy,
  hasField,
  hrefs,
  isInvalid,
  one,
  options,
  page,
  pageText,
  parseHtml,
  shownText,
  textOf,
  textsOf,
  valueOf,
} from "../factories/html";
import { pageKeys, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { count } from "./auth-helpers";
import { Browser, location } from "./http";
import worker from "../../workers/app";

const SEEDER = { id: "seed", email: "seed@example.test", name: "Seeder" };
const LIST = "/cis/invoices";

let seq = 0;
type Seed = {
  number?: string;
  status?: InvoiceStatus;
  date?: string;
  grossP?: number;
  materialsP?: number;
  portal?: boolean;
  reverseCharge?: boolean;
  paymentDate?: string;
  statementRequired?: boolean;
  statementIssued?: boolean;
  deleted?: boolean;
};

/**
 * An invoice created through the data layer (amounts computed there), then put in its state
 * straight in D1: list tests need exact states, dates and statement flags, and no background
 * statement job racing them (the transitions have their own tests).
 */
async function seedInvoice(t: TestTenant, subId: string, o: Seed = {}) {
  seq += 1;
  const number = o.number ?? `INV-${seq}`;
  const res = await createInvoice(
    env,
    t.id,
    invoiceSchema.parse({
      subcontractorId: subId,
      invoiceNumber: number,
      invoiceDate: o.date ?? londonToday(),
      grossP: o.grossP ?? 100_000,
      materialsP: o.materialsP ?? 30_000,
      vatRate: 20,
      reverseCharge: o.reverseCharge ?? false,
      materialsJustification: "Bulk steel delivered to site",
    }),
    SEEDER,
    { source: o.portal ? "portal" : "staff" },
  );
  if (!res.ok) throw new Error(res.code);
  const status = o.status ?? (o.portal ? "portal_draft" : "draft");
  const paymentDate = o.paymentDate ?? (status === "paid" ? londonToday() : null);
  await env.DB.prepare(
    `UPDATE cis_invoices SET status = ?, payment_date = ?, tax_month = coalesce(?, tax_month), approved_at = ?, statement_required = ?, statement_issued_at = ?, deleted_at = ? WHERE id = ?`,
  )
    .bind(
      status,
      paymentDate,
      paymentDate ? taxMonthOfDate(paymentDate).label : null,
      status === "approved" || status === "paid" ? Date.now() : null,
      o.statementRequired ? 1 : 0,
      o.statementIssued ? Date.now() : null,
      o.deleted ? Date.now() : null,
      res.id,
    )
    .run();
  return { id: res.id, number };
}

async function inv(id: string) {
  return env.DB.prepare("SELECT * FROM cis_invoices WHERE id = ?").bind(id).first<{
    status: InvoiceStatus;
    tenant_id: string;
    payment_date: string | null;
    tax_month: string;
    deleted_at: number | null;
    statement_required: number;
    approved_at: number | null;
  }>();
}

const rowOf = (doc: Document, id: string) => one(doc, `tr[data-row="${id}"]`);
const listed = (doc: Document) => all(doc, "tr[data-row]").map((r) => r.getAttribute("data-row"));
/** The invoice numbers shown, in page order. */
const numbersOn = (doc: Document) => textsOf(doc, "tr[data-row] th a");
/** A date 'YYYY-MM-DD' on the 10th of a tax month: inside it whatever the day today. */
const dayIn = (label: string) => `${label}-10`;
const londonDate = () => formatInTimeZone(new Date(), "Europe/London", "yyyy-MM-dd");
const enGb = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

async function bulk(b: Browser, t: TestTenant, form: Record<string, string | string[]>, search = "") {
  // A confirmed post carries the list's one-time submission key, as the page's form does.
  const keyed = form.confirmed === "yes" ? await withKeyIfShown(b, `${t.origin}${LIST}`, form) : form;
  return b.post(`${t.origin}${LIST}${search}`, keyed);
}

/** The list's bulk key when the page offers bulk actions (someone without them posts without one). */
async function withKeyIfShown(b: Browser, url: string, form: Record<string, string | string[]>) {
  const [key] = await pageKeys(b, url);
  return key && !(SUBMISSION_KEY_FIELD in form) ? { ...form, [SUBMISSION_KEY_FIELD]: key } : form;
}

// ---------------------------------------------------------------------------

describe("the invoice list", () => {
  it("shows each row's number, subcontractor, amounts, CIS, dates and status, with the portal mark", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Ann Carpentry" });
    const draft = await seedInvoice(t, sub.id, { number: "ANN-001", grossP: 100_000, materialsP: 30_000 });
    const paid = await seedInvoice(t, sub.id, { number: "ANN-002", status: "paid", paymentDate: "2026-04-20", date: "2026-04-15" });
    const portal = await seedInvoice(t, sub.id, { number: "ANN-P01", portal: true });

    const res = await b.get(`${t.origin}${LIST}`);
    expect(res.status).toBe(200);
    const doc = await page(res);
    expect(textOf(doc, "h1")).toContain("Invoices");
    expect(pageText(doc)).toContain("3 items");
    for (const inv of [draft, paid, portal]) {
      const row = rowOf(doc, inv.id);
      expect(hrefs(row)).toContain(`/cis/invoices/${inv.id}`);
      expect(textOf(row, "th a")).toBe(inv.number);
    }

    const d = rowOf(doc, draft.id);
    expect(textsOf(d, "td")).toContain("Ann Carpentry");
    // Each cell's lines: 1,000.00 gross, 300.00 materials; labour 700.00 at 20% is 140.00.
    const lines = textsOf(d, "td > div");
    for (const line of ["Gross: £1,000.00", "Materials: £300.00", "£140.00", "20%", enGb(londonToday()), "Paid: N/A"]) expect(lines).toContain(line);
    expect(textOf(d, "[data-status]")).toBe("Draft");

    const p = rowOf(doc, paid.id);
    expect(textsOf(p, "td > div")).toEqual(expect.arrayContaining(["15/04/2026", "Paid: 20/04/2026"]));
    expect(textOf(p, "[data-status]")).toBe("Paid");

    expect(textOf(rowOf(doc, portal.id), "[data-status]")).toBe("Portal submission");
    expect(rowOf(doc, portal.id).querySelector('[data-source="portal"]')).not.toBeNull();
    expect(d.querySelector('[data-source="portal"]')).toBeNull();
  });

  it("shows each row's stored net amount in a Net column after CIS: with VAT added, or without it under the reverse charge", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Net Builders" });
    // 1,000.00 gross, 300.00 materials: 140.00 deducted; VAT at 20% is 200.00 unless reverse charged.
    const vat = await seedInvoice(t, sub.id, { number: "NET-VAT" });
    const rc = await seedInvoice(t, sub.id, { number: "NET-RC", reverseCharge: true });
    const doc = await page(await b.get(`${t.origin}${LIST}`));
    const heads = textsOf(doc, "thead th");
    // The key columns come first, so a phone shows them before the table is scrolled.
    expect(heads.filter((h) => h).slice(0, 3)).toEqual(["Invoice", "Net", "Status"]);
    const net = (id: string) => textOf(rowOf(doc, id), "td[data-net]");
    expect(net(vat.id)).toBe("£1,060.00");
    expect(net(rc.id)).toBe("£860.00");
    // The stored amount, not one worked out again for the page.
    const stored = await env.DB.prepare("SELECT id, net_payment_p FROM cis_invoices WHERE tenant_id = ? ORDER BY invoice_number")
      .bind(t.id)
      .all<{ id: string; net_payment_p: number }>();
    expect(stored.results.map((r) => r.net_payment_p)).toEqual([86_000, 106_000]);
  });

  it("marks materials of 60% of gross or more with a warning icon that has accessible text", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Warn Builders" });
    const under = await seedInvoice(t, sub.id, { grossP: 100_000, materialsP: 59_999 });
    const at = await seedInvoice(t, sub.id, { grossP: 100_000, materialsP: 60_000 });
    const over = await seedInvoice(t, sub.id, { grossP: 100_000, materialsP: 85_000 });
    const doc = await page(await b.get(`${t.origin}${LIST}`));
    expect(rowOf(doc, under.id).querySelector("[data-materials-warning]")).toBeNull();
    expect(textOf(rowOf(doc, at.id), "[data-materials-warning] .sr-only")).toBe("High materials percentage (60% of gross)");
    expect(textOf(rowOf(doc, over.id), "[data-materials-warning] .sr-only")).toBe("High materials percentage (85% of gross)");
    // The icon itself is hidden from screen readers; the sentence is what they hear.
    expect(one(rowOf(doc, at.id), '[data-materials-warning] [aria-hidden="true"]')).toBeTruthy();
  });

  it("filters through the URL: status, period, and search on number or subcontractor name, kept in the GET form", async () => {
    const { t, b } = await cisStaff("standard");
    const ann = await seedSub(t, { name: "Ann Carpentry" });
    const bob = await seedSub(t, { name: "Bob Groundworks" });
    const current = currentTaxMonth().label;
    const previous = previousTaxMonth(current).label;
    await seedInvoice(t, ann.id, { number: "ANN-001", date: dayIn(current) });
    await seedInvoice(t, ann.id, { number: "ANN-002", status: "approved", date: dayIn(previous) });
    await seedInvoice(t, bob.id, { number: "BOB-777", status: "paid", date: dayIn(previous), paymentDate: dayIn(current) });
    await seedInvoice(t, bob.id, { number: "BOB-OLD", date: "2019-05-10" });
    await seedInvoice(t, bob.id, { number: "BOB-CAN", status: "cancelled", date: dayIn(current) });
    await seedInvoice(t, ann.id, { number: "ANN-PORTAL", portal: true, date: dayIn(current) });
    await seedInvoice(t, ann.id, { number: "ANN-GONE", deleted: true, date: dayIn(current) });
    const other = await createTenant({ modules: ["cis"] });
    const foreignSub = await seedSub(other, { name: "Ann Elsewhere" });
    await seedInvoice(other, foreignSub.id, { number: "ANN-FOREIGN", date: dayIn(current) });
    const shown = async (search: string) => page(await b.get(`${t.origin}${LIST}${search}`));
    const sorted = async (search: string) => numbersOn(await shown(search)).sort();

    expect(await sorted("")).toEqual(["ANN-001", "ANN-002", "ANN-PORTAL", "BOB-777", "BOB-CAN", "BOB-OLD"]);
    expect(await sorted("?status=draft")).toEqual(["ANN-001", "BOB-OLD"]);
    expect(await sorted("?status=portal_draft")).toEqual(["ANN-PORTAL"]);
    expect(await sorted("?status=approved")).toEqual(["ANN-002"]);
    expect(await sorted("?status=paid")).toEqual(["BOB-777"]);
    expect(await sorted("?status=cancelled")).toEqual(["BOB-CAN"]);
    // A paid invoice belongs to the tax month of its payment.
    expect(await sorted("?period=current")).toEqual(["ANN-001", "ANN-PORTAL", "BOB-777", "BOB-CAN"]);
    expect(await sorted("?period=previous")).toEqual(["ANN-002"]);
    expect(await sorted("?period=quarter")).toEqual(["ANN-001", "ANN-002", "ANN-PORTAL", "BOB-777", "BOB-CAN"]);
    expect(await sorted("?period=year")).not.toContain("BOB-OLD");
    // Search: the subcontractor's name (any case) or part of the number.
    expect(await sorted("?q=groundworks")).toEqual(["BOB-777", "BOB-CAN", "BOB-OLD"]);
    expect(await sorted("?q=ann-00")).toEqual(["ANN-001", "ANN-002"]);
    expect(await sorted("?q=bob-7")).toEqual(["BOB-777"]);
    expect(await sorted("?q=%25")).toEqual([]);
    expect(await sorted("?q=ann&status=draft&period=current")).toEqual(["ANN-001"]);
    // Unknown values fall back to the defaults rather than failing the page.
    expect(await sorted("?status=bogus&period=never")).toHaveLength(6);

    const doc = await shown("?q=ann&status=approved&period=previous");
    const form = one(doc, 'form[role="search"]');
    expect(form.getAttribute("method")).toBe("get");
    expect(one(form, 'input[name="q"]').getAttribute("placeholder")).toBe("Search invoices...");
    expect(valueOf(form, "q")).toBe("ann");
    expect(valueOf(form, "status")).toBe("approved");
    expect(valueOf(form, "period")).toBe("previous");
    expect(options(form, "status").map((o) => o.value)).toEqual(["all", "draft", "portal_draft", "approved", "paid", "cancelled"]);
    expect(options(form, "period").map((o) => o.value)).toEqual(["all", "current", "previous", "quarter", "year"]);
    expect(pageText(doc)).toContain("1 item");
  });

  it("shows the five stat cards for the whole tenant, whatever the filter", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Stats Builder" });
    const current = currentTaxMonth().label;
    const previous = previousTaxMonth(current).label;
    // Deductions at 20%: gross 1,000.00 and materials 300.00 give 140.00.
    await seedInvoice(t, sub.id, { status: "draft" });
    await seedInvoice(t, sub.id, { portal: true });
    await seedInvoice(t, sub.id, { status: "approved", statementRequired: true });
    await seedInvoice(t, sub.id, { status: "approved", grossP: 50_000, materialsP: 0 }); // 100.00
    await seedInvoice(t, sub.id, { status: "paid", paymentDate: dayIn(current), statementRequired: true, statementIssued: true });
    await seedInvoice(t, sub.id, { status: "paid", paymentDate: dayIn(previous), date: dayIn(previous), statementRequired: true });
    await seedInvoice(t, sub.id, { status: "cancelled" });
    await seedInvoice(t, sub.id, { status: "approved", deleted: true, statementRequired: true });
    const other = await createTenant({ modules: ["cis"] });
    await seedInvoice(other, (await seedSub(other)).id, { status: "approved", statementRequired: true });

    for (const search of ["", "?status=cancelled"]) {
      const doc = await page(await b.get(`${t.origin}${LIST}${search}`));
      expect(textOf(doc, '[data-card="Total"]'), search).toBe("7");
      expect(textOf(doc, '[data-card="Draft"]'), search).toBe("2");
      expect(textOf(doc, '[data-card="Approved"]'), search).toBe("2");
      // Approved or paid in the current tax month: 140.00 + 100.00 + 140.00.
      expect(textOf(doc, '[data-card="This Month CIS"]'), search).toBe("£380.00");
      // Statements the current tax month still needs (as the dashboard and the statements screen
      // count them): the previous month's pending invoice is that month's, and this month's paid one
      // is already issued (approved ones wait for payment). The card names the month it counts.
      expect(textOf(doc, '[data-card="Pending Statements"]'), search).toBe("0");
      expect(doc.querySelector(`a[href="/cis/statements?month=${current}"]`)?.textContent, search).toBe(`Tax month ${currentTaxMonth().displayLabel}`);
    }
  });

  it("paginates on the server; Previous and Next keep the filters", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Paged Builder" });
    for (let i = 0; i < INVOICE_PAGE_SIZE + 5; i++)
      await seedInvoice(t, sub.id, { number: `PG-${String(i).padStart(2, "0")}`, date: `2026-01-${String((i % 28) + 1).padStart(2, "0")}` });
    await seedInvoice(t, sub.id, { number: "PG-APPROVED", status: "approved" });

    const p1 = await page(await b.get(`${t.origin}${LIST}?status=draft`));
    expect(listed(p1)).toHaveLength(INVOICE_PAGE_SIZE);
    expect(pageText(p1)).toContain(`${INVOICE_PAGE_SIZE + 5} items`);
    expect(pageText(p1)).toContain("Page 1 of 2");
    expect(hrefs(p1, 'a[rel="next"]')).toEqual(["/cis/invoices?status=draft&page=2"]);
    expect(hrefs(p1, 'a[rel="prev"]')).toEqual([]);

    const p2 = await page(await b.get(`${t.origin}${LIST}?status=draft&page=2`));
    expect(listed(p2)).toHaveLength(5);
    expect(pageText(p2)).toContain("Page 2 of 2");
    expect(hrefs(p2, 'a[rel="prev"]')).toEqual(["/cis/invoices?status=draft"]);
    expect(numbersOn(p2)).not.toContain("PG-APPROVED");
    // Newest invoice date first across pages, nothing repeated.
    const seen = [...numbersOn(p1), ...numbersOn(p2)];
    expect(new Set(seen).size).toBe(INVOICE_PAGE_SIZE + 5);
  });

  it("counts a search's matches only as far as the pager reaches: 'More than 100 items' and 'at least' pages, exact once the end is in reach", async () => {
    const { t, b } = await cisStaff("standard");
    const sub = await seedSub(t, { name: "Capped Roofing" });
    // 140 matches, written by SQLite in one statement; day i-1 of January 2026, newest last.
    await env.DB.prepare(
      `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 140)
       INSERT INTO cis_invoices (id, tenant_id, invoice_number, subcontractor_id, subcontractor_name, subcontractor_name_lower, status,
         invoice_date, tax_month, gross_p, materials_p, labour_p, cis_rate, cis_deduction_p, vat_rate, vat_base_p, vat_amount_p,
         gross_total_p, net_payment_p, materials_percentage, created_at, updated_at)
       SELECT 'inv_cap_' || i, ?1, 'CAP-' || printf('%03d', i), ?2, 'Capped Roofing', 'capped roofing', 'draft',
         date('2026-01-01', '+' || (i / 10) || ' days'), '2026-01', 1000, 0, 1000, 20, 200, 0, 1000, 0, 1000, 800, 0, ?3, ?3 FROM s`,
    )
      .bind(t.id, sub.id, Date.now())
      .run();

    const p1 = await page(await b.get(`${t.origin}${LIST}?q=capped`));
    expect(listed(p1)).toHaveLength(INVOICE_PAGE_SIZE);
    expect(textOf(p1, "[data-item-count]")).toBe("More than 100 items");
    expect(pageText(p1)).toContain("Page 1 of at least 5");
    expect(hrefs(p1, 'a[rel="next"]')).toEqual(["/cis/invoices?q=capped&page=2"]);

    // From page 5 the count reaches 200: all 140 are counted, the last page is known.
    const p5 = await page(await b.get(`${t.origin}${LIST}?q=capped&page=5`));
    expect(textOf(p5, "[data-item-count]")).toBe("140 items");
    expect(pageText(p5)).toContain("Page 5 of 6");
    expect(hrefs(p5, 'a[rel="next"]')).toEqual(["/cis/invoices?q=capped&page=6"]);
    const p6 = await page(await b.get(`${t.origin}${LIST}?q=capped&page=6`));
    expect(listed(p6)).toHaveLength(15);
    expect(pageText(p6)).toContain("Page 6 of 6");
    expect(hrefs(p6, 'a[rel="next"]')).toEqual([]);

    // A narrower search is counted exactly.
    const few = await page(await b.get(`${t.origin}${LIST}?q=cap-00`));
    expect(textOf(few, "[data-item-count]")).toBe("9 items");
  });

  it("shows 'No invoices found' with the hint that fits", async () => {
    const { t, b } = await cisStaff("lead");
    const empty = await page(await b.get(`${t.origin}${LIST}`));
    expect(textsOf(empty, "[data-empty] p")).toEqual(["No invoices found", "Get started by creating a new invoice"]);
    for (const search of ["?q=nothing", "?status=paid", "?period=previous"]) {
      const doc = await page(await b.get(`${t.origin}${LIST}${search}`));
      expect(textsOf(doc, "[data-empty] p"), search).toEqual(["No invoices found", "Try adjusting your filters"]);
    }
  });
});

describe("a failing list read", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows 'Error loading invoices' with a reference, never the error's own text, and logs the detail under it", async () => {
    const { t, b } = await cisStaff("lead");
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "));
    });
    // The database answers the session lookup but fails any statement on the invoices table.
    const failingDb = new Proxy(env.DB, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        if (prop === "prepare")
          return (sql: string) => {
            if (sql.includes("cis_invoices")) throw new Error("D1_ERROR: no such column: secret_column in SELECT cis_invoices");
            return value.call(target, sql);
          };
        return value.bind(target);
      },
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${t.origin}${LIST}`, { headers: { Cookie: b.cookieHeader(t.host) } }) as Parameters<typeof worker.fetch>[0],
      { ...env, DB: failingDb } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("secret_column");
    const text = pageText(parseHtml(body));
    expect(text).toMatch(/Error loading invoices: Something went wrong\. Reference: [A-Z0-9]{6,}/);
    const ref = /Reference: ([A-Z0-9]{6,})/.exec(text)?.[1] ?? "?";
    expect(logged.find((l) => l.includes(ref))).toContain("secret_column");
    // The toolbar still renders, so the user can change the filters.
    expect(hasField(parseHtml(body), "q")).toBe(true);
  });
});

// ---------------------------------------------------------------------------

type Allowed = { approve: boolean; pay: boolean; delete: boolean; statement: boolean; export: boolean; write: boolean; import: boolean };

/** Sets up the four invoices one of each bulk action needs, runs every action and the export, and checks what happened. */
async function checkPermissions(t: TestTenant, b: Browser, e: Allowed, label: string) {
  const sub = await seedSub(t, { name: `Perm Builder ${label}` });
  const toApprove = await seedInvoice(t, sub.id);
  const toDelete = await seedInvoice(t, sub.id);
  const toPay = await seedInvoice(t, sub.id, { status: "approved" });
  const toRequest = await seedInvoice(t, sub.id, { status: "paid" });

  const list = await b.get(`${t.origin}${LIST}`);
  expect(list.status, `${label} list`).toBe(200);
  const doc = await page(list);
  const anyBulk = e.approve || e.pay || e.delete || e.statement;
  expect(hasField(doc, "ids"), `${label} row checkboxes`).toBe(anyBulk);
  expect(hasField(doc, "selectAll"), `${label} select all`).toBe(anyBulk);
  const buttons = all(doc, 'form#invoice-bulk button[name="intent"]').map((el) => el.getAttribute("value"));
  expect(buttons, `${label} bulk buttons`).toEqual((["approve", "pay", "delete", "statement"] as const).filter((a) => e[a]));
  expect(hasField(doc, "paymentDate"), `${label} payment date`).toBe(e.pay);
  expect(hrefs(doc).includes("/cis/invoices/new"), `${label} New Invoice`).toBe(e.write);
  expect(hrefs(doc).includes(`/cis/invoices/${toApprove.id}/edit`), `${label} Edit on a draft`).toBe(e.write);
  // Edit is for drafts only.
  expect(hrefs(doc).includes(`/cis/invoices/${toPay.id}/edit`), `${label} Edit on approved`).toBe(false);
  expect(doc.querySelector('form[action="/cis/invoices/export"][method="post"]') !== null, `${label} Export`).toBe(e.export);
  expect(hrefs(doc).includes("/cis/invoices/import"), `${label} Import`).toBe(e.import);

  // Every post is checked on the server, whatever the page offered.
  const post = (intent: string, id: string) => bulk(b, t, { intent, ids: id, confirmed: "yes" });
  expect((await post("approve", toApprove.id)).status, `${label} approve`).toBe(e.approve ? 200 : 403);
  expect((await post("pay", toPay.id)).status, `${label} pay`).toBe(e.pay ? 200 : 403);
  expect((await post("delete", toDelete.id)).status, `${label} delete`).toBe(e.delete ? 200 : 403);
  expect((await post("statement", toRequest.id)).status, `${label} statement`).toBe(e.statement ? 200 : 403);
  expect((await inv(toApprove.id))?.status, `${label} approved?`).toBe(e.approve ? "approved" : "draft");
  expect((await inv(toPay.id))?.status, `${label} paid?`).toBe(e.pay ? "paid" : "approved");
  expect((await inv(toDelete.id))?.deleted_at !== null, `${label} deleted?`).toBe(e.delete);
  expect((await inv(toRequest.id))?.statement_required, `${label} statement requested?`).toBe(e.statement ? 1 : 0);
  // Without JavaScript the unconfirmed post is refused the same way (no confirmation step leaks numbers).
  expect((await bulk(b, t, { intent: "approve", ids: toDelete.id })).status, `${label} approve step`).toBe(e.approve ? 200 : 403);

  const exported = await b.post(`${t.origin}/cis/invoices/export`, {});
  expect(exported.status, `${label} export`).toBe(e.export ? 200 : 403);
  expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.invoices'", t.id)).toBe(e.export ? 1 : 0);
}

describe("invoice list x roles", () => {
  const NONE = { approve: false, pay: false, delete: false, statement: false, export: false, write: false, import: false };
  // Written out by hand from the default bundles (coarse scopes), not computed with can().
  const ROLES: Record<Role, Allowed> = {
    standard: NONE,
    lead: { approve: false, pay: true, delete: true, statement: true, export: true, write: true, import: false },
    // cis.import without cis.inv.write: an import creates invoices, so no Import button.
    manager: { approve: true, pay: false, delete: false, statement: false, export: true, write: false, import: false },
    admin: { approve: true, pay: true, delete: true, statement: true, export: true, write: true, import: true },
  };
  for (const role of Object.keys(ROLES) as Role[]) {
    it(`${role}: sees and may do exactly what the bundle allows`, async () => {
      const { t, b } = await cisStaff(role);
      await checkPermissions(t, b, ROLES[role], role);
    });
  }

  const FINE: { scopes: string[]; allowed: Allowed }[] = [
    { scopes: ["cis.inv.read"], allowed: NONE },
    { scopes: ["cis.inv.read", "cis.inv.approve"], allowed: { ...NONE, approve: true } },
    { scopes: ["cis.inv.read", "cis.inv.pay"], allowed: { ...NONE, pay: true } },
    { scopes: ["cis.inv.read", "cis.inv.write"], allowed: { ...NONE, delete: true, statement: true, write: true } },
    { scopes: ["cis.inv.read", "cis.io.export"], allowed: { ...NONE, export: true } },
    { scopes: ["cis.inv.read", "cis.inv.write", "cis.io.import"], allowed: { ...NONE, delete: true, statement: true, write: true, import: true } },
    { scopes: ["cis.read", "cis.approve", "cis.export"], allowed: { ...NONE, approve: true, export: true } },
  ];
  for (const { scopes, allowed } of FINE) {
    it(`fine scopes ${scopes.join(" + ")}: exactly what they grant`, async () => {
      const t = await createTenant({ modules: ["cis"], bundles: { standard: scopes } });
      const { b } = await cisStaff("standard", { tenant: t });
      await checkPermissions(t, b, allowed, scopes.join("+"));
    });
  }

  it("refuses the page and every post without cis.inv.read, even to holders of the action's own scope", async () => {
    const t = await createTenant({
      modules: ["cis"],
      bundles: { standard: ["cis.inv.approve", "cis.inv.write", "cis.inv.pay", "cis.io.export", "cis.sub.read"] },
    });
    const { b } = await cisStaff("standard", { tenant: t });
    const sub = await seedSub(t);
    const draft = await seedInvoice(t, sub.id);
    expect((await b.get(`${t.origin}${LIST}`)).status).toBe(403);
    expect((await b.post(`${t.origin}${LIST}`, { intent: "approve", ids: draft.id, confirmed: "yes" })).status).toBe(403);
    expect((await b.post(`${t.origin}/cis/invoices/export`, {})).status).toBe(403);
    expect((await inv(draft.id))?.status).toBe("draft");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied'", t.id)).toBe(3);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.invoices'", t.id)).toBe(0);
  });

  it("offers the Invoices link in the CIS navigation to holders of cis.inv.read only", async () => {
    const navLinks = async (scopes: string[]) => {
      const t = await createTenant({ modules: ["cis"], bundles: { standard: scopes } });
      const { b } = await cisStaff("standard", { tenant: t });
      const doc = await page(await b.get(`${t.origin}/cis/subcontractors`));
      return all(doc, 'nav a[href="/cis/invoices"]').map((a) => a.textContent?.trim());
    };
    expect(await navLinks(["cis.sub.read", "cis.inv.read"])).toEqual(["Invoices"]);
    expect(await navLinks(["cis.sub.read", "cis.read"])).toEqual(["Invoices"]);
    expect(await navLinks(["cis.sub.read", "cis.inv.write", "cis.inv.approve"])).toEqual([]);
  });

  it("sends a signed-out visitor to sign in, for the page, a bulk post and the export", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const anon = new Browser();
    for (const res of [
      await anon.get(`${t.origin}${LIST}`),
      await anon.post(`${t.origin}${LIST}`, { intent: "approve", ids: "x" }),
      await anon.post(`${t.origin}/cis/invoices/export`, {}),
    ]) {
      expect(res.status).toBe(302);
      expect(location(res)).toContain("/login");
    }
  });

  it("answers 404 on a tenant without the CIS module", async () => {
    const t = await createTenant({ modules: [] });
    const { b } = await cisStaff("admin", { tenant: t });
    expect((await b.get(`${t.origin}${LIST}`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------

describe("bulk actions", () => {
  it("without JavaScript: each action first renders the server's confirmation with the spec's text and the invoice numbers", async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Confirm Builder" });
    const a = await seedInvoice(t, sub.id, { number: "CONF-A" });
    const c = await seedInvoice(t, sub.id, { number: "CONF-C", status: "approved" });
    const TEXTS = {
      approve: "Are you sure you want to approve 2 selected items?",
      delete: "Are you sure you want to delete 2 selected items?",
      pay: "Are you sure you want to mark 2 selected items as paid?",
      statement: "Are you sure you want to request statements for 2 selected items?",
    };
    for (const [intent, text] of Object.entries(TEXTS)) {
      const res = await bulk(b, t, { intent, ids: [a.id, c.id], paymentDate: "2026-05-20" });
      expect(res.status, intent).toBe(200);
      const doc = await page(res);
      const dialog = one(doc, '[role="alertdialog"]');
      expect(textOf(dialog, "h2"), intent).toBe(text);
      expect(textsOf(dialog, "li"), intent).toEqual(["CONF-A", "CONF-C"]);
      // The confirming form carries the same action, the ids and confirmed=yes.
      const form = one(dialog, "form");
      expect(form.getAttribute("method")).toBe("post");
      expect(valueOf(form, "intent")).toBe(intent);
      expect(valueOf(form, "confirmed")).toBe("yes");
      expect(all(form, 'input[name="ids"]').map((i) => i.getAttribute("value"))).toEqual([a.id, c.id]);
      expect(textsOf(dialog, "button, a")).toEqual(["Confirm", "Cancel"]);
      if (intent === "pay") {
        expect(textOf(dialog, "p")).toBe("Payment date: 20/05/2026");
        expect(valueOf(form, "paymentDate")).toBe("2026-05-20");
      }
    }
    // Nothing changed, nothing audited.
    expect((await inv(a.id))?.status).toBe("draft");
    expect((await inv(c.id))?.status).toBe("approved");
    expect((await inv(c.id))?.statement_required).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.invoice.bulk.%'", t.id)).toBe(0);

    // 'Select all' stands for the ids of the page the user was on.
    const doc = await page(await bulk(b, t, { intent: "approve", selectAll: "page", pageIds: [a.id, c.id] }));
    expect(textOf(doc, '[role="alertdialog"] h2')).toBe("Are you sure you want to approve 2 selected items?");
  });

  it("approve with mixed outcomes lists the succeeded invoices and each failure with its reason, and audits the bulk action", async () => {
    const { t, u, b } = await cisStaff("admin");
    const sub = await seedSub(t, { name: "Mixed Builder" });
    const draft = await seedInvoice(t, sub.id, { number: "MIX-DRAFT" });
    const portal = await seedInvoice(t, sub.id, { number: "MIX-PORTAL", portal: true });
    const approved = await seedInvoice(t, sub.id, { number: "MIX-APPROVED", status: "approved" });
    const paid = await seedInvoice(t, sub.id, { number: "MIX-PAID", status: "paid" });

    const res = await bulk(b, t, { intent: "approve", ids: [draft.id, approved.id, portal.id, paid.id], confirmed: "yes" }, "?status=all&q=mix");
    expect(res.status).toBe(200);
    const doc = await page(res);
    expect(textOf(doc, '[data-bulk-result="approve"] [role="status"]')).toBe("Approved 2 of 4 selected items.");
    expect(textsOf(doc, "[data-succeeded-id]").sort()).toEqual(["MIX-DRAFT", "MIX-PORTAL"]);
    expect(textsOf(doc, "[data-failed-id]").sort()).toEqual([
      "MIX-APPROVED: Only draft or portal-submitted invoices can be approved",
      "MIX-PAID: Only draft or portal-submitted invoices can be approved",
    ]);
    // Still on the list, with the filters the user had.
    expect(valueOf(one(doc, 'form[role="search"]'), "q")).toBe("mix");
    expect(textOf(rowOf(doc, draft.id), "[data-status]")).toBe("Approved");

    expect((await inv(draft.id))?.status).toBe("approved");
    expect((await inv(portal.id))?.status).toBe("approved");
    expect((await inv(paid.id))?.status).toBe("paid");
    const audit = await env.DB.prepare("SELECT actor_id, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.invoice.bulk.approve'")
      .bind(t.id)
      .all<{ actor_id: string; payload: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0].actor_id).toBe(u.id);
    expect(JSON.parse(audit.results[0].payload).succeeded.sort()).toEqual([draft.id, portal.id].sort());
  });

  it("mark paid records the given date (London tax month), refuses what is not approved, and checks the date", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Pay Builder" });
    const a1 = await seedInvoice(t, sub.id, { number: "PAY-1", status: "approved" });
    const a2 = await seedInvoice(t, sub.id, { number: "PAY-2", status: "approved" });
    const draft = await seedInvoice(t, sub.id, { number: "PAY-DRAFT" });

    // The list offers today's London date.
    expect(valueOf(await page(await b.get(`${t.origin}${LIST}`)), "paymentDate")).toBe(londonDate());

    const bad = await bulk(b, t, { intent: "pay", ids: [a1.id], paymentDate: "2026-02-30", confirmed: "yes" });
    expect(bad.status).toBe(400);
    const badDoc = await page(bad);
    expect(describedBy(badDoc, "paymentDate")).toBe("Payment date must be a real date");
    expect(isInvalid(badDoc, "paymentDate")).toBe(true);
    expect((await inv(a1.id))?.status).toBe("approved");

    const doc = await page(await bulk(b, t, { intent: "pay", ids: [a1.id, draft.id], paymentDate: "2026-05-05", confirmed: "yes" }));
    expect(textOf(doc, '[data-bulk-result="pay"] [role="status"]')).toBe("Marked paid 1 of 2 selected items.");
    expect(textsOf(doc, "[data-succeeded-id]")).toEqual(["PAY-1"]);
    expect(textsOf(doc, "[data-failed-id]")).toEqual(["PAY-DRAFT: Only approved invoices can be marked paid"]);
    // 5 May is before the 6th: April's tax month.
    expect(await inv(a1.id)).toMatchObject({ status: "paid", payment_date: "2026-05-05", tax_month: "2026-04" });
    expect((await inv(draft.id))?.status).toBe("draft");

    // A blank date means today in London.
    await bulk(b, t, { intent: "pay", ids: [a2.id], paymentDate: "", confirmed: "yes" });
    expect(await inv(a2.id)).toMatchObject({ status: "paid", payment_date: londonDate() });
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.bulk.pay'", t.id)).toBe(2);
  });

  it("delete is soft, names the deleted invoices, and refuses approved ones", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Delete Builder" });
    const draft = await seedInvoice(t, sub.id, { number: "DEL-DRAFT" });
    const cancelled = await seedInvoice(t, sub.id, { number: "DEL-CANCELLED", status: "cancelled" });
    const approved = await seedInvoice(t, sub.id, { number: "DEL-APPROVED", status: "approved" });
    const doc = await page(await bulk(b, t, { intent: "delete", ids: [draft.id, cancelled.id, approved.id], confirmed: "yes" }));
    expect(textOf(doc, '[data-bulk-result="delete"] [role="status"]')).toBe("Deleted 2 of 3 selected items.");
    expect(textsOf(doc, "[data-succeeded-id]").sort()).toEqual(["DEL-CANCELLED", "DEL-DRAFT"]);
    expect(textsOf(doc, "[data-failed-id]")).toEqual(["DEL-APPROVED: Only draft, portal-submitted or cancelled invoices can be deleted"]);
    // Soft: the rows are still there, hidden from the list.
    expect((await inv(draft.id))?.deleted_at).toBeGreaterThan(0);
    expect((await inv(cancelled.id))?.deleted_at).toBeGreaterThan(0);
    expect((await inv(approved.id))?.deleted_at).toBeNull();
    expect(listed(doc)).toEqual([approved.id]);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.invoice.bulk.delete'", t.id)).toBe(1);
  });

  it("statement request flags paid invoices, refuses approved ones not yet paid and drafts", async () => {
    const { t, b } = await cisStaff("lead");
    const sub = await seedSub(t, { name: "Statement Builder" });
    const approved = await seedInvoice(t, sub.id, { number: "ST-APPROVED", status: "approved" });
    const paid = await seedInvoice(t, sub.id, { number: "ST-PAID", status: "paid" });
    const draft = await seedInvoice(t, sub.id, { number: "ST-DRAFT" });
    const doc = await page(await bulk(b, t, { intent: "statement", ids: [approved.id, paid.id, draft.id], confirmed: "yes" }));
    expect(textOf(doc, '[data-bulk-result="statement"] [role="status"]')).toBe("Requested statements for 1 of 3 selected items.");
    expect(textsOf(doc, "[data-failed-id]")).toEqual([
      `ST-APPROVED: ${INVOICE_ERROR_MESSAGES.statement_unpaid}`,
      "ST-DRAFT: Statements can only be requested for paid invoices",
    ]);
    expect((await inv(approved.id))?.statement_required).toBe(0);
    expect((await inv(paid.id))?.statement_required).toBe(1);
    expect((await inv(draft.id))?.statement_required).toBe(0);
    expect(textOf(doc, '[data-card="Pending Statements"]')).toBe("1");
  });

  it("another tenant's ids fail as not found, are never named, and their rows are never touched", async () => {
    const other = await createTenant({ modules: ["cis"] });
    const foreignSub = await seedSub(other, { name: "Foreign Builder" });
    const foreignDraft = await seedInvoice(other, foreignSub.id, { number: "FOREIGN-DRAFT" });
    const foreignApproved = await seedInvoice(other, foreignSub.id, { number: "FOREIGN-APPROVED", status: "approved" });
    const { t, b } = await cisStaff("admin");
    const mine = await seedInvoice(t, (await seedSub(t)).id, { number: "MINE-1" });

    const ask = await page(await bulk(b, t, { intent: "approve", ids: [mine.id, foreignDraft.id] }));
    expect(textsOf(ask, '[role="alertdialog"] li')).toEqual(["MINE-1", `Unknown invoice (${foreignDraft.id})`]);
    expect(pageText(ask)).not.toContain("FOREIGN-DRAFT");

    for (const intent of ["approve", "delete"]) {
      const doc = await page(await bulk(b, t, { intent, ids: [foreignDraft.id], confirmed: "yes" }));
      expect(textsOf(doc, "[data-failed-id]"), intent).toEqual([`${foreignDraft.id}: Invoice not found`]);
      expect(pageText(doc)).not.toContain("FOREIGN-DRAFT");
    }
    for (const intent of ["pay", "statement"]) {
      const doc = await page(await bulk(b, t, { intent, ids: [foreignApproved.id], confirmed: "yes" }));
      expect(textsOf(doc, "[data-failed-id]"), intent).toEqual([`${foreignApproved.id}: Invoice not found`]);
    }
    const mixed = await page(await bulk(b, t, { intent: "approve", ids: [mine.id, foreignDraft.id], confirmed: "yes" }));
    expect(textsOf(mixed, "[data-succeeded-id]")).toEqual(["MINE-1"]);
    expect(textsOf(mixed, "[data-failed-id]")).toEqual([`${foreignDraft.id}: Invoice not found`]);

    expect(await inv(foreignDraft.id)).toMatchObject({ status: "draft", deleted_at: null, approved_at: null });
    expect(await inv(foreignApproved.id)).toMatchObject({ status: "approved", payment_date: null, statement_required: 0 });
    expect(await count("audit_events", "target_id IN (?, ?) AND action != 'cis.invoice.created'", foreignDraft.id, foreignApproved.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action LIKE 'cis.invoice.%'", other.id)).toBe(2);
  });

  it(`refuses more than ${INVOICE_BULK_LIMIT} invoices, an empty selection and an unknown action, changing nothing`, async () => {
    const { t, b } = await cisStaff("admin");
    const sub = await seedSub(t);
    const draft = await seedInvoice(t, sub.id);
    const ids = [draft.id, ...Array.from({ length: INVOICE_BULK_LIMIT }, (_, i) => `fake-${i}`)];
    const tooMany = await bulk(b, t, { intent: "approve", ids, confirmed: "yes" });
    expect(tooMany.status).toBe(400);
    expect(alerts(await page(tooMany))).toContain(`At most ${INVOICE_BULK_LIMIT} invoices can be changed at once`);
    expect((await inv(draft.id))?.status).toBe("draft");

    const none = await bulk(b, t, { intent: "delete", confirmed: "yes" });
    expect(none.status).toBe(400);
    expect(alerts(await page(none))).toContain("Select at least one invoice");

    expect((await bulk(b, t, { intent: "cancel", ids: draft.id, confirmed: "yes" })).status).toBe(400);
    expect((await bulk(b, t, { ids: draft.id })).status).toBe(400);
    expect((await inv(draft.id))?.status).toBe("draft");
  });

  it("is refused from a foreign origin", async () => {
    const { t, b } = await cisStaff("admin");
    const draft = await seedInvoice(t, (await seedSub(t)).id);
    const res = await b.post(`${t.origin}${LIST}`, { intent: "approve", ids: draft.id, confirmed: "yes" }, { origin: "http://evil.localhost" });
    expect(res.status).toBe(403);
    expect((await inv(draft.id))?.status).toBe("draft");
  });
});

// ---------------------------------------------------------------------------

const BOM = "\uFEFF";
const lines = (body: string) =>
  body
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .slice(0, -1);

describe("invoice CSV export", () => {
  it("answers a download with the spec's columns, pounds with two decimals, neutralised formulas, and audits it", async () => {
    const { t, u, b } = await cisStaff("admin");
    const ann = await seedSub(t, { name: "Ann Carpentry" });
    const evil = await seedSub(t, { name: '=HYPERLINK("x")' });
    await seedInvoice(t, ann.id, { number: "EXP-1", date: "2026-05-02", grossP: 123_456, materialsP: 23_456 });
    await seedInvoice(t, evil.id, { number: "+SUM(A1)", date: "2026-05-01", status: "paid", paymentDate: "2026-05-09", grossP: 100, materialsP: 0 });
    await seedInvoice(t, ann.id, { number: "EXP-GONE", deleted: true });
    const other = await createTenant({ modules: ["cis"] });
    await seedInvoice(other, (await seedSub(other)).id, { number: "EXP-FOREIGN" });

    const res = await b.post(`${t.origin}/cis/invoices/export`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="cis-invoices-${londonDate()}.csv"`);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(body.startsWith(BOM)).toBe(true);
    // 1,234.56 gross, 234.56 materials: labour 1,000.00 at 20% is 200.00; VAT 246.91; net 1,281.47.
    expect(lines(body)).toEqual([
      "Invoice Number,Subcontractor,Date,Gross,Materials,CIS,Net,Status",
      "EXP-1,Ann Carpentry,02/05/2026,1234.56,234.56,200.00,1281.47,Draft",
      `'+SUM(A1),"'=HYPERLINK(""x"")",01/05/2026,1.00,0.00,0.20,1.00,Paid`,
    ]);
    const audit = await env.DB.prepare("SELECT actor_id, target_type, payload FROM audit_events WHERE tenant_id = ? AND action = 'cis.export.invoices'")
      .bind(t.id)
      .all<{ actor_id: string; target_type: string; payload: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0].actor_id).toBe(u.id);
    expect(JSON.parse(audit.results[0].payload)).toEqual({ entity: "invoices", format: "csv", rowCount: 2, filters: { q: "", status: "all", period: "all" } });
  });

  it("exports what the list's filters select, and the list's Export button carries them", async () => {
    const { t, b } = await cisStaff("lead");
    const ann = await seedSub(t, { name: "Ann Carpentry" });
    const bob = await seedSub(t, { name: "Bob Groundworks" });
    const current = currentTaxMonth().label;
    const previous = previousTaxMonth(current).label;
    await seedInvoice(t, ann.id, { number: "F-ANN-1", date: dayIn(current) });
    await seedInvoice(t, ann.id, { number: "F-ANN-2", status: "approved", date: dayIn(previous) });
    await seedInvoice(t, bob.id, { number: "F-BOB-1", status: "approved", date: dayIn(current) });
    const numbers = async (filters: Record<string, string>) => {
      const res = await b.post(`${t.origin}/cis/invoices/export`, filters);
      expect(res.status).toBe(200);
      return lines(await res.text())
        .slice(1)
        .map((l) => l.split(",")[0])
        .sort();
    };
    expect(await numbers({ status: "approved" })).toEqual(["F-ANN-2", "F-BOB-1"]);
    expect(await numbers({ period: "previous" })).toEqual(["F-ANN-2"]);
    expect(await numbers({ q: "groundworks" })).toEqual(["F-BOB-1"]);
    expect(await numbers({ q: "f-ann", status: "approved", period: "all" })).toEqual(["F-ANN-2"]);
    expect(await numbers({})).toHaveLength(3);

    const doc = await page(await b.get(`${t.origin}${LIST}?q=ann&status=approved&period=previous`));
    const form = one(doc, 'form[action="/cis/invoices/export"]');
    expect(form.getAttribute("method")).toBe("post");
    expect([valueOf(form, "q"), valueOf(form, "status"), valueOf(form, "period")]).toEqual(["ann", "approved", "previous"]);
  });

  it("with nothing to export: back to the filtered list with 'Export Failed' / 'No data to export', no audit entry", async () => {
    const { t, b } = await cisStaff("admin");
    await seedInvoice(t, (await seedSub(t)).id);
    const res = await b.post(`${t.origin}/cis/invoices/export`, { q: "zzz", status: "paid", period: "all" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/cis/invoices?q=zzz&status=paid");
    const text = await shownText(await b.follow(res, `${t.origin}/cis/invoices/export`));
    expect(text).toContain("Export Failed");
    expect(text).toContain("No data to export");
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.invoices'", t.id)).toBe(0);
  });

  it(`pages through the rows chunk by chunk, and refuses more than the cap (${INVOICE_EXPORT_MAX_ROWS}) before reading any`, async () => {
    const { t } = await cisStaff("admin");
    const sub = await seedSub(t);
    for (let i = 0; i < 7; i++) await seedInvoice(t, sub.id, { number: `CH-${i}`, date: i % 2 ? "2026-03-01" : `2026-03-${String(i + 10).padStart(2, "0")}` });
    const actor = { id: "x", email: "x@example.test", name: "X" };
    const query = { q: "", status: "all", period: "all" } as const;
    const paged = await exportInvoices(env, t.id, query, actor, { chunk: 2 });
    if (!paged.ok) throw new Error(paged.code);
    expect(paged.rowCount).toBe(7);
    const numbers = lines(paged.body)
      .slice(1)
      .map((l) => l.split(",")[0]);
    expect(new Set(numbers).size).toBe(7);
    // Newest invoice date first, as the list orders them.
    expect(numbers.slice(0, 4)).toEqual(["CH-6", "CH-4", "CH-2", "CH-0"]);

    expect(await exportInvoices(env, t.id, query, actor, { max: 6 })).toEqual({ ok: false, code: "too_many", total: 7, max: 6 });
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.invoices'", t.id)).toBe(1);
  });

  it("GET is 404 and writes nothing; a foreign origin is refused", async () => {
    const { t, b } = await cisStaff("admin");
    await seedInvoice(t, (await seedSub(t)).id);
    expect((await b.get(`${t.origin}/cis/invoices/export`)).status).toBe(404);
    expect((await b.post(`${t.origin}/cis/invoices/export`, {}, { origin: "http://evil.localhost" })).status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.export.invoices'", t.id)).toBe(0);
  });
});
