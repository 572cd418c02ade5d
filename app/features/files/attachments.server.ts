/**
 * Files other features attach (calendar events, chat messages): found by name and re-read by id,
 * always through the files area's own rule of who may see a file, so an attachment never shows a
 * file to someone the Files pages would not show it to.
 */
import { and, desc, eq, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SessionUser } from "~/context";
import { dbFor, type Db } from "~/db/client.server";
import { files } from "~/db/schema";
import { can } from "~/features/auth";
import { visibleTo } from "./files.server";
import { FILE_SCOPES } from "./module.server";

/** The person choosing or viewing attachments. */
export type AttachActor = Pick<SessionUser, "id" | "email" | "displayName" | "tenantId" | "scopes">;

/** What another feature may show of a file it links to. */
export type AttachableFile = { id: string; name: string; size: number; mimeType: string; createdAt: number };

export const ATTACHABLE_LIMIT = 25;

const columns = { id: files.id, name: files.name, size: files.size, mimeType: files.mimeType, createdAt: files.createdAt };

function seenBy(tenantId: string, actor: AttachActor): SQL | null {
  if (actor.tenantId !== tenantId || !can(actor, FILE_SCOPES.view)) return null;
  return (
    and(eq(files.tenantId, tenantId), visibleTo({ id: actor.id, email: actor.email, name: actor.displayName, manageAll: can(actor, FILE_SCOPES.manageAll) })) ??
    null
  );
}

/** The query for files the person may see whose name contains `q`, to put in a caller's D1 batch; null when they see none. */
export function searchAttachableFilesQuery(db: Db, tenantId: string, actor: AttachActor, opts: { q: string; limit?: number }) {
  const where = seenBy(tenantId, actor);
  if (!where) return null;
  const limit = Math.max(1, Math.min(ATTACHABLE_LIMIT, Math.floor(opts.limit ?? ATTACHABLE_LIMIT)));
  const q = opts.q.trim().slice(0, 200);
  const byName = q ? sql`${files.name} LIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'` : sql`1 = 1`;
  return db.select(columns).from(files).where(and(where, byName)).orderBy(desc(files.createdAt), desc(files.id)).limit(limit);
}

/** Files the person may see whose name contains `q` (all of them when empty), newest first, at most 25. */
export async function searchAttachableFiles(env: Env, tenantId: string, actor: AttachActor, opts: { q: string; limit?: number }): Promise<AttachableFile[]> {
  const query = searchAttachableFilesQuery(dbFor(env, tenantId), tenantId, actor, opts);
  return query ? await query : [];
}

/**
 * The query for those of the given file ids (or of a subquery's) the person may see now, to put in
 * a caller's D1 batch; null when there is nothing to read. Order the answer with `inAskedOrder`.
 */
export function attachableFilesQuery(db: Db, tenantId: string, actor: AttachActor, ids: readonly string[] | SQLWrapper) {
  const where = seenBy(tenantId, actor);
  // A list of ids, or a subquery selecting them (the caller's own attachments table).
  const wanted = Array.isArray(ids) ? [...new Set(ids)].slice(0, 100) : (ids as SQLWrapper);
  if (!where || (Array.isArray(wanted) && wanted.length === 0)) return null;
  return db
    .select(columns)
    .from(files)
    .where(and(where, inArray(files.id, wanted)));
}

/** Rows in the order their ids were asked for. */
export function inAskedOrder(rows: readonly AttachableFile[], ids: readonly string[]): AttachableFile[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
}

/** Of the given file ids, those the person may see now (others are left out), in the order asked. */
export async function attachableFilesById(env: Env, tenantId: string, actor: AttachActor, ids: readonly string[]): Promise<AttachableFile[]> {
  const query = attachableFilesQuery(dbFor(env, tenantId), tenantId, actor, ids);
  return query ? inAskedOrder(await query, ids) : [];
}

/**
 * The same as attachableFilesQuery with the ids given as a sub-select (say, the files linked from
 * one page of chat messages), so a caller reads them in the batch that finds the ids.
 */
export function attachableFilesAmongQuery(db: Db, tenantId: string, actor: AttachActor, ids: SQL) {
  const where = seenBy(tenantId, actor);
  if (!where) return null;
  // A raw fragment in parentheses: drizzle's inArray would put a bare SELECT after IN.
  return db
    .select(columns)
    .from(files)
    .where(and(where, sql`${files.id} IN (${ids})`));
}
