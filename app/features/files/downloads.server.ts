/** A visible file's stored object for download and preview, and the download's audit entry. */
import { and, eq } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { files, fileVersions } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { FILE_AUDIT, visibleTo, type Viewer } from "./files.server";

/** The R2 key of a visible file (its current version, or a given one), for download and preview. */
export async function fileForDownload(env: Env, tenantId: string, viewer: Viewer, fileId: string, version?: number) {
  const db = dbFor(env, tenantId);
  const file = await db
    .select({ id: files.id, name: files.name, mimeType: files.mimeType, size: files.size, storageKey: files.storageKey, version: files.version })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(viewer)))
    .get();
  if (!file) return { ok: false as const, code: "not_found" as const };
  if (version === undefined || version === file.version) return { ok: true as const, file };
  const v = await db
    .select({ storageKey: fileVersions.storageKey, size: fileVersions.size, mimeType: fileVersions.mimeType })
    .from(fileVersions)
    .where(and(eq(fileVersions.tenantId, tenantId), eq(fileVersions.fileId, fileId), eq(fileVersions.version, version)))
    .get();
  if (!v) return { ok: false as const, code: "not_found" as const };
  return { ok: true as const, file: { ...file, ...v, version } };
}

export async function auditDownload(env: Env, tenantId: string, actor: Viewer, fileId: string, name: string): Promise<void> {
  await auditInsert(dbFor(env, tenantId), {
    tenantId,
    action: FILE_AUDIT.downloaded,
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "file",
    targetId: fileId,
    payload: { name },
  });
}
