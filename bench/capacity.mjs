// `npm run capacity [-- --staff 40 --subcontractors 60 --invoices 300 --chat 2000 --years 5 --sample 2000 --json FILE]`
//
// A measured capacity model of one D1 database (issue 31, ADR 0064).
//
// 1. Builds the real schema: every file in migrations/ applied, in order, to a fresh SQLite file
//    (Node's built-in SQLite, the same engine family D1 runs, default 4,096-byte pages like D1).
//    Every table measured is the migrated one: a row maker whose columns drift from its table
//    fails the run (SQLite names the table and column).
// 2. Loads the demo seed (scripts/seed.ts) as the starting state, then measures each table's bytes
//    per row: --sample rows are inserted and the growth of the table and all its indexes is read
//    from SQLite's dbstat (allocated page bytes, so page overhead and free space count). Invoices
//    and subcontractors are the bench data of scripts/bench-data.ts (encrypted identifiers,
//    realistic names and amounts); other rows come from ROWS and FEATURE_ROWS below, shaped like
//    what the code writes (the audit payloads, the statement document, the sealed HMRC XML, a
//    note's HTML and plain text...). Tables filled by triggers (notes_fts) are measured while
//    the rows that fire them go in.
// 3. Multiplies by EVENTS (rows and writes per business event, read from the code paths) and the
//    tenant profile (CLI options) into bytes and writes per tenant per month, then prints the
//    number of such tenants at which one database reaches D1's size limit and its sustained write
//    rate. D1_LIMITS says where each limit comes from.
//
// Writes a Markdown summary to stdout (for an issue note) and, with --json FILE, the figures.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { ensureDevVars } from "../scripts/setup-local.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * D1's limits as documented (checked 2026-11-27). Decimal gigabytes: the smaller reading of "10 GB".
 * - Size, account storage, databases per account, queries per invocation: "Limits", D1 docs,
 *   https://developers.cloudflare.com/d1/platform/limits/ (page last updated 2026-04-21). One copy
 *   of that page says 50,000 databases per account (Workers Paid), a later one 1,000,000 with the
 *   first 100,000 included: both are far above what this model needs.
 * - Throughput: same page, FAQ "How much work can a D1 database do?" (partial
 *   src/content/partials/d1/faq-limits.mdx in cloudflare/cloudflare-docs): each database is
 *   single-threaded and runs one query at a time; at 1 ms a query about 1,000 queries per second,
 *   at 100 ms 10. The 10 GB per database "cannot be further increased".
 * - Rows written count index rows too ("Indexes will add an additional written row when writes
 *   include the indexed column"), D1 pricing page.
 */
export const D1_LIMITS = {
  maxDatabaseBytes: 10e9,
  maxAccountStorageBytes: 1e12,
  databasesPerAccount: "50,000 (Workers Paid; a later copy of the page: 1,000,000, first 100,000 included)",
  queriesPerInvocation: 1000,
  queriesPerSecondAt1ms: 1000,
  source: "https://developers.cloudflare.com/d1/platform/limits/ (limits table and FAQ), checked 2026-11-27",
};

// ---------------------------------------------------------------------------------------------
// Options

const DEFAULTS = {
  staff: 40,
  subcontractors: 60,
  invoices: 300, // a month
  statements: null, // a month; default: one per subcontractor
  files: 60, // uploads a month
  downloads: 300, // a month (each download is audited)
  notes: 80, // new notes a month
  noteSaves: 4, // saves per note (each a version)
  events: 120, // calendar events a month
  chat: 2000, // chat messages a month
  years: 5, // kept
  workingDays: 21, // a month
  activeHours: 6, // a person's signed-in hours on a working day
  peak: 4, // busiest hour / average working hour
  queryMs: 1, // mean D1 write query time
  writeShare: 0.5, // share of the database's single thread writes may take (reads need the rest)
  fill: 0.8, // plan a database to this share of its size limit
  sample: 2000, // rows inserted per table to measure bytes per row
  json: null,
  keep: null, // keep the measured SQLite file here
};

function parseArgs(argv) {
  const opts = { ...DEFAULTS };
  if (argv.includes("--help")) {
    console.log(
      `npm run capacity -- [--name value ...]\n${Object.entries(DEFAULTS)
        .map(([k, v]) => `  --${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} (${v ?? "none"})`)
        .join("\n")}`,
    );
    process.exit(0);
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`Unknown argument ${a}`);
    const key = m[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(key in DEFAULTS)) throw new Error(`Unknown option --${m[1]} (known: ${Object.keys(DEFAULTS).join(", ")})`);
    const raw = m[2] ?? argv[++i];
    if (raw === undefined) throw new Error(`--${m[1]} needs a value`);
    if (key === "json" || key === "keep") opts[key] = raw;
    else {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) throw new Error(`--${m[1]} needs a number, not ${raw}`);
      opts[key] = n;
    }
  }
  opts.statements ??= opts.subcontractors;
  if (opts.sample < 200) throw new Error("--sample must be at least 200 rows (page granularity)");
  return opts;
}

// ---------------------------------------------------------------------------------------------
// Row shapes

/** A seeded PRNG so two runs measure the same rows. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const WORDS =
    "site delivery scaffold roof brickwork snagging drainage groundworks plaster first fix second fix handover inspection toolbox talk crane concrete pour steel frame timber joists insulation render windows electrics plumbing permit variation valuation retention".split(
      " ",
    );
  const g = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    /** newId(): 16 random bytes, base64url (22 characters), like app/utils/ids.ts. */
    hex: (n) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join(""),
    id: (bytes = 16) => Array.from({ length: Math.ceil((bytes * 4) / 3) }, () => B64[Math.floor(next() * 64)]).join(""),
    /** Ciphertext as the app stores it (version prefix, IV and tag, base64url): random, incompressible. */
    sealed: (plainBytes) => `v1.${g.id(12 + plainBytes + 16)}`,
    words: (n) => Array.from({ length: n }, () => g.pick(WORDS)).join(" "),
    sentence: (lo, hi) => {
      const s = g.words(g.int(lo, hi));
      return s[0].toUpperCase() + s.slice(1) + ".";
    },
    at: () => 1_764_000_000_000 + g.int(0, 150 * 86_400_000),
    day: () => `2026-${String(g.int(1, 12)).padStart(2, "0")}-${String(g.int(1, 28)).padStart(2, "0")}`,
    month: () => `2026-${String(g.int(1, 12)).padStart(2, "0")}`,
    name: () =>
      `${g.pick(["Amir", "Beth", "Callum", "Dylan", "Ewa", "Fatima", "Gareth", "Hannah", "Imran", "Jo"])} ${g.pick(["Khan", "Lewis", "Murphy", "Nowak", "O'Brien", "Patel", "Quinn", "Roberts", "Smith", "Taylor"])}`,
    email: () =>
      `${g.pick(["accounts", "jo.smith", "office", "site.manager", "payroll"])}@${g.pick(["smithgroundworks", "northernroofing", "patel-build", "qbrick"])}.co.uk`,
  };
  return g;
}

