import { env } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { chatMembers, chatMessages, chatRooms } from "~/db/schema";
import type { Role } from "~/db/schema";
import { createTenant, createUser, type TestTenant } from "./index";
import { signedIn } from "./sessions";
import { newId } from "~/utils/ids";

/** A tenant with the chat switched on and signed-in people of the given roles. */
export async function chatTenant(roles: Role[] = ["standard", "standard"], opts: { bundles?: Partial<Record<Role, string[]>> } = {}) {
  const t = await createTenant({ modules: ["chat"], bundles: opts.bundles });
  const people = [];
  for (const role of roles) {
    const u = await createUser(t, { role });
    people.push({ ...u, b: await signedIn(t, u), name: `User ${u.email.split("@")[0]}` });
  }
  return { t, people };
}

/** A group written straight to D1: the first member is its admin. */
export async function seedGroup(t: TestTenant, name: string, memberIds: string[], opts: { everyone?: boolean; lastActivityAt?: number } = {}) {
  const db = getDb(env);
  const id = newId();
  const now = Date.now();
  await db.insert(chatRooms).values({
    id,
    tenantId: t.id,
    kind: "group",
    name,
    everyone: opts.everyone ?? false,
    createdBy: memberIds[0]!,
    createdAt: now,
    lastActivityAt: opts.lastActivityAt ?? now,
  });
  if (memberIds.length)
    await db.insert(chatMembers).values(
      memberIds.map((userId, i) => ({
        tenantId: t.id,
        roomId: id,
        userId,
        role: i === 0 ? ("admin" as const) : ("member" as const),
        lastReadAt: 0,
        joinedAt: now,
      })),
    );
  return id;
}

/** Messages written straight to D1, one millisecond apart, ending before `end`. */
export async function seedMessages(t: TestTenant, roomId: string, senderId: string, count: number, end = Date.now() - 60_000) {
  const db = getDb(env);
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    tenantId: t.id,
    roomId,
    senderId,
    clientId: newId(12),
    text: `Seeded message ${i + 1}`,
    createdAt: end - (count - i),
  }));
  for (let i = 0; i < rows.length; i += 10) await db.insert(chatMessages).values(rows.slice(i, i + 10));
  return rows;
}
