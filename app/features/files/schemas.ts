import { z } from "zod";
import { FOLDER_COLOURS } from "./file-rules";

/** /files/file/:id and its download and content addresses. */
export const fileParamsSchema = z.object({ id: z.string().min(1).max(100) });
/** ?v=N: one version of a file (the current one when absent). */
export const fileVersionQuerySchema = z.object({ v: z.coerce.number().int().min(1).optional() });

/** The file page's forms: share, move, delete (confirmed first). */
export const fileActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("share"), userIds: z.array(z.string().min(1).max(100)).max(500) }),
  z.object({ intent: z.literal("move"), folderId: z.string().max(100) }),
  z.object({ intent: z.literal("delete"), confirmed: z.literal("yes").optional().catch(undefined) }),
]);

/** A folder's path in the address (its slugs joined by '/'); anything else is not found. */
export const folderPathSchema = z
  .string()
  .max(600)
  .regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/)
  .optional();

const FOLDER_NAME_TOO_LONG = "Folder name must be 80 characters or fewer";

/** Creating, renaming or deleting a folder. */
export const folderActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create-folder"),
    name: z.string().trim().min(1, "Enter a folder name").max(80, FOLDER_NAME_TOO_LONG),
    color: z.enum(FOLDER_COLOURS).catch(FOLDER_COLOURS[0]),
  }),
  z.object({
    intent: z.literal("update-folder"),
    name: z.string().trim().min(1, "Enter a folder name").max(80, FOLDER_NAME_TOO_LONG),
    color: z.enum(FOLDER_COLOURS).catch(FOLDER_COLOURS[0]),
  }),
  z.object({ intent: z.literal("delete-folder") }),
]);

/** The overview's one form: recalculate storage usage. */
export const recalculateUsageSchema = z.object({ intent: z.literal("recalculate-usage") });

/** One upload in parts: its id in the address, ?part=N on each PUT, complete or abort at the end. */
export const multipartUploadParamsSchema = z.object({ uploadId: z.string().min(1).max(100) });
export const multipartPartSchema = z.coerce.number().int().min(1).max(10_000);
export const multipartIntentSchema = z.object({ intent: z.enum(["complete", "abort"]) });
