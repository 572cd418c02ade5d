import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { invoiceSchema } from "~/features/cis/domain";
import { approveInvoice, markInvoicePaid, requestInvoiceStatement } from "~/features/cis/invoices/transitions.server";
import { createInvoice } from "~/features/cis/invoices/form.server";
import { ensureStatementPdf, statementDocument, statementPdfKey, statementVerification } from "~/features/cis/statements/files.server";
import { issueStatement, STATEMENT_ISSUED_AUDIT } from "~/features/cis/statements/issue.server";
import { pdfText } from "~/features/cis/statements/pdf-text.test-support";
import { generateStatement, getStatement } from "~/features/cis/statements/statements.server";
import { base64ToBytes, bytesToBase64 } from "~/utils/base64";
import { queueEmail } from "~/features/platform/email/send.server";
import { buildMime } from "~/features/platform/email/transports.server";
import type { TestTenant } from "../factories";
import { cisStaff, cisTenant, newEmail, seedCisSettings, seedSub } from "../factories/cis";
import { mintKey, SUBMISSION_KEY_FIELD } from "../factories/submission-keys";
import { all, attr, page as parsePage, parseHtml, textOf, visit } from "../factories/html";
import { quietEnv } from "../factories/queues";
import { count, waitForMail } from "./auth-helpers";
import { Browser, location } from "./http";
import { inviteByMail } from "./portal-helpers";
import { deliverMessages, recordingQueue } from "./queue-helpers";

const actor = { id: "user-issue", email: "issue@example.test", name: "Issuer" };
const MONTH = "2026-01"; // 6 January to 5 February 2026

type Settings = { emailStatements?: boolean; emailFrom?: string | null; replyTo?: string | null; footer?: string | null; companyName?: string };

async function settings(t: TestTenant, s: Settings = {}) {
  await seedCisSettings(t, { companyName: s.companyName ?? "Issuing Contractor Ltd", replyTo: s.replyTo ?? null });
  await env.DB.prepare("UPDATE cis_settings SET email_statements = ?, email_from = ?, statement_footer = ? WHERE tenant_id = ?")
    .bind(s.emailStatements === false ? 0 : 1, s.emailFrom === undefined ? null : s.emailFrom, s.footer ?? null, t.id)
    .run();
}

let seq = 0;
/** Paid (on `paid`, else the invoice date), statement-required invoices for the subcontractor, through the data layer. */
async function invoices(t: TestTenant, subId: string, amounts: { grossP: number; materialsP: number; paid?: string; date?: string }[]) {
  const e = quietEnv();
  for (const a of amounts) {
    seq += 1;
    const value = invoiceSchema.parse({
      subcontractorId: subId,
      invoiceNumber: `IS-${seq}`,
      invoiceDate: a.date ?? "2026-01-12",
      grossP: a.grossP,
      materialsP: a.materialsP,
      vatRate: 20,
      reverseCharge: false,
    });
    const res = await createInvoice(e, t.id, value, actor);
    if (!res.ok) throw new Error(res.code);
    expect((await approveInvoice(e, t.id, res.id, actor)).ok).toBe(true);
    expect((await markInvoicePaid(e, t.id, res.id, actor, { paymentDate: a.paid ?? a.date ?? "2026-01-12" })).ok).toBe(true);
    expect((await requestInvoiceStatement(e, t.id, res.id, actor)).ok).toBe(true);
  }
}

/** A generated statement: a subcontractor (with e-mail unless told otherwise) and two invoices. */
async function statementFor(t: TestTenant, sub: Partial<Record<string, string>> = {}, opts: { email?: boolean } = {}) {
  const s = await seedSub(t, { ...(opts.email === false ? {} : { email: newEmail("stmt") }), ...sub });
  await invoices(t, s.id, [
    { grossP: 150_000, materialsP: 50_000, paid: "2026-01-20" },
    { grossP: 20_050, materialsP: 0 },
  ]);
  const res = await generateStatement(quietEnv(), t.id, s.id, MONTH, actor);
  if (!res.ok) throw new Error(res.code);
  return { sub: s, id: res.id };
}

