import { and, eq, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { chatMembers, chatRooms, users } from "~/db/schema";
import { auditInsertWhere } from "~/features/platform/index.server";
import { audit, fail, isAdmin, type ChatActor, type ChatResult } from "./chat.server";

export type MemberRole = "admin" | "member";

/**
 * Makes a member of a group its admin, or takes admin away (the group's admins only; not in an
 * everyone group). The last admin keeps the role: a group always has one. The change and its audit
 * entry are one batch under one condition, so a refused change writes neither.
 */
export async function setMemberRole(env: Env, actor: ChatActor, roomId: string, memberId: string, role: MemberRole): Promise<ChatResult<MemberRole>> {
  const { tenantId } = actor;
  const db = dbFor(env, tenantId);
  const [room] = await db.all<{ everyone: number; admin: number; target_role: MemberRole | null; other_admins: number; name: string | null }>(sql`
    SELECT r.everyone, ${isAdmin(tenantId, roomId, actor.userId)} AS admin,
      (SELECT tm.role FROM ${chatMembers} tm WHERE tm.tenant_id = ${tenantId} AND tm.room_id = r.id AND tm.user_id = ${memberId}) AS target_role,
      (SELECT count(*) FROM ${chatMembers} am WHERE am.tenant_id = ${tenantId} AND am.room_id = r.id AND am.role = 'admin' AND am.user_id <> ${memberId}) AS other_admins,
      (SELECT u.display_name FROM ${users} u WHERE u.tenant_id = ${tenantId} AND u.id = ${memberId}) AS name
    FROM ${chatRooms} r WHERE r.tenant_id = ${tenantId} AND r.id = ${roomId} AND r.kind = 'group'`);
  if (!room) return fail("not_found");
  if (!room.admin) return fail("not_admin");
  if (room.everyone) return fail("everyone_group");
  if (!room.target_role) return fail("unknown_person");
  if (room.target_role === role) return { ok: true, value: role };
  if (role === "member" && Number(room.other_admins) === 0) return fail("last_admin_role");
  const anotherAdmin = sql`EXISTS (SELECT 1 FROM ${chatMembers} oa WHERE oa.tenant_id = ${tenantId} AND oa.room_id = ${roomId} AND oa.role = 'admin' AND oa.user_id <> ${memberId})`;
  const when = sql`${isAdmin(tenantId, roomId, actor.userId)} AND EXISTS (SELECT 1 FROM ${chatMembers} cm WHERE cm.tenant_id = ${tenantId}
    AND cm.room_id = ${roomId} AND cm.user_id = ${memberId} AND cm.role <> ${role}) AND ${role === "admin" ? sql`1 = 1` : anotherAdmin}`;
  const action = role === "admin" ? "chat.member.promoted" : "chat.member.demoted";
  const [, changed] = await db.batch([
    auditInsertWhere(db, audit(actor, action, roomId, { member: room.name ?? "a former member" }), when),
    db
      .update(chatMembers)
      .set({ role })
      .where(and(eq(chatMembers.tenantId, tenantId), eq(chatMembers.roomId, roomId), eq(chatMembers.userId, memberId), when))
      .returning({ userId: chatMembers.userId }),
  ]);
  return changed[0] ? { ok: true, value: role } : fail(role === "member" ? "last_admin_role" : "not_admin");
}
