import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { cisInvoices, emailOutbox, jobs, type Role } from "~/db/schema";
import { invoiceSchema, type InvoiceStatus } from "~/features/cis/domain";
import { INVOICE_ERROR_MESSAGES } from "~/features/cis/invoices/invoice-codes";
import { statementJobKey } from "~/features/cis/invoices/jobs.server";
import { approveInvoice, cancelInvoice, londonToday, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { listInvoices, parseInvoiceListQuery } from "~/features/cis/invoices/queries.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { emailInvoiceCopy } from "~/features/cis/invoices/email.server";
import { generateStatement, pendingStatementGroups } from "~/features/cis/statements/statements.server";
import { renderTemplate } from "~/features/platform/email/templates";
import { createTenant, createUser, type TestTenant } from "../factories";
import { newEmail, seedCisSettings, seedSub } from "../factories/cis";
import { alerts, all, describedBy, field, isDisabled, isInvalid, linksTo, one, page, pageText, textOf, valueOf, visit } from "../factories/html";
import { signedIn } from "../factories/sessions";
import { mintKey, SUBMISSION_KEY_FIELD, withPageKey } from "../factories/submission-keys";
import { audits } from "../factories/audits";
import { type Browser } from "./http";
import { postRecordingJobs } from "./queue-helpers";

type Actor = { id: string; email: string; name: string };
type Person = { b: Browser; actor: Actor };

const SEEDER: Actor = { id: "seed", email: "seed@example.test", name: "Seeder" };

async function person(t: TestTenant, role: Role): Promise<Person> {
  const u = await createUser(t, { role });
  const b = await signedIn(t, u);
  return { b, actor: { id: u.id, email: u.email, name: `User ${u.email.split("@")[0]}` } };
}

let numberSeq = 0;
function invoiceInput(subcontractorId: string, extra: Record<string, unknown> = {}) {
  numberSeq += 1;
  return invoiceSchema.parse({
    subcontractorId,
    invoiceNumber: `DET-${numberSeq}`,
    invoiceDate: "2026-03-10",
    grossP: 100_000,
    materialsP: 30_000,
    vatRate: 20,
    reverseCharge: false,
    ...extra,
  });
}

/** An invoice brought to `status` through the data layer's own transitions. */
async function invoiceIn(t: TestTenant, subId: string, status: InvoiceStatus, opts: { actor?: Actor; extra?: Record<string, unknown> } = {}) {
  const actor = opts.actor ?? SEEDER;
  const res = await createInvoice(env, t.id, invoiceInput(subId, opts.extra), actor, { source: status === "portal_draft" ? "portal" : "staff" });
  if (!res.ok) throw new Error(res.code);
  const id = res.id;
  if (status === "approved" || status === "paid") expect((await approveInvoice(env, t.id, id, actor)).ok).toBe(true);
  if (status === "paid") expect((await markInvoicePaid(env, t.id, id, actor, { paymentDate: "2026-04-01" })).ok).toBe(true);
  if (status === "cancelled") expect((await cancelInvoice(env, t.id, id, actor)).ok).toBe(true);
  return id;
}

async function raw(id: string) {
  const [row] = await getDb(env).select().from(cisInvoices).where(eq(cisInvoices.id, id));
  return row;
}

async function outbox(tenantId: string) {
  return getDb(env).select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId));
}

async function statementJobs(tenantId: string, invoiceId: string) {
  return getDb(env)
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.type, "statements.generate"), eq(jobs.idempotencyKey, statementJobKey(invoiceId))));
}

const url = (t: TestTenant, id: string, query = "") => `${t.origin}/cis/invoices/${id}${query}`;

/** Everything an intent changes on the row, to prove a refused post changed nothing. */
const snapshot = async (id: string) => {
  const r = await raw(id);
  return { status: r.status, deletedAt: r.deletedAt, statementRequired: r.statementRequired, paymentDate: r.paymentDate, updatedAt: r.updatedAt };
};

// ---------------------------------------------------------------------------