/** The tenant every sampled row belongs to (a realistic id length), and its people. */
const T = { tenantId: "tnt_capacity_model_01", users: Array.from({ length: 40 }, (_, i) => `usr_capacity_${String(i).padStart(3, "0")}_model`) };

const AUDIT_SAMPLES = [
  (g) => ({
    action: "cis.invoice.created",
    targetType: "invoice",
    payload: { source: "staff", subcontractorId: g.id(), grossP: g.int(10_000, 900_000), cisDeductionP: g.int(0, 180_000) },
  }),
  () => ({ action: "cis.invoice.approved", targetType: "invoice", payload: { status: "approved", verificationStatus: "standard", cisRate: 20 } }),
  (g) => ({ action: "cis.invoice.paid", targetType: "invoice", payload: { paymentDate: g.day(), taxMonth: g.month() } }),
  (g) => ({ action: "cis.invoice.emailed", targetType: "invoice", payload: { to: g.email(), outboxId: g.id() } }),
  (g) => ({ action: "cis.statement.generated", targetType: "statement", payload: { taxMonth: g.month(), invoiceCount: g.int(1, 8), subcontractorId: g.id() } }),
  () => ({ action: "auth.login.success", targetType: "user", payload: {} }),
  (g) => ({ action: "files.file.uploaded", targetType: "file", payload: { name: `${g.words(3)}.pdf`, size: g.int(20_000, 4_000_000), version: 1 } }),
  () => ({ action: "files.file.downloaded", targetType: "file", payload: { version: 1 } }),
];

/**
 * Row makers for the tables the model measures (besides invoices and subcontractors, which are
 * the bench data). Each returns one row as its table's columns; what is null in practice is left
 * out. Shapes follow the code that writes them.
 */
