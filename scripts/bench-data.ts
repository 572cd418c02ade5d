/// <reference types="node" />
/**
 * Bench data: N realistic subcontractors for one tenant, rendered to one SQL file of
 * multi-row INSERTs (and optionally applied to a local D1 under --persist-to).
 *
 *   npx tsx scripts/bench-data.ts [--count 5000] [--tenant tnt_acme] [--out .wrangler/bench-subcontractors.sql]
 *                                 [--persist-to .wrangler/bench-state]
 *
 * Used by bench/run.mjs for its own state only: applying needs an explicit --persist-to and
 * refuses the developer's .wrangler/state. Rows are written the way app/db/seed.ts seedCis
 * writes them: UTR and NINO encrypted with encryptPii (AAD bound to tenant, table, row id and
 * field), masked with maskUtr/maskNino, and the UTR's keyed search hash from piiSearchHash, all
 * with the keys in .dev.vars, which the local server reads too. Everything but the ciphertexts'
 * random IVs is deterministic (a seeded PRNG), so runs are comparable. Mix: ~55% individuals,
 * ~33% companies, ~12% partnerships; ~20% gross, ~68% standard, ~12% higher; ~10% archived;
 * ~1% soft-deleted (never listed); names spread over the alphabet. Ids are sub_bench_NNNNN and
 * the file first deletes earlier sub_bench_ rows, so applying it twice leaves N rows, not 2N.
 *
 * With --invoices M (0 by default) the same file also holds M invoices for the tenant, spread
 * over the bench subcontractors and the last three years: ~60% paid, ~15% approved, ~10% drafts,
 * ~5% portal submissions, ~10% cancelled, ~1% soft-deleted; amounts from the rules engine at each
 * subcontractor's rate. Ids are inv_bench_NNNNNN (earlier ones deleted first). Every INSERT is a
 * multi-row statement of literals (no bound parameters), 100 rows and well under D1's 100 KB
 * statement size, so 50,000 invoices render in about a second.
 *
 * With --statement-month YYYY-MM the file also holds, for each of the first --statements (500)
 * live bench subcontractors, --per-sub (3) paid invoices of that tax month flagged statement
 * required (inv_stmt_NNNNNN), for the statements bench (bench/statements.mjs).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { invoiceAmounts, RATE_FOR_VERIFICATION_STATUS, taxMonthOfDate, utrCheckDigit } from "../app/features/cis/domain";
import { encryptPii, maskNino, maskUtr, piiSearchHash } from "../app/features/cis/pii.server";
import { readDevVars, sqlLiteral } from "./seed";

const TABLE = "cis_subcontractors";

/** mulberry32: a small seeded PRNG, so the same N gives the same rows every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}

// Spread over the alphabet on purpose: the list orders by name, so pages land on every letter.
const FIRST = [
  "Aaron",
  "Abigail",
  "Adam",
  "Aisha",
  "Alfie",
  "Amelia",
  "Ben",
  "Bethany",
  "Callum",
  "Charlotte",
  "Chloe",
  "Connor",
  "Daniel",
  "Deepa",
  "Eilidh",
  "Elliot",
  "Emma",
  "Ewa",
  "Fatima",
  "Finn",
  "Freya",
  "George",
  "Grace",
  "Hamza",
  "Hannah",
  "Harry",
  "Isla",
  "Ivan",
  "Jack",
  "Jamal",
  "Jessica",
  "Joshua",
  "Kai",
  "Karen",
  "Kieran",
  "Lena",
  "Liam",
  "Lucy",
  "Marcus",
  "Maya",
  "Mohammed",
  "Niamh",
  "Noah",
  "Olivia",
  "Oscar",
  "Owen",
  "Priya",
  "Paul",
  "Quinn",
  "Rachel",
  "Rhys",
  "Ruby",
  "Samir",
  "Sofia",
  "Steven",
  "Tariq",
  "Thomas",
  "Tomasz",
  "Uma",
  "Umar",
  "Victoria",
  "Vikram",
  "William",
  "Wiktoria",
  "Xavier",
  "Yasmin",
  "Yusuf",
  "Zainab",
  "Zoe",
] as const;
const SURNAMES = [
  "Adams",
  "Ahmed",
  "Allen",
  "Bailey",
  "Baker",
  "Barker",
  "Campbell",
  "Carter",
  "Chowdhury",
  "Clarke",
  "Davies",
  "Dobson",
  "Edwards",
  "Evans",
  "Fischer",
  "Fraser",
  "Green",
  "Griffiths",
  "Hall",
  "Harris",
  "Hughes",
  "Ibrahim",
  "Iqbal",
  "Jackson",
  "Jones",
  "Kaur",
  "Kelly",
  "Khan",
  "Kowalski",
  "Lewis",
  "Lloyd",
  "MacDonald",
  "Martin",
  "Morgan",
  "Murphy",
  "Nowak",
  "Nwosu",
  "O'Brien",
  "O'Connor",
  "Okafor",
  "Owen",
  "Patel",
  "Phillips",
  "Price",
  "Quinn",
  "Reid",
  "Roberts",
  "Rossi",
  "Scott",
  "Shah",
  "Sharma",
  "Singh",
  "Smith",
  "Taylor",
  "Thomas",
  "Turner",
  "Underwood",
  "Usman",
  "Vaughan",
  "Walker",
  "Watson",
  "White",
  "Williams",
  "Wilson",
  "Wood",
  "Wright",
  "Xu",
  "Young",
  "Yates",
  "Zielinski",
] as const;
const PLACES = [
  "Abbey",
  "Ashford",
  "Avon",
  "Beacon",
  "Birchwood",
  "Bridgend",
  "Castle",
  "Cheviot",
  "Clyde",
  "Dales",
  "Dunmore",
  "Eastfield",
  "Elmstead",
  "Fenland",
  "Forth",
  "Glen",
  "Granite",
  "Harbour",
  "Heathrow",
  "Highland",
  "Ironbridge",
  "Isis",
  "Jubilee",
  "Kenmore",
  "Kingsway",
  "Lakeside",
  "Lowther",
  "Marsh",
  "Meadow",
  "Northgate",
  "Norfolk",
  "Oakridge",
  "Orchard",
  "Pennine",
  "Portland",
  "Quarry",
  "Queensway",
  "Riverside",
  "Redhill",
  "Severn",
  "Summit",
  "Thames",
  "Tyne",
  "Union",
  "Upland",
  "Vale",
  "Victoria",
  "Westbury",
  "Whitfield",
  "Wessex",
  "York",
  "Yew Tree",
  "Zenith",
] as const;
const TRADES = [
  "Groundworks",
  "Scaffolding",
  "Electrical",
  "Roofing",
  "Plastering",
  "Joinery",
  "Steel Erectors",
  "Drainage",
  "Glazing",
  "Plumbing",
  "Demolition",
  "Brickwork",
  "Carpentry",
  "Civil Engineering",
  "Dry Lining",
  "Flooring",
  "Insulation",
  "Painting & Decorating",
  "Paving",
  "Tiling",
  "Mechanical Services",
  "Fencing",
] as const;
const DOMAINS = ["example.test", "mail.test", "builders.test", "trade.test"] as const;
// NINO prefixes never use D, F, I, Q, U or V, and the second letter is never O.
const NINO_FIRST = "ABCEGHJKLMNOPRSTWXYZ";
const NINO_SECOND = "ABCEGHJKLMNPRSTWXYZ";

type Rand = ReturnType<typeof prng>;
type Kind = "individual" | "company" | "partnership";
type Status = "gross" | "standard" | "higher";

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "");
const digits = (r: Rand, n: number) => Array.from({ length: n }, () => r.int(10)).join("");

function nameFor(r: Rand, kind: Kind): string {
  if (kind === "individual") return `${r.pick(FIRST)} ${r.pick(SURNAMES)}`;
  if (kind === "company") {
    const stem = r.chance(0.6) ? r.pick(PLACES) : r.pick(SURNAMES);
    return `${stem} ${r.pick(TRADES)} ${r.chance(0.85) ? "Ltd" : "Limited"}`;
  }
  const a = r.pick(SURNAMES);
  const style = r.int(3);
  if (style === 0) return `${a} & ${r.pick(SURNAMES)}`;
  if (style === 1) return `${a} Brothers ${r.pick(TRADES)}`;
  return `${a} ${r.pick(TRADES)} Partnership`;
}

/** A valid UTR, unique per i below 9,500 and apart from the seed's demo UTRs: HMRC's check digit, then nine digits. */
function benchUtr(i: number): string {
  const tail = String(300_000_000 + i * 104_729).padStart(9, "0");
  return `${utrCheckDigit(tail)}${tail}`;
}

