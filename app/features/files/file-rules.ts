/**
 * The files area's pure rules and words, safe for the browser bundle and the server alike:
 * kinds and usage categories, sizes, storage keys, quotas by tier, upload stage texts.
 */
import type { StorageTier, UsageCategory } from "./file-constants";

export const FILE_KINDS = ["image", "video", "audio", "pdf", "document", "spreadsheet", "presentation", "code", "archive", "other"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const EXT_KINDS: Record<string, FileKind> = {
  pdf: "pdf",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  svg: "image",
  bmp: "image",
  mp4: "video",
  mov: "video",
  webm: "video",
  avi: "video",
  mp3: "audio",
  wav: "audio",
  ogg: "audio",
  m4a: "audio",
  doc: "document",
  docx: "document",
  odt: "document",
  rtf: "document",
  txt: "document",
  md: "document",
  xls: "spreadsheet",
  xlsx: "spreadsheet",
  ods: "spreadsheet",
  csv: "spreadsheet",
  ppt: "presentation",
  pptx: "presentation",
  odp: "presentation",
  js: "code",
  ts: "code",
  json: "code",
  html: "code",
  css: "code",
  xml: "code",
  zip: "archive",
  rar: "archive",
  "7z": "archive",
  tar: "archive",
  gz: "archive",
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** By mime type first, then by extension. */
export function fileKind(mimeType: string, name: string): FileKind {
  const mime = mimeType.toLowerCase().split(";")[0].trim();
  if (mime === "application/pdf") return "pdf";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  if (/(spreadsheet|excel|csv)/.test(mime)) return "spreadsheet";
  if (/(presentation|powerpoint)/.test(mime)) return "presentation";
  if (/(zip|rar|7z|tar|gzip|compressed)/.test(mime)) return "archive";
  if (/(msword|wordprocessing|opendocument\.text|rtf)/.test(mime)) return "document";
  if (mime === "application/json" || mime === "text/html" || mime === "application/javascript" || mime === "text/javascript") return "code";
  return EXT_KINDS[extensionOf(name)] ?? (mime.startsWith("text/") ? "document" : "other");
}

const KIND_CATEGORY: Record<FileKind, UsageCategory> = {
  pdf: "pdf",
  image: "images",
  video: "video",
  audio: "audio",
  document: "documents",
  code: "documents",
  spreadsheet: "spreadsheets",
  presentation: "presentations",
  archive: "archives",
  other: "other",
};

export function usageCategory(mimeType: string, name: string): UsageCategory {
  return KIND_CATEGORY[fileKind(mimeType, name)];
}

export { CATEGORY_LABELS, formatBytes, percentUsed } from "./sizes";

/** Any character other than letters, digits, dot, underscore and hyphen becomes a hyphen. */
export function sanitiseName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^\.+/, "");
  return (cleaned || "file").slice(0, 200);
}

/** tenants/{tenantId}/files/{fileId}/v{version}/{variant}/{sanitised name} */
export function storageKey(tenantId: string, fileId: string, version: number, name: string, variant = "original"): string {
  return `tenants/${tenantId}/files/${fileId}/v${version}/${variant}/${sanitiseName(name)}`;
}