describe("invoice detail page", () => {
  it("shows every field: number, linked subcontractor, masked identifiers, status, dates, tax month, amounts, verification, who and when, statement", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const sub = await seedSub(t, {
      name: "Detail Builder Ltd",
      nino: "AB123456C",
      verificationStatus: "higher",
      verificationReference: "V1234567890",
      verificationMethod: "online",
    });
    const id = await invoiceIn(t, sub.id, "paid", {
      actor: admin.actor,
      extra: {
        receivedDate: "2026-03-12",
        description: "Groundworks, phase 2",
        grossP: 123_456,
        materialsP: 104_938,
        materialsJustification: "Steel bought for the whole site",
      },
    });
    expect((await requestInvoiceStatement(env, t.id, id, admin.actor)).ok).toBe(true);

    const res = await admin.b.get(url(t, id));
    expect(res.status).toBe(200);
    const body = await res.clone().text();
    const doc = await page(res);
    const text = pageText(doc);
    const item = (name: string) => textOf(doc, `[data-field="${name}"] dd`);

    expect(textOf(doc, "[data-toolbar] h2")).toBe((await raw(id)).invoiceNumber);
    expect(one(doc, "[data-toolbar] [data-status]").getAttribute("data-status")).toBe("paid");
    expect(item("invoiceNumber")).toBe((await raw(id)).invoiceNumber);
    expect(linksTo(doc, "Detail Builder Ltd")).toContain(`/cis/subcontractors/${sub.id}`);
    expect(item("utr")).toBe(`******${sub.utr.slice(-4)}`);
    expect(item("nino")).toBe("AB****56C");
    // Identifiers never reach the browser in plaintext, not even in attributes or scripts.
    expect(body).not.toContain(sub.utr);
    expect(body).not.toContain("AB123456C");
    expect(item("status")).toBe("Paid");
    expect(item("source")).toBe("Staff");
    expect(item("invoiceDate")).toBe("10/03/2026");
    expect(item("receivedDate")).toBe("12/03/2026");
    expect(item("paymentDate")).toBe("01/04/2026");
    // Paid on 1 April: the tax month starting 6 March.
    expect(item("taxMonth")).toBe("2026-03 (6 March to 5 April 2026)");
    expect(item("description")).toBe("Groundworks, phase 2");
    // 104,938 / 123,456 = 85% materials; labour 18,518; CIS 30% = 5,555.4 -> 5,555; VAT 20% = 24,691.2 -> 24,691.
    const amount = (key: string) => textOf(doc, `[data-amount="${key}"] td`);
    expect(amount("gross")).toBe("£1,234.56");
    expect(amount("materials")).toBe("£1,049.38");
    expect(textOf(doc, '[data-amount="materials"] th')).toBe("Materials (85% of gross)");
    expect(amount("labour")).toBe("£185.18");
    expect(textOf(doc, '[data-amount="cis"] th')).toBe("CIS deduction at 30%");
    expect(amount("cis")).toBe("£55.55");
    expect(amount("vat-base")).toBe("£1,234.56");
    expect(textOf(doc, '[data-amount="vat"] th')).toBe("VAT at 20%");
    expect(amount("vat")).toBe("£246.91");
    expect(amount("gross-total")).toBe("£1,481.47");
    expect(amount("net")).toBe("£1,425.92");
    expect(item("materialsJustification")).toBe("Steel bought for the whole site");
    expect(item("verificationStatus")).toBe("Higher (30%)");
    expect(item("verificationRate")).toBe("30%");
    expect(item("verificationReference")).toBe("V1234567890");
    expect(item("approved")).toMatch(new RegExp(`^\\d{2}/\\d{2}/\\d{4}, \\d{2}:\\d{2} by ${admin.actor.name}$`));
    expect(item("paid")).toMatch(new RegExp(` by ${admin.actor.name}$`));
    expect(item("cancelled")).toBe("N/A");
    expect(item("statementRequired")).toBe("Yes");
    expect(item("statementRequested")).toMatch(new RegExp(` by ${admin.actor.name}$`));
    expect(item("statementIssued")).toBe("N/A");
    expect(item("statementIssuedMethod")).toBe("N/A");
    expect(text).not.toContain("Reverse charge");
  });

  it("a portal draft under reverse charge: 'Reverse charge' for VAT, N/A for what has not happened, no verification yet", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const sub = await seedSub(t);
    const id = await invoiceIn(t, sub.id, "portal_draft", { extra: { reverseCharge: true } });
    const { status, doc } = await visit(admin.b, url(t, id));
    expect(status).toBe(200);
    const item = (name: string) => textOf(doc, `[data-field="${name}"] dd`);
    expect(item("source")).toBe("Subcontractor portal");
    expect(item("status")).toBe("Portal submission");
    expect(textOf(doc, '[data-amount="vat"] td')).toBe("Reverse charge");
    expect(textOf(doc, '[data-amount="net"] td')).toBe("£860.00");
    expect(item("paymentDate")).toBe("N/A");
    expect(item("receivedDate")).toBe("N/A");
    expect(item("description")).toBe("N/A");
    expect(item("approved")).toBe("N/A");
    expect(doc.querySelector('[data-field="verificationStatus"]')).toBeNull();
    expect(item("statementRequired")).toBe("No");
  });

  it("the title is 'Untitled' when the number is empty", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    await env.DB.prepare("UPDATE cis_invoices SET invoice_number = '' WHERE id = ?").bind(id).run();
    const { doc } = await visit(admin.b, url(t, id));
    expect(textOf(doc, "[data-toolbar] h2")).toBe("Untitled");
  });

  it("404 for an unknown id, a deleted invoice and another tenant's invoice; 403 without cis.inv.read", async () => {
    const t = await createTenant({ modules: ["cis"], bundles: { standard: ["cis.inv.write"] } });
    const other = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const deleted = await invoiceIn(t, (await seedSub(t)).id, "draft");
    const res = await admin.b.post(url(t, deleted), { intent: "delete", confirmed: "yes" });
    expect(res.status).toBe(302);
    const foreign = await invoiceIn(other, (await seedSub(other)).id, "draft");
    expect((await admin.b.get(url(t, "no-such-invoice"))).status).toBe(404);
    expect((await admin.b.get(url(t, deleted))).status).toBe(404);
    expect((await admin.b.get(url(t, foreign))).status).toBe(404);
    expect((await admin.b.get(url(t, "x".repeat(65)))).status).toBe(404);

    const writer = await person(t, "standard");
    const mine = await invoiceIn(t, (await seedSub(t)).id, "draft");
    expect((await writer.b.get(url(t, mine))).status).toBe(403);
  });

  it("Print: a link to the printable layout (?print=1), which shows the invoice without the toolbar", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    const { doc } = await visit(admin.b, url(t, id));
    const print = one(doc, "[data-toolbar] a[data-print]");
    expect(print.textContent).toBe("Print");
    expect(print.getAttribute("href")).toBe("?print=1");
    // The screen toolbar is marked to stay off paper.
    expect(one(doc, "[data-toolbar]").getAttribute("class")).toContain("print:hidden");

    const printable = await visit(admin.b, url(t, id, "?print=1"));
    expect(printable.status).toBe(200);
    expect(printable.doc.querySelector("[data-print-layout]")).not.toBeNull();
    expect(printable.doc.querySelector("[data-toolbar]")).toBeNull();
    expect(printable.doc.querySelectorAll("[data-print-layout] form, [data-print-layout] button").length).toBe(0);
    expect(textOf(printable.doc, '[data-amount="net"] td')).toBe("£1,060.00");
    expect(printable.text).toContain(`Invoice ${(await raw(id)).invoiceNumber}`);
  });
});

