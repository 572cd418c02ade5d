/**
 * Files attached to events. The attachment is a row naming the file; what each viewer sees of it
 * comes from the files area's own rule (a file they may not see in Files is not listed), read in
 * the event page's one batch.
 */
import { and, eq } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { eventAttachments } from "~/db/schema";
import type { Actor } from "~/features/auth";
import { attachableFilesById, attachableFilesQuery, searchAttachableFilesQuery, type AttachActor } from "~/features/files/index.server";
import { eventAudit, type EventDetail, type ScheduleViewer } from "./events.server";

export type AttachError = "file_not_found";

/** The event page's reads of Files (for its one batch): the attachments this person may see, and the search when one is asked. */
export function eventPageFileReads(env: Env, tenantId: string, user: AttachActor, eventId: string, fileq: string | null) {
  const db = dbFor(env, tenantId);
  return {
    attachments: eventAttachmentsQuery(db, tenantId, user, eventId),
    candidates: fileq !== null ? searchAttachableFilesQuery(db, tenantId, user, { q: fileq, limit: 10 }) : null,
  };
}

/** The event's attachments this person may see. */
function eventAttachmentsQuery(db: Db, tenantId: string, user: AttachActor, eventId: string) {
  const ids = db
    .select({ id: eventAttachments.fileId })
    .from(eventAttachments)
    .where(and(eq(eventAttachments.tenantId, tenantId), eq(eventAttachments.eventId, eventId)));
  return attachableFilesQuery(db, tenantId, user, ids);
}

/** Attaches a file the person may see in Files (once), audited in the same batch. */
export async function attachFile(
  env: Env,
  viewer: ScheduleViewer,
  actor: Actor & { ip?: string | null },
  user: AttachActor,
  event: EventDetail,
  fileId: string,
) {
  const [file] = await attachableFilesById(env, viewer.tenantId, user, [fileId]);
  if (!file) return { ok: false as const, code: "file_not_found" as AttachError };
  const db = dbFor(env, viewer.tenantId);
  await db.batch([
    db
      .insert(eventAttachments)
      .values({ tenantId: viewer.tenantId, eventId: event.id, fileId: file.id, createdBy: viewer.id, createdAt: Date.now() })
      .onConflictDoNothing(),
    eventAudit(db, viewer.tenantId, actor, "schedule.event.updated", event.id, { attached: file.id, name: file.name }),
  ]);
  return { ok: true as const, name: file.name };
}

/** Removes an attachment (the file stays in Files), audited in the same batch. */
export async function detachFile(env: Env, viewer: ScheduleViewer, actor: Actor & { ip?: string | null }, event: EventDetail, fileId: string) {
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  await db.batch([
    db.delete(eventAttachments).where(and(eq(eventAttachments.tenantId, t), eq(eventAttachments.eventId, event.id), eq(eventAttachments.fileId, fileId))),
    eventAudit(db, t, actor, "schedule.event.updated", event.id, { detached: fileId }),
  ]);
}