const ROWS = {
  audit_events: (g) => {
    const a = g.pick(AUDIT_SAMPLES)(g);
    return {
      id: g.id(),
      tenant_id: T.tenantId,
      actor_id: g.pick(T.users),
      actor_email: g.email(),
      action: a.action,
      target_type: a.targetType,
      target_id: g.id(),
      payload: JSON.stringify(a.payload),
      ip: `81.${g.int(1, 254)}.${g.int(1, 254)}.${g.int(1, 254)}`,
      created_at: g.at(),
    };
  },
  activity_log: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    module: g.pick(["cis", "files"]),
    action: g.pick(["invoice.created", "file.uploaded", "return.submitted"]),
    entity_type: g.pick(["invoice", "file"]),
    entity_id: g.id(),
    performed_by: g.pick(T.users),
    performed_by_name: g.name(),
    details: JSON.stringify({ invoiceNumber: `INV-${g.int(1000, 99999)}`, subcontractorName: `${g.name()} Ltd` }),
    performed_at: g.at(),
  }),
  email_outbox: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    idempotency_key: `invoice-copy:${g.id()}`,
    template: g.pick(["invoice_copy", "statement_issued", "portal_link"]),
    to_address: g.email(),
    data: JSON.stringify({ scrubbed: true }),
    status: "sent",
    attempts: 1,
    transport: "cloudflare",
    created_at: g.at(),
    sent_at: g.at(),
  }),
  jobs: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    type: g.pick(["statements.generate", "hmrc.send", "hmrc.poll"]),
    inputs: JSON.stringify({ taxMonth: g.month(), subcontractorIds: [g.id(), g.id(), g.id()] }),
    status: "done",
    progress: 100,
    result: JSON.stringify({ generated: g.int(1, 60), skipped: 0 }),
    attempts: 1,
    idempotency_key: `statements:${g.month()}:${g.id()}`,
    performed_by: g.pick(T.users),
    created_at: g.at(),
    started_at: g.at(),
    claim_id: g.id(),
    finished_at: g.at(),
    updated_at: g.at(),
  }),
  notifications: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    target_user_id: g.pick(T.users),
    type: g.pick(["chat.mention", "file.shared", "cis.deadline"]),
    title: g.sentence(3, 6),
    message: g.sentence(6, 14),
    link: `/chat/${g.id()}`,
    subject_type: "chat_message",
    subject_id: g.hex(32),
    from_user_id: g.pick(T.users),
    read: g.chance(0.7) ? 1 : 0,
    created_at: g.at(),
  }),
  cis_statements: (g) => ({
    tenant_id: T.tenantId,
    id: g.id(),
    subcontractor_id: g.id(),
    subcontractor_name: `${g.name()} Groundworks Ltd`,
    utr_masked: `******${g.int(1000, 9999)}`,
    tax_month: g.month(),
    invoice_ids: JSON.stringify(Array.from({ length: 5 }, () => g.id())),
    invoice_count: 5,
    gross_p: g.int(100_000, 2_000_000),
    materials_p: g.int(0, 300_000),
    labour_p: g.int(100_000, 1_700_000),
    cis_deduction_p: g.int(20_000, 400_000),
    status: "issued",
    generated_at: g.at(),
    generated_by: g.pick(T.users),
    issued_at: g.at(),
    issued_method: "email",
    pdf_key: `tenants/${T.tenantId}/cis/statements/${g.id()}.pdf`,
    email_outbox_id: g.id(),
    created_at: g.at(),
    updated_at: g.at(),
  }),
  cis_statement_documents: (g) => {
    const invoices = Array.from({ length: 5 }, () => ({
      invoiceNumber: `INV-${g.int(1000, 99999)}`,
      paymentDate: g.day(),
      grossP: g.int(10_000, 400_000),
      materialsP: g.int(0, 60_000),
      cisDeductionP: g.int(2_000, 80_000),
    }));
    const document = {
      contractor: { name: "Acme Construction Ltd", employerRef: "123/AB45678", address: "Unit 4, Riverside Park\nLeeds\nLS1 4AB", logo: null },
      subcontractor: { name: `${g.name()} Groundworks Ltd`, verificationNumber: `V${g.int(1e9, 9e9)}AB`, cisRate: 20 },
      taxMonth: g.month(),
      statementDate: g.day(),
      invoices,
      totals: { grossP: 1, materialsP: 1, labourP: 1, cisDeductionP: 1 },
      footer: "Acme Construction Ltd, Unit 4, Riverside Park, Leeds LS1 4AB. Registered in England 01234567.",
    };
    return { tenant_id: T.tenantId, statement_id: g.id(), document: JSON.stringify(document), utr_enc: g.sealed(10), created_at: g.at() };
  },
  cis_returns: (g) => ({
    tenant_id: T.tenantId,
    id: `${g.month()}-${g.id(6)}`,
    tax_month: `${g.int(2000, 9999)}-${g.id(4)}`,
    status: "accepted",
    subcontractor_count: 60,
    invoice_count: 300,
    gross_p: g.int(1e6, 5e7),
    materials_p: g.int(1e5, 5e6),
    cis_deducted_p: g.int(1e5, 1e7),
    filing_deadline: g.at(),
    payment_deadline: g.at(),
    statements_deadline: g.at(),
    issues: "[]",
    locked: 1,
    locked_at: g.at(),
    compiled_by: g.pick(T.users),
    compiled_at: g.at(),
    compile_id: g.id(),
    submitted_at: g.at(),
    submitted_by: g.pick(T.users),
    submission_ref: g.id(),
    irmark: `${g.id(20)}=`,
    created_at: g.at(),
    updated_at: g.at(),
    updated_by: g.pick(T.users),
  }),
  cis_return_lines: (g, i) => ({
    tenant_id: T.tenantId,
    return_id: `2026-${String(Math.floor(i / 60)).padStart(6, "0")}`,
    position: i % 60,
    subcontractor_id: g.id(),
    name: `${g.name()} Groundworks Ltd`,
    utr_masked: `******${g.int(1000, 9999)}`,
    nino_masked: g.chance(0.5) ? `******${g.int(10, 99)}A` : null,
    gross_p: g.int(10_000, 900_000),
    materials_p: g.int(0, 100_000),
    cis_deducted_p: g.int(0, 180_000),
    cis_rate: 20,
    invoice_count: g.int(1, 8),
    verification_ref: `V${g.int(1e9, 9e9)}AB`,
    statements_issued: 1,
    last_statement_date: g.at(),
  }),
  hmrc_submissions: (g) => {
    // A CIS300 for 60 subcontractors: the envelope (~2.4 KB) and ~420 bytes a subcontractor, sealed.
    const xmlBytes = 2_450 + 60 * 420;
    return {
      id: g.id(),
      tenant_id: T.tenantId,
      kind: "cis300",
      subject_ids: JSON.stringify([g.month()]),
      subject_key: `cis300:${g.month()}:${g.id(6)}`,
      active_key: null,
      status: "accepted",
      transport: "live",
      message_class: "IR-CIS-CIS300MR",
      request_xml: g.sealed(xmlBytes),
      irmark: `${g.id(20)}=`,
      correlation_id: g.id(16).toUpperCase(),
      response_endpoint: "https://transaction-engine.tax.service.gov.uk/poll",
      poll_interval_seconds: 10,
      poll_count: 2,
      attempts: 1,
      sent_at: g.at(),
      acknowledged_at: g.at(),
      response_xml: g.sealed(1_800),
      receipt: "HMRC has received the CIS300 return. Your correlation ID is shown below.",
      receipt_irmark: g.id(32).toUpperCase(),
      result_token: g.id(),
      finished_at: g.at(),
      created_by: g.pick(T.users),
      created_by_email: g.email(),
      created_at: g.at(),
      updated_at: g.at(),
    };
  },
  files: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    name: `${g.words(3)} ${g.day()}.pdf`,
    size: g.int(20_000, 4_000_000),
    stored_bytes: g.int(20_000, 8_000_000),
    mime_type: "application/pdf",
    category: "documents",
    storage_key: `tenants/${T.tenantId}/files/${g.id()}/v1`,
    version: 1,
    visibility: g.pick(["private", "team", "public"]),
    folder_id: g.id(),
    owner_id: g.pick(T.users),
    owner_email: g.email(),
    owner_name: g.name(),
    created_at: g.at(),
    updated_at: g.at(),
  }),
  file_versions: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    file_id: g.id(),
    version: 1,
    storage_key: `tenants/${T.tenantId}/files/${g.id()}/v1`,
    size: g.int(20_000, 4_000_000),
    mime_type: "application/pdf",
    type: "original",
    created_by: g.pick(T.users),
    created_at: g.at(),
  }),
  storage_daily: (g, i) => ({
    tenant_id: `${T.tenantId}_${Math.floor(i / 365)}`,
    day: `d${String(i % 365).padStart(4, "0")}-${g.id(3)}`,
    bytes_added: g.int(0, 5e7),
    bytes_removed: 0,
    uploads: g.int(1, 9),
    shared: 0,
    deleted: 0,
  }),
  storage_usage: (g) => ({
    tenant_id: `tnt_${g.id()}`,
    tier: "professional",
    used_bytes: g.int(1e8, 5e10),
    file_count: g.int(100, 20_000),
    category_bytes: JSON.stringify({ documents: g.int(1e8, 4e10), images: g.int(1e7, 1e10), signatures: g.int(1e5, 1e7) }),
    last_calculated: g.at(),
    created_at: g.at(),
    updated_at: g.at(),
  }),
  sessions: (g) => ({
    id_hash: g.id(32),
    kind: "staff",
    tenant_id: T.tenantId,
    user_id: g.pick(T.users),
    created_at: g.at(),
    last_seen_at: g.at(),
    idle_expires_at: g.at(),
    absolute_expires_at: g.at(),
    ip: `81.${g.int(1, 254)}.${g.int(1, 254)}.${g.int(1, 254)}`,
  }),
  users: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    email: `${g.id(6)}.${g.email()}`,
    display_name: g.name(),
    first_name: "Jo",
    last_name: "Smith",
    role: "standard",
    theme_preference: "system",
    user_status: "active",
    password_hash: `pbkdf2-sha256$600000$${g.id(16)}$${g.id(32)}`,
    password_changed_at: g.at(),
    created_at: g.at(),
    updated_at: g.at(),
  }),
};

