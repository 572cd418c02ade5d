import { describe, expect, it } from "vitest";
import {
  contentDisposition,
  deleteDialogTexts,
  fileKind,
  signedLabel,
  formatBytes,
  previewMode,
  sanitiseName,
  slugify,
  storageCap,
  storageKey,
  uploadStageText,
  usageCategory,
} from "./file-rules";

describe("file rules", () => {
  it("formats sizes in B, kB, MB, GB, TB with one decimal", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(5368709120)).toBe("5.4 GB");
    expect(formatBytes(2e12)).toBe("2.0 TB");
  });

  it("sanitises names for storage keys: anything but letters, digits, dot, underscore and hyphen becomes a hyphen", () => {
    expect(sanitiseName("../a b/é.txt")).toBe("-a-b--.txt");
    expect(storageKey("t1", "f1", 2, "My File.pdf")).toBe("tenants/t1/files/f1/v2/original/My-File.pdf");
  });

  it("classifies by mime type, then extension", () => {
    expect(fileKind("application/pdf", "x")).toBe("pdf");
    expect(fileKind("application/octet-stream", "a.xlsx")).toBe("spreadsheet");
    expect(usageCategory("image/png", "a.png")).toBe("images");
    expect(usageCategory("application/x-unknown", "a")).toBe("other");
  });

  it("caps by custom limit, else tier, else free", () => {
    expect(storageCap("free", null)).toBe(5368709120);
    expect(storageCap("starter", null)).toBe(50 * 1024 ** 3);
    expect(storageCap("enterprise", null)).toBe(1024 ** 4);
    expect(storageCap("custom", null)).toBe(5368709120);
    expect(storageCap("free", 1000)).toBe(1000);
  });

  it("names the upload stage by progress", () => {
    expect([0, 29, 30, 59, 60, 89, 90, 99, 100].map(uploadStageText)).toEqual([
      "Preparing upload...",
      "Preparing upload...",
      "Transferring data...",
      "Transferring data...",
      "Almost there...",
      "Almost there...",
      "Finalizing...",
      "Finalizing...",
      "Upload Complete!",
    ]);
  });

  it("never previews HTML or SVG; text, csv and json as text", () => {
    expect(previewMode("text/html", "a.html")).toBe("none");
    expect(previewMode("image/svg+xml", "a.svg")).toBe("none");
    expect(previewMode("image/png", "a.svg")).toBe("none");
    expect(previewMode("text/csv", "a.csv")).toBe("text");
    expect(previewMode("application/octet-stream", "a.json")).toBe("text");
    expect(previewMode("application/pdf", "a.pdf")).toBe("pdf");
  });

  it("writes a header-safe Content-Disposition", () => {
    expect(contentDisposition("attachment", 'a"b\r\n/c.txt')).toBe(`attachment; filename="a_b___c.txt"; filename*=UTF-8''a%22b%0D%0A_c.txt`);
  });

  it("has the delete dialog's texts", () => {
    expect(deleteDialogTexts(3, 0).lines[0]).toBe("You don't own any of these files. You cannot delete them.");
    expect(deleteDialogTexts(3, 1).lines[0]).toBe("You can only delete the 1 files you own. The other 2 files will not be deleted.");
    expect(deleteDialogTexts(3, 3)).toEqual({ title: "Delete 3 file(s)?", lines: ["This action cannot be undone."] });
  });

  it("slugs folder names", () => {
    expect(slugify("  Site Reports / 2026 Q1 ")).toBe("site-reports-2026-q1");
    expect(slugify("Café")).toBe("cafe");
    expect(slugify("!!!")).toBe("folder");
  });
});

describe("signedLabel", () => {
  it("says which version is signed: the current one, an earlier one, none, or a request pending", () => {
    expect(signedLabel({ signed: true, pendingSign: false, signedVersion: 2 })).toBe("Signed (version 2)");
    expect(signedLabel({ signed: false, pendingSign: false, signedVersion: 2 })).toBe("Version 2 signed");
    expect(signedLabel({ signed: false, pendingSign: false, signedVersion: null })).toBe("No");
    expect(signedLabel({ signed: false, pendingSign: true, signedVersion: 2 })).toBe("Pending");
  });
});