// ---------------------------------------------------------------------------

type Intent = "approve" | "reject" | "pay" | "cancel" | "delete" | "statement" | "email";

/** The state each intent starts from, and how the row reads once it has worked. */
const START: Record<Intent, InvoiceStatus> = {
  approve: "draft",
  reject: "portal_draft",
  pay: "approved",
  cancel: "draft",
  delete: "draft",
  // Only a paid invoice can be asked to go on a statement.
  statement: "paid",
  email: "draft",
};

const buttonLabel: Record<Intent, string> = {
  approve: "Approve",
  reject: "Reject",
  pay: "Mark Paid",
  cancel: "Cancel",
  delete: "Delete",
  statement: "Generate Statement",
  email: "Email",
};

/**
 * Who may do what, written out by hand. Coarse bundles are the default roles (standard cis.read;
 * lead cis.read + cis.write; manager cis.read + cis.approve; admin cis.manage); the fine bundles
 * live in a second tenant whose roles hold single cis.inv.* scopes.
 */
const FINE_BUNDLES: Partial<Record<Role, string[]>> = {
  standard: ["cis.inv.read", "cis.inv.approve"],
  lead: ["cis.inv.read", "cis.inv.write"],
  manager: ["cis.inv.read", "cis.inv.pay"],
  // Write without read: the page itself is closed, so nothing on it can be posted.
  admin: ["cis.inv.write", "cis.inv.pay", "cis.inv.approve"],
};
type Principal =
  "cis.read" | "cis.read+write" | "cis.read+approve" | "cis.manage" | "inv.read+approve" | "inv.read+write" | "inv.read+pay" | "inv.write-no-read";
const PRINCIPALS: { name: Principal; fine: boolean; role: Role }[] = [
  { name: "cis.read", fine: false, role: "standard" },
  { name: "cis.read+write", fine: false, role: "lead" },
  { name: "cis.read+approve", fine: false, role: "manager" },
  { name: "cis.manage", fine: false, role: "admin" },
  { name: "inv.read+approve", fine: true, role: "standard" },
  { name: "inv.read+write", fine: true, role: "lead" },
  { name: "inv.read+pay", fine: true, role: "manager" },
  { name: "inv.write-no-read", fine: true, role: "admin" },
];
const ALLOWED: Record<Intent, Principal[]> = {
  approve: ["cis.read+approve", "cis.manage", "inv.read+approve"],
  reject: ["cis.read+approve", "cis.manage", "inv.read+approve"],
  // Coarse write grants paying; fine write alone does not.
  pay: ["cis.read+write", "cis.manage", "inv.read+pay"],
  cancel: ["cis.read+write", "cis.manage", "inv.read+write"],
  delete: ["cis.read+write", "cis.manage", "inv.read+write"],
  statement: ["cis.read+write", "cis.manage", "inv.read+write"],
  email: ["cis.read+write", "cis.manage", "inv.read+write"],
};

