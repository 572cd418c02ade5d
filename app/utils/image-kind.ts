/**
 * What an image's bytes are, read from their signature rather than from a name or a declared
 * type: 'png', 'jpeg', or null for anything else. Used where only those two may be embedded (the
 * contractor's logo on a PDF statement).
 */
export function imageKind(bytes: Uint8Array): "png" | "jpeg" | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  return null;
}

/** The content type of an image kind. */
export const IMAGE_CONTENT_TYPES = { png: "image/png", jpeg: "image/jpeg" } as const;
