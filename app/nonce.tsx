import { createContext, useContext } from "react";

/**
 * The CSP nonce for React Router's inline scripts, given by entry.server.tsx to the server render
 * only. It is not loader data: a page rendered for a shared cache has none, and the browser needs
 * none once the page has loaded.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
