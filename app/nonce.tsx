import { createContext, useContext } from "react";

/**
 * The CSP nonce for React Router's inline scripts, given by entry.server.tsx to the server render.
 * It is not loader data: a page rendered for a shared cache has none. The browser hydrates with
 * the nonce the page was served with (documentNonce), so the scripts render the same on both sides.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}

/**
 * The nonce the server rendered into this page's scripts, or undefined when it has none. Browsers
 * blank the nonce attribute once the page has loaded (so other scripts cannot read it from the
 * DOM) and keep it in the element's `nonce` property, which is also what React compares when it
 * hydrates.
 */
export function documentNonce(doc: Pick<Document, "querySelector">): string | undefined {
  return doc.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}
