import { z } from "zod";

/** A statement id as it appears in a URL: anything else is simply not found. */
export const statementIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
export const downloadFormatSchema = z.enum(["html", "pdf"]);
export type DownloadFormat = z.infer<typeof downloadFormatSchema>;

/** The headers of a statement file sent as a download. */
export function attachmentHeaders(contentType: string, fileName: string): HeadersInit {
  return {
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
  };
}
