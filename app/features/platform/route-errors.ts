import { data } from "react-router";

/**
 * Errors a route or middleware throws on purpose and an error boundary must tell apart.
 * Boundaries switch on the code, never on the words shown to the user.
 */
export const ROUTE_ERROR_CODES = ["workspace_not_found", "workspace_suspended"] as const;
export type RouteErrorCode = (typeof ROUTE_ERROR_CODES)[number];
export type RouteErrorData = { code: RouteErrorCode };

/** Throw this: a typed ErrorResponse the boundaries can read with routeErrorCode(). */
export function routeError(code: RouteErrorCode, status: number) {
  return data<RouteErrorData>({ code }, { status });
}

/**
 * The code carried by a thrown routeError(), or null for anything else. Checked by hand, not
 * with zod: the root error boundary runs this in the browser on every page, and zod would be in
 * every page's first load only for this.
 */
export function routeErrorCode(errorData: unknown): RouteErrorCode | null {
  if (typeof errorData !== "object" || errorData === null || !("code" in errorData)) return null;
  const { code } = errorData;
  return ROUTE_ERROR_CODES.find((c) => c === code) ?? null;
}