function changed(intent: Intent, row: Awaited<ReturnType<typeof raw>>): boolean {
  switch (intent) {
    case "approve":
      return row.status === "approved";
    case "reject":
    case "cancel":
      return row.status === "cancelled";
    case "pay":
      return row.status === "paid";
    case "delete":
      return row.deletedAt !== null;
    case "statement":
      // Approval already flagged it (it deducts): the request is this person's once the row says so.
      return row.statementRequired && row.updatedBy !== SEEDER.id;
    case "email":
      return false;
  }
}

describe("every action through HTTP, for each coarse and fine scope", () => {
  it("allows exactly the scopes that grant it, refuses the rest with 403 and changes nothing; buttons follow the same rule", async () => {
    const coarse = await createTenant({ modules: ["cis"] });
    const fine = await createTenant({ modules: ["cis"], bundles: FINE_BUNDLES });
    const people = new Map<Principal, Person & { t: TestTenant; subId: string }>();
    for (const p of PRINCIPALS) {
      const t = p.fine ? fine : coarse;
      const sub = await seedSub(t, { email: newEmail("detail") });
      people.set(p.name, { ...(await person(t, p.role)), t, subId: sub.id });
    }
    const intents = Object.keys(START) as Intent[];
    for (const intent of intents) {
      for (const p of PRINCIPALS) {
        const who = people.get(p.name)!;
        const id = await invoiceIn(who.t, who.subId, START[intent]);
        const allowed = ALLOWED[intent].includes(p.name);
        const label = `${p.name} ${intent}`;

        // The page offers the button exactly when the post would be allowed.
        const shown = await who.b.get(url(who.t, id));
        if (p.name === "inv.write-no-read") expect(shown.status, label).toBe(403);
        else {
          expect(shown.status, label).toBe(200);
          const doc = await page(shown);
          const buttons = all(doc, "[data-toolbar] button, [data-toolbar] summary").map((b) => (b.textContent ?? "").trim());
          expect(buttons.includes(buttonLabel[intent]), `${label}: button shown`).toBe(allowed);
        }

        const before = await snapshot(id);
        const outboxBefore = (await outbox(who.t.id)).length;
        const key: Record<string, string> = intent === "email" ? { [SUBMISSION_KEY_FIELD]: await mintKey(who.t, who.actor, `cis.invoice.email:${id}`) } : {};
        const res = await who.b.post(url(who.t, id), { intent, confirmed: "yes", ...(intent === "pay" ? { paymentDate: "2026-04-10" } : {}), ...key });
        if (allowed) {
          expect(res.status, `${label}: ${await res.clone().text()}`).toBe(302);
          expect(res.headers.get("Location"), label).toBe(intent === "delete" ? "/cis/invoices" : `/cis/invoices/${id}`);
          if (intent === "email") expect((await outbox(who.t.id)).length, label).toBe(outboxBefore + 1);
          else expect(changed(intent, await raw(id)), label).toBe(true);
        } else {
          expect(res.status, label).toBe(403);
          expect(await snapshot(id), label).toEqual(before);
          expect((await outbox(who.t.id)).length, label).toBe(outboxBefore);
        }
      }
    }
  }, 90_000); // every intent for every principal: slow on a loaded machine

  it("Edit shows for drafts only, to those with cis.inv.write, and links to the edit page", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const manager = await person(t, "manager");
    const sub = await seedSub(t);
    const draft = await invoiceIn(t, sub.id, "draft");
    const approved = await invoiceIn(t, sub.id, "approved");
    const portal = await invoiceIn(t, sub.id, "portal_draft");
    expect(linksTo((await visit(lead.b, url(t, draft))).doc, "Edit")).toEqual([`/cis/invoices/${draft}/edit`]);
    expect(linksTo((await visit(lead.b, url(t, approved))).doc, "Edit")).toEqual([]);
    expect(linksTo((await visit(lead.b, url(t, portal))).doc, "Edit")).toEqual([]);
    expect(linksTo((await visit(manager.b, url(t, draft))).doc, "Edit")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------

describe("status rules, checked again on the server", () => {
  it("buttons follow the status, and a post the status does not allow is refused with its message", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const sub = await seedSub(t, { email: newEmail() });
    const approved = await invoiceIn(t, sub.id, "approved");
    const draft = await invoiceIn(t, sub.id, "draft");
    const paid = await invoiceIn(t, sub.id, "paid");
    const cancelled = await invoiceIn(t, sub.id, "cancelled");

    const labels = async (id: string) => all((await visit(admin.b, url(t, id))).doc, "[data-toolbar] button").map((b) => (b.textContent ?? "").trim());
    expect(await labels(draft)).toEqual(["Email", "Approve", "Cancel", "Delete"]);
    expect(await labels(approved)).toEqual(["Email", "Mark Paid", "Cancel"]);
    expect(await labels(paid)).toEqual(["Email", "Generate Statement"]);
    expect(await labels(cancelled)).toEqual(["Email", "Delete"]);
    expect(await labels(await invoiceIn(t, sub.id, "portal_draft"))).toEqual(["Email", "Approve", "Reject", "Cancel", "Delete"]);

    const refusals: [string, Record<string, string>, string][] = [
      [approved, { intent: "approve" }, "Only draft or portal-submitted invoices can be approved"],
      [draft, { intent: "pay", paymentDate: "2026-04-10" }, "Only approved invoices can be marked paid"],
      [draft, { intent: "reject", confirmed: "yes" }, "Only portal-submitted invoices can be rejected"],
      [draft, { intent: "statement" }, "Statements can only be requested for paid invoices"],
      [approved, { intent: "statement" }, INVOICE_ERROR_MESSAGES.statement_unpaid],
      [paid, { intent: "cancel", confirmed: "yes" }, "Only draft, portal-submitted or approved invoices can be cancelled"],
      [approved, { intent: "delete", confirmed: "yes" }, "Only draft, portal-submitted or cancelled invoices can be deleted"],
      // Unconfirmed: no confirmation step for what the status refuses anyway.
      [approved, { intent: "delete" }, "Only draft, portal-submitted or cancelled invoices can be deleted"],
    ];
    for (const [id, form, message] of refusals) {
      const before = await snapshot(id);
      const res = await admin.b.post(url(t, id), form);
      expect(res.status, form.intent).toBe(409);
      const doc = await page(res);
      expect(alerts(doc), form.intent).toContain(message);
      expect(doc.querySelector("[data-confirm]"), form.intent).toBeNull();
      expect(await snapshot(id), form.intent).toEqual(before);
    }
  });

  it("an invoice on a statement shows no Cancel, and a posted cancel is refused with its message", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const sub = await seedSub(t);
    const paid = await invoiceIn(t, sub.id, "paid");
    const [row] = await getDb(env).select({ taxMonth: cisInvoices.taxMonth }).from(cisInvoices).where(eq(cisInvoices.id, paid));
    const gen = await generateStatement(env, t.id, sub.id, row.taxMonth, SEEDER);
    if (!gen.ok) throw new Error(gen.code);
    // Statements generated before only paid invoices went on one may hold an approved invoice.
    const id = await invoiceIn(t, sub.id, "approved");
    await env.DB.prepare("UPDATE cis_invoices SET statement_id = ? WHERE id = ?").bind(gen.id, id).run();

    const labels = all((await visit(admin.b, url(t, id))).doc, "[data-toolbar] button").map((b) => (b.textContent ?? "").trim());
    expect(labels).not.toContain("Cancel");
    const before = await snapshot(id);
    const res = await admin.b.post(url(t, id), { intent: "cancel", confirmed: "yes" });
    expect(res.status).toBe(409);
    expect(alerts(await page(res))).toContain("This invoice is on a payment and deduction statement and cannot be cancelled");
    expect(await snapshot(id)).toEqual(before);
  });

  it("an unknown intent is a 400", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    expect((await admin.b.post(url(t, id), { intent: "archive" })).status).toBe(400);
    expect((await raw(id)).status).toBe("draft");
  });
});

// ---------------------------------------------------------------------------

describe("approve", () => {
  it("two simultaneous approvals of one invoice: exactly one succeeds, the other says why", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const first = await person(t, "admin");
    const second = await person(t, "manager");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    const [a, b] = await Promise.all([first.b.post(url(t, id), { intent: "approve" }), second.b.post(url(t, id), { intent: "approve" })]);
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    const loser = a.status === 409 ? a : b;
    expect(alerts(await page(loser))).toContain("Only draft or portal-submitted invoices can be approved");
    expect((await raw(id)).status).toBe("approved");
    expect(await audits(t.id, "cis.invoice.approved", id)).toHaveLength(1);
    expect(await statementJobs(t.id, id)).toHaveLength(0);
  });

  it("approving sends no statements.generate job (the approval flags the need itself); paying puts it on its month's statement", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const lead = await person(t, "lead");
    const sub = await seedSub(t);
    const standard = await invoiceIn(t, sub.id, "draft");
    const gross = await invoiceIn(t, (await seedSub(t, { verificationStatus: "gross" })).id, "draft");

    const approved = await postRecordingJobs(admin.b, url(t, standard), { intent: "approve" });
    expect(approved.res.status).toBe(302);
    expect(approved.jobs).toEqual([]);
    expect(await statementJobs(t.id, standard)).toHaveLength(0);
    const shown = await visit(admin.b, url(t, standard));
    expect(textOf(shown.doc, "[data-toast-type]")).toContain("Invoice approved");
    expect(await raw(standard)).toMatchObject({ approvedBy: admin.actor.id, statementRequired: true, statementRequestedBy: admin.actor.id });
    const grossApproved = await postRecordingJobs(admin.b, url(t, gross), { intent: "approve" });
    expect(grossApproved.res.status).toBe(302);
    expect(grossApproved.jobs).toEqual([]);
    expect((await raw(gross)).statementRequired).toBe(false);

    // Approved but not paid: on no statement yet.
    expect(await pendingStatementGroups(env, t.id, "2026-03")).toEqual([]);
    const paid = await postRecordingJobs(lead.b, url(t, standard), { intent: "pay", paymentDate: "2026-04-01" });
    expect(paid.res.status).toBe(302);
    expect(paid.jobs).toEqual([]);
    const [group] = await pendingStatementGroups(env, t.id, "2026-03");
    expect(group).toMatchObject({ subcontractorId: sub.id, invoiceIds: [standard] });
    const gen = await generateStatement(env, t.id, sub.id, "2026-03", SEEDER);
    if (!gen.ok) throw new Error(gen.code);
    expect((await raw(standard)).statementId).toBe(gen.id);
    const queued = await getDb(env)
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, t.id), eq(jobs.type, "statements.generate")));
    expect(queued).toEqual([]);
  });
});