/** A note's text: a site meeting write-up, ~1 KB of plain text as ~1.4 KB of sanitised HTML. */
function noteBody(g) {
  const paras = Array.from({ length: 6 }, () => g.sentence(12, 24));
  return { content: paras.map((p) => `<p>${p}</p>`).join(""), text: paras.join("\n") };
}

/** A membership row (team, site, calendar): the group's id and one person. */
const member = (column) => (g) => ({ tenant_id: T.tenantId, [column]: g.id(), user_id: g.pick(T.users) });

/**
 * Row makers for the notes, schedule and chat tables (app/db/schema/notes.ts, schedule.ts,
 * chat.ts), shaped like what their code writes. Inserting a note also fills `notes_fts` through
 * the trigger of its migration, so the search index is measured as the growth of `notes_fts`
 * while notes are inserted (TRIGGERED), never inserted on its own.
 */
const FEATURE_ROWS = {
  notes: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    title: `Site meeting ${g.day()} ${g.words(2)}`,
    ...noteBody(g),
    tags: JSON.stringify([g.pick(["safety", "snagging", "meeting"]), g.pick(["plot-4", "phase-2", "north-site"])]),
    color: g.chance(0.3) ? "#64748B" : null,
    folder_id: g.chance(0.5) ? g.id() : null,
    is_pinned: g.chance(0.1) ? 1 : 0,
    is_favorite: g.chance(0.1) ? 1 : 0,
    owner_id: g.pick(T.users),
    updated_by: g.pick(T.users),
    version: 4,
    created_at: g.at(),
    updated_at: g.at(),
  }),
  note_versions: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    note_id: g.id(),
    version: g.int(1, 50),
    title: `Site meeting ${g.day()} ${g.words(2)}`,
    content: noteBody(g).content,
    tags: JSON.stringify([g.pick(["safety", "snagging", "meeting"]), g.pick(["plot-4", "phase-2", "north-site"])]),
    edited_by: g.pick(T.users),
    created_at: g.at(),
  }),
  note_folders: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    name: `${g.words(2)}`,
    color: "#3B82F6",
    created_by: g.pick(T.users),
    created_at: g.at(),
    updated_at: g.at(),
  }),
  note_preferences: (g, i) => ({ tenant_id: T.tenantId, user_id: `${g.pick(T.users)}_${i}`, view_mode: "grid", updated_at: g.at() }),
  events: (g) => {
    const start = g.at();
    const repeats = g.chance(0.2);
    return {
      id: g.id(),
      tenant_id: T.tenantId,
      title: `${g.pick(["Delivery", "Shift", "Toolbox talk", "Inspection"])}: ${g.words(3)}`,
      start_utc: start,
      end_utc: start + 3_600_000,
      type: g.pick(["shift", "task", "delivery", "training", "meeting"]),
      status: g.pick(["green", "amber", "red"]),
      visibility: "users",
      calendar_id: g.chance(0.6) ? g.id() : null,
      shared_all: 0,
      rrule: repeats ? "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12" : null,
      repeat_until: repeats ? start + 28 * 86_400_000 : null,
      created_by: g.pick(T.users),
      created_at: g.at(),
      updated_at: g.at(),
    };
  },
  event_shares: (g) => ({ tenant_id: T.tenantId, event_id: g.id(), user_id: g.pick(T.users) }),
  event_teams: (g) => ({ tenant_id: T.tenantId, event_id: g.id(), team_id: g.id() }),
  calendars: (g) => ({
    id: g.id(),
    tenant_id: T.tenantId,
    name: `${g.words(2)} crew`,
    color: "#3B82F6",
    type: g.pick(["team", "project", "resource"]),
    archived: 0,
    created_by: g.pick(T.users),
    created_at: g.at(),
    updated_at: g.at(),
  }),
  calendar_members: member("calendar_id"),
  teams: (g, i) => ({ id: g.id(), tenant_id: T.tenantId, name: `${g.words(2)} gang ${i}`, created_at: g.at() }),
  team_members: member("team_id"),
  sites: (g, i) => ({ id: g.id(), tenant_id: T.tenantId, name: `${g.pick(["Plot 4", "Riverside Park", "Depot"])} ${i}`, created_at: g.at() }),
  site_members: member("site_id"),
  schedule_prefs: (g, i) => ({ tenant_id: T.tenantId, user_id: `${g.pick(T.users)}_${i}`, last_view: "month", updated_at: g.at() }),
  // Work chat on phones: mostly short ("on my way", "delivery's here, gate 2"), some longer. The
  // id is 32 hex characters derived from room, sender and client id; the client id is a UUID.
  chat_messages: (g) => ({
    id: g.hex(32),
    tenant_id: T.tenantId,
    room_id: g.id(),
    sender_id: g.pick(T.users),
    client_id: `${g.hex(8)}-${g.hex(4)}-4${g.hex(3)}-${g.hex(4)}-${g.hex(12)}`,
    text: g.chance(0.8) ? g.sentence(3, 10) : g.sentence(20, 45),
    created_at: g.at(),
  }),
  chat_rooms: (g) => {
    const direct = g.chance(0.8);
    return {
      id: g.id(),
      tenant_id: T.tenantId,
      kind: direct ? "direct" : "group",
      name: direct ? null : `${g.words(2)} team`,
      everyone: 0,
      direct_key: direct ? [g.id(), g.id()].sort().join(":") : null,
      created_by: g.pick(T.users),
      created_at: g.at(),
      last_activity_at: g.at(),
    };
  },
  chat_members: (g) => ({ tenant_id: T.tenantId, room_id: g.id(), user_id: g.pick(T.users), role: "member", last_read_at: g.at(), joined_at: g.at() }),
};

