import allura from "@fontsource/allura/files/allura-latin-400-normal.woff?inline";
import dancingScript from "@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff?inline";
import greatVibes from "@fontsource/great-vibes/files/great-vibes-latin-400-normal.woff?inline";
import homemadeApple from "@fontsource/homemade-apple/files/homemade-apple-latin-400-normal.woff?inline";
import pacifico from "@fontsource/pacifico/files/pacifico-latin-400-normal.woff?inline";
import satisfy from "@fontsource/satisfy/files/satisfy-latin-400-normal.woff?inline";
import { base64ToBytes } from "~/utils/base64";
import type { SignatureFont } from "./signature-rules";

/**
 * The script fonts' Latin WOFF files, inlined into the Worker bundle (the same files the pages
 * serve), so stamping loads nothing from outside. pdf-lib's fontkit reads WOFF and subsets it.
 */
const FONT_DATA: Record<SignatureFont, string> = {
  "Dancing Script": dancingScript,
  Pacifico: pacifico,
  "Great Vibes": greatVibes,
  Satisfy: satisfy,
  Allura: allura,
  "Homemade Apple": homemadeApple,
};

export function signatureFontBytes(font: SignatureFont): Uint8Array | null {
  const url = FONT_DATA[font];
  const comma = url.indexOf(",");
  if (!url.startsWith("data:") || comma < 0) return null;
  return base64ToBytes(url.slice(comma + 1));
}
