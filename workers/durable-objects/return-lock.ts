import { DurableObject } from "cloudflare:workers";
import { canRelease, tryAcquire, type AcquireResult, type Lease } from "../../app/features/platform";

/**
 * One instance per tenant and tax month (idFromName(`${tenantId}:${taxMonth}`)): a lease lock
 * around compiling a return. A Durable Object runs one call at a time, so concurrent acquires
 * are serialised; an alarm clears the lease at expiry so a crashed holder cannot block forever.
 */
export class ReturnLock extends DurableObject<Env> {
  private async current(): Promise<Lease | null> {
    return (await this.ctx.storage.get<Lease>("lease")) ?? null;
  }

  async acquire(holder: string, leaseMs: number): Promise<AcquireResult> {
    const { next, result } = tryAcquire(await this.current(), holder, leaseMs, Date.now());
    if (next) {
      await this.ctx.storage.put("lease", next);
      await this.ctx.storage.setAlarm(next.expiresAt);
    }
    return result;
  }

  async release(holder: string): Promise<boolean> {
    if (!canRelease(await this.current(), holder)) return false;
    await this.ctx.storage.delete("lease");
    await this.ctx.storage.deleteAlarm();
    return true;
  }

  async status(): Promise<Lease | null> {
    const lease = await this.current();
    return lease && lease.expiresAt > Date.now() ? lease : null;
  }

  async alarm(): Promise<void> {
    const lease = await this.current();
    if (!lease) return;
    if (lease.expiresAt <= Date.now()) await this.ctx.storage.delete("lease");
    else await this.ctx.storage.setAlarm(lease.expiresAt);
  }
}

export function returnLockStub(env: Env, tenantId: string, taxMonth: string) {
  return env.RETURN_LOCK.get(env.RETURN_LOCK.idFromName(`${tenantId}:${taxMonth}`));
}