/** Tables a measured table's triggers write: their growth is read while the table's rows go in. */
const TRIGGERED = { notes: ["notes_fts"] };

// ---------------------------------------------------------------------------------------------
// Business events: rows kept, rows held a while, and the writes behind them

/**
 * Rows and writes per business event, from the code paths that perform it. `kept`: rows that stay
 * for the retention period. `held`: rows purged on a schedule (e-mail outbox and finished jobs
 * after 30 days, sessions at expiry), counted at one month's worth. `writes`: write statements,
 * each { table, n (statements), rows (rows each), ix (index entries changed per row: "all" for an
 * insert or delete, a number for an update), trigger (rows a trigger writes: counted as rows
 * written, not as statements) }. `batches`: D1 round trips that write.
 */

function events(p) {
  return [...cisEvents(p), ...otherEvents(p), ...featureEvents(p)];
}

const inserts = (table, n, rows = 1) => ({ table, n, rows, ix: "all" });
const updates = (table, n, ix, rows = 1) => ({ table, n, rows, ix });

/** An invoice, a statement, a month's return. */
function cisEvents(p) {
  const perStatement = p.invoices / Math.max(1, p.statements);
  return [
    {
      key: "invoice",
      label: "Invoice: created, approved, paid (a copy e-mailed 1 in 3)",
      perMonth: p.invoices,
      kept: { cis_invoices: 1, audit_events: 3 + 1 / 3, activity_log: 1 },
      held: { email_outbox: 1 / 3 },
      // create: invoice + audit + activity; approve and pay: conditional UPDATE + audit-if-changed
      // each (status, tax month and statement flags sit in 5 of the invoice's 7 indexes);
      // e-mailed copy: outbox row + audit, then the consumer marks it sent.
      writes: [
        inserts("cis_invoices", 1),
        inserts("audit_events", 3 + 1 / 3),
        inserts("activity_log", 1),
        updates("cis_invoices", 2, 5),
        inserts("email_outbox", 1 / 3),
        updates("email_outbox", 1 / 3, 0),
      ],
      batches: 3 + 2 / 3,
    },
    {
      key: "statement",
      label: `Statement: generated, PDF frozen, issued by e-mail (${perStatement.toFixed(1)} invoices each)`,
      perMonth: p.statements,
      kept: { cis_statements: 1, cis_statement_documents: 1, audit_events: 2 },
      held: { email_outbox: 1, jobs: 1 / Math.max(1, p.statements) },
      writes: [
        inserts("cis_statements", 1),
        updates("cis_invoices", 1, 2, perStatement),
        inserts("audit_events", 2),
        inserts("cis_statement_documents", 1),
        updates("cis_statements", 2, 0),
        updates("cis_invoices", 1, 1, perStatement),
        inserts("email_outbox", 1),
        updates("email_outbox", 1, 0),
        inserts("jobs", 1 / Math.max(1, p.statements)),
        updates("jobs", 3 / Math.max(1, p.statements), 1),
      ],
      batches: 4,
    },
    {
      key: "return",
      label: `CIS300 return: compiled twice, submitted, accepted (${p.statements} lines)`,
      perMonth: 1,
      kept: { cis_returns: 1, cis_return_lines: p.statements, audit_events: 3, hmrc_submissions: 1, activity_log: 1 },
      held: { jobs: 2 },
      // Each compile rewrites the lines (delete + insert-select); submission: the HMRC message
      // row, its send, poll and result updates; the return's lock and result.
      writes: [
        inserts("cis_returns", 1),
        { table: "cis_return_lines", n: 2, rows: p.statements, ix: "all" },
        { table: "cis_return_lines", n: 1, rows: p.statements, ix: "all" },
        updates("cis_returns", 3, 1),
        inserts("audit_events", 3),
        inserts("hmrc_submissions", 1),
        updates("hmrc_submissions", 3, 1),
        inserts("activity_log", 1),
        inserts("jobs", 2),
        updates("jobs", 6, 1),
      ],
      batches: 9,
    },
  ];
}

/** Files, downloads and a person's working day (sign-in and session touches). */
function otherEvents(p) {
  return [
    {
      key: "file",
      label: "File uploaded (metadata only; the bytes are in R2)",
      perMonth: p.files,
      kept: { files: 1, file_versions: 1, audit_events: 1, activity_log: 1, storage_daily: Math.min(1, p.workingDays / Math.max(1, p.files)) },
      held: {},
      // Reservation in and out, the file and its version, audit, activity, usage and the day's counters.
      writes: [
        inserts("storage_reservations", 1),
        inserts("files", 1),
        inserts("file_versions", 1),
        inserts("audit_events", 1),
        inserts("activity_log", 1),
        updates("storage_usage", 1, 0),
        inserts("storage_daily", 1),
        { table: "storage_reservations", n: 1, rows: 1, ix: "all" },
      ],
      batches: 3,
    },
    {
      key: "download",
      label: "File downloaded (audited)",
      perMonth: p.downloads,
      kept: { audit_events: 1 },
      held: {},
      writes: [inserts("audit_events", 1)],
      batches: 1,
    },
    {
      key: "workday",
      label: `A person's working day: sign-in, then the session touched every 5 minutes for ${p.activeHours} h`,
      perMonth: p.staff * p.workingDays,
      kept: { audit_events: 1 },
      held: { sessions: 1 },
      writes: [inserts("sessions", 1), inserts("audit_events", 1), updates("sessions", p.activeHours * 12, 0)],
      batches: 2 + p.activeHours * 12,
    },
  ];
}

