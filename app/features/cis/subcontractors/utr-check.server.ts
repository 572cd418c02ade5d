import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { fanOut, type Db } from "~/db/client.server";
import { cisSubcontractors } from "~/db/schema";
import { hasValidUtrCheckDigit } from "../domain";
import { decryptPii } from "../pii.server";

/** Rows checked per run: each costs one decryption; a few hundred stay far inside a cron run's limits. */
export const UTR_CHECK_SLICE = 200;

export type UtrCheckRun = { checked: number; flagged: number; failed: number; more: boolean };

/**
 * The backfill of `utr_invalid` for rows written before it was stored (every write sets it since):
 * up to `limit` rows with a UTR and no flag yet, across tenants, are decrypted and checked against
 * HMRC's check digit. Each flag is written only while the row still holds the UTR that was read and
 * no flag, so a save or a key rotation in between wins and the row is simply checked again on the
 * next run; a rerun finds nothing left to do. A row whose UTR cannot be decrypted is left unflagged
 * and counted as failed.
 */
export async function runUtrCheckBackfill(env: Env, opts: { limit?: number } = {}): Promise<UtrCheckRun> {
  const limit = opts.limit ?? UTR_CHECK_SLICE;
  // Every shard checks its own slice; the run is the sum of them.
  const runs = await fanOut(env, (db) => utrCheckIn(env, db, limit));
  return runs.reduce<UtrCheckRun>(
    (sum, { result: r }) => ({ checked: sum.checked + r.checked, flagged: sum.flagged + r.flagged, failed: sum.failed + r.failed, more: sum.more || r.more }),
    { checked: 0, flagged: 0, failed: 0, more: false },
  );
}

async function utrCheckIn(env: Env, db: Db, limit: number): Promise<UtrCheckRun> {
  const rows = await db
    .select({ tenantId: cisSubcontractors.tenantId, id: cisSubcontractors.id, utrEnc: cisSubcontractors.utrEnc })
    .from(cisSubcontractors)
    .where(and(isNull(cisSubcontractors.utrInvalid), isNotNull(cisSubcontractors.utrEnc)))
    .limit(limit + 1);
  const slice = rows.slice(0, limit);
  const updates: BatchItem<"sqlite">[] = [];
  let flagged = 0;
  let failed = 0;
  for (const row of slice) {
    let utr: string;
    try {
      utr = await decryptPii(env.PII_KEYS, row.utrEnc!, { tenantId: row.tenantId, table: "cis_subcontractors", recordId: row.id, field: "utr" });
    } catch (err) {
      failed += 1;
      console.error(`UTR check: subcontractor ${row.id} of tenant ${row.tenantId} could not be decrypted`, err);
      continue;
    }
    const invalid = !hasValidUtrCheckDigit(utr.replace(/\s+/g, ""));
    if (invalid) flagged += 1;
    updates.push(
      db
        .update(cisSubcontractors)
        .set({ utrInvalid: invalid })
        .where(
          and(
            eq(cisSubcontractors.tenantId, row.tenantId),
            eq(cisSubcontractors.id, row.id),
            isNull(cisSubcontractors.utrInvalid),
            sql`${cisSubcontractors.utrEnc} = ${row.utrEnc}`,
          ),
        ),
    );
  }
  for (let i = 0; i < updates.length; i += 50) {
    const chunk = updates.slice(i, i + 50);
    await db.batch(chunk as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  }
  return { checked: updates.length, flagged, failed, more: rows.length > limit };
}
