import { expect } from "vitest";
import type { Browser } from "./http";

/** D1 rows read by a request (D1's meta.rows_read, summed by the development counter into Server-Timing). */
export function rowsRead(res: Response): number {
  const m = /d1rows;desc="D1 rows read";dur=(\d+)/.exec(res.headers.get("Server-Timing") ?? "");
  if (!m) throw new Error("no D1 rows header");
  return Number(m[1]);
}

/** Bytes of the loader data React Router sends for `path` (its `.data` address: every matched route's loader). */
export async function loaderDataBytes(b: Browser, origin: string, path: string): Promise<number> {
  const u = new URL(path, origin);
  u.pathname = `${u.pathname}.data`;
  const res = await b.get(u.toString());
  expect(res.status, path).toBe(200);
  return (await res.arrayBuffer()).byteLength;
}
