import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { eventTeams, events, siteMembers, sites, teamMembers, teams, users } from "~/db/schema";
import type { Actor } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";

import type { GroupKind } from "./domain/constants";

export { GROUP_KINDS, type GroupKind } from "./domain/constants";
export type GroupError = "group_not_found" | "name_taken" | "person_not_found";

const tables = {
  team: { group: teams, members: teamMembers, key: teamMembers.teamId, saved: "schedule.team.saved", deleted: "schedule.team.deleted" },
  site: { group: sites, members: siteMembers, key: siteMembers.siteId, saved: "schedule.site.saved", deleted: "schedule.site.deleted" },
} as const;

/** The teams and sites page in one round trip. */
export async function loadGroupsPage(env: Env, tenantId: string) {
  const db = dbFor(env, tenantId);
  const [ts, tm, ss, sm, people] = await db.batch([
    db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.tenantId, tenantId)).orderBy(asc(teams.name)),
    db.select({ groupId: teamMembers.teamId, userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.tenantId, tenantId)),
    db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.tenantId, tenantId)).orderBy(asc(sites.name)),
    db.select({ groupId: siteMembers.siteId, userId: siteMembers.userId }).from(siteMembers).where(eq(siteMembers.tenantId, tenantId)),
    db
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false), isNull(users.scrubbedAt)))
      .orderBy(asc(users.displayName)),
  ]);
  const withMembers = (groups: { id: string; name: string }[], members: { groupId: string; userId: string }[]) =>
    groups.map((g) => ({ ...g, members: members.filter((m) => m.groupId === g.id).map((m) => m.userId) }));
  return { teams: withMembers(ts, tm), sites: withMembers(ss, sm), people };
}

export type GroupInput = { name: string; members: string[] };

/** Creates (id null) or renames and re-staffs a team or site, with its audit entry, in one batch. */
export async function saveGroup(env: Env, tenantId: string, actor: Actor & { ip?: string | null }, kind: GroupKind, id: string | null, input: GroupInput) {
  const t = tables[kind];
  const db = dbFor(env, tenantId);
  const members = [...new Set(input.members)];
  const [existing, clash, found] = await db.batch([
    db
      .select({ id: t.group.id })
      .from(t.group)
      .where(and(eq(t.group.tenantId, tenantId), eq(t.group.id, id ?? ""))),
    db
      .select({ id: t.group.id })
      .from(t.group)
      .where(and(eq(t.group.tenantId, tenantId), sql`lower(${t.group.name}) = lower(${input.name})`)),
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), sql`${users.id} IN (SELECT value FROM json_each(${JSON.stringify(members)}))`)),
  ]);
  if (id && !existing.length) return { ok: false as const, code: "group_not_found" as const };
  if (clash.some((c) => c.id !== id)) return { ok: false as const, code: "name_taken" as const };
  if ((found[0]?.n ?? 0) !== members.length) return { ok: false as const, code: "person_not_found" as const };
  const groupId = id ?? newId();
  const write = id
    ? db
        .update(t.group)
        .set({ name: input.name })
        .where(and(eq(t.group.tenantId, tenantId), eq(t.group.id, id)))
    : db.insert(t.group).values({ id: groupId, tenantId, name: input.name, createdAt: Date.now() });
  await db.batch([
    write,
    db.delete(t.members).where(and(eq(t.members.tenantId, tenantId), eq(t.key, groupId))),
    ...members.map((userId) =>
      kind === "team"
        ? db.insert(teamMembers).values({ tenantId, teamId: groupId, userId })
        : db.insert(siteMembers).values({ tenantId, siteId: groupId, userId }),
    ),
    auditInsert(db, {
      tenantId,
      action: t.saved,
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: kind,
      targetId: groupId,
      payload: { name: input.name, members: members.length },
      ip: actor.ip ?? null,
    }),
  ]);
  return { ok: true as const, id: groupId };
}

/** Deletes a team or site: its members, and its place on events (events stay, without it). */
export async function deleteGroup(env: Env, tenantId: string, actor: Actor & { ip?: string | null }, kind: GroupKind, id: string) {
  const t = tables[kind];
  const db = dbFor(env, tenantId);
  const rows = await db
    .select({ name: t.group.name })
    .from(t.group)
    .where(and(eq(t.group.tenantId, tenantId), eq(t.group.id, id)));
  if (!rows[0]) return { ok: false as const, code: "group_not_found" as const };
  await db.batch([
    db.delete(t.members).where(and(eq(t.members.tenantId, tenantId), eq(t.key, id))),
    kind === "team"
      ? db.delete(eventTeams).where(and(eq(eventTeams.tenantId, tenantId), eq(eventTeams.teamId, id)))
      : db
          .update(events)
          .set({ siteId: null })
          .where(and(eq(events.tenantId, tenantId), eq(events.siteId, id))),
    db.delete(t.group).where(and(eq(t.group.tenantId, tenantId), eq(t.group.id, id))),
    auditInsert(db, {
      tenantId,
      action: t.deleted,
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: kind,
      targetId: id,
      payload: { name: rows[0].name },
      ip: actor.ip ?? null,
    }),
  ]);
  return { ok: true as const };
}

/**
 * The names of a person's teams and of their sites, as two comma-separated lists, for a select
 * from the `users` table (the Users page): correlated sub-selects naming "users" by table, so the
 * list stays one query.
 */
export function teamAndSiteNamesOfUsers(): { teams: SQL<string | null>; sites: SQL<string | null> } {
  const userId = sql`"users"."id"`;
  const tenantId = sql`"users"."tenant_id"`;
  return {
    teams: sql<
      string | null
    >`(SELECT group_concat(gt.name, ', ') FROM (SELECT tt.name AS name FROM "team_members" tmm JOIN "teams" tt ON tt.tenant_id = tmm.tenant_id AND tt."id" = tmm."team_id" WHERE tmm.tenant_id = ${tenantId} AND tmm."user_id" = ${userId} ORDER BY tt."name") gt)`,
    sites: sql<
      string | null
    >`(SELECT group_concat(gs.name, ', ') FROM (SELECT ss.name AS name FROM "site_members" smm JOIN "sites" ss ON ss.tenant_id = smm.tenant_id AND ss."id" = smm."site_id" WHERE smm.tenant_id = ${tenantId} AND smm."user_id" = ${userId} ORDER BY ss."name") gs)`,
  };
}
