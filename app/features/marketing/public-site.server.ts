import { data, type RouterContextProvider } from "react-router";
import { cloudflareContext, tenantContext } from "~/context";
import { contactEmail } from "./config.server";

type ContextReader = Readonly<RouterContextProvider>;

/**
 * A public page may be kept by shared caches only when nothing in it can be someone's own: the
 * request carries no cookie at all (no session, no flash toast, no theme), so the root loader
 * renders the anonymous page. Anyone with a cookie gets a private, unstored copy.
 */
export function publicCacheHeaders(request: Request): Headers {
  const headers = new Headers({ Vary: "Cookie" });
  headers.set("Cache-Control", request.headers.has("Cookie") ? "private, no-store" : "public, max-age=300, s-maxage=3600");
  return headers;
}

/** The marketing pages belong to the bare domain: a tenant host has none of them. */
export function requirePublicSite(context: ContextReader): void {
  if (context.get(tenantContext)) throw data("Page not found", { status: 404 });
}

/** What every public page's loader answers: the shared layout's Contact address, with the cache headers. */
export function publicPageData(request: Request, context: ContextReader) {
  requirePublicSite(context);
  const { env } = context.get(cloudflareContext);
  return data({ contactEmail: contactEmail(env) }, { headers: publicCacheHeaders(request) });
}