/** Notes, calendar events and chat messages, as notes.server.ts, events.server.ts and chat.server.ts write them. */
function featureEvents(p) {
  const edits = Math.max(0, p.noteSaves - 1);
  const reads = 0.5; // read marks a message: a recipient watching the room marks it read (at most one each 2 s)
  return [
    {
      key: "note",
      label: `Note: created, then saved ${p.noteSaves} times in all, a version each`,
      perMonth: p.notes,
      kept: { notes: 1, notes_fts: 1, note_versions: Math.min(p.noteSaves, 50), audit_events: p.noteSaves },
      held: {},
      // Create: note + version 1 + audit (the FTS trigger inserts the index row). Each later save:
      // the UPDATE checked on the version (updated_at and folder_id sit in 3 of its 4 indexes), the
      // version row and audit entry if it landed, the delete of versions past the newest 50 (none
      // until then); the FTS trigger deletes and re-inserts the note's index row.
      writes: [
        inserts("notes", 1),
        updates("notes", edits, 3),
        inserts("note_versions", p.noteSaves),
        { table: "note_versions", n: edits, rows: edits ? Math.max(0, p.noteSaves - 50) / edits : 0, ix: "all" },
        inserts("audit_events", p.noteSaves),
        { table: "notes_fts", n: 1 + 2 * edits, rows: 1, ix: "all", trigger: true },
      ],
      batches: p.noteSaves,
    },
    {
      key: "event",
      label: "Calendar event: shared with 2 named people, edited once in 2",
      perMonth: p.events,
      kept: { events: 1, event_shares: 2, audit_events: 1.5 },
      held: {},
      // Create and edit alike: the event (an edit rewrites its times and calendar: all 4 indexes),
      // its sharing replaced (delete shares and teams, insert the shares, set site and shared_all),
      // audit.
      writes: [
        inserts("events", 1),
        updates("events", 0.5, 4),
        updates("events", 1.5, 0),
        { table: "event_shares", n: 1, rows: 0, ix: "all" },
        { table: "event_shares", n: 0.5, rows: 2, ix: "all" },
        { table: "event_teams", n: 1.5, rows: 0, ix: "all" },
        inserts("event_shares", 1.5, 2),
        inserts("audit_events", 1.5),
      ],
      batches: 1.5,
    },
    {
      key: "chat",
      label: `Chat message: stored by the room's Durable Object, the room's activity time, ${reads} read marks, 1 in 20 mentions someone`,
      perMonth: p.chat,
      kept: { chat_messages: 1, notifications: 0.05 },
      held: {},
      // A read mark: the member's read time, and the conditional insert of a first read in an
      // Everyone group (writes nothing for a member), in its own round trip.
      writes: [
        inserts("chat_messages", 1),
        updates("chat_rooms", 1, 0),
        inserts("notifications", 0.05),
        updates("chat_members", reads, 0),
        { table: "chat_members", n: reads, rows: 0, ix: "all" },
      ],
      batches: 1 + reads,
    },
  ];
}

/** One-off rows of a tenant of this profile (its people, its subcontractors, its settings). */
function baseline(p) {
  return {
    tenants: 1,
    users: p.staff,
    cis_subcontractors: p.subcontractors,
    role_bundles: 5,
    tenant_modules: 6,
    cis_settings: 1,
    storage_usage: 1,
    // Assumed: a direct chat a person and 6 groups of 8 (plus each person's read time in the
    // Everyone group); a gang of 8 a team; 6 sites, a person on 1.5; 4 calendars of 10; 10 note folders.
    chat_rooms: p.staff + 6,
    chat_members: 3 * p.staff + 48,
    teams: Math.ceil(p.staff / 8),
    team_members: p.staff,
    sites: 6,
    site_members: 1.5 * p.staff,
    calendars: 4,
    calendar_members: 40,
    schedule_prefs: p.staff,
    note_preferences: p.staff,
    note_folders: 10,
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

function migrate(db) {
  const files = readdirSync(path.join(ROOT, "migrations"))
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
  for (const f of files) db.exec(readFileSync(path.join(ROOT, "migrations", f), "utf8"));
  return files.length;
}

const countOf = (db, t) => db.prepare(`SELECT count(*) AS n FROM "${t}"`).get().n;

/**
 * Allocated bytes per table: the table's own pages plus its indexes' (indexBytes); an FTS5
 * table's shadow tables (its index, doc sizes, config) count as its index.
 */
function sizes(db) {
  const kind = new Map();
  const owner = new Map();
  for (const r of db.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").all()) {
    kind.set(r.name, r.type);
    owner.set(r.name, r.tbl_name);
  }
  const virtual = new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
      .all()
      .map((r) => r.name),
  );
  const out = new Map();
  for (const r of db.prepare("SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload FROM dbstat GROUP BY name").all()) {
    const shadowOf = [...virtual].find((v) => r.name.startsWith(`${v}_`));
    const table = shadowOf ?? owner.get(r.name) ?? r.name;
    const t = out.get(table) ?? { bytes: 0, indexBytes: 0, payload: 0 };
    t.bytes += r.bytes;
    t.payload += r.payload;
    if (shadowOf || kind.get(r.name) === "index") t.indexBytes += r.bytes;
    out.set(table, t);
  }
  return out;
}

function indexCount(db, table) {
  return db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").get(table).n;
}

function insertRows(db, table, rows) {
  const cols = Object.keys(rows[0]);
  const stmt = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
  db.exec("BEGIN");
  const t0 = process.hrtime.bigint();
  for (const r of rows) stmt.run(...cols.map((c) => (r[c] === undefined ? null : r[c])));
  const ns = Number(process.hrtime.bigint() - t0);
  db.exec("COMMIT");
  return ns;
}

/**
 * Inserts `rows` into `table` and reads the growth of the table and of the tables its triggers
 * write (TRIGGERED), per inserted row. Insert time is the table's, triggers included.
 */
function measure(db, table, rows) {
  const tables = [table, ...(TRIGGERED[table] ?? [])];
  const empty = { bytes: 0, indexBytes: 0, payload: 0 };
  const before = sizes(db);
  const ns = insertRows(db, table, rows);
  const after = sizes(db);
  const n = rows.length;
  return Object.fromEntries(
    tables.map((t) => {
      const [b, a] = [before.get(t) ?? empty, after.get(t) ?? empty];
      const usPerRow = t === table ? ns / 1000 / n : null;
      return [
        t,
        {
          rows: n,
          bytesPerRow: (a.bytes - b.bytes) / n,
          indexBytesPerRow: (a.indexBytes - b.indexBytes) / n,
          payloadPerRow: (a.payload - b.payload) / n,
          usPerRow,
        },
      ];
    }),
  );
}

function tsx(args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), ...args], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsx ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------
// Model