export type BenchDataOptions = {
  count: number;
  tenantId: string;
  keys: { piiKeys: string; hmacKey: string };
  now?: number;
  seed?: number;
  rowsPerInsert?: number;
};

const COLUMNS = [
  "id",
  "tenant_id",
  "type",
  "name",
  "name_lower",
  "utr_enc",
  "utr_masked",
  "utr_hash",
  "nino_enc",
  "nino_masked",
  "company_number",
  "vat_number",
  "email",
  "phone",
  "verification_status",
  "verification_rate",
  "verification_method",
  "verification_reference",
  "verified_date",
  "verified_by",
  "active",
  "created_at",
  "updated_at",
  "created_by",
  "updated_by",
  "deleted_at",
  "deleted_by",
] as const;

/** What an invoice copies from its subcontractor. */
export type BenchSub = { id: string; name: string; utrMasked: string; ninoMasked: string | null; status: Status; deleted: boolean };

/** The rows as SQL: one DELETE of earlier bench rows, then multi-row INSERTs. Returns the SQL, a tally and the subcontractors. */
// eslint-disable-next-line max-lines-per-function -- one SQL script written as a template, read top to bottom
export async function renderBenchSql(opts: BenchDataOptions): Promise<{ sql: string; tally: Record<string, number>; subs: BenchSub[] }> {
  const { count, tenantId, keys } = opts;
  const now = opts.now ?? Date.now();
  const per = opts.rowsPerInsert ?? 100;
  const r = prng(opts.seed ?? 0x5eed_2026);
  const rates = { gross: 0, standard: 20, higher: 30 } as const;
  const tally: Record<string, number> = {
    rows: 0,
    individual: 0,
    company: 0,
    partnership: 0,
    gross: 0,
    standard: 0,
    higher: 0,
    archived: 0,
    deleted: 0,
    listed: 0,
  };
  const rows: string[] = [];
  const subs: BenchSub[] = [];
  for (let i = 0; i < count; i++) {
    const id = `sub_bench_${String(i + 1).padStart(5, "0")}`;
    const roll = r.next();
    const kind: Kind = roll < 0.55 ? "individual" : roll < 0.88 ? "company" : "partnership";
    const sroll = r.next();
    const status: Status = sroll < 0.2 ? "gross" : sroll < 0.88 ? "standard" : "higher";
    const name = nameFor(r, kind);
    const utr = benchUtr(i);
    const nino = kind === "individual" && r.chance(0.85) ? `${r.pick([...NINO_FIRST])}${r.pick([...NINO_SECOND])}${digits(r, 6)}${"ABCD"[r.int(4)]}` : null;
    const company = kind === "company" ? (r.chance(0.1) ? `SC${digits(r, 6)}` : digits(r, 8)) : null;
    const vat = kind !== "individual" && r.chance(0.5) ? `GB${digits(r, 9)}` : null;
    const email = r.chance(0.8)
      ? `${kind === "individual" ? slug(name.replace(" ", ".")) : `accounts`}@${kind === "individual" ? r.pick(DOMAINS) : `${slug(name).slice(0, 20)}.test`}`
      : null;
    const phone = r.chance(0.7) ? (kind === "individual" ? `07700900${digits(r, 3)}` : `01632960${digits(r, 3)}`) : null;
    // Unverified rows (no method) are left at the default status, as the form would save them.
    const method = r.chance(0.8) ? r.pick(["online", "online", "online", "phone", "letter"] as const) : null;
    const archived = r.chance(0.1);
    const deleted = r.chance(0.01);
    const createdAt = now - r.int(3 * 365) * 86_400_000 - r.int(86_400_000);
    const verifiedDate = method ? new Date(Math.min(now, createdAt + r.int(30) * 86_400_000)).toISOString().slice(0, 10) : null;
    const ctx = (field: string) => ({ tenantId, table: TABLE, recordId: id, field });
    const values = [
      id,
      tenantId,
      kind,
      name,
      name.toLowerCase(),
      await encryptPii(keys.piiKeys, utr, ctx("utr")),
      maskUtr(utr),
      await piiSearchHash(keys.hmacKey, tenantId, "utr", utr),
      nino ? await encryptPii(keys.piiKeys, nino, ctx("nino")) : null,
      nino ? maskNino(nino) : null,
      company,
      vat,
      email,
      phone,
      status,
      rates[status],
      method,
      method ? `V${digits(r, 10)}${status === "higher" ? "A" : ""}` : null,
      verifiedDate,
      method ? "usr_acme_admin" : null,
      !archived,
      createdAt,
      Math.min(now, createdAt + r.int(200) * 86_400_000),
      "usr_acme_admin",
      "usr_acme_admin",
      deleted ? now - r.int(90) * 86_400_000 : null,
      deleted ? "usr_acme_admin" : null,
    ];
    rows.push(`(${values.map(sqlLiteral).join(",")})`);
    subs.push({ id, name, utrMasked: maskUtr(utr), ninoMasked: nino ? maskNino(nino) : null, status, deleted });
    tally.rows++;
    tally[kind]++;
    tally[status]++;
    if (archived) tally.archived++;
    if (deleted) tally.deleted++;
    else tally.listed++;
  }
  const out = [
    `-- Written by scripts/bench-data.ts: ${count} bench subcontractors for ${tenantId}. Not for the developer's state.`,
    `DELETE FROM ${TABLE} WHERE tenant_id = ${sqlLiteral(tenantId)} AND id LIKE 'sub\\_bench\\_%' ESCAPE '\\';`,
  ];
  for (let i = 0; i < rows.length; i += per) out.push(`INSERT INTO ${TABLE} (${COLUMNS.join(", ")}) VALUES\n${rows.slice(i, i + per).join(",\n")};`);
  return { sql: `${out.join("\n")}\n`, tally, subs };
}

