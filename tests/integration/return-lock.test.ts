import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_LEASE_MS, MIN_LEASE_MS, type Lease } from "~/features/platform/lease";
import { createTenant } from "../factories";
import { returnLockStub } from "../../workers/durable-objects/return-lock";

const MONTH = "2025-05";

async function storedLease(stub: ReturnType<typeof returnLockStub>) {
  return runInDurableObject(stub, async (_instance, state) => ({
    lease: (await state.storage.get<Lease>("lease")) ?? null,
    alarm: await state.storage.getAlarm(),
  }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ReturnLock", () => {
  it("grants the lease to the first holder, refuses a second, and lets the holder renew", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    const before = Date.now();
    const a = await lock.acquire("alice", 60_000);
    expect(a).toMatchObject({ acquired: true, holder: "alice" });
    expect(a.expiresAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(a.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000);

    const b = await lock.acquire("bob", 60_000);
    // The refusal says who holds it and until when.
    expect(b).toEqual({ acquired: false, holder: "alice", expiresAt: a.expiresAt });
    expect(await lock.status()).toEqual({ holder: "alice", expiresAt: a.expiresAt });

    const renewed = await lock.acquire("alice", 120_000);
    expect(renewed.acquired).toBe(true);
    expect(renewed.expiresAt).toBeGreaterThan(a.expiresAt);
    // The alarm follows the lease.
    expect((await storedLease(lock)).alarm).toBe(renewed.expiresAt);
  });

  it("is released only by its holder", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    await lock.acquire("alice", 60_000);
    expect(await lock.release("bob")).toBe(false);
    expect((await lock.status())?.holder).toBe("alice");
    expect((await lock.acquire("bob", 60_000)).acquired).toBe(false);

    expect(await lock.release("alice")).toBe(true);
    expect(await lock.status()).toBeNull();
    expect(await storedLease(lock)).toEqual({ lease: null, alarm: null });
    // Releasing twice is harmless.
    expect(await lock.release("alice")).toBe(false);
    expect((await lock.acquire("bob", 60_000)).acquired).toBe(true);
  });

  it("has one holder at a time under 20 concurrent callers", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    const holders = Array.from({ length: 20 }, (_, i) => `worker-${i}`);
    const results = await Promise.all(holders.map((h) => lock.acquire(h, 60_000)));
    const winners = results.filter((r) => r.acquired);
    expect(winners).toHaveLength(1);
    const winner = winners[0].holder;
    // Every loser was told the same winner.
    for (const r of results.filter((r) => !r.acquired)) expect(r).toEqual({ acquired: false, holder: winner, expiresAt: winners[0].expiresAt });
    expect((await lock.status())?.holder).toBe(winner);
  });

  it("lets another holder in once the lease has run out", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    const a = await lock.acquire("alice", 1_000);
    expect(a.acquired).toBe(true);
    expect((await lock.acquire("bob", 1_000)).acquired).toBe(false);
    await sleep(Math.max(0, a.expiresAt - Date.now()) + 50);
    expect(await lock.status()).toBeNull();
    const b = await lock.acquire("bob", 60_000);
    expect(b).toMatchObject({ acquired: true, holder: "bob" });
    // And alice, back from a stall, no longer holds it.
    expect(await lock.release("alice")).toBe(false);
  });

  it("clears an expired lease when its alarm runs, so a crashed holder cannot block", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    const a = await lock.acquire("crashed", 1_000);
    const stored = await storedLease(lock);
    expect(stored.lease).toEqual({ holder: "crashed", expiresAt: a.expiresAt });
    expect(stored.alarm).toBe(a.expiresAt);

    await sleep(Math.max(0, a.expiresAt - Date.now()) + 50);
    // The runtime may already have fired the alarm on its own; either way the lease is gone after it.
    await runDurableObjectAlarm(lock);
    expect(await storedLease(lock)).toEqual({ lease: null, alarm: null });
    expect((await lock.acquire("next", 60_000)).acquired).toBe(true);
  });

  it("keeps a live lease when the alarm runs early and re-arms it", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    const a = await lock.acquire("alice", 60_000);
    expect(await runDurableObjectAlarm(lock)).toBe(true);
    const stored = await storedLease(lock);
    expect(stored.lease).toEqual({ holder: "alice", expiresAt: a.expiresAt });
    expect(stored.alarm).toBe(a.expiresAt);
    expect((await lock.acquire("bob", 60_000)).acquired).toBe(false);
  });

  it("clamps lease lengths to sane bounds", async () => {
    const t = await createTenant();
    const short = returnLockStub(env, t.id, "2025-01");
    const long = returnLockStub(env, t.id, "2025-02");
    const nan = returnLockStub(env, t.id, "2025-03");
    const now = Date.now();
    const s = await short.acquire("a", 5);
    const l = await long.acquire("a", 24 * 3_600_000);
    const n = await nan.acquire("a", Number.NaN);
    expect(s.expiresAt - now).toBeGreaterThanOrEqual(MIN_LEASE_MS - 5);
    expect(s.expiresAt - now).toBeLessThan(MIN_LEASE_MS + 1_000);
    expect(l.expiresAt - now).toBeLessThanOrEqual(MAX_LEASE_MS + 1_000);
    expect(l.expiresAt - now).toBeGreaterThan(MAX_LEASE_MS - 1_000);
    expect(n.expiresAt - now).toBeLessThan(MIN_LEASE_MS + 1_000);
  });

  it("keeps tax months and tenants independent", async () => {
    const t1 = await createTenant();
    const t2 = await createTenant();
    const may = returnLockStub(env, t1.id, "2025-05");
    const june = returnLockStub(env, t1.id, "2025-06");
    const otherTenant = returnLockStub(env, t2.id, "2025-05");
    expect((await may.acquire("alice", 60_000)).acquired).toBe(true);
    expect((await june.acquire("bob", 60_000)).acquired).toBe(true);
    expect((await otherTenant.acquire("carol", 60_000)).acquired).toBe(true);
    expect((await may.status())?.holder).toBe("alice");
    expect((await june.status())?.holder).toBe("bob");
    expect((await otherTenant.status())?.holder).toBe("carol");
    // The same tenant and month is the same lock, however the stub was obtained.
    expect(await returnLockStub(env, t1.id, "2025-05").acquire("dave", 60_000)).toMatchObject({ acquired: false, holder: "alice" });
  });

  it("refuses a blank holder id, so anonymous callers cannot share a lease", async () => {
    const t = await createTenant();
    const lock = returnLockStub(env, t.id, MONTH);
    expect((await lock.acquire("", 60_000)).acquired).toBe(false);
    expect((await lock.acquire("  ", 60_000)).acquired).toBe(false);
    expect(await lock.status()).toBeNull();
    await lock.acquire("alice", 60_000);
    expect(await lock.acquire("", 60_000)).toMatchObject({ acquired: false, holder: "alice" });
    expect(await lock.release("")).toBe(false);
  });
});