/** The bench subcontractors and invoices (scripts/bench-data.ts) loaded from one SQL file; each table's growth read on its own. */
function measureBench(db, tmp, opts) {
  const benchSql = path.join(tmp, "bench.sql");
  const subs = Math.max(opts.subcontractors, Math.round(opts.sample / 2));
  tsx(["scripts/bench-data.ts", "--count", String(subs), "--invoices", String(opts.sample), "--tenant", "tnt_acme", "--out", benchSql]);
  const benchTables = ["cis_subcontractors", "cis_invoices"];
  const n0 = Object.fromEntries(benchTables.map((t) => [t, countOf(db, t)]));
  const before = sizes(db);
  db.exec(readFileSync(benchSql, "utf8"));
  const after = sizes(db);
  const perTable = {};
  for (const t of benchTables) {
    const n = countOf(db, t) - n0[t];
    perTable[t] = {
      rows: n,
      bytesPerRow: (after.get(t).bytes - before.get(t).bytes) / n,
      indexBytesPerRow: (after.get(t).indexBytes - before.get(t).indexBytes) / n,
      payloadPerRow: (after.get(t).payload - before.get(t).payload) / n,
      // Not comparable with the others: includes parsing the file's SQL text.
      usPerRow: null,
      source: "bench data",
    };
  }
  return perTable;
}

/** Small per-tenant tables: the seed's own rows (a page's worth at most: bytes per row is an upper bound). */
function measureSeeded(db) {
  const perTable = {};
  for (const table of ["tenants", "role_bundles", "tenant_modules", "cis_settings"]) {
    const n = countOf(db, table);
    const s = sizes(db).get(table);
    if (!n || !s) throw new Error(`the seed left no rows in ${table} to measure`);
    perTable[table] = {
      rows: n,
      bytesPerRow: s.bytes / n,
      indexBytesPerRow: s.indexBytes / n,
      payloadPerRow: s.payload / n,
      usPerRow: 0,
      source: "seed (upper bound)",
    };
  }
  return perTable;
}

