import { z } from "zod";
import { FILE_FILTERS, FILE_SORTS, type ListQuery } from "./listing.server";

const querySchema = z.object({
  filter: z.enum(FILE_FILTERS).catch("all"),
  q: z
    .string()
    .max(200)
    .catch("")
    .transform((s) => s.trim()),
  sort: z.enum(FILE_SORTS).catch("created"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** The list's filter, search, sort and page from the URL; anything odd falls back to the default. */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const raw = Object.fromEntries(["filter", "q", "sort", "dir", "page"].map((k) => [k, params.get(k) ?? undefined]));
  const q = querySchema.parse(raw);
  return { ...q, dir: q.dir ?? (q.sort === "created" || q.sort === "size" ? "desc" : "asc") };
}

const VIEW_COOKIE = /(?:^|;\s*)files_view_(\w+)=(grid|list)/g;

/**
 * Grid or list, remembered per section in a cookie: ?view= sets it (and the answer carries the
 * Set-Cookie), otherwise the cookie decides, otherwise the list.
 */
export function viewChoice(request: Request, section: string): { view: "grid" | "list"; setCookie: string | null; tile: number } {
  const url = new URL(request.url);
  const asked = url.searchParams.get("view");
  const tileRaw = Number(url.searchParams.get("tile") ?? "160");
  const tile = Number.isFinite(tileRaw) ? Math.min(320, Math.max(100, Math.round(tileRaw))) : 160;
  if (asked === "grid" || asked === "list") {
    return { view: asked, tile, setCookie: `files_view_${section}=${asked}; Path=/files; Max-Age=31536000; SameSite=Lax; HttpOnly` };
  }
  const cookies = request.headers.get("Cookie") ?? "";
  for (const m of cookies.matchAll(VIEW_COOKIE)) if (m[1] === section) return { view: m[2] === "grid" ? "grid" : "list", tile, setCookie: null };
  return { view: "list", tile, setCookie: null };
}