describe("mark paid", () => {
  it("the payment date sets the tax month: 5 April is March's, 6 April starts April's", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const sub = await seedSub(t);
    const fifth = await invoiceIn(t, sub.id, "approved");
    const sixth = await invoiceIn(t, sub.id, "approved");
    const r5 = await lead.b.post(url(t, fifth), { intent: "pay", paymentDate: "2026-04-05" });
    expect(r5.status).toBe(302);
    expect(await raw(fifth)).toMatchObject({ status: "paid", paymentDate: "2026-04-05", taxMonth: "2026-03", paidBy: lead.actor.id });
    expect((await lead.b.post(url(t, sixth), { intent: "pay", paymentDate: "2026-04-06" })).status).toBe(302);
    expect(await raw(sixth)).toMatchObject({ paymentDate: "2026-04-06", taxMonth: "2026-04" });
    const { doc } = await visit(lead.b, url(t, sixth));
    expect(textOf(doc, "[data-toast-type]")).toContain("Invoice marked paid");
    expect(textOf(doc, '[data-field="paymentDate"] dd')).toBe("06/04/2026");
  });

  it("the date field defaults to today in London; a blank date means today", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const id = await invoiceIn(t, (await seedSub(t)).id, "approved");
    const { doc } = await visit(lead.b, url(t, id));
    expect(valueOf(doc, "paymentDate")).toBe(londonToday());
    expect(field(doc, "paymentDate").getAttribute("type")).toBe("date");
    expect((await lead.b.post(url(t, id), { intent: "pay", paymentDate: "" })).status).toBe(302);
    expect((await raw(id)).paymentDate).toBe(londonToday());
  });

  it("today in London across midnight in summer time: 23:30 UTC on 5 April is 6 April, the new tax month", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const id = await invoiceIn(t, (await seedSub(t)).id, "approved");
    expect(londonToday(new Date("2026-04-05T23:30:00Z"))).toBe("2026-04-06");
    expect(await markInvoicePaid(env, t.id, id, SEEDER, { now: new Date("2026-04-05T23:30:00Z") })).toEqual({ ok: true, id });
    expect(await raw(id)).toMatchObject({ paymentDate: "2026-04-06", taxMonth: "2026-04" });
  });

  it("an invalid date is shown next to the field, the input is kept and nothing changes", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const id = await invoiceIn(t, (await seedSub(t)).id, "approved");
    for (const bad of ["2026-02-30", "05/04/2026"]) {
      const res = await lead.b.post(url(t, id), { intent: "pay", paymentDate: bad });
      expect(res.status, bad).toBe(400);
      const doc = await page(res);
      expect(describedBy(doc, "paymentDate"), bad).toBe("Payment date must be a real date");
      expect(isInvalid(doc, "paymentDate"), bad).toBe(true);
      expect(valueOf(doc, "paymentDate"), bad).toBe(bad);
      expect((await raw(id)).status, bad).toBe("approved");
    }
  });
});

