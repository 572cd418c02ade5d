/**
 * The address the user was looking at, from a loader's or action's `request`.
 *
 * With JavaScript, React Router fetches data from `/path.data` (or `/_root.data`
 * for `/`) and adds `_routes` / `index` search params. Those are transport
 * details: a redirect back, a `redirectTo` or an audit target must name the
 * page itself. Loaders and actions also get a cleaned `url` argument; this is
 * for helpers that only see the request.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  if (url.pathname === "/_root.data") url.pathname = "/";
  else if (url.pathname.endsWith(".data")) url.pathname = url.pathname.slice(0, -".data".length) || "/";
  url.searchParams.delete("_routes");
  if (url.searchParams.get("index") === "") url.searchParams.delete("index");
  return url;
}
