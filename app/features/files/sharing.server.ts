/** Sharing a file with people of the tenant. */
import { and, asc, eq, ne } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { fileAccess, files, notifications, users } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { ellipsize } from "~/utils/text";
import { dailyDelta, existingUserIds, FILE_AUDIT, mayChange, visibleTo, type Viewer } from "./files.server";

/** The tenant's other active staff, for the share dialog. */
export async function shareCandidates(env: Env, tenantId: string, viewer: Viewer) {
  return dbFor(env, tenantId)
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), ne(users.id, viewer.id), eq(users.disabled, false)))
    .orderBy(asc(users.displayName));
}

/**
 * Shares a file with people of the tenant: it becomes restricted, they are added to its access
 * list, each gets a notification, and the audit entry records it; one batch.
 */
export async function shareFile(
  env: Env,
  tenantId: string,
  viewer: Viewer,
  fileId: string,
  userIds: readonly string[],
  now = Date.now(),
  claim?: SubmissionClaim,
) {
  const db = dbFor(env, tenantId);
  const file = await db
    .select({ id: files.id, name: files.name, ownerId: files.ownerId })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId), visibleTo(viewer)))
    .get();
  if (!file) return { ok: false as const, code: "not_found" as const };
  if (!mayChange(viewer, file.ownerId)) return { ok: false as const, code: "not_owner" as const };
  const recipients = (await existingUserIds(db, tenantId, userIds)).filter((id) => id !== viewer.id);
  if (recipients.length === 0) return { ok: false as const, code: "no_recipients" as const, field: "userIds" };
  await db.batch([
    db
      .update(files)
      .set({ visibility: "restricted", updatedAt: now })
      .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId))),
    ...recipients.map((userId) =>
      db
        .insert(fileAccess)
        .values({ tenantId, fileId, userId, via: "shared", createdAt: now })
        .onConflictDoUpdate({ target: [fileAccess.fileId, fileAccess.userId], set: { via: "shared" } }),
    ),
    ...recipients.map((userId) =>
      db.insert(notifications).values({
        id: newId(),
        tenantId,
        targetUserId: userId,
        type: "share",
        title: `${ellipsize(viewer.name)} shared a file with you`,
        message: ellipsize(file.name),
        link: `/files/file/${fileId}`,
        subjectType: "file",
        subjectId: fileId,
        fromUserId: viewer.id,
        createdAt: now,
      }),
    ),
    dailyDelta(db, tenantId, now, { shared: 1 }),
    auditInsert(
      db,
      {
        tenantId,
        action: FILE_AUDIT.shared,
        actorId: viewer.id,
        actorEmail: viewer.email,
        targetType: "file",
        targetId: fileId,
        payload: { sharedWith: recipients },
      },
      now,
    ),
    // The form's one-time submission key: a repeated share notifies nobody twice.
    ...(claim ? [claimSubmission(db, claim)] : []),
  ]);
  return { ok: true as const, recipients: recipients.length };
}
