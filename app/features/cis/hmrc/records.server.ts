/**
 * Hourly care of the HMRC message records (the cron's `cis-hmrc-records`):
 *
 * - Legacy rows, written before the XML was stored encrypted, are encrypted a slice at a time
 *   (LEGACY_SLICE rows per table and run), each UPDATE guarded by the value it read, so a row the
 *   app changed meanwhile is left for the next run.
 * - Retention: a submission is kept for six whole tax years after the tax year it was made in
 *   (cisRecordPurgeBefore), then deleted; one still in flight is never deleted. The development
 *   Transaction Engine's log is not a record of anything HMRC received: it goes after 7 days.
 */
import { and, eq, lt, notInArray, sql } from "drizzle-orm";
import { globalDb, sumOverShards, type Db } from "~/db/client.server";
import { devHmrcMessages, HMRC_IN_FLIGHT_STATUSES, hmrcSubmissions } from "~/db/schema";
import { forTenant } from "~/db/tenancy";
import { cisRecordPurgeBefore } from "../domain/tax-month";
import { devMessageXmlContext, isSealed, sealXml, submissionXmlContext, type DevMessageXmlField, type SubmissionXmlField } from "./stored-xml.server";

/** Rows per table encrypted in one run: XML can be large, and the hourly run should stay short. */
export const LEGACY_SLICE = 50;
const DEV_LOG_DAYS = 7;
const DAY = 86_400_000;

/** Plain XML (legacy) rather than the encrypted form `v{n}.…`. */
const legacy = (column: unknown) => sql`(${column} IS NOT NULL AND ${column} NOT GLOB 'v[0-9]*.*')`;

export type HmrcRecordsRun = {
  sealed: { submissions: number; devMessages: number };
  purged: { submissions: number; devMessages: number };
};

/** Each shard seals its own slice of legacy submissions. */
async function sealLegacySubmissions(env: Env, limit: number): Promise<number> {
  return sumOverShards(env, (db) => sealLegacySubmissionsIn(env, db, limit));
}

async function sealLegacySubmissionsIn(env: Env, db: Db, limit: number): Promise<number> {
  const rows = await db
    .select({ id: hmrcSubmissions.id, tenantId: hmrcSubmissions.tenantId, requestXml: hmrcSubmissions.requestXml, responseXml: hmrcSubmissions.responseXml })
    .from(hmrcSubmissions)
    .where(sql`${legacy(hmrcSubmissions.requestXml)} OR ${legacy(hmrcSubmissions.responseXml)}`)
    .limit(limit);
  const fields: { field: SubmissionXmlField; key: "requestXml" | "responseXml" }[] = [
    { field: "request_xml", key: "requestXml" },
    { field: "response_xml", key: "responseXml" },
  ];
  const updates = [];
  for (const row of rows) {
    const set: Partial<Record<"requestXml" | "responseXml", string>> = {};
    const guards = [];
    for (const { field, key } of fields) {
      const value = row[key];
      if (value === null || isSealed(value)) continue;
      set[key] = await sealXml(env, value, submissionXmlContext(row.tenantId, row.id, field));
      guards.push(sql`${hmrcSubmissions[key]} = ${value}`);
    }
    if (guards.length === 0) continue;
    updates.push(
      db
        .update(hmrcSubmissions)
        .set(set)
        .where(and(forTenant(hmrcSubmissions, row.tenantId), eq(hmrcSubmissions.id, row.id), ...guards))
        .returning({ id: hmrcSubmissions.id }),
    );
  }
  if (updates.length === 0) return 0;
  const results = await db.batch(updates as [(typeof updates)[0], ...typeof updates]);
  return results.reduce((n, r) => n + r.length, 0);
}

async function sealLegacyDevMessages(env: Env, limit: number): Promise<number> {
  const db = globalDb(env);
  const rows = await db
    .select({
      id: devHmrcMessages.id,
      requestXml: devHmrcMessages.requestXml,
      responseXml: devHmrcMessages.responseXml,
      finalResponseXml: devHmrcMessages.finalResponseXml,
    })
    .from(devHmrcMessages)
    .where(sql`${legacy(devHmrcMessages.requestXml)} OR ${legacy(devHmrcMessages.responseXml)} OR ${legacy(devHmrcMessages.finalResponseXml)}`)
    .limit(limit);
  type Key = "requestXml" | "responseXml" | "finalResponseXml";
  const fields: { field: DevMessageXmlField; key: Key }[] = [
    { field: "request_xml", key: "requestXml" },
    { field: "response_xml", key: "responseXml" },
    { field: "final_response_xml", key: "finalResponseXml" },
  ];
  const updates = [];
  for (const row of rows) {
    const set: Partial<Record<Key, string>> = {};
    const guards = [];
    for (const { field, key } of fields) {
      const value = row[key];
      if (value === null || isSealed(value)) continue;
      set[key] = await sealXml(env, value, devMessageXmlContext(row.id, field));
      guards.push(sql`${devHmrcMessages[key]} = ${value}`);
    }
    if (guards.length === 0) continue;
    updates.push(
      db
        .update(devHmrcMessages)
        .set(set)
        .where(and(eq(devHmrcMessages.id, row.id), ...guards))
        .returning({ id: devHmrcMessages.id }),
    );
  }
  if (updates.length === 0) return 0;
  const results = await db.batch(updates as [(typeof updates)[0], ...typeof updates]);
  return results.reduce((n, r) => n + r.length, 0);
}

/** Encrypts up to `limit` legacy rows of each table; returns how many rows were encrypted. */
export async function sealLegacyHmrcXml(env: Env, limit = LEGACY_SLICE): Promise<HmrcRecordsRun["sealed"]> {
  return { submissions: await sealLegacySubmissions(env, limit), devMessages: await sealLegacyDevMessages(env, limit) };
}

/** Deletes submissions past their retention (never one in flight) and the fake's log older than a week. */
export async function purgeExpiredHmrcRecords(env: Env, now: number): Promise<HmrcRecordsRun["purged"]> {
  const cutoff = cisRecordPurgeBefore(new Date(now)).getTime();
  // Submissions are tenants' rows, on every shard; the fake's log is the platform's.
  const [submissions, devMessages] = await Promise.all([
    sumOverShards(env, async function purgeExpiredSubmissionsIn(db) {
      const res = await db
        .delete(hmrcSubmissions)
        .where(and(lt(hmrcSubmissions.createdAt, cutoff), notInArray(hmrcSubmissions.status, [...HMRC_IN_FLIGHT_STATUSES])));
      return res.meta.changes ?? 0;
    }),
    globalDb(env)
      .delete(devHmrcMessages)
      .where(lt(devHmrcMessages.createdAt, now - DEV_LOG_DAYS * DAY)),
  ]);
  return { submissions, devMessages: devMessages.meta.changes ?? 0 };
}

/** The hourly run; `now` is the cron's scheduled time. */
export async function runHmrcRecordsHousekeeping(env: Env, now = Date.now()): Promise<HmrcRecordsRun> {
  const purged = await purgeExpiredHmrcRecords(env, now);
  const sealed = await sealLegacyHmrcXml(env);
  return { sealed, purged };
}
