// Sizes and storage use as people read them. Their own module, so that the pages showing them (the
// storage overview, the super-admin console) do not load the files area's other rules and words.
import type { UsageCategory } from "./file-constants";

const UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

/** B, kB, MB, GB, TB with one decimal (bytes whole). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "N/A";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export const CATEGORY_LABELS: Record<UsageCategory, string> = {
  pdf: "PDF",
  images: "Images",
  video: "Video",
  audio: "Audio",
  documents: "Documents",
  spreadsheets: "Spreadsheets",
  presentations: "Presentations",
  archives: "Archives",
  other: "Other",
};

export function percentUsed(used: number, cap: number): number {
  return cap > 0 ? Math.min(100, Math.round((used / cap) * 1000) / 10) : 100;
}