function run(opts) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "capacity-"));
  const file = opts.keep ? path.resolve(opts.keep) : path.join(tmp, "capacity.sqlite");
  rmSync(file, { force: true });
  const db = new DatabaseSync(file);
  try {
    const migrations = migrate(db);
    // The demo seed as the starting state, then the bench subcontractors and invoices, measured.
    ensureDevVars(path.join(ROOT, ".dev.vars"));
    const seedSql = path.join(tmp, "seed.sql");
    tsx(["scripts/seed.ts", "--sql-only", "--out", seedSql]);
    db.exec(readFileSync(seedSql, "utf8"));
    const perTable = measureBench(db, tmp, opts);

    // The sampled rows' tenant, for the tables whose tenant_id references tenants.
    db.prepare("INSERT INTO tenants (id, slug, name, branding, created_at, updated_at) VALUES (?, 'capacity-model', 'Capacity Model Ltd', '{}', 0, 0)").run(
      T.tenantId,
    );
    const g = prng(31);
    for (const [table, make] of Object.entries({ ...ROWS, ...FEATURE_ROWS })) {
      const rows = Array.from({ length: opts.sample }, (_, i) => make(g, i));
      for (const [t, r] of Object.entries(measure(db, table, rows)))
        perTable[t] = { ...r, source: t === table ? "measured" : `measured (trigger of ${table})` };
    }
    Object.assign(perTable, measureSeeded(db));
    perTable.storage_reservations ??= { rows: 0, bytesPerRow: 0, indexBytesPerRow: 0, payloadPerRow: 0, usPerRow: 0, source: "transient" };
    const indexes = Object.fromEntries(Object.keys(perTable).map((t) => [t, t === "notes_fts" ? 1 : indexCount(db, t)]));
    return { migrations, perTable, indexes, file: opts.keep ? file : null };
  } finally {
    db.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Bytes kept a month per table, largest first. */
function keptByTable(perEvent, bpr) {
  const out = {};
  for (const e of perEvent) for (const [t, n] of Object.entries(e.kept)) out[t] = (out[t] ?? 0) + e.perMonth * n * bpr(t);
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

function model(opts, measured) {
  const evs = events(opts);
  const bpr = (t) => {
    const m = measured.perTable[t];
    if (!m) throw new Error(`no measurement for table ${t}`);
    return m.bytesPerRow;
  };
  const rowsWritten = (w) => w.n * w.rows * (1 + (w.ix === "all" ? measured.indexes[w.table] : w.ix));
  const perEvent = evs.map((e) => {
    const keptBytes = Object.entries(e.kept).reduce((s, [t, n]) => s + n * bpr(t), 0);
    const heldBytes = Object.entries(e.held).reduce((s, [t, n]) => s + n * bpr(t), 0);
    const statements = e.writes.reduce((s, w) => s + (w.trigger ? 0 : w.n), 0);
    const written = e.writes.reduce((s, w) => s + rowsWritten(w), 0);
    return { ...e, keptBytes, heldBytes, statements, rowsWritten: written };
  });
  const month = {
    keptBytes: perEvent.reduce((s, e) => s + e.perMonth * e.keptBytes, 0),
    heldBytes: perEvent.reduce((s, e) => s + e.perMonth * e.heldBytes, 0),
    statements: perEvent.reduce((s, e) => s + e.perMonth * e.statements, 0),
    rowsWritten: perEvent.reduce((s, e) => s + e.perMonth * e.rowsWritten, 0),
    batches: perEvent.reduce((s, e) => s + e.perMonth * e.batches, 0),
    keptByTable: keptByTable(perEvent, bpr),
  };
  const baseBytes = Object.entries(baseline(opts)).reduce((s, [t, n]) => s + n * bpr(t), 0);
  const months = opts.years * 12;
  const tenantBytes = baseBytes + month.keptBytes * months + month.heldBytes;
  const bySize = Math.floor((D1_LIMITS.maxDatabaseBytes * opts.fill) / tenantBytes);
  const bySizeFull = Math.floor(D1_LIMITS.maxDatabaseBytes / tenantBytes);
  // Writes: spread over working hours, times the busy-hour factor; the database runs one query at a time.
  const workingSeconds = opts.workingDays * 10 * 3600;
  const peakWritesPerSecond = (month.statements / workingSeconds) * opts.peak;
  const dbWritesPerSecond = (1000 / opts.queryMs) * opts.writeShare;
  const byWrites = Math.floor(dbWritesPerSecond / peakWritesPerSecond);
  return {
    perEvent,
    month,
    baseBytes,
    tenantBytes,
    bySize,
    bySizeFull,
    peakWritesPerSecond,
    dbWritesPerSecond,
    byWrites,
    tenantsPerDatabase: Math.min(bySize, byWrites),
  };
}

// ---------------------------------------------------------------------------------------------
// Output

const fmtBytes = (b) =>
  b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` : b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : b >= 1e3 ? `${(b / 1e3).toFixed(1)} kB` : `${Math.round(b)} B`;
const fmtN = (n, d = 0) => n.toLocaleString("en-GB", { maximumFractionDigits: d, minimumFractionDigits: d });

function report(opts, measured, m) {
  const out = [];
  const p = (s = "") => out.push(s);
  p(`## Capacity of one D1 database (npm run capacity)`);
  p();
  p(
    `Profile: ${opts.staff} staff, ${opts.subcontractors} subcontractors, a month of ${opts.invoices} invoices, ${opts.statements} statements, 1 return, ${opts.files} uploads, ${opts.downloads} downloads, ${opts.notes} notes (${opts.noteSaves} saves each), ${opts.events} calendar events, ${opts.chat} chat messages; ${opts.years} years kept.`,
  );
  p(
    `Schema: ${measured.migrations} migrations applied to SQLite ${new DatabaseSync(":memory:").prepare("SELECT sqlite_version() AS v").get().v} (4,096-byte pages, like D1); ${opts.sample} rows sampled per table.`,
  );
  p();
  p(`### Bytes per row (allocated pages of the table and all its indexes, from dbstat)`);
  p();
  p(`| table | bytes/row | of which indexes | payload/row | indexes | local insert µs/row | source |`);
  p(`|---|---:|---:|---:|---:|---:|---|`);
  for (const [t, r] of Object.entries(measured.perTable).sort((a, b) => b[1].bytesPerRow - a[1].bytesPerRow)) {
    p(
      `| ${t} | ${fmtN(r.bytesPerRow)} | ${fmtN(r.indexBytesPerRow)} | ${fmtN(r.payloadPerRow)} | ${measured.indexes[t]} | ${r.usPerRow === null ? "n/a" : fmtN(r.usPerRow, 1)} | ${r.source} |`,
    );
  }
  p();
  p(`### Rows and writes per business event`);
  p();
  p(`| event | a month | rows kept | bytes kept | write statements | rows written (incl. index rows) | write round trips |`);
  p(`|---|---:|---|---:|---:|---:|---:|`);
  for (const e of m.perEvent) {
    const rows = Object.entries(e.kept)
      .map(([t, n]) => `${t} ${fmtN(n, n % 1 ? 2 : 0)}`)
      .join(", ");
    p(
      `| ${e.label} | ${fmtN(e.perMonth)} | ${rows} | ${fmtBytes(e.keptBytes)} | ${fmtN(e.statements, 1)} | ${fmtN(e.rowsWritten, 1)} | ${fmtN(e.batches, 1)} |`,
    );
  }
  p();
  p(`### Per tenant`);
  p();
  p(
    `- Grows ${fmtBytes(m.month.keptBytes)} a month (${fmtBytes(m.month.keptBytes * 12)} a year); baseline ${fmtBytes(m.baseBytes)}; rows purged on a schedule hold ${fmtBytes(m.month.heldBytes)}.`,
  );
  p(
    `- Largest tables a month: ${Object.entries(m.month.keptByTable)
      .slice(0, 5)
      .map(([t, b]) => `${t} ${fmtBytes(b)} (${Math.round((100 * b) / m.month.keptBytes)}%)`)
      .join(", ")}.`,
  );
  p(`- After ${opts.years} years: **${fmtBytes(m.tenantBytes)}**.`);
  p(
    `- Writes a month: ${fmtN(m.month.statements)} write statements in ${fmtN(m.month.batches)} round trips, ${fmtN(m.month.rowsWritten)} rows written as D1 bills them (index rows included).`,
  );
  p(
    `- Busiest hour: ${fmtN(m.peakWritesPerSecond, 3)} write statements a second (${opts.workingDays} working days of 10 hours, busy hour ${opts.peak}x the average).`,
  );
  p();
  p(`### One database (D1 limits: ${D1_LIMITS.source})`);
  p();
  p(
    `- Size: 10 GB a database, not raisable. At ${Math.round(opts.fill * 100)}% full: **${fmtN(m.bySize)} tenants** (${fmtN(m.bySizeFull)} at 100%) after ${opts.years} years.`,
  );
  p(
    `- Sustained writes: one query at a time; at ${opts.queryMs} ms a write and ${Math.round(opts.writeShare * 100)}% of the time for writes, ${fmtN(m.dbWritesPerSecond)} writes/s: **${fmtN(m.byWrites)} tenants** in their busy hour.`,
  );
  p(
    `- So one database holds about **${fmtN(m.tenantsPerDatabase)} tenants** of this profile; the ${m.bySize <= m.byWrites ? "size limit" : "write rate"} binds first.`,
  );
  p(
    `- Account: 1 TB of D1 storage = ${fmtN(Math.floor(D1_LIMITS.maxAccountStorageBytes / m.tenantBytes))} such tenants; databases per account ${D1_LIMITS.databasesPerAccount}; ${D1_LIMITS.queriesPerInvocation} queries per Worker invocation bounds a fan-out over shards.`,
  );
  return out.join("\n");
}

const opts = parseArgs(process.argv.slice(2));
const t0 = Date.now();
const measured = run(opts);
const m = model(opts, measured);
console.log(report(opts, measured, m));
console.log(`\n(${((Date.now() - t0) / 1000).toFixed(1)} s${measured.file ? `; measured database kept at ${measured.file}` : ""})`);
if (opts.json)
  writeFileSync(
    opts.json,
    JSON.stringify({ opts, limits: D1_LIMITS, measured, model: { ...m, perEvent: m.perEvent.map(({ writes, ...e }) => ({ ...e, writes })) } }, null, 2),
  );
