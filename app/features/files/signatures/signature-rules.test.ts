import { describe, expect, it } from "vitest";
import { isPdf, MAX_SIGNATURE_DATA_URL, parseSignaturePng } from "./signature-rules";

// A 2x2 PNG, and the same bytes with the IHDR size rewritten.
const TINY = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFElEQVR4nGNkYPj/n4GBgYGJAQoAHvgCAf7ONVAAAAAASUVORK5CYII=";
function withSize(width: number, height: number): string {
  const bytes = Uint8Array.from(atob(TINY), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

describe("signature rules", () => {
  it("signs PDFs only, by type or name", () => {
    expect(isPdf("application/pdf", "x.bin")).toBe(true);
    expect(isPdf("application/octet-stream", "Contract.PDF")).toBe(true);
    expect(isPdf("text/plain", "notes.txt")).toBe(false);
  });

  it("accepts a PNG data URL no larger than the canvas and nothing else", () => {
    expect(parseSignaturePng(`data:image/png;base64,${TINY}`)?.length).toBeGreaterThan(40);
    expect(parseSignaturePng(withSize(800, 220))).not.toBeNull();
    expect(parseSignaturePng(withSize(801, 220))).toBeNull();
    expect(parseSignaturePng(withSize(800, 221))).toBeNull();
    expect(parseSignaturePng(`data:image/svg+xml;base64,${btoa("<svg/>")}`)).toBeNull();
    expect(parseSignaturePng(`data:image/png;base64,${btoa("<svg onload=alert(1)>")}`)).toBeNull();
    expect(parseSignaturePng("data:image/png;base64,***")).toBeNull();
    expect(parseSignaturePng(`data:image/png;base64,${"A".repeat(MAX_SIGNATURE_DATA_URL)}`)).toBeNull();
  });
});
