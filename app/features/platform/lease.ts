/** A lease lock's state machine, kept pure so it can be tested without a Durable Object. */
export type Lease = { holder: string; expiresAt: number };

export type AcquireResult = { acquired: true; holder: string; expiresAt: number } | { acquired: false; holder: string; expiresAt: number };

export const MAX_LEASE_MS = 15 * 60_000;
export const MIN_LEASE_MS = 1_000;

export function clampLease(ms: number): number {
  if (!Number.isFinite(ms)) return MIN_LEASE_MS;
  return Math.max(MIN_LEASE_MS, Math.min(MAX_LEASE_MS, Math.floor(ms)));
}

/**
 * The same holder may renew; anyone may take an expired lease; otherwise refused. A blank
 * holder id is always refused: callers sharing it would 'renew' each other's lease.
 */
export function tryAcquire(
  current: Lease | null,
  holder: string,
  leaseMs: number,
  now: number,
): { next: Lease; result: AcquireResult } | { next: null; result: AcquireResult } {
  const live = current && current.expiresAt > now ? current : null;
  if (typeof holder !== "string" || holder.trim() === "") {
    return { next: null, result: { acquired: false, holder: live?.holder ?? "", expiresAt: live?.expiresAt ?? 0 } };
  }
  if (current && current.expiresAt > now && current.holder !== holder) {
    return { next: null, result: { acquired: false, holder: current.holder, expiresAt: current.expiresAt } };
  }
  const next = { holder, expiresAt: now + clampLease(leaseMs) };
  return { next, result: { acquired: true, ...next } };
}

export function canRelease(current: Lease | null, holder: string): boolean {
  return Boolean(current && current.holder === holder);
}