async function statementRow(id: string) {
  return env.DB.prepare("SELECT * FROM cis_statements WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

async function invoiceRows(statementId: string) {
  const { results } = await env.DB.prepare("SELECT statement_issued_at, statement_issued_method FROM cis_invoices WHERE statement_id = ?")
    .bind(statementId)
    .all<{ statement_issued_at: number | null; statement_issued_method: string | null }>();
  return results;
}

async function pdfBytes(t: TestTenant, id: string): Promise<Uint8Array> {
  const pdf = await ensureStatementPdf(env, t.id, id);
  if (!pdf.ok) throw new Error(pdf.code);
  return pdf.bytes;
}

const issueUrl = (t: TestTenant, id: string) => `${t.origin}/cis/statements/${id}/issue`;
/** A fresh one-time submission key for issuing statement `id`, as the statements page renders it. */
const issueKey = async (t: TestTenant, u: { id: string }, id: string) => ({ [SUBMISSION_KEY_FIELD]: await mintKey(t, u, `cis.statement.issue:${id}`) });
const downloadUrl = (t: TestTenant, id: string, format: string) => `${t.origin}/cis/statements/${id}/download?format=${format}`;

describe("statement PDF", () => {
  it("prints the contractor, the subcontractor, the full UTR and the amounts; the verification number only at 30%", async () => {
    const t = await cisTenant();
    await settings(t, { footer: "Registered in England 0123456" });
    const higher = await statementFor(t, { name: "Higher Rate Roofing", verificationStatus: "higher", verificationReference: "V9988776655AB" });
    const standard = await statementFor(t, { name: "Standard Rate Joinery", verificationReference: "V1122334455CD" });

    const text = pdfText(await pdfBytes(t, higher.id));
    for (const s of ["Issuing Contractor Ltd", "123/AB12345", "Higher Rate Roofing", "V9988776655AB", "30%", "Registered in England 0123456"])
      expect(text).toContain(s);
    // The statement is the subcontractor's own record: HMRC requires their UTR on it.
    expect(text).toContain(higher.sub.utr);
    // 1,500.00 + 200.50 gross, 500.00 materials, 30% of the 1,200.50 labour.
    for (const s of ["£1,700.50", "£500.00", "£1,200.50", "£360.15", "£1,340.35", "£1,500.00", "£200.50"]) expect(text).toContain(s);
    expect(text).toContain("Keep this statement for at least 6 years.");

    const std = pdfText(await pdfBytes(t, standard.id));
    expect(std).toContain("Standard Rate Joinery");
    expect(std).toContain("20%");
    expect(std).toContain("£240.10");
    expect(std).not.toContain("V1122334455CD");
    expect(std).not.toContain("Verification number");
  });

  it("is rendered once: the same key and bytes afterwards, even after the settings change", async () => {
    const t = await cisTenant();
    await settings(t, { companyName: "Before Rename Ltd" });
    const { id } = await statementFor(t);
    const first = await ensureStatementPdf(env, t.id, id);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.key).toBe(statementPdfKey(t.id, id));
    expect(first.key.startsWith(`tenants/${t.id}/`)).toBe(true);
    expect((await statementRow(id))?.pdf_key).toBe(first.key);
    const stored = await env.FILES.get(first.key);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(first.bytes);

    await settings(t, { companyName: "After Rename Ltd", footer: "New footer" });
    const again = await ensureStatementPdf(env, t.id, id);
    expect(again.ok && again.key).toBe(first.key);
    expect(again.ok && again.bytes).toEqual(first.bytes);
    expect(pdfText(first.bytes)).toContain("Before Rename Ltd");
    // Even with the R2 object lost, the stored document renders the same bytes again.
    await env.FILES.delete(first.key);
    const rebuilt = await ensureStatementPdf(env, t.id, id);
    expect(rebuilt.ok && rebuilt.bytes).toEqual(first.bytes);
  });

  it("two first renders at once store one document and identical bytes", async () => {
    const t = await cisTenant();
    await settings(t);
    const { id } = await statementFor(t);
    const results = await Promise.all([ensureStatementPdf(env, t.id, id), ensureStatementPdf(env, t.id, id), ensureStatementPdf(env, t.id, id)]);
    const ok = results.flatMap((r) => (r.ok ? [r] : []));
    expect(ok).toHaveLength(3);
    expect(new Set(ok.map((r) => r.key)).size).toBe(1);
    for (const r of ok) expect(r.bytes).toEqual(ok[0]!.bytes);
    const obj = await env.FILES.get(ok[0]!.key);
    expect(new Uint8Array(await obj!.arrayBuffer())).toEqual(ok[0]!.bytes);
  });

  it("keeps the first stored document when a second rendering would differ (the write is conditional)", async () => {
    const t = await cisTenant();
    await settings(t, { companyName: "First Writer Ltd" });
    const { id } = await statementFor(t);
    const first = await statementDocument(env, t.id, id);
    expect(first.ok).toBe(true);
    // As if another rendering had read newer settings: it finds the document already stored and returns that.
    await settings(t, { companyName: "Second Writer Ltd" });
    const second = await statementDocument(env, t.id, id);
    expect(second.ok && second.document.contractor.name).toBe("First Writer Ltd");
  });

  it("refuses to freeze a statement without the contractor's employer reference", async () => {
    const t = await cisTenant();
    const { id } = await statementFor(t);
    expect(await ensureStatementPdf(env, t.id, id)).toEqual({ ok: false, code: "settings_incomplete" });
    expect(await count("cis_statement_documents", "statement_id = ?", id)).toBe(0);
  });

  it("takes the verification in force from the invoices' snapshots; a higher-rate invoice puts the statement at 30%", () => {
    const current = { verificationRate: 20, verificationReference: "VNOW" };
    expect(statementVerification([{ verificationRate: 20, verificationReference: "V1", cisRate: 20 }], current)).toEqual({
      cisRate: 20,
      verificationNumber: "V1",
    });
    expect(
      statementVerification(
        [
          { verificationRate: 20, verificationReference: "V1", cisRate: 20 },
          { verificationRate: 30, verificationReference: "V30", cisRate: 30 },
        ],
        current,
      ),
    ).toEqual({ cisRate: 30, verificationNumber: "V30" });
    expect(statementVerification([{ verificationRate: null, verificationReference: null, cisRate: 30 }], current)).toEqual({
      cisRate: 30,
      verificationNumber: null,
    });
  });
});

describe("statement downloads", () => {
  it("PDF and HTML as attachments named CIS_Statement_{month}_{name}, nosniff, showing the same figures", async () => {
    const { t, b } = await cisStaff("standard");
    await settings(t);
    const { id } = await statementFor(t, { name: "Download Builders" });

    const pdf = await b.get(downloadUrl(t, id, "pdf"));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe(`attachment; filename="CIS_Statement_${MONTH}_Download_Builders.pdf"`);
    expect(pdf.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(bytes).toEqual(await pdfBytes(t, id));

    await settings(t, { companyName: "Renamed Afterwards Ltd" });
    const html = await b.get(downloadUrl(t, id, "html"));
    expect(html.status).toBe(200);
    expect(html.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("Content-Disposition")).toBe(`attachment; filename="CIS_Statement_${MONTH}_Download_Builders.html"`);
    expect(html.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const body = await html.text();
    expect(body).toContain("CIS Payment and Deduction Statement");
    expect(body).toContain("Issuing Contractor Ltd");
    expect(body).not.toContain("Renamed Afterwards Ltd");
    for (const s of ["£1,700.50", "£240.10", "£1,460.40"]) {
      expect(body).toContain(s);
      expect(pdfText(bytes)).toContain(s);
    }
  });

  it("another tenant's statement, an unknown id and a bad format are refused", async () => {
    const { t, b } = await cisStaff("lead");
    await settings(t);
    const other = await cisTenant();
    await settings(other);
    const foreign = await statementFor(other);
    for (const format of ["pdf", "html"]) {
      const res = await b.get(downloadUrl(t, foreign.id, format));
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Statement not found");
      expect((await b.get(downloadUrl(t, "no-such-statement", format))).status).toBe(404);
    }
    // The foreign statement was not frozen by the attempt.
    expect(await count("cis_statement_documents", "statement_id = ?", foreign.id)).toBe(0);
    const mine = await statementFor(t);
    expect((await b.get(downloadUrl(t, mine.id, "docx"))).status).toBe(400);
  });

  it("needs a signed-in person with statement read access", async () => {
    const t = await cisTenant();
    await settings(t);
    const { id } = await statementFor(t);
    const anonymous = await new Browser().get(downloadUrl(t, id, "pdf"));
    expect(anonymous.status).toBe(302);
    expect(location(anonymous)).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("issuing a statement", () => {
  it("by print: issued with method print on the statement and its invoices, audited, then the printable view", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t);
    const { id } = await statementFor(t);
    const res = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "print" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/cis/statements/${id}/print`);

    const row = await statementRow(id);
    expect(row).toMatchObject({ status: "issued", issued_method: "print" });
    expect(row?.issued_at).toBeTypeOf("number");
    const invs = await invoiceRows(id);
    expect(invs).toHaveLength(2);
    for (const i of invs) expect(i).toEqual({ statement_issued_at: row?.issued_at, statement_issued_method: "print" });

    const audit = await env.DB.prepare("SELECT * FROM audit_events WHERE tenant_id = ? AND action = ? AND target_id = ?")
      .bind(t.id, STATEMENT_ISSUED_AUDIT, id)
      .all<{ actor_id: string; target_type: string; payload: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor_id: u.id, target_type: "statement" });
    expect(JSON.parse(audit.results[0]!.payload)).toMatchObject({ method: "print", taxMonth: MONTH, invoiceCount: 2 });
    const activity = await env.DB.prepare("SELECT * FROM activity_log WHERE tenant_id = ? AND action = 'statement.issue' AND entity_id = ?")
      .bind(t.id, id)
      .all<{ entity_type: string; details: string }>();
    expect(activity.results).toHaveLength(1);
    expect(activity.results[0]?.entity_type).toBe("statement");
    expect(JSON.parse(activity.results[0]!.details)).toMatchObject({ method: "print" });
    // Issuing froze the PDF.
    expect(row?.pdf_key).toBe(statementPdfKey(t.id, id));

    const print = await b.get(`${t.origin}/cis/statements/${id}/print`);
    expect(print.status).toBe(200);
    expect(print.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(print.headers.get("Content-Disposition")).toBeNull();
    const html = await print.text();
    expect(html).toContain("CIS Payment and Deduction Statement");
    expect(html).toContain("@media print");
    // The print dialog script runs under the page's CSP nonce.
    const nonce = /'nonce-([^']+)'/.exec(print.headers.get("Content-Security-Policy") ?? "")?.[1];
    const script = all(parseHtml(html), "script")[0];
    expect(script?.textContent).toContain("window.print()");
    if (nonce) expect(attr(script!, "nonce")).toBe(nonce);
    expect(html).toContain(`href="/cis/statements?month=${MONTH}"`);
  });

  it("by portal: back to returnTo with a toast; the default return is the statements page of its month", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t);
    const one = await statementFor(t, { name: "Portal Issue One" });
    const res = await b.post(issueUrl(t, one.id), { ...(await issueKey(t, u, one.id)), method: "portal", returnTo: "/cis/invoices" });
    expect(location(res)).toBe("/cis/invoices");
    expect(await statementRow(one.id)).toMatchObject({ status: "issued", issued_method: "portal" });
    for (const i of await invoiceRows(one.id)) expect(i.statement_issued_method).toBe("portal");
    const { doc } = await visit(b, `${t.origin}/cis/invoices`);
    expect(textOf(doc, "[data-toast-type]")).toContain("Statement issued to the portal");

    const two = await statementFor(t);
    expect(location(await b.post(issueUrl(t, two.id), { ...(await issueKey(t, u, two.id)), method: "portal" }))).toBe(`/cis/statements?month=${MONTH}`);
    const three = await statementFor(t);
    // Another origin is never a return address.
    expect(location(await b.post(issueUrl(t, three.id), { ...(await issueKey(t, u, three.id)), method: "portal", returnTo: "//evil.test/x" }))).toBe(
      `/cis/statements?month=${MONTH}`,
    );
  });

  it("by e-mail: from the tenant's address with its Reply-To, the stored PDF attached, in the dev mailbox", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t, { emailFrom: "statements@issuing.test", replyTo: "accounts@issuing.test" });
    const { id, sub } = await statementFor(t, { name: "Mailed Statements Ltd" });
    const res = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "email", returnTo: "/cis/invoices" });
    expect(location(res)).toBe("/cis/invoices");
    expect(textOf((await visit(b, `${t.origin}/cis/invoices`)).doc, "[data-toast-type]")).toContain("Statement issued by e-mail");
    expect(await statementRow(id)).toMatchObject({ status: "issued", issued_method: "email" });
    for (const i of await invoiceRows(id)) expect(i.statement_issued_method).toBe("email");
    const audit = await env.DB.prepare("SELECT payload FROM audit_events WHERE tenant_id = ? AND action = ? AND target_id = ?")
      .bind(t.id, STATEMENT_ISSUED_AUDIT, id)
      .first<{ payload: string }>();
    const payload = JSON.parse(audit!.payload);
    expect(payload.method).toBe("email");
    expect(payload.to).not.toBe(sub.email);

    const mail = await waitForMail(sub.email!);
    expect(mail.subject).toBe("CIS payment and deduction statement for 6 January to 5 February 2026 from Issuing Contractor Ltd");
    const row = await env.DB.prepare("SELECT from_address, reply_to, attachments FROM dev_mailbox WHERE to_address = ?")
      .bind(sub.email!.toLowerCase())
      .first<{ from_address: string; reply_to: string; attachments: string }>();
    expect(row?.from_address).toBe("statements@issuing.test");
    expect(row?.reply_to).toBe("accounts@issuing.test");
    const attachments = JSON.parse(row!.attachments) as { filename: string; contentType: string; base64: string }[];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ filename: `CIS_Statement_${MONTH}_Mailed_Statements_Ltd.pdf`, contentType: "application/pdf" });
    expect(base64ToBytes(attachments[0]!.base64)).toEqual(await pdfBytes(t, id));
    // The outbox holds the R2 key, not the file.
    const outbox = await env.DB.prepare("SELECT data FROM email_outbox WHERE tenant_id = ? AND template = 'cis.statement'")
      .bind(t.id)
      .first<{ data: string }>();
    expect(JSON.parse(outbox!.data).attachment.key).toBe(statementPdfKey(t.id, id));

    // The dev mailbox page lists the attachment.
    const mailbox = await new Browser().get(`http://localhost/dev/mailbox?to=${encodeURIComponent(sub.email!)}`);
    const files = all(await parsePage(mailbox), '[data-testid="mail-attachment"]');
    expect(files.map((f) => f.textContent)).toEqual([expect.stringContaining(`CIS_Statement_${MONTH}_Mailed_Statements_Ltd.pdf`)]);
  });

  it("by e-mail without a sender configured: the platform's default sender, no Reply-To", async () => {
    const t = await cisTenant();
    await settings(t);
    const { id, sub } = await statementFor(t);
    const res = await issueStatement(env, t, id, "email", actor);
    expect(res).toEqual({ ok: true, method: "email", to: sub.email });
    await waitForMail(sub.email!);
    const row = await env.DB.prepare("SELECT from_address, reply_to FROM dev_mailbox WHERE to_address = ?")
      .bind(sub.email!.toLowerCase())
      .first<{ from_address: string; reply_to: string | null }>();
    expect(row).toEqual({ from_address: env.EMAIL_FROM, reply_to: null });
  });

  it("by e-mail is refused when e-mailing statements is off, or the subcontractor has no e-mail; nothing changes", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t, { emailStatements: false });
    const { id } = await statementFor(t);
    const res = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "email", returnTo: "/cis/invoices" });
    expect(location(res)).toBe("/cis/invoices");
    expect(textOf((await visit(b, `${t.origin}/cis/invoices`)).doc, "[data-toast-type]")).toContain(
      "Failed to issue statement: E-mailing statements is switched off in CIS settings",
    );
    expect(await statementRow(id)).toMatchObject({ status: "generated", issued_method: null, issued_at: null });
    expect(await count("email_outbox", "tenant_id = ?", t.id)).toBe(0);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", t.id, STATEMENT_ISSUED_AUDIT)).toBe(0);

    await settings(t, { emailStatements: true });
    const noMail = await statementFor(t, {}, { email: false });
    expect(await issueStatement(env, t, noMail.id, "email", actor)).toEqual({ ok: false, code: "no_email" });
    expect(await statementRow(noMail.id)).toMatchObject({ status: "generated" });
    for (const i of await invoiceRows(noMail.id)) expect(i.statement_issued_at).toBeNull();
  });

  it("an issued statement is refused a second time, and no second e-mail goes out", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t);
    const { id } = await statementFor(t);
    expect(location(await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "email", returnTo: "/cis/invoices" }))).toBe("/cis/invoices");
    await visit(b, `${t.origin}/cis/invoices`);
    const before = await statementRow(id);
    for (const method of ["email", "print", "portal"]) {
      const again = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method, returnTo: "/cis/invoices" });
      expect(location(again)).toBe("/cis/invoices");
      expect(textOf((await visit(b, `${t.origin}/cis/invoices`)).doc, "[data-toast-type]")).toContain(
        "Failed to issue statement: Only a generated statement can be issued",
      );
    }
    expect(await statementRow(id)).toEqual(before);
    expect(await count("email_outbox", "tenant_id = ?", t.id)).toBe(1);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", t.id, STATEMENT_ISSUED_AUDIT)).toBe(1);
  });

  it("two concurrent issues: exactly one lands, with one audit entry and at most one e-mail", async () => {
    const t = await cisTenant();
    await settings(t);
    const { id } = await statementFor(t);
    await ensureStatementPdf(env, t.id, id);
    const results = await Promise.all([
      issueStatement(env, t, id, "email", actor),
      issueStatement(env, t, id, "print", actor),
      issueStatement(env, t, id, "email", actor),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toEqual({ ok: false, code: "already_issued" });
    const row = await statementRow(id);
    const winner = results.find((r) => r.ok);
    expect(row?.issued_method).toBe(winner?.ok && winner.method);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", t.id, STATEMENT_ISSUED_AUDIT)).toBe(1);
    expect(await count("activity_log", "tenant_id = ? AND action = 'statement.issue'", t.id)).toBe(1);
    expect(await count("email_outbox", "tenant_id = ?", t.id)).toBe(row?.issued_method === "email" ? 1 : 0);
  });

  it("needs cis.stmt.issue: a read-only person gets 403, the denial is audited, nothing changes", async () => {
    const { t, u, b } = await cisStaff("standard");
    await settings(t);
    const { id } = await statementFor(t);
    const res = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "print" });
    expect(res.status).toBe(403);
    expect(await count("audit_events", "tenant_id = ? AND action = 'cis.permission.denied' AND actor_id = ?", t.id, u.id)).toBe(1);
    expect(await statementRow(id)).toMatchObject({ status: "generated", issued_at: null });
    // Reading is allowed: the download works for the same person.
    expect((await b.get(downloadUrl(t, id, "pdf"))).status).toBe(200);
  });

  it("another tenant's statement is 404 and stays untouched; a GET is not an issue", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t);
    const other = await cisTenant();
    await settings(other);
    const foreign = await statementFor(other);
    for (const method of ["email", "portal", "print"]) {
      const res = await b.post(issueUrl(t, foreign.id), { ...(await issueKey(t, u, foreign.id)), method });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("Statement not found");
    }
    expect(await statementRow(foreign.id)).toMatchObject({ status: "generated", issued_at: null, pdf_key: null });
    expect(await count("cis_statement_documents", "statement_id = ?", foreign.id)).toBe(0);
    expect(await count("email_outbox", "tenant_id = ?", other.id)).toBe(0);
    expect((await b.get(`${t.origin}/cis/statements/${foreign.id}/print`)).status).toBe(404);
    const mine = await statementFor(t);
    expect((await b.get(issueUrl(t, mine.id))).status).toBe(404);
    expect(await statementRow(mine.id)).toMatchObject({ status: "generated" });
  });

  it("a cross-site form post is refused before it reaches the action", async () => {
    const { t, u, b } = await cisStaff("lead");
    await settings(t);
    const { id } = await statementFor(t);
    const res = await b.post(issueUrl(t, id), { ...(await issueKey(t, u, id)), method: "print" }, { origin: "http://evil.localhost" });
    expect(res.status).toBe(403);
    expect(await statementRow(id)).toMatchObject({ status: "generated" });
  });
});

