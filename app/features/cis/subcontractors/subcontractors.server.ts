import type { BatchResponse } from "drizzle-orm/batch";
import type { PagePrefetched } from "~/features/platform/index.server";
import { and, asc, count, eq, inArray, isNull, or, sql, type Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import { forTenant } from "~/db/tenancy";
import { z } from "zod";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { cappedCountQuery, pagedTotal, searchCountLimit } from "~/db/capped-count.server";
import {
  inTrigramSearch,
  noteWhenCommon,
  trigramAsked,
  trigramMatch,
  trigramSearchCount,
  type TrigramIndex,
  type TrigramSearch,
} from "~/db/trigram-search.server";
import { cisSubcontractorCounts, cisSubcontractors } from "~/db/schema";
import { activityInsert, auditInsert } from "~/features/platform/index.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { revokeSessionsOfUsersStatements } from "~/features/auth/index.server";
import {
  changedVerificationFields,
  hasValidUtrCheckDigit,
  SUBCONTRACTOR_TYPES,
  UNVERIFIED,
  type SubcontractorCreate,
  type SubcontractorUpdate,
} from "../domain";
import type { Actor } from "~/features/auth";
import { BULK_LIMIT, type BulkFailure, type SaveError } from "./subcontractor-messages";
import { decryptPii, encryptPii, maskEmail, maskNino, maskPhone, maskUtr, piiSearchHash, type PiiContext } from "../pii.server";
import type { Ok } from "~/utils/result";

export type { BulkFailure, SaveError } from "./subcontractor-messages";

export type SubcontractorRow = typeof cisSubcontractors.$inferSelect;
const TABLE = "cis_subcontractors";

export const PAGE_SIZE = 25;
export const STATUS_FILTERS = ["all", "active", "archived"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type TypeFilter = "all" | (typeof SUBCONTRACTOR_TYPES)[number];
/** `invalid`: only rows whose stored UTR fails HMRC's check digit. */
export const UTR_FILTERS = ["all", "invalid"] as const;
export type UtrFilter = (typeof UTR_FILTERS)[number];

export type ListQuery = { q: string; status: StatusFilter; type: TypeFilter; utr: UtrFilter; page: number };

const listQuerySchema = z.object({
  q: z
    .string()
    .catch("")
    .transform((q) => q.trim().slice(0, 100)),
  status: z.enum(STATUS_FILTERS).catch("all"),
  type: z.enum(["all", ...SUBCONTRACTOR_TYPES]).catch("all"),
  utr: z.enum(UTR_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** Unknown or malformed filters fall back to their defaults rather than failing the page. */
export function parseListQuery(params: URLSearchParams): ListQuery {
  return listQuerySchema.parse({
    q: params.get("q") ?? "",
    status: params.get("status") ?? "all",
    type: params.get("type") ?? "all",
    utr: params.get("utr") ?? "all",
    page: params.get("page") ?? "1",
  });
}

function piiCtx(tenantId: string, recordId: string, field: "utr" | "nino"): PiiContext {
  return { tenantId, table: TABLE, recordId, field };
}

/** Soft-deleted rows never show; everything is scoped to the tenant (a value, or a prepared statement's placeholder). */
function visible(tenantId: string | SQLWrapper) {
  return and(forTenant(cisSubcontractors, tenantId), isNull(cisSubcontractors.deletedAt));
}

/**
 * The list's filters as one condition: status, type, and search on name, e-mail, the UTR's keyed
 * hash (a 10-digit term; never the plaintext) and company number. Shared with the CSV export so a
 * download holds exactly what the list shows.
 */
export async function subcontractorFilter(
  env: Env,
  tenantId: string,
  query: Pick<ListQuery, "q" | "status" | "type"> & Partial<Pick<ListQuery, "utr">>,
): Promise<SQL | undefined> {
  const { conds, search } = await searchParts(env, tenantId, query);
  return and(...conds, search?.anyOption);
}

/** The filters but the search, and the search's parts (null without a term). */
async function searchParts(env: Env, tenantId: string, query: Pick<ListQuery, "q" | "status" | "type"> & Partial<Pick<ListQuery, "utr">>) {
  const conds = listConditions(tenantId, { status: query.status, utr: query.utr ?? "all" }, query.type === "all" ? null : query.type);
  if (!query.q) return { conds, search: null };
  const term = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const options: SQL[] = [
    sql`${cisSubcontractors.nameLower} LIKE ${term} ESCAPE '\\'`,
    sql`lower(coalesce(${cisSubcontractors.email}, '')) LIKE ${term} ESCAPE '\\'`,
  ];
  // Exact identifiers: each found through its own index.
  const exact: SQL[] = [];
  const digits = query.q.replace(/\s+/g, "");
  if (/^\d{10}$/.test(digits)) exact.push(eq(cisSubcontractors.utrHash, await piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", digits)));
  if (/^[A-Z0-9]{8}$/i.test(digits)) exact.push(eq(cisSubcontractors.companyNumber, digits.toUpperCase()));
  return { conds, search: { q: query.q, exact, anyOption: or(...options, ...exact) as SQL } };
}

/**
 * A search of three characters or more through the trigram index (ADR 0081): the leading `limit`
 * matches, in the list's order for a page, any order for a count.
 */
function indexedSearch(
  tenantId: string,
  conds: (SQL | undefined)[],
  search: { q: string; exact: SQL[]; anyOption: SQL },
  limit: number,
  ordered: boolean,
): TrigramSearch {
  return {
    table: cisSubcontractors,
    id: cisSubcontractors.id,
    index: SEARCH_INDEX,
    tenantId,
    match: trigramMatch(SEARCH_INDEX, search.q),
    like: search.anyOption,
    extraIds:
      search.exact.length === 0
        ? undefined
        : sql`SELECT ${sql.identifier("id")} AS "hit_id" FROM ${cisSubcontractors} WHERE ${sql.identifier("tenant_id")} = ${tenantId} AND (${or(...search.exact)})`,
    where: and(...conds),
    order: ordered ? LIST_ORDER : [],
    limit,
  };
}

/** Names (lower-cased) and e-mail addresses, kept by the triggers of migration 0046. */
const SEARCH_INDEX: TrigramIndex = { name: "cis_subcontractors_search", idColumn: "subcontractor_id", columns: ["name", "email"] };

/** The list's order: name, then id. */
const LIST_ORDER = [
  { column: cisSubcontractors.nameLower, desc: false },
  { column: cisSubcontractors.id, desc: false },
] as const;

/** Every filter but the search: not deleted, the tenant's, the failing-UTR filter, status and type (null: any). */
function listConditions(tenantId: string | SQLWrapper, query: Pick<ListQuery, "status" | "utr">, type: string | SQLWrapper | null): (SQL | undefined)[] {
  const conds: (SQL | undefined)[] = [visible(tenantId)];
  if (query.utr === "invalid") conds.push(eq(cisSubcontractors.utrInvalid, true));
  if (query.status === "active") conds.push(eq(cisSubcontractors.active, true));
  if (query.status === "archived") conds.push(eq(cisSubcontractors.active, false));
  if (type !== null) conds.push(sql`${cisSubcontractors.type} = ${type}`);
  return conds;
}

/**
 * One page of the list, its total and the four summary cards in one D1 round trip (a batch):
 * the page never loads more than PAGE_SIZE rows, whatever the tenant's size.
 */
export async function listSubcontractors(env: Env, tenantId: string, query: ListQuery, prefetched: PagePrefetched | null = null) {
  const db = dbFor(env, tenantId);
  const limit = query.q ? searchCountLimit(query.page, PAGE_SIZE) : Infinity;
  const [rows, [counted], [summary]] = prefetched
    ? (prefetched.results as BatchResponse<Awaited<ReturnType<typeof searchStatements>>>)
    : query.q
      ? await db.batch(await searchStatements(env, db, tenantId, query, limit))
      : await db.batch(listStatements(db, tenantId, query));
  const total = counted.total;
  // The index found the term common: the next searches for it scan at once (ADR 0085).
  noteWhenCommon(SEARCH_INDEX, tenantId, query.q, counted);
  return { rows, ...pagedTotal(total, PAGE_SIZE, limit), page: query.page, summary: toSummary(summary) };
}

/** The list's batch (the page, its total and the cards), also run by the tenant middleware for the list (ADR 0082). */
export async function subcontractorListStatements(env: Env, db: Db, tenantId: string, query: ListQuery) {
  return query.q ? await searchStatements(env, db, tenantId, query, searchCountLimit(query.page, PAGE_SIZE)) : listStatements(db, tenantId, query);
}

function pageQuery(db: Db, where: SQL | undefined, offset: number | Placeholder) {
  return db
    .select(LIST_COLUMNS)
    .from(cisSubcontractors)
    .where(where)
    .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id))
    .limit(PAGE_SIZE)
    .offset(offset);
}

/** A search: its statements built for its term (a UTR term is looked up by its keyed hash); it counts as far as the pager reaches from this page. */
async function searchStatements(env: Env, db: Db, tenantId: string, query: ListQuery, limit: number) {
  const { conds, search } = await searchParts(env, tenantId, query);
  const offset = (query.page - 1) * PAGE_SIZE;
  if (search && trigramAsked(SEARCH_INDEX, tenantId, search.q))
    return [
      pageQuery(db, inTrigramSearch(indexedSearch(tenantId, conds, search, query.page * PAGE_SIZE, true)), offset),
      trigramSearchCount(db, indexedSearch(tenantId, conds, search, limit, false)),
      summaryQuery(db, tenantId),
    ] as const;
  const where = and(...conds, search?.anyOption);
  return [pageQuery(db, where, offset), cappedCountQuery(db, cisSubcontractors, where, limit), summaryQuery(db, tenantId)] as const;
}

/**
 * Without a search the list's statements differ only by which filters are on: built once per
 * database and shape, bound to the view's tenant, type and page. The count table has no
 * UTR-check dimension: the failing-UTR filter counts its rows.
 */
function listStatements(db: Db, tenantId: string, query: ListQuery) {
  const v: ListValues = {
    tenantId,
    status: query.status,
    utr: query.utr,
    type: query.type === "all" ? null : query.type,
    offset: (query.page - 1) * PAGE_SIZE,
  };
  return [preparedPage(db, v), preparedTotal(db, v), preparedSummary(db, v)] as const;
}

type ListValues = { tenantId: string; status: StatusFilter; utr: UtrFilter; type: string | null; offset: number };
const listShape = (v: ListValues) => `${v.status}|${v.utr}|${v.type === null ? "any" : "type"}`;
const listWhere = (p: Placeholders<ListValues>, v: ListValues) => and(...listConditions(p.tenantId, v, v.type === null ? null : p.type));
const preparedPage = preparedStatement((db, p: Placeholders<ListValues>, v) => pageQuery(db, listWhere(p, v), p.offset), listShape);
const preparedTotal = preparedStatement(
  (db, p: Placeholders<ListValues>, v) =>
    v.utr === "invalid"
      ? db.select({ total: count() }).from(cisSubcontractors).where(listWhere(p, v))
      : countedTotalQuery(db, p.tenantId, v, v.type === null ? null : p.type),
  listShape,
);
const preparedSummary = preparedStatement((db, p: Placeholders<ListValues>) => summaryQuery(db, p.tenantId));

/**
 * The unfiltered or status/type-filtered total, summed from cis_subcontractor_counts (a row per
 * active flag, type and verification status, kept by triggers in the same statement as every
 * write) instead of counting every subcontractor; a search counts the matching rows themselves.
 */
function countedTotalQuery(db: Db, tenantId: string | SQLWrapper, query: Pick<ListQuery, "status">, type: string | SQLWrapper | null) {
  const c = cisSubcontractorCounts;
  return db
    .select({ total: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(
      and(
        sql`${c.tenantId} = ${tenantId}`,
        query.status === "all" ? undefined : eq(c.active, query.status === "active"),
        type === null ? undefined : sql`${c.type} = ${type}`,
      ),
    );
}

export function summaryQuery(db: Db, tenantId: string | SQLWrapper) {
  const c = cisSubcontractorCounts;
  const activeWhen = (cond?: SQL) => sql<number>`coalesce(sum(CASE WHEN ${c.active} = 1${cond ? sql` AND ${cond}` : sql``} THEN ${c.n} ELSE 0 END), 0)`;
  return db
    .select({
      total: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number),
      active: activeWhen(),
      gross: activeWhen(sql`${c.verificationStatus} = 'gross'`),
      standard: activeWhen(sql`${c.verificationStatus} = 'standard'`),
    })
    .from(c)
    .where(sql`${c.tenantId} = ${tenantId}`);
}

export function toSummary(row: { total: number; active: number; gross: number; standard: number }) {
  return { total: row.total, active: Number(row.active), gross: Number(row.gross), standard: Number(row.standard) };
}

/** The four summary cards, in one aggregate query. */
export async function subcontractorSummary(env: Env, tenantId: string) {
  const [row] = await summaryQuery(dbFor(env, tenantId), tenantId);
  return toSummary(row);
}

/**
 * What a page may see of a row: masked identifiers only. The ciphertexts and the search hash
 * never leave the server (they would otherwise travel in the loader's JSON).
 */
export function subcontractorView(row: SubcontractorRow) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    utrMasked: row.utrMasked,
    ninoMasked: row.ninoMasked,
    hasUtr: Boolean(row.utrEnc),
    hasNino: Boolean(row.ninoEnc),
    companyNumber: row.companyNumber,
    vatNumber: row.vatNumber,
    email: row.email,
    phone: row.phone,
    verificationStatus: row.verificationStatus,
    verificationRate: row.verificationRate,
    verificationMethod: row.verificationMethod,
    verificationReference: row.verificationReference,
    verificationNotes: row.verificationNotes,
    verifiedDate: row.verifiedDate,
    active: row.active,
    publicBody: row.publicBody,
    utrInvalid: row.utrInvalid === true,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type SubcontractorView = ReturnType<typeof subcontractorView>;

/** A list row: contact details are masked in the list as well. */
/**
 * The columns a list row is made from (`subcontractorListItem`): never the ciphertexts, hashes or
 * bookkeeping columns, which the page does not show and which cost transfer, mapping and memory.
 */
const LIST_COLUMNS = {
  id: cisSubcontractors.id,
  type: cisSubcontractors.type,
  name: cisSubcontractors.name,
  utrMasked: cisSubcontractors.utrMasked,
  ninoMasked: cisSubcontractors.ninoMasked,
  email: cisSubcontractors.email,
  phone: cisSubcontractors.phone,
  verificationStatus: cisSubcontractors.verificationStatus,
  verificationRate: cisSubcontractors.verificationRate,
  verificationMethod: cisSubcontractors.verificationMethod,
  active: cisSubcontractors.active,
  publicBody: cisSubcontractors.publicBody,
  utrInvalid: cisSubcontractors.utrInvalid,
};
type SubcontractorListRow = Pick<SubcontractorRow, keyof typeof LIST_COLUMNS>;

export function subcontractorListItem(row: SubcontractorListRow) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    utrMasked: row.utrMasked,
    ninoMasked: row.ninoMasked,
    hasEmail: Boolean(row.email),
    emailMasked: maskEmail(row.email),
    phoneMasked: maskPhone(row.phone),
    verificationStatus: row.verificationStatus,
    verificationRate: row.verificationRate,
    verificationMethod: row.verificationMethod,
    active: row.active,
    publicBody: row.publicBody,
    utrInvalid: row.utrInvalid === true,
  };
}
export type SubcontractorListItem = ReturnType<typeof subcontractorListItem>;

/** Null for another tenant's id, an unknown id, or a deleted row: callers answer 404. */
export async function getSubcontractor(env: Env, tenantId: string, id: string): Promise<SubcontractorRow | null> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisSubcontractors)
    .where(and(visible(tenantId), eq(cisSubcontractors.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * The active subcontractor whose id the subquery yields (a portal session's user id), for the
 * caller's batch: a deleted or archived subcontractor matches nothing.
 */
export function activeSubcontractorStatement(db: Db, tenantId: string, idFrom: SQLWrapper) {
  return db
    .select()
    .from(cisSubcontractors)
    .where(
      and(
        inArray(cisSubcontractors.id, idFrom),
        forTenant(cisSubcontractors, tenantId),
        isNull(cisSubcontractors.deletedAt),
        eq(cisSubcontractors.active, true),
      ),
    )
    .limit(1);
}

export async function findByUtr(env: Env, tenantId: string, utr: string): Promise<SubcontractorRow | null> {
  const hash = await piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", utr.replace(/\s+/g, ""));
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisSubcontractors)
    .where(and(visible(tenantId), eq(cisSubcontractors.utrHash, hash)))
    .limit(1);
  return row ?? null;
}

type Identifiers = Pick<SubcontractorRow, "utrEnc" | "utrMasked" | "utrHash" | "utrInvalid" | "ninoEnc" | "ninoMasked">;

async function protectIdentifiers(
  env: Env,
  tenantId: string,
  id: string,
  utr: string | undefined,
  nino: string | undefined | null,
): Promise<Partial<Identifiers>> {
  const out: Partial<Identifiers> = {};
  if (utr) {
    out.utrEnc = await encryptPii(env.PII_KEYS, utr, piiCtx(tenantId, id, "utr"));
    out.utrMasked = maskUtr(utr);
    out.utrHash = await piiSearchHash(env.PII_HMAC_KEY, tenantId, "utr", utr);
    // Stored beside the ciphertext, so the list can flag a UTR failing HMRC's check digit without decrypting.
    out.utrInvalid = !hasValidUtrCheckDigit(utr);
  }
  if (nino) {
    out.ninoEnc = await encryptPii(env.PII_KEYS, nino, piiCtx(tenantId, id, "nino"));
    out.ninoMasked = maskNino(nino);
  } else if (nino === null) {
    out.ninoEnc = null;
    out.ninoMasked = null;
  }
  return out;
}

/** The columns stored as typed (everything but the identifiers), for a create, an update and the import. */
export function plainFields(v: SubcontractorCreate | SubcontractorUpdate) {
  return {
    type: v.type,
    name: v.name,
    nameLower: v.name.toLowerCase(),
    companyNumber: v.companyNumber ?? null,
    vatNumber: v.vatNumber ?? null,
    email: v.email ?? null,
    phone: v.phone ?? null,
    verificationStatus: v.verificationStatus,
    verificationRate: v.verificationRate,
    verificationMethod: v.verificationMethod ?? null,
    verificationReference: v.verificationReference ?? null,
    verificationNotes: v.verificationNotes ?? null,
    verifiedDate: v.verifiedDate ?? null,
    publicBody: v.publicBody ?? false,
  };
}

function verifiedAudit(db: Db, tenantId: string, id: string, actor: Actor, fields: ReturnType<typeof plainFields>) {
  return auditInsert(db, {
    tenantId,
    action: "cis.subcontractor.verified",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "subcontractor",
    targetId: id,
    payload: { status: fields.verificationStatus, rate: fields.verificationRate, method: fields.verificationMethod },
  });
}

export type SaveResult = Ok<{ id: string }> | SaveError;

/** Who saves, and whether they may record verification (cis.sub.verify). */
export type SaveOptions = { canVerify: boolean };

const DUPLICATE: SaveError = { ok: false, code: "duplicate_utr", field: "utr" };

export function isUniqueUtrViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : String(err)} ${err instanceof Error && err.cause ? String((err.cause as Error).message ?? err.cause) : ""}`;
  return /UNIQUE constraint failed/i.test(text) && /utr_hash|cis_subcontractors_tenant_utr_unique/i.test(text);
}

/** Without cis.sub.verify a save may not move any verification field away from `before`. */
function verificationRefusal(
  before: Parameters<typeof changedVerificationFields>[0],
  after: Parameters<typeof changedVerificationFields>[1],
  opts: SaveOptions,
): SaveError | null {
  if (opts.canVerify) return null;
  const fields = changedVerificationFields(before, after);
  return fields.length ? { ok: false, code: "verification_forbidden", fields } : null;
}

/** Creates a subcontractor (active unless told otherwise) with its audit and activity entries in one batch. */
export async function createSubcontractor(
  env: Env,
  tenantId: string,
  input: SubcontractorCreate,
  actor: Actor,
  opts: SaveOptions & { active?: boolean },
): Promise<SaveResult> {
  const refused = verificationRefusal(UNVERIFIED, input, opts);
  if (refused) return refused;
  if (await findByUtr(env, tenantId, input.utr)) return DUPLICATE;
  const db = dbFor(env, tenantId);
  const id = newId();
  const now = Date.now();
  const ids = await protectIdentifiers(env, tenantId, id, input.utr, input.type === "individual" ? input.nino : null);
  const verified = input.verifiedDate || input.verificationReference ? actor.id : null;
  const statements = [
    db.insert(cisSubcontractors).values({
      id,
      tenantId,
      ...plainFields(input),
      ...ids,
      verifiedBy: verified,
      active: opts.active ?? input.active ?? true,
      createdAt: now,
      updatedAt: now,
      createdBy: actor.id,
      updatedBy: actor.id,
    }),
    auditInsert(db, {
      tenantId,
      action: "cis.subcontractor.created",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "subcontractor",
      targetId: id,
      payload: { type: input.type, verificationStatus: input.verificationStatus, ...(input.publicBody ? { publicBody: true } : {}) },
    }),
    activityInsert(db, {
      tenantId,
      module: "cis",
      action: "subcontractor.created",
      entityType: "subcontractor",
      entityId: id,
      performedBy: actor.id,
      performedByName: actor.name,
      details: { name: input.name },
    }),
  ];
  // Verification details recorded at creation are a verification like any later one.
  if (verified || input.verificationMethod) statements.push(verifiedAudit(db, tenantId, id, actor, plainFields(input)));
  return saveInOneBatch(db, statements, id);
}

/**
 * Writes a save and its audit entries in one batch. Two saves racing past the UTR check meet
 * the unique index, which refuses the batch whole: reported as the duplicate it is.
 */
async function saveInOneBatch(db: Db, statements: BatchItem<"sqlite">[], id: string): Promise<SaveResult> {
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    if (isUniqueUtrViolation(err)) return DUPLICATE;
    throw err;
  }
  return { ok: true, id };
}

const sameEmail = (a: string | null | undefined, b: string | null | undefined) => (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

/**
 * Updates a subcontractor. A blank UTR keeps the stored one. A change of verification status,
 * method, reference or date is also audited as 'verified', and refused without cis.sub.verify.
 * A new e-mail address or an archive withdraws the portal links already sent and ends the
 * portal sessions, in the same batch: whoever read the old mailbox keeps no way in.
 */
export async function updateSubcontractor(
  env: Env,
  tenantId: string,
  id: string,
  input: SubcontractorUpdate,
  actor: Actor,
  opts: SaveOptions,
): Promise<SaveResult> {
  const existing = await getSubcontractor(env, tenantId, id);
  if (!existing) return { ok: false, code: "not_found" };
  const refused = verificationRefusal(existing, input, opts);
  if (refused) return refused;
  if (input.utr) {
    const clash = await findByUtr(env, tenantId, input.utr);
    if (clash && clash.id !== id) return DUPLICATE;
  }
  const db = dbFor(env, tenantId);
  const now = Date.now();
  // undefined keeps the stored NINO; null clears it (asked for, or the type no longer takes one).
  const nino = input.type === "individual" && !input.removeNino ? (input.nino ?? undefined) : null;
  const ids = await protectIdentifiers(env, tenantId, id, input.utr, nino);
  const fields = plainFields(input);
  const verificationChanged = changedVerificationFields(existing, fields).length > 0;
  const changed = Object.keys(fields).filter((k) => k !== "nameLower" && (existing as Record<string, unknown>)[k] !== (fields as Record<string, unknown>)[k]);
  if (input.utr) changed.push("utr");
  // A new NINO, or one removed on request or because the type no longer takes it.
  if (typeof nino === "string" || (nino === null && existing.ninoEnc !== null)) changed.push("nino");
  if (existing.active !== input.active) changed.push("active");
  const archived = existing.active && !input.active;
  const cutPortal = archived || !sameEmail(existing.email, fields.email);
  const statements: BatchItem<"sqlite">[] = [
    db
      .update(cisSubcontractors)
      .set({
        ...fields,
        ...ids,
        active: input.active,
        verifiedBy: verificationChanged ? actor.id : existing.verifiedBy,
        ...(cutPortal ? { portalLinksValidAfter: now } : {}),
        updatedAt: now,
        updatedBy: actor.id,
      })
      .where(and(forTenant(cisSubcontractors, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt))),
    // Field names only: never the values of identifiers.
    auditInsert(db, {
      tenantId,
      action: "cis.subcontractor.updated",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "subcontractor",
      targetId: id,
      payload: { fields: changed },
    }),
    activityInsert(db, {
      tenantId,
      module: "cis",
      action: "subcontractor.updated",
      entityType: "subcontractor",
      entityId: id,
      performedBy: actor.id,
      performedByName: actor.name,
      details: { name: input.name },
    }),
  ];
  if (verificationChanged) statements.push(verifiedAudit(db, tenantId, id, actor, fields));
  // The form's Active switch archives or reactivates: recorded under its own name as well.
  if (existing.active !== input.active) {
    statements.push(
      auditInsert(db, {
        tenantId,
        action: input.active ? "cis.subcontractor.reactivated" : "cis.subcontractor.archived",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "subcontractor",
        targetId: id,
      }),
    );
  }
  if (cutPortal) statements.push(...revokeSessionsOfUsersStatements(db, tenantId, "portal", [id], now));
  return saveInOneBatch(db, statements, id);
}

export type BulkResult = { succeeded: string[]; failed: { id: string; code: BulkFailure }[]; names: Record<string, string> };

export { BULK_LIMIT };

/** Names of this tenant's visible subcontractors among `ids` (for confirmation steps and results). */
export async function subcontractorNames(env: Env, tenantId: string, ids: string[]): Promise<Record<string, string>> {
  const unique = [...new Set(ids)].slice(0, BULK_LIMIT);
  if (unique.length === 0) return {};
  const rows = await dbFor(env, tenantId)
    .select({ id: cisSubcontractors.id, name: cisSubcontractors.name })
    .from(cisSubcontractors)
    .where(and(visible(tenantId), inArray(cisSubcontractors.id, unique)));
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}

/**
 * Archive (active=false) several subcontractors; each id reports on its own. A form's one-time
 * submission `claim` goes into the batch of the change, so a repeated key changes nothing.
 */
export async function archiveSubcontractors(env: Env, tenantId: string, ids: string[], actor: Actor, claim?: SubmissionClaim): Promise<BulkResult> {
  return bulkChange(env, tenantId, ids, actor, "archive", claim);
}

/** Soft delete: sets deletedAt/deletedBy; nothing is removed. `claim` as for archiving. */
export async function deleteSubcontractors(env: Env, tenantId: string, ids: string[], actor: Actor, claim?: SubmissionClaim): Promise<BulkResult> {
  return bulkChange(env, tenantId, ids, actor, "delete", claim);
}

async function bulkChange(env: Env, tenantId: string, ids: string[], actor: Actor, kind: "archive" | "delete", claim?: SubmissionClaim): Promise<BulkResult> {
  const all = [...new Set(ids)];
  const unique = all.slice(0, BULK_LIMIT);
  const result: BulkResult = { succeeded: [], failed: all.slice(BULK_LIMIT).map((id) => ({ id, code: "too_many" as const })), names: {} };
  if (unique.length === 0) return result;
  const db = dbFor(env, tenantId);
  const found = await db
    .select({ id: cisSubcontractors.id, active: cisSubcontractors.active, name: cisSubcontractors.name })
    .from(cisSubcontractors)
    .where(and(visible(tenantId), inArray(cisSubcontractors.id, unique)));
  const byId = new Map(found.map((f) => [f.id, f]));
  const now = Date.now();
  const statements: BatchItem<"sqlite">[] = [];
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) {
      result.failed.push({ id, code: "not_found" });
      continue;
    }
    result.names[id] = row.name;
    if (kind === "archive" && !row.active) {
      result.failed.push({ id, code: "already_archived" });
      continue;
    }
    result.succeeded.push(id);
    const target = and(forTenant(cisSubcontractors, tenantId), eq(cisSubcontractors.id, id), isNull(cisSubcontractors.deletedAt));
    statements.push(
      kind === "archive"
        ? db.update(cisSubcontractors).set({ active: false, portalLinksValidAfter: now, updatedAt: now, updatedBy: actor.id }).where(target)
        : db
            .update(cisSubcontractors)
            .set({ deletedAt: now, deletedBy: actor.id, portalLinksValidAfter: now, updatedAt: now, updatedBy: actor.id })
            .where(target),
      auditInsert(db, {
        tenantId,
        action: kind === "archive" ? "cis.subcontractor.archived" : "cis.subcontractor.deleted",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "subcontractor",
        targetId: id,
      }),
      activityInsert(db, {
        tenantId,
        module: "cis",
        action: kind === "archive" ? "subcontractor.archived" : "subcontractor.deleted",
        entityType: "subcontractor",
        entityId: id,
        performedBy: actor.id,
        performedByName: actor.name,
        details: { name: row.name },
      }),
    );
  }
  if (statements.length === 0) return result;
  // An archived or deleted subcontractor keeps no portal access: their sessions end in the same batch.
  statements.push(...revokeSessionsOfUsersStatements(db, tenantId, "portal", result.succeeded, now));
  // A repeated submission key fails this INSERT and with it the whole batch.
  if (claim) statements.push(claimSubmission(db, claim));
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return result;
}

/** Decrypts one identifier for a user holding cis.pii.unmask; the reveal is audited in the same call. */
export async function revealIdentifier(env: Env, tenantId: string, id: string, field: "utr" | "nino", actor: Actor, ip: string | null): Promise<string | null> {
  const row = await getSubcontractor(env, tenantId, id);
  const stored = field === "utr" ? row?.utrEnc : row?.ninoEnc;
  if (!row || !stored) return null;
  let value: string;
  try {
    value = await decryptPii(env.PII_KEYS, stored, piiCtx(tenantId, id, field));
  } catch (err) {
    // A value that will not decrypt (tampered, copied from another row, unknown key) is worth a trace.
    await auditInsert(dbFor(env, tenantId), {
      tenantId,
      action: "cis.error",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "subcontractor",
      targetId: id,
      payload: { operation: "pii.reveal", field, error: err instanceof Error ? err.message : "unknown" },
      ip,
    });
    throw err;
  }
  await auditInsert(dbFor(env, tenantId), {
    tenantId,
    action: "cis.pii.revealed",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "subcontractor",
    targetId: id,
    payload: { field },
    ip,
  });
  return value;
}

/** For the key-rotation command and tests: decrypt with the row's own binding. */
export async function decryptSubcontractorField(
  env: Env,
  row: Pick<SubcontractorRow, "tenantId" | "id" | "utrEnc" | "ninoEnc">,
  field: "utr" | "nino",
): Promise<string | null> {
  const stored = field === "utr" ? row.utrEnc : row.ninoEnc;
  return stored ? decryptPii(env.PII_KEYS, stored, piiCtx(row.tenantId, row.id, field)) : null;
}