// ---------------------------------------------------------------------------

describe("confirmed actions: reject, cancel, delete", () => {
  it("reject: a server-rendered confirmation first ('Reject this portal-submitted invoice?'), then cancelled", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const manager = await person(t, "manager");
    const id = await invoiceIn(t, (await seedSub(t)).id, "portal_draft");
    const ask = await manager.b.post(url(t, id), { intent: "reject" });
    expect(ask.status).toBe(200);
    const doc = await page(ask);
    expect(textOf(doc, '[role="alertdialog"] h3')).toBe("Reject this portal-submitted invoice?");
    expect(valueOf(one(doc, '[data-confirm="reject"]'), "confirmed")).toBe("yes");
    expect(valueOf(one(doc, '[data-confirm="reject"]'), "intent")).toBe("reject");
    expect((await raw(id)).status).toBe("portal_draft");
    // The toolbar's own form carries the dialog's question for JavaScript, and an unconfirmed flag.
    expect(valueOf(one(doc, "[data-toolbar]"), "confirmed")).toBe("");

    const res = await manager.b.post(url(t, id), { intent: "reject", confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(await raw(id)).toMatchObject({ status: "cancelled", cancelledBy: manager.actor.id });
    expect(await audits(t.id, "cis.invoice.cancelled", id)).toHaveLength(1);
    expect(textOf((await visit(manager.b, url(t, id))).doc, "[data-toast-type]")).toContain("Invoice rejected");
  });

  it("cancel: confirmation, then cancelled with who and when", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const id = await invoiceIn(t, (await seedSub(t)).id, "approved");
    const number = (await raw(id)).invoiceNumber;
    const ask = await lead.b.post(url(t, id), { intent: "cancel" });
    expect(ask.status).toBe(200);
    expect(textOf(await page(ask), '[role="alertdialog"] h3')).toBe(`Cancel invoice ${number}?`);
    expect((await raw(id)).status).toBe("approved");
    expect((await lead.b.post(url(t, id), { intent: "cancel", confirmed: "yes" })).status).toBe(302);
    expect(await raw(id)).toMatchObject({ status: "cancelled", cancelledBy: lead.actor.id });
    const { doc } = await visit(lead.b, url(t, id));
    expect(textOf(doc, '[data-field="cancelled"] dd')).toMatch(new RegExp(` by ${lead.actor.name}$`));
  });

  it("delete: confirmation, then a soft delete, back to the list with a toast; the page is 404 and the list no longer has it", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    const ask = await lead.b.post(url(t, id), { intent: "delete" });
    expect(ask.status).toBe(200);
    expect(textOf(await page(ask), '[role="alertdialog"] h3')).toContain("Delete invoice");
    expect((await raw(id)).deletedAt).toBeNull();

    const res = await lead.b.post(url(t, id), { intent: "delete", confirmed: "yes" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/cis/invoices");
    expect(res.headers.getSetCookie().some((c) => /flash=/.test(c))).toBe(true);
    const row = await raw(id);
    expect(row.deletedAt).toBeTypeOf("number");
    expect(row.deletedBy).toBe(lead.actor.id);
    expect((await lead.b.get(url(t, id))).status).toBe(404);
    const list = await listInvoices(env, t.id, parseInvoiceListQuery(new URLSearchParams()));
    expect(list.rows.map((r) => r.id)).not.toContain(id);
  });
});

describe("statement request", () => {
  it("Generate Statement flags a paid invoice as needing a statement, keeping who asked", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    // A gross subcontractor: its approval deducts nothing and so does not flag it, so the flag is the button's doing.
    const id = await invoiceIn(t, (await seedSub(t, { verificationStatus: "gross" })).id, "paid");
    expect((await raw(id)).statementRequired).toBe(false);
    expect((await lead.b.post(url(t, id), { intent: "statement" })).status).toBe(302);
    expect(await raw(id)).toMatchObject({ statementRequired: true, statementRequestedBy: lead.actor.id });
    expect(await audits(t.id, "cis.invoice.statement_requested", id)).toHaveLength(1);
    const { doc } = await visit(lead.b, url(t, id));
    expect(textOf(doc, "[data-toast-type]")).toContain("Statement requested");
    expect(textOf(doc, '[data-field="statementRequired"] dd')).toBe("Yes");
  });
});