/** The name in a Content-Disposition header: printable ASCII only, quotes and slashes gone; the full name travels as filename*. */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii =
    name
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/["\\/]/g, "_")
      .trim() || "file";
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name.replace(/[\\/]/g, "_"))}`;
}

const GIB = 1024 ** 3;

/** A Worker accepts request bodies up to 100 MB; larger files need a multipart upload from the browser. */
export const MAX_UPLOAD_BYTES = 100 * 1000 * 1000;

/**
 * Above this size the upload screen's script sends the file in parts (an R2 multipart upload
 * through the Worker), each part well under the body limit.
 */
export const MULTIPART_THRESHOLD = 90 * 1000 * 1000;
/** R2 wants every part but the last the same size, and at least 5 MiB. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_BYTES = 50 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 10 * 1024 * 1024;
/** R2 allows at most 10,000 parts per upload. */
export const MAX_PARTS = 10_000;
export const MAX_MULTIPART_BYTES = 50 * GIB;

export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}
/** Quotas in bytes by tier; custom has none of its own (its custom limit decides). */
export const TIER_LIMITS: Record<StorageTier, number | null> = {
  free: 5 * GIB,
  starter: 50 * GIB,
  professional: 200 * GIB,
  enterprise: 1024 * GIB,
  custom: null,
};

/** The custom limit, else the tier's limit, else the free tier's. */
export function storageCap(tier: StorageTier, customLimit: number | null): number {
  return customLimit ?? TIER_LIMITS[tier] ?? TIER_LIMITS.free ?? 5 * GIB;
}

/** Tier features: versioning is off on free; advanced sharing and analytics from professional; custom retention for enterprise. */
export function tierFeatures(tier: StorageTier) {
  return {
    versioning: tier !== "free",
    advancedSharing: tier === "professional" || tier === "enterprise" || tier === "custom",
    analytics: tier === "professional" || tier === "enterprise" || tier === "custom",
    customRetention: tier === "enterprise" || tier === "custom",
  };
}

export function uploadStageText(progress: number): string {
  if (progress >= 100) return "Upload Complete!";
  if (progress < 30) return "Preparing upload...";
  if (progress < 60) return "Transferring data...";
  if (progress < 90) return "Almost there...";
  return "Finalizing...";
}

/** Folder slugs: lower case letters, digits and hyphens. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || "folder";
}

/** Types shown as text in the preview; images and PDFs inline; nothing else. */
export function previewMode(mimeType: string, name: string): "text" | "image" | "pdf" | "none" {
  const mime = mimeType.toLowerCase().split(";")[0].trim();
  const ext = extensionOf(name);
  if (mime === "application/pdf" || ext === "pdf") return "pdf";
  if (mime === "text/csv" || mime === "application/json" || mime === "text/plain" || ["csv", "json", "txt"].includes(ext)) return "text";
  // SVG can carry script: never shown inline.
  if (mime.startsWith("image/") && mime !== "image/svg+xml" && ext !== "svg") return "image";
  return "none";
}

export const SUPPORTED_TYPES = "PDF, Word, Excel, PowerPoint, CSV, JSON, text, images, audio, video and archives";

export const FILE_MESSAGES = {
  quotaExceeded: "There is not enough storage left for this file. Delete some files, or ask an administrator to upgrade the storage plan.",
  missingInput: "Choose a file to upload",
  noUploadPermission: "You don't have permission to upload files",
  noSharePermission: "You don't have permission to share files",
  moveFailed: "The files could not be moved. Try again.",
  shareFailed: "The file's sharing could not be changed. Try again.",
  uploadCancelled: "Upload cancelled",
  previewUnavailable: "Preview not available for this file type",
  unableToLoad: "Unable to load file",
  downloadPreparing: "Preparing download...",
  downloadStarted: "Download started",
  downloadFailed: "Download failed. Opening in new tab...",
} as const;

/** The delete dialog's body, by how many of the chosen files the person may delete. */
export function deleteDialogTexts(total: number, deletable: number): { title: string; lines: string[] } {
  const lines: string[] = [];
  if (deletable === 0) lines.push("You don't own any of these files. You cannot delete them.");
  else if (deletable < total) lines.push(`You can only delete the ${deletable} files you own. The other ${total - deletable} files will not be deleted.`);
  lines.push("This action cannot be undone.");
  return { title: `Delete ${total} file(s)?`, lines };
}

export const VISIBILITY_LABELS = { private: "Private", shared: "Shared" } as const;

export function visibilityLabel(visibility: "private" | "shared" | "restricted", people: number): string {
  return visibility === "restricted" ? `${people} people` : VISIBILITY_LABELS[visibility];
}

/**
 * The Signed column: which version carries a signature. A file signed and then given a new version
 * is no longer signed, but its signed version stays in the history and the list says which.
 */
export function signedLabel(f: { signed: boolean; pendingSign: boolean; signedVersion: number | null }): string {
  if (f.pendingSign) return "Pending";
  if (f.signed) return f.signedVersion ? `Signed (version ${f.signedVersion})` : "Signed";
  return f.signedVersion ? `Version ${f.signedVersion} signed` : "No";
}

export const FOLDER_COLOURS = ["#64748b", "#ef4444", "#f97316", "#eab308", "#22c55e", "#06b6d4", "#3b82f6", "#8b5cf6", "#ec4899"] as const;

/** What a person sees for each typed failure of the files area, and the HTTP status it answers with. */
export const FILE_ERRORS = {
  not_found: { message: "File not found", status: 404 },
  not_owner: { message: "Only the file's owner or someone who manages all files can do that.", status: 403 },
  quota_exceeded: { message: FILE_MESSAGES.quotaExceeded, status: 413 },
  missing_input: { message: FILE_MESSAGES.missingInput, status: 400 },
  too_large: { message: "This file is larger than 100 MB, the most one upload can carry. Larger files go up in parts, which needs JavaScript.", status: 413 },
  size_mismatch: { message: "The uploaded parts do not add up to the file's size. Please upload it again.", status: 400 },
  bad_request: { message: "The upload could not be read. Please try again.", status: 400 },
  storage_failed: { message: "The file could not be stored. Please try again.", status: 502 },
  duplicate_folder: { message: "A folder with this name already exists here.", status: 400 },
  folder_not_empty: { message: "Move or delete the folders inside it first.", status: 400 },
  no_recipients: { message: "Choose at least one person to share with.", status: 400 },
  cancelled: { message: FILE_MESSAGES.uploadCancelled, status: 400 },
  signature_pending: { message: "A signature request for this document is pending", status: 409 },
} as const;
export type FileErrorKey = keyof typeof FILE_ERRORS;
