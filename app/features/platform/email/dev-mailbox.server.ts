import { desc, eq, lt } from "drizzle-orm";
import { globalDb } from "~/db/client.server";
import { devMailbox } from "~/db/schema";

export async function listDevMailbox(env: Env, opts: { to: string | null; limit: number }) {
  const q = globalDb(env).select().from(devMailbox);
  const rows = await (opts.to ? q.where(eq(devMailbox.toAddress, opts.to)) : q).orderBy(desc(devMailbox.createdAt)).limit(opts.limit);
  return rows;
}

export async function purgeDevMailbox(env: Env, olderThan: number): Promise<number> {
  const res = await globalDb(env).delete(devMailbox).where(lt(devMailbox.createdAt, olderThan));
  return res.meta.changes ?? 0;
}
