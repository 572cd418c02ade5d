/** The D1 round trips a response reports in its Server-Timing header (development and tests only). */
export function d1Queries(res: Response): number {
  const m = /d1;desc="D1 queries";dur=(\d+)/.exec(res.headers.get("Server-Timing") ?? "");
  if (!m) throw new Error("no D1 count header");
  return Number(m[1]);
}
