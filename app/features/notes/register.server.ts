import { and, eq, sql } from "drizzle-orm";
import { noteFolders, notes } from "~/db/schema";
import { CRONS, type ServerFeature } from "~/features/platform/index.server";
import { purgeExpiredTrash } from "./notes.server";

/** Notes in the server runtime: the daily purge of notes in the trash past 30 days, and how the audit log names notes and folders. */
export const notesServer: ServerFeature = {
  name: "notes",
  cron: [{ cron: CRONS.daily, name: "notes-purge-expired-trash", run: (env, t) => purgeExpiredTrash(env, t) }],
  auditNamers: {
    targets: [
      {
        targetType: "note",
        name: (target) =>
          sql`SELECT COALESCE(NULLIF(${notes.title}, ''), 'Untitled Note') FROM ${notes} WHERE ${and(eq(notes.id, target.id), eq(notes.tenantId, target.tenantId))}`,
      },
      {
        targetType: "note_folder",
        name: (target) =>
          sql`SELECT ${noteFolders.name} FROM ${noteFolders} WHERE ${and(eq(noteFolders.id, target.id), eq(noteFolders.tenantId, target.tenantId))}`,
      },
    ],
  },
};
