import { and, asc, eq, gt, or, type SQL } from "drizzle-orm";
import { formatInTimeZone } from "date-fns-tz";
import { dbFor } from "~/db/client.server";
import { cisSubcontractors } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { CSV_BOM, csvRow } from "~/utils/csv";
import { LONDON } from "~/utils/dates";
import type { Actor } from "~/features/auth";
import { maskEmail, maskPhone } from "../pii.server";
import { subcontractorFilter, type ListQuery } from "./subcontractors.server";

/** The list's columns, in the list's order: an export holds what the list shows. */
export const EXPORT_HEADER = ["Name", "Type", "UTR", "NINO", "Email", "Phone", "Status", "Verification Rate", "Public Body"] as const;

/** Rows read per query: a 5,000-row tenant is ten small reads, never one huge result. */
export const EXPORT_CHUNK = 500;

const TYPE_LABELS = { individual: "Individual", company: "Company", partnership: "Partnership" } as const;

/** cis-subcontractors-2026-05-19.csv, dated in London. */
export function exportFileName(now: Date = new Date()): string {
  return `cis-subcontractors-${formatInTimeZone(now, LONDON, "yyyy-MM-dd")}.csv`;
}

const exportColumns = {
  id: cisSubcontractors.id,
  nameLower: cisSubcontractors.nameLower,
  name: cisSubcontractors.name,
  type: cisSubcontractors.type,
  utrMasked: cisSubcontractors.utrMasked,
  ninoMasked: cisSubcontractors.ninoMasked,
  email: cisSubcontractors.email,
  phone: cisSubcontractors.phone,
  active: cisSubcontractors.active,
  verificationRate: cisSubcontractors.verificationRate,
  publicBody: cisSubcontractors.publicBody,
};
type ExportRow = { [K in keyof typeof exportColumns]: (typeof cisSubcontractors.$inferSelect)[K] };

/** One CSV line of masked values: the plaintext identifiers are never read for an export. */
export function exportLine(
  r: Pick<ExportRow, "name" | "type" | "utrMasked" | "ninoMasked" | "email" | "phone" | "active" | "verificationRate" | "publicBody">,
): string {
  return csvRow([
    r.name,
    TYPE_LABELS[r.type],
    r.utrMasked ?? "",
    r.ninoMasked ?? "",
    maskEmail(r.email),
    maskPhone(r.phone),
    r.active ? "Active" : "Archived",
    `${r.verificationRate}%`,
    // The import's own answer, so an exported file's column reads back.
    r.publicBody ? "yes" : "no",
  ]);
}

/**
 * Pages through the filtered subcontractors by (name_lower, id), the list's own order, so
 * each query returns at most `chunk` rows whatever the tenant's size and no row is skipped
 * or repeated between pages.
 */
export async function* subcontractorExportChunks(
  env: Env,
  tenantId: string,
  query: Pick<ListQuery, "q" | "status" | "type">,
  chunk = EXPORT_CHUNK,
): AsyncGenerator<ExportRow[]> {
  const db = dbFor(env, tenantId);
  const where = await subcontractorFilter(env, tenantId, query);
  let after: { nameLower: string; id: string } | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? or(gt(cisSubcontractors.nameLower, after.nameLower), and(eq(cisSubcontractors.nameLower, after.nameLower), gt(cisSubcontractors.id, after.id)))
      : undefined;
    const rows: ExportRow[] = await db
      .select(exportColumns)
      .from(cisSubcontractors)
      .where(and(where, cursor))
      .orderBy(asc(cisSubcontractors.nameLower), asc(cisSubcontractors.id))
      .limit(chunk);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1];
    after = { nameLower: last.nameLower, id: last.id };
  }
}

export type SubcontractorExport = { fileName: string; body: string; rowCount: number };

/**
 * Builds the CSV (BOM, header, one line per subcontractor) chunk by chunk and records the
 * export in the audit log. Returns null, writing nothing, when the filters match no row.
 *
 * The file is assembled before anything is sent so the audit entry carries the exact row
 * count and is written before any data leaves; a streamed body could not promise either.
 */
export async function exportSubcontractors(
  env: Env,
  tenantId: string,
  query: Pick<ListQuery, "q" | "status" | "type">,
  actor: Actor,
  opts: { ip?: string | null; now?: Date; chunk?: number } = {},
): Promise<SubcontractorExport | null> {
  const parts: string[] = [CSV_BOM, csvRow(EXPORT_HEADER)];
  let rowCount = 0;
  for await (const rows of subcontractorExportChunks(env, tenantId, query, opts.chunk)) {
    for (const r of rows) parts.push(exportLine(r));
    rowCount += rows.length;
  }
  if (rowCount === 0) return null;
  await auditInsert(dbFor(env, tenantId), {
    tenantId,
    action: "cis.export.subcontractors",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "subcontractor",
    payload: { entity: "subcontractors", format: "csv", rowCount },
    ip: opts.ip ?? null,
  });
  return { fileName: exportFileName(opts.now), body: parts.join(""), rowCount };
}
