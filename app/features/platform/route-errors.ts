import { data } from "react-router";
import { z } from "zod";

/**
 * Errors a route or middleware throws on purpose and an error boundary must tell apart.
 * Boundaries switch on the code, never on the words shown to the user.
 */
export const ROUTE_ERROR_CODES = ["workspace_not_found", "workspace_suspended"] as const;
export type RouteErrorCode = (typeof ROUTE_ERROR_CODES)[number];
export type RouteErrorData = { code: RouteErrorCode };

const routeErrorDataSchema = z.object({ code: z.enum(ROUTE_ERROR_CODES) });

/** Throw this: a typed ErrorResponse the boundaries can read with routeErrorCode(). */
export function routeError(code: RouteErrorCode, status: number) {
  return data<RouteErrorData>({ code }, { status });
}

/** The code carried by a thrown routeError(), or null for anything else. */
export function routeErrorCode(errorData: unknown): RouteErrorCode | null {
  const parsed = routeErrorDataSchema.safeParse(errorData);
  return parsed.success ? parsed.data.code : null;
}