const INVOICE_COLUMNS = [
  "id",
  "tenant_id",
  "invoice_number",
  "subcontractor_id",
  "subcontractor_name",
  "subcontractor_name_lower",
  "utr_masked",
  "nino_masked",
  "status",
  "source",
  "invoice_date",
  "received_date",
  "payment_date",
  "description",
  "tax_month",
  "gross_p",
  "materials_p",
  "labour_p",
  "cis_rate",
  "cis_deduction_p",
  "vat_rate",
  "vat_base_p",
  "vat_amount_p",
  "gross_total_p",
  "net_payment_p",
  "materials_percentage",
  "reverse_charge",
  "materials_justification",
  "verification_status",
  "verification_rate",
  "approved_at",
  "approved_by",
  "locked_at",
  "paid_at",
  "paid_by",
  "cancelled_at",
  "cancelled_by",
  "statement_required",
  "statement_issued_at",
  "statement_issued_method",
  "created_at",
  "created_by",
  "updated_at",
  "updated_by",
  "deleted_at",
  "deleted_by",
] as const;

const WORKS = [
  "Groundworks",
  "First fix electrics",
  "Roof repairs",
  "Scaffold hire",
  "Plastering",
  "Joinery",
  "Drainage",
  "Steel erection",
  "Glazing",
  "Plumbing",
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `count` invoices for the tenant as SQL (a DELETE of earlier bench invoices, then multi-row
 * INSERTs of literals), against the live (not soft-deleted) bench subcontractors.
 */
// eslint-disable-next-line max-lines-per-function -- one SQL script written as a template, read top to bottom
export function renderBenchInvoicesSql(opts: { count: number; tenantId: string; subs: BenchSub[]; now?: number; seed?: number; rowsPerInsert?: number }) {
  const { count, tenantId } = opts;
  const now = opts.now ?? Date.now();
  const per = opts.rowsPerInsert ?? 100;
  const r = prng(opts.seed ?? 0x1_2026);
  const subs = opts.subs.filter((s) => !s.deleted);
  if (count > 0 && subs.length === 0) throw new Error("bench invoices need bench subcontractors (--count > 0)");
  const tally: Record<string, number> = { invoices: 0, draft: 0, portal_draft: 0, approved: 0, paid: 0, cancelled: 0, deletedInvoices: 0 };
  const rows: string[] = [];
  const today = isoDay(now);
  for (let i = 0; i < count; i++) {
    const sub = subs[r.int(subs.length)];
    const roll = r.next();
    const status = roll < 0.6 ? "paid" : roll < 0.75 ? "approved" : roll < 0.85 ? "draft" : roll < 0.9 ? "portal_draft" : "cancelled";
    const invoiceDate = isoDay(now - r.int(3 * 365) * 86_400_000);
    const paymentDate = status === "paid" ? [isoDay(Date.parse(invoiceDate) + (7 + r.int(24)) * 86_400_000), today].sort()[0] : null;
    const grossP = 10_000 + r.int(2_000_000);
    const materialsP = Math.round(grossP * r.pick([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.65, 0.85]));
    const vatRate = r.pick([0, 20, 20, 5] as const);
    const reverseCharge = vatRate === 20 && r.chance(0.3);
    const rate = RATE_FOR_VERIFICATION_STATUS[sub.status];
    const amounts = invoiceAmounts({ grossP, materialsP, cisRate: rate, vatRate, reverseCharge });
    const created = Date.parse(`${invoiceDate}T10:00:00Z`);
    const settled = status === "approved" || status === "paid";
    const statementRequired = settled && r.chance(0.5);
    const issued = statementRequired && status === "paid" && r.chance(0.7);
    const deleted = (status === "draft" || status === "cancelled") && r.chance(0.1);
    const values = [
      `inv_bench_${String(i + 1).padStart(6, "0")}`,
      tenantId,
      `B-${String(i + 1).padStart(6, "0")}`,
      sub.id,
      sub.name,
      sub.name.toLowerCase(),
      sub.utrMasked,
      sub.ninoMasked,
      status,
      status === "portal_draft" ? "portal" : "staff",
      invoiceDate,
      invoiceDate,
      paymentDate,
      r.pick(WORKS),
      taxMonthOfDate(paymentDate ?? invoiceDate).label,
      amounts.grossP,
      amounts.materialsP,
      amounts.labourP,
      rate,
      amounts.cisDeductionP,
      vatRate,
      amounts.vatBaseP,
      amounts.vatAmountP,
      amounts.grossTotalP,
      amounts.netPaymentP,
      amounts.materialsPercentage,
      reverseCharge,
      amounts.materialsPercentage >= 80 ? "Materials supplied by the subcontractor at cost" : null,
      settled ? sub.status : null,
      settled ? rate : null,
      settled ? created + 86_400_000 : null,
      settled ? "usr_acme_manager" : null,
      settled ? created + 86_400_000 : null,
      paymentDate ? Date.parse(`${paymentDate}T15:00:00Z`) : null,
      paymentDate ? "usr_acme_admin" : null,
      status === "cancelled" ? created + 86_400_000 : null,
      status === "cancelled" ? "usr_acme_manager" : null,
      statementRequired,
      issued && paymentDate ? Date.parse(`${paymentDate}T16:00:00Z`) : null,
      issued ? "email" : null,
      created,
      "usr_acme_lead",
      created,
      "usr_acme_lead",
      deleted ? created + 2 * 86_400_000 : null,
      deleted ? "usr_acme_admin" : null,
    ];
    rows.push(`(${values.map(sqlLiteral).join(",")})`);
    tally.invoices++;
    tally[status]++;
    if (deleted) tally.deletedInvoices++;
  }
  const out = [`DELETE FROM cis_invoices WHERE tenant_id = ${sqlLiteral(tenantId)} AND id LIKE 'inv\\_bench\\_%' ESCAPE '\\';`];
  for (let i = 0; i < rows.length; i += per)
    out.push(`INSERT INTO cis_invoices (${INVOICE_COLUMNS.join(", ")}) VALUES\n${rows.slice(i, i + per).join(",\n")};`);
  return { sql: `${out.join("\n")}\n`, tally };
}

/**
 * The statements bench: for each of the first `subCount` live bench subcontractors, `perSub` paid
 * invoices in `taxMonth`, flagged statement required and on no statement yet, so one Generate All
 * makes exactly `subCount` statements. Ids are inv_stmt_NNNNNN (earlier ones deleted first).
 */
export function renderStatementInvoicesSql(opts: { tenantId: string; subs: BenchSub[]; taxMonth: string; subCount: number; perSub: number; seed?: number }) {
  const m = /^(\d{4})-(\d{2})$/.exec(opts.taxMonth);
  if (!m) throw new Error("--statement-month needs YYYY-MM");
  const live = opts.subs.filter((s) => !s.deleted).slice(0, opts.subCount);
  if (live.length < opts.subCount) throw new Error(`only ${live.length} live bench subcontractors for ${opts.subCount} statements: raise --count`);
  const r = prng(opts.seed ?? 0x57a7_2026);
  const rows: string[] = [];
  let n = 0;
  for (const sub of live) {
    for (let k = 0; k < opts.perSub; k++) {
      n += 1;
      // Paid between the 6th and the 25th of the month's first calendar month: inside the tax month.
      const day = 6 + r.int(20);
      const paymentDate = `${m[1]}-${m[2]}-${String(day).padStart(2, "0")}`;
      const invoiceDate = `${m[1]}-${m[2]}-06`;
      const grossP = 10_000 + r.int(2_000_000);
      const materialsP = Math.round(grossP * r.pick([0, 0.1, 0.2, 0.3, 0.4]));
      const rate = RATE_FOR_VERIFICATION_STATUS[sub.status];
      const amounts = invoiceAmounts({ grossP, materialsP, cisRate: rate, vatRate: 20, reverseCharge: false });
      const at = Date.parse(`${paymentDate}T12:00:00Z`);
      const values = [
        `inv_stmt_${String(n).padStart(6, "0")}`,
        opts.tenantId,
        `S-${String(n).padStart(6, "0")}`,
        sub.id,
        sub.name,
        sub.name.toLowerCase(),
        sub.utrMasked,
        sub.ninoMasked,
        "paid",
        "staff",
        invoiceDate,
        invoiceDate,
        paymentDate,
        r.pick(WORKS),
        taxMonthOfDate(paymentDate).label,
        amounts.grossP,
        amounts.materialsP,
        amounts.labourP,
        rate,
        amounts.cisDeductionP,
        20,
        amounts.vatBaseP,
        amounts.vatAmountP,
        amounts.grossTotalP,
        amounts.netPaymentP,
        amounts.materialsPercentage,
        false,
        null,
        sub.status,
        rate,
        at,
        "usr_acme_manager",
        at,
        at,
        "usr_acme_admin",
        null,
        null,
        true,
        null,
        null,
        at,
        "usr_acme_lead",
        at,
        "usr_acme_lead",
        null,
        null,
      ];
      rows.push(`(${values.map(sqlLiteral).join(",")})`);
    }
  }
  const out = [
    `DELETE FROM cis_statements WHERE tenant_id = ${sqlLiteral(opts.tenantId)} AND tax_month = ${sqlLiteral(opts.taxMonth)};`,
    `DELETE FROM cis_invoices WHERE tenant_id = ${sqlLiteral(opts.tenantId)} AND id LIKE 'inv\\_stmt\\_%' ESCAPE '\\';`,
  ];
  for (let i = 0; i < rows.length; i += 100)
    out.push(`INSERT INTO cis_invoices (${INVOICE_COLUMNS.join(", ")}) VALUES\n${rows.slice(i, i + 100).join(",\n")};`);
  return { sql: `${out.join("\n")}\n`, invoices: rows.length, subcontractors: live.length };
}

function parseArgs(argv: string[]) {
  const opts = {
    count: 5000,
    invoices: 0,
    statementMonth: null as string | null,
    statements: 500,
    perSub: 3,
    tenantId: "tnt_acme",
    out: path.join(".wrangler", "bench-subcontractors.sql"),
    persistTo: null as string | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--count") {
      opts.count = Number(value());
      if (!Number.isInteger(opts.count) || opts.count < 0 || opts.count > 99_999) throw new Error("--count needs a whole number up to 99999");
    } else if (a === "--invoices") {
      opts.invoices = Number(value());
      if (!Number.isInteger(opts.invoices) || opts.invoices < 0 || opts.invoices > 999_999) throw new Error("--invoices needs a whole number up to 999999");
    } else if (a === "--statement-month") opts.statementMonth = value();
    else if (a === "--statements" || a === "--per-sub") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 99_999) throw new Error(`${a} needs a whole number from 1 to 99999`);
      if (a === "--statements") opts.statements = n;
      else opts.perSub = n;
    } else if (a === "--tenant") opts.tenantId = value();
    else if (a === "--out") opts.out = value();
    else if (a === "--persist-to") opts.persistTo = value();
    else throw new Error(`Unknown argument ${a}`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const vars = readDevVars();
  if (!vars.PII_KEYS || !vars.PII_HMAC_KEY) throw new Error("PII_KEYS / PII_HMAC_KEY missing from .dev.vars: run `npm run setup` first");
  if (opts.persistTo) {
    // The developer's state lives in .wrangler/state (wrangler's default); bench data never goes there.
    const target = path.resolve(opts.persistTo);
    if (target === path.resolve(".wrangler", "state") || target === path.resolve(".wrangler"))
      throw new Error(`Refusing to write bench data to the developer's local state (${opts.persistTo})`);
  }
  const t0 = Date.now();
  const subs = await renderBenchSql({ count: opts.count, tenantId: opts.tenantId, keys: { piiKeys: vars.PII_KEYS, hmacKey: vars.PII_HMAC_KEY } });
  const invoices = renderBenchInvoicesSql({ count: opts.invoices, tenantId: opts.tenantId, subs: subs.subs });
  const forStatements = opts.statementMonth
    ? renderStatementInvoicesSql({ tenantId: opts.tenantId, subs: subs.subs, taxMonth: opts.statementMonth, subCount: opts.statements, perSub: opts.perSub })
    : null;
  const sql = subs.sql + invoices.sql + (forStatements?.sql ?? "");
  const tally: Record<string, number> = {
    ...subs.tally,
    ...invoices.tally,
    statementSubs: forStatements?.subcontractors ?? 0,
    statementInvoices: forStatements?.invoices ?? 0,
  };
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, sql);
  const mix = ["individual", "company", "partnership", "gross", "standard", "higher", "archived", "deleted"].map((k) => `${k} ${tally[k]}`).join(", ");
  console.log(
    `[bench-data] ${tally.rows} subcontractors for ${opts.tenantId} (${mix}; ${tally.listed} not deleted) and ${tally.invoices} invoices (${tally.paid} paid, ${tally.deletedInvoices} deleted) -> ${opts.out} (${(sql.length / 1e6).toFixed(1)} MB, ${Date.now() - t0} ms)`,
  );
  // One machine-readable line for bench/run.mjs.
  console.log(`BENCH_DATA ${JSON.stringify(tally)}`);
  if (!opts.persistTo) return;

  // -c wrangler.toml: after a build a bare wrangler would follow .wrangler/deploy/config.json.
  const t1 = Date.now();
  const r = spawnSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--persist-to", opts.persistTo, "--file", opts.out], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? "");
    process.stderr.write(r.stderr ?? "");
    throw new Error(`wrangler d1 execute failed (exit ${r.status})`);
  }
  console.log(`[bench-data] applied to the local D1 in ${opts.persistTo} (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(`[bench-data] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