// ---------------------------------------------------------------------------------------------
// Portal

/** Signs the subcontractor into the portal through a real invite link, as it arrives by e-mail. */
async function portalBrowser(t: TestTenant, staff: Browser, sub: { id: string; email: string | null }): Promise<Browser> {
  const { link } = await inviteByMail(t, staff, sub);
  const browser = new Browser();
  const signed = await browser.post(`${t.origin}/portal/auth`, { token: new URL(link).searchParams.get("token") ?? "" });
  expect(location(signed)).toBe("/portal");
  return browser;
}

describe("statements in the portal", () => {
  it("lists only the subcontractor's own issued statements, and their PDFs download; anyone else's are 404", async () => {
    const { t, b: staff } = await cisStaff("manager");
    await settings(t);
    const mine = await statementFor(t, { name: "Portal Owner Ltd" });
    const otherSub = await statementFor(t, { name: "Someone Else Ltd" });
    expect((await issueStatement(env, t, mine.id, "portal", actor)).ok).toBe(true);
    expect((await issueStatement(env, t, otherSub.id, "portal", actor)).ok).toBe(true);

    const portal = await portalBrowser(t, staff, mine.sub);
    const home = await portal.get(`${t.origin}/portal`);
    expect(home.status).toBe(200);
    // The middleware's batch, the portal session, then contractor and statements in one.
    expect(Number(/d1;desc="D1 queries";dur=(\d+)/.exec(home.headers.get("Server-Timing") ?? "")?.[1])).toBeLessThanOrEqual(3);
    const doc = await parsePage(home);
    const rows = all(doc, "[data-statement-id]");
    expect(rows.map((r) => r.getAttribute("data-statement-id"))).toEqual([mine.id]);
    expect(rows[0]?.textContent).toContain("6 January to 5 February 2026");
    expect(rows[0]?.textContent).toContain("£1,700.50");
    expect(rows[0]?.textContent).toContain("£240.10");
    const href = all(rows[0]!, "a")[0]?.getAttribute("href");
    expect(href).toBe(`/portal/statements/${mine.id}.pdf`);

    const pdf = await portal.get(`${t.origin}${href}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toBe(`attachment; filename="CIS_Statement_${MONTH}_Portal_Owner_Ltd.pdf"`);
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(await pdfBytes(t, mine.id));

    // Another subcontractor's statement of the same tenant.
    expect((await portal.get(`${t.origin}/portal/statements/${otherSub.id}.pdf`)).status).toBe(404);
    // Another tenant's, even with its id.
    const other = await cisTenant();
    await settings(other);
    const foreign = await statementFor(other);
    expect((await issueStatement(env, other, foreign.id, "portal", actor)).ok).toBe(true);
    expect((await portal.get(`${t.origin}/portal/statements/${foreign.id}.pdf`)).status).toBe(404);
    // Own but not issued yet.
    await invoices(t, mine.sub.id, [{ grossP: 10_000, materialsP: 0, date: "2026-02-10" }]);
    const next = await generateStatement(quietEnv(), t.id, mine.sub.id, "2026-02", actor);
    expect(next.ok).toBe(true);
    if (next.ok) expect((await portal.get(`${t.origin}/portal/statements/${next.id}.pdf`)).status).toBe(404);
    // Not a PDF name at all.
    expect((await portal.get(`${t.origin}/portal/statements/${mine.id}`)).status).toBe(404);
  });

  it("without a portal session the PDF is not served (the staff cookie does not count)", async () => {
    const { t, b: staff } = await cisStaff("manager");
    await settings(t);
    const { id } = await statementFor(t);
    expect((await issueStatement(env, t, id, "portal", actor)).ok).toBe(true);
    const res = await staff.get(`${t.origin}/portal/statements/${id}.pdf`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/portal/login");
    expect((await getStatement(env, t.id, id))?.status).toBe("issued");
  });
});

// ---------------------------------------------------------------------------------------------
// The e-mail's attachment at delivery

describe("statement e-mail delivery", () => {
  const data = (key: string) => ({
    contractorName: "Acme",
    subcontractorName: "Sam",
    period: "6 January to 5 February 2026",
    gross: "£1.00",
    cisDeduction: "£0.20",
    netPayment: "£0.80",
    from: null,
    replyTo: null,
    attachment: { key, filename: "CIS_Statement_2026-01_Sam.pdf" },
  });

  async function deliver(tenantId: string, key: string) {
    const { sent, queue } = recordingQueue();
    const to = newEmail("deliver");
    const { outboxId } = await queueEmail({ ...env, EMAIL: queue }, { tenantId, to, template: "cis.statement", data: data(key) });
    const result = await deliverMessages(
      "cis-workspace-email",
      sent.map((body) => ({ body })),
    );
    const row = await env.DB.prepare("SELECT status, error FROM email_outbox WHERE id = ?").bind(outboxId).first<{ status: string; error: string | null }>();
    return { result, row, mails: await count("dev_mailbox", "outbox_id = ?", outboxId) };
  }

  it("never attaches a file outside the sending tenant's own files, nor one that is gone: the e-mail fails for good", async () => {
    const t = await cisTenant();
    await settings(t);
    const other = await cisTenant();
    await settings(other);
    const foreign = await statementFor(other);
    const pdf = await ensureStatementPdf(env, other.id, foreign.id);
    expect(pdf.ok).toBe(true);

    const stolen = await deliver(t.id, statementPdfKey(other.id, foreign.id));
    expect(stolen.row).toEqual({ status: "failed", error: "attachment outside the tenant's files" });
    expect(stolen.mails).toBe(0);
    const sneaky = await deliver(t.id, `tenants/${t.id}/../${other.id}/cis/statements/${foreign.id}.pdf`);
    expect(sneaky.row?.status).toBe("failed");
    expect(sneaky.mails).toBe(0);
    const missing = await deliver(t.id, statementPdfKey(t.id, "gone"));
    expect(missing.row).toEqual({ status: "failed", error: "attachment not found" });
    expect(missing.mails).toBe(0);
  });

  it("the MIME message carries Reply-To and the PDF as a base64 attachment", () => {
    const mime = buildMime({
      outboxId: "o1",
      tenantId: "t1",
      to: "sam@example.test",
      from: "cis@acme.test",
      replyTo: "accounts@acme.test\r\nBcc: evil@example.test",
      subject: "Statement",
      text: "Hello",
      html: "<p>Hello</p>",
      attachments: [{ filename: "CIS_Statement_2026-01_Sam.pdf", contentType: "application/pdf", content: new TextEncoder().encode("%PDF-1.7 test") }],
    });
    expect(mime).toMatch(/^Reply-To: accounts@acme\.test Bcc: evil@example\.test\r$/m);
    expect(mime).not.toMatch(/^Bcc:/m);
    expect(mime).toContain("Content-Type: multipart/mixed;");
    expect(mime).toContain('Content-Disposition: attachment; filename="CIS_Statement_2026-01_Sam.pdf"');
    expect(mime).toContain(bytesToBase64(new TextEncoder().encode("%PDF-1.7 test")));
  });
});