// ---------------------------------------------------------------------------

describe("Email", () => {
  it("queues one copy to the subcontractor's address with the invoice's figures and the contractor's name, and audits it with the address masked", async () => {
    const t = await createTenant({ modules: ["cis"] });
    await seedCisSettings(t, { companyName: "Acme Groundworks Ltd" });
    const lead = await person(t, "lead");
    const email = newEmail("copy");
    const sub = await seedSub(t, { email, name: "Copy Builder" });
    const id = await invoiceIn(t, sub.id, "paid", { actor: lead.actor });
    const number = (await raw(id)).invoiceNumber;

    const res = await lead.b.post(url(t, id), await withPageKey(lead.b, url(t, id), { intent: "email" }));
    expect(res.status).toBe(302);
    const rows = await outbox(t.id);
    expect(rows).toHaveLength(1);
    const [mail] = rows;
    expect(mail).toMatchObject({ toAddress: email, template: "cis.invoice-copy" });
    const rendered = renderTemplate(mail.template, mail.data);
    expect(rendered.subject).toBe(`Invoice ${number} from Acme Groundworks Ltd`);
    for (const line of [
      "Hello Copy Builder,",
      `Invoice number: ${number}`,
      "Status: Paid",
      "Invoice date: 10/03/2026",
      "Payment date: 01/04/2026",
      "Gross: £1,000.00",
      "Materials: £300.00",
      "Labour: £700.00",
      "CIS deduction: £140.00 at 20%",
      "VAT: £200.00 at 20%",
      "Gross total: £1,200.00",
      "Net payment: £1,060.00",
    ])
      expect(rendered.text).toContain(line);
    // No tax identifier, masked or not, travels by e-mail.
    const sent = JSON.stringify(mail.data) + rendered.text + rendered.html;
    expect(sent).not.toContain(sub.utr);
    expect(sent).not.toMatch(/\*{4,}\d{4}/);
    expect(sent).not.toMatch(/UTR|NINO/i);

    const [entry] = await audits(t.id, "cis.invoice.emailed", id);
    expect(entry.payload).toEqual({ invoiceId: id, to: "c***@e***.test", outboxId: mail.id });
    expect(entry.actorId).toBe(lead.actor.id);
    expect(JSON.stringify(entry.payload)).not.toContain(email);
    const { doc } = await visit(lead.b, url(t, id));
    expect(textOf(doc, "[data-toast-type]")).toContain(`A copy of ${number} was sent to ${email}.`);
  });

  it("when the queue refuses the message: the outbox row is failed, the audit entry names it, and the caller hears of it", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const sub = await seedSub(t, { email: newEmail("refused") });
    const id = await invoiceIn(t, sub.id, "draft");
    const refusing = {
      async send() {
        throw new Error("queue down");
      },
      async sendBatch() {
        throw new Error("queue down");
      },
    } as unknown as Queue;
    await expect(emailInvoiceCopy({ ...env, EMAIL: refusing }, t, id, SEEDER)).rejects.toThrow(/queue down/);
    const [row] = await outbox(t.id);
    expect(row).toMatchObject({ status: "failed", error: "queue refused the message" });
    const [entry] = await audits(t.id, "cis.invoice.emailed", id);
    expect(entry.payload).toMatchObject({ invoiceId: id, outboxId: row.id });
  });

  it("without an e-mail address the button is disabled with the reason, and the action refuses with it", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const lead = await person(t, "lead");
    const id = await invoiceIn(t, (await seedSub(t)).id, "draft");
    const { doc } = await visit(lead.b, url(t, id));
    const button = all(doc, "[data-toolbar] button").find((b) => b.textContent === "Email");
    expect(button).toBeDefined();
    expect(isDisabled(button!)).toBe(true);
    const reasonId = button!.getAttribute("aria-describedby");
    expect(reasonId && doc.getElementById(reasonId)?.textContent).toBe("This subcontractor has no email address");

    const res = await lead.b.post(url(t, id), await withPageKey(lead.b, url(t, id), { intent: "email" }));
    expect(res.status).toBe(409);
    expect(alerts(await page(res))).toContain("This subcontractor has no email address");
    expect(await outbox(t.id)).toHaveLength(0);
    expect(await audits(t.id, "cis.invoice.emailed", id)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------

describe("tenant isolation", () => {
  it("another tenant's invoice is 404 on GET and on every intent, and nothing changes in that tenant", async () => {
    const t = await createTenant({ modules: ["cis"] });
    const other = await createTenant({ modules: ["cis"] });
    const admin = await person(t, "admin");
    const sub = await seedSub(other, { email: newEmail("victim") });
    const ids: Record<Intent, string> = {
      approve: await invoiceIn(other, sub.id, "draft"),
      reject: await invoiceIn(other, sub.id, "portal_draft"),
      pay: await invoiceIn(other, sub.id, "approved"),
      cancel: await invoiceIn(other, sub.id, "draft"),
      delete: await invoiceIn(other, sub.id, "draft"),
      statement: await invoiceIn(other, sub.id, "approved"),
      email: await invoiceIn(other, sub.id, "draft"),
    };
    const before = await Promise.all(Object.values(ids).map(raw));
    const auditCount = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE tenant_id = ?").bind(other.id).first<{ n: number }>())?.n ?? 0;
    const auditsBefore = await auditCount();
    for (const [intent, id] of Object.entries(ids)) {
      expect((await admin.b.get(url(t, id))).status, intent).toBe(404);
      for (const confirmed of ["yes", ""]) {
        const res = await admin.b.post(url(t, id), { intent, confirmed, paymentDate: "2026-04-10" });
        expect(res.status, `${intent} ${confirmed}`).toBe(404);
      }
    }
    expect(await Promise.all(Object.values(ids).map(raw))).toEqual(before);
    expect(await outbox(other.id)).toHaveLength(0);
    expect(await outbox(t.id)).toHaveLength(0);
    expect(await auditCount()).toBe(auditsBefore);
  });
});
