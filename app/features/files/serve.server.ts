import { contentDisposition, previewMode } from "./file-rules";

/**
 * The headers of a stored file served from the app's origin. A person's upload is never active
 * content here: the sandbox CSP gives the document an opaque origin without scripts, nosniff stops
 * type guessing, and only images (not SVG), PDFs and plain text are ever inline; anything else,
 * HTML and SVG included, is an attachment.
 */
export function fileResponseHeaders(file: { name: string; mimeType: string; size: number }, wanted: "inline" | "attachment"): Headers {
  const mode = previewMode(file.mimeType, file.name);
  const inline = wanted === "inline" && mode !== "none";
  const type = !inline ? "application/octet-stream" : mode === "text" ? "text/plain; charset=utf-8" : mode === "pdf" ? "application/pdf" : file.mimeType;
  return new Headers({
    "Content-Type": type,
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", file.name),
    "Content-Length": String(file.size),
    // Marks this response as user content for the security headers (workers/app.ts keeps it).
    "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
  });
}
