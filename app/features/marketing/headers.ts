import type { HeadersFunction } from "react-router";

/**
 * The `headers` export of every public page. A loader's cache decision (publicCacheHeaders) is
 * passed on, unless the answer is an action's (a form post's answer is one person's and is never
 * stored) or something above set a cookie.
 */
export const publicPageHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders, parentHeaders }) => {
  const headers = new Headers();
  const vary = loaderHeaders.get("Vary");
  if (vary) headers.set("Vary", vary);
  const cacheControl = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  if (parentHeaders.has("Set-Cookie") || actionHeaders.has("Set-Cookie")) headers.set("Cache-Control", "private, no-store");
  else if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};
