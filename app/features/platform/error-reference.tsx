import { createContext as createReactContext, useContext, useState } from "react";
import { createContext } from "react-router";

/**
 * Every request carries a short reference. An unexpected error is logged with it on the
 * server (entry.server.tsx handleError) and the page shows only the reference, so a user can
 * quote it and an operator can find the detail, while SQL, parameters and stack traces never
 * reach the browser.
 */
export const errorReferenceContext = createContext<string | null>(null);

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function newErrorReference(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("");
}

const ReferenceContext = createReactContext<string | null>(null);

/** Wraps the server render so error boundaries can show the request's reference. */
export function ErrorReferenceProvider({ reference, children }: { reference: string | null; children: React.ReactNode }) {
  return <ReferenceContext.Provider value={reference}>{children}</ReferenceContext.Provider>;
}

/**
 * The reference of the request that rendered this boundary: from the server render, or on
 * hydration from the markup the server sent (the browser has no other copy of it). A
 * boundary first shown by a client-side navigation has none.
 */
export function useErrorReference(): string | null {
  const fromServer = useContext(ReferenceContext);
  const [reference] = useState(
    () =>
      fromServer ?? (typeof document === "undefined" ? null : (document.querySelector("[data-error-reference]")?.getAttribute("data-error-reference") ?? null)),
  );
  return reference;
}

/** "Something went wrong. Reference: ABC123", or the plain sentence when there is no reference. */
export function InternalErrorMessage({ className }: { className?: string }) {
  const reference = useErrorReference();
  if (!reference) return <p className={className}>Something went wrong. Please try again.</p>;
  return (
    <p className={className} data-error-reference={reference}>
      {internalErrorText(reference)}
    </p>
  );
}

type ContextReader = { get<T>(key: ReturnType<typeof createContext<T>>): T };

/** The request's reference (a fresh one outside a request, e.g. in a queue consumer). */
export function errorReference(context?: ContextReader | null): string {
  return context?.get(errorReferenceContext) ?? newErrorReference();
}

/**
 * Logs an unexpected error with the request's reference and returns the sentence a page
 * may show instead of the error's own text (which can carry SQL, parameters or configuration
 * names). `summary` is the user-facing sentence put before the reference.
 */
export function reportInternalError(context: ContextReader | null, error: unknown, what = "Unexpected error", summary = "Something went wrong."): string {
  const reference = errorReference(context);
  console.error(`[ref ${reference}] ${what}`, error);
  return internalErrorText(reference, summary);
}

export function internalErrorText(reference: string, summary = "Something went wrong."): string {
  return `${summary} Reference: ${reference}`;
}
