import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { insertWhere } from "~/db/insert-where.server";
import { chatMembers, chatMessageFiles, chatMessages, chatRooms, notifications, users } from "~/db/schema";
import { attachableFilesAmongQuery, attachableFilesQuery, type AttachActor } from "~/features/files/index.server";
import { auditInsert, auditInsertWhere, type AuditEntry } from "~/features/platform/index.server";
import { newId, sha256Hex } from "~/utils/ids";
import {
  checkMessageText,
  decodeCursor,
  directKey,
  MAX_MESSAGE_FILES,
  mentionedPeople,
  PAGE_SIZE,
  RATE_LIMIT_MESSAGES,
  RATE_LIMIT_WINDOW_MS,
  readTimeFor,
  ROOM_NAME_MAX_CHARS,
  UNREAD_CAP,
  type ChatError,
  type MessageFile,
  type WireMessage,
} from "./domain/rules";

/**
 * A SELECT written in SQL that can join a D1 batch (drizzle batches only prepared builders): the
 * columns, the FROM clause with its joins, the condition, and optionally order and limit.
 */
function selectRaw<F extends Record<string, SQL>>(db: Db, fields: F, from: SQL, where: SQL, opts: { orderBy?: SQL; limit?: number } = {}) {
  const q = db.select(fields).from(from).where(where).$dynamic();
  if (opts.orderBy) q.orderBy(opts.orderBy);
  if (opts.limit) q.limit(opts.limit);
  return q;
}

/** Who acts in the chat; `scopes` (their files.* ones are enough) say which files they may attach. */
export type ChatActor = { tenantId: string; userId: string; name: string; email: string; ip?: string | null; scopes?: readonly string[] };

/** The person as the files area sees them, to decide which files they may attach or see. */
export function fileViewer(tenantId: string, p: { userId: string; name: string; email: string; scopes?: readonly string[] }): AttachActor {
  return { id: p.userId, email: p.email, displayName: p.name, tenantId, scopes: [...(p.scopes ?? [])] };
}
export type ChatResult<T> = { ok: true; value: T } | { ok: false; code: ChatError };
export const fail = (code: ChatError) => ({ ok: false as const, code });

/**
 * May `userId` read and write room `roomId` of the tenant: the room is the tenant's, and either
 * everyone is in it or the person has a membership row. Written against the tables by name, so it
 * works inside any statement (and is checked by the database in the same step as a write). A
 * disabled person has access to nothing (a socket they still hold is refused on its next frame).
 */
function canAccess(tenantId: string, roomId: string, userId: SQL | string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${chatRooms} ar WHERE ar.id = ${roomId} AND ar.tenant_id = ${tenantId} AND (ar.everyone = 1 OR EXISTS (
    SELECT 1 FROM ${chatMembers} am WHERE am.tenant_id = ${tenantId} AND am.room_id = ar.id AND am.user_id = ${userId}))
    AND EXISTS (SELECT 1 FROM ${users} au WHERE au.tenant_id = ${tenantId} AND au.id = ${userId} AND au.disabled = 0))`;
}

/** The person is an admin of the group (everyone groups: a membership row with the admin role). */
export function isAdmin(tenantId: string, roomId: string, userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${chatMembers} im JOIN ${chatRooms} ir ON ir.id = im.room_id AND ir.tenant_id = ${tenantId} AND ir.kind = 'group'
    WHERE im.tenant_id = ${tenantId} AND im.room_id = ${roomId} AND im.user_id = ${userId} AND im.role = 'admin')`;
}

/**
 * Messages from others in one room newer than the person's read time, counted up to the cap.
 * `room` and `member` are the aliases of the outer query's chat_rooms and chat_members rows.
 */
function unreadInRoom(userId: SQL | string): SQL {
  return sql`(SELECT count(*) FROM (SELECT 1 FROM ${chatMessages} um WHERE um.tenant_id = room.tenant_id AND um.room_id = room.id
    AND um.sender_id <> ${userId} AND um.deleted_at IS NULL AND um.created_at > coalesce(member.last_read_at, 0) LIMIT ${UNREAD_CAP}))`;
}

/**
 * The total unread count across a person's rooms, as one scalar sub-select over the outer
 * statement's tenant and user columns: the shell's session statement carries it (no round trip).
 */
export function chatUnreadTotal(tenantId: SQL, userId: SQL): SQL<number> {
  return sql<number>`(SELECT min(${UNREAD_CAP}, coalesce(sum(${unreadInRoom(userId)}), 0)) FROM ${chatRooms} room
    LEFT JOIN ${chatMembers} member ON member.room_id = room.id AND member.tenant_id = room.tenant_id AND member.user_id = ${userId}
    WHERE room.tenant_id = ${tenantId} AND (room.everyone = 1 OR member.user_id IS NOT NULL))`;
}

export type RoomSummary = { id: string; kind: "direct" | "group"; name: string; everyone: boolean; lastActivityAt: number; unread: number };
export type Person = { id: string; displayName: string; email: string };

/** A room's columns as lists and pages show it (`room` and `member` as roomWithMember names them). */
function roomColumns(tenantId: string, userId: string) {
  return {
    id: sql<string>`room.id`,
    kind: sql<"direct" | "group">`room.kind`,
    name: sql<string | null>`room.name`,
    everyone: sql<number>`room.everyone`,
    other: otherPersonName(tenantId, userId),
  };
}

/** Rooms with the person's membership row, when they have one. */
function roomWithMember(userId: string): SQL {
  return sql`${chatRooms} room LEFT JOIN ${chatMembers} member ON member.room_id = room.id AND member.tenant_id = room.tenant_id AND member.user_id = ${userId}`;
}

/** The statement listing a person's rooms, newest activity first, each with its unread count. */
function roomListStatement(db: Db, tenantId: string, userId: string) {
  return selectRaw(
    db,
    { ...roomColumns(tenantId, userId), lastActivityAt: sql<number>`room.last_activity_at`, unread: unreadInRoom(userId) },
    roomWithMember(userId),
    sql`room.tenant_id = ${tenantId} AND (room.everyone = 1 OR member.user_id IS NOT NULL)`,
    { orderBy: sql`room.last_activity_at DESC, room.id`, limit: 200 },
  );
}

/** A direct chat's other person, by name (the room's name for its two people). */
function otherPersonName(tenantId: string, userId: string): SQL<string | null> {
  return sql<string | null>`(SELECT ou.display_name FROM ${chatMembers} om JOIN ${users} ou ON ou.id = om.user_id AND ou.tenant_id = ${tenantId}
    WHERE om.tenant_id = ${tenantId} AND om.room_id = room.id AND om.user_id <> ${userId} LIMIT 1)`;
}

function peopleStatement(db: Db, tenantId: string) {
  return db
    .select({ id: users.id, displayName: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false)))
    .orderBy(users.displayName)
    .limit(500);
}

/** The tenant's active people, by name (to start a direct chat or make a group). */
export async function chatPeople(env: Env, tenantId: string): Promise<Person[]> {
  const db = dbFor(env, tenantId);
  return peopleStatement(db, tenantId);
}

/** The /chat page in one round trip: the person's rooms. */
export async function chatHome(env: Env, tenantId: string, userId: string): Promise<{ rooms: RoomSummary[] }> {
  const db = dbFor(env, tenantId);
  const rooms = await roomListStatement(db, tenantId, userId);
  return {
    rooms: rooms.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.kind === "direct" ? (r.other ?? "Direct chat") : (r.name ?? "Group"),
      everyone: !!r.everyone,
      lastActivityAt: r.lastActivityAt,
      unread: Number(r.unread) || 0,
    })),
  };
}

export type RoomView = {
  room: { id: string; kind: "direct" | "group"; name: string; everyone: boolean; myRole: "admin" | "member" | null; lastReadAt: number };
  messages: WireMessage[];
  /** The cursor of the page before the oldest message shown, when there is one. */
  older: { createdAt: number; id: string } | null;
  members: (Person & { role: "admin" | "member" })[];
  people: Person[];
};

function messageFields(tenantId: string) {
  return {
    fields: {
      id: sql<string>`msg.id`,
      clientId: sql<string>`msg.client_id`,
      senderId: sql<string>`msg.sender_id`,
      senderName: sql<string | null>`su.display_name`,
      text: sql<string>`msg.text`,
      createdAt: sql<number>`msg.created_at`,
      editedAt: sql<number | null>`msg.edited_at`,
      deletedAt: sql<number | null>`msg.deleted_at`,
      fileCount: sql<number>`msg.file_count`,
    },
    from: sql`${chatMessages} msg LEFT JOIN ${users} su ON su.id = msg.sender_id AND su.tenant_id = ${tenantId}`,
  };
}

/** Messages of one tenant as the pages and sockets carry them (a deleted message without its text). */
function selectMessages(db: Db, tenantId: string, where: SQL, opts: { orderBy?: SQL; limit?: number } = {}) {
  const { fields, from } = messageFields(tenantId);
  return selectRaw(db, fields, from, sql`msg.tenant_id = ${tenantId} AND ${where}`, opts);
}

type MessageRow = {
  id: string;
  clientId: string;
  senderId: string;
  senderName: string | null;
  text: string;
  createdAt: number;
  editedAt: number | null;
  deletedAt: number | null;
  fileCount: number;
};

export function wireOf(r: MessageRow): WireMessage {
  const gone = !!r.deletedAt;
  return { ...r, senderName: r.senderName ?? "Former member", text: gone ? "" : r.text, fileCount: gone ? 0 : r.fileCount };
}

type RoomRow = {
  id: string;
  kind: "direct" | "group";
  name: string | null;
  everyone: number;
  role: "admin" | "member" | null;
  lastReadAt: number | null;
  other: string | null;
};

/** The room with the reader's membership (none when they may not see it). */
function roomStatement(db: Db, tenantId: string, userId: string, roomId: string) {
  return selectRaw(
    db,
    { ...roomColumns(tenantId, userId), role: sql<"admin" | "member" | null>`member.role`, lastReadAt: sql<number | null>`member.last_read_at` },
    roomWithMember(userId),
    sql`room.tenant_id = ${tenantId} AND room.id = ${roomId} AND (room.everyone = 1 OR member.user_id IS NOT NULL)`,
  );
}

type FileRow = { messageId: string; fileId: string; name: string | null; size: number | null };

/**
 * The files linked from one page of messages (`pageIds`: a sub-select of the page's message ids),
 * each with its name and size only when the reader may see it in Files now (the files area's own
 * rule): a file they may not see comes back without them, and reads "File not available".
 */
function pageFilesStatement(db: Db, reader: ChatActor, roomId: string, pageIds: SQL) {
  const { tenantId } = reader;
  const linked = sql`SELECT lf.file_id FROM ${chatMessageFiles} lf WHERE lf.tenant_id = ${tenantId} AND lf.room_id = ${roomId} AND lf.message_id IN (${pageIds})`;
  const visible = attachableFilesAmongQuery(db, tenantId, fileViewer(tenantId, reader), linked);
  const seen = visible ? sql`(${visible})` : sql`(SELECT NULL AS id, NULL AS name, NULL AS size WHERE 0)`;
  return selectRaw(
    db,
    { messageId: sql<string>`mf.message_id`, fileId: sql<string>`mf.file_id`, name: sql<string | null>`vf.name`, size: sql<number | null>`vf.size` },
    sql`${chatMessageFiles} mf LEFT JOIN ${seen} vf ON vf.id = mf.file_id`,
    sql`mf.tenant_id = ${tenantId} AND mf.room_id = ${roomId} AND mf.message_id IN (${pageIds})`,
    { orderBy: sql`mf.message_id, mf.position` },
  );
}

/** Each message with the files it links to, as the reader may see them. */
function withFiles(messages: WireMessage[], rows: readonly FileRow[]): WireMessage[] {
  const byMessage = new Map<string, MessageFile[]>();
  for (const f of rows) {
    const list = byMessage.get(f.messageId) ?? [];
    list.push({ id: f.fileId, file: f.name === null ? null : { name: f.name, size: Number(f.size ?? 0) } });
    byMessage.set(f.messageId, list);
  }
  return messages.map((m) => (m.fileCount > 0 ? { ...m, files: byMessage.get(m.id) ?? [] } : m));
}

/**
 * A room's page in one round trip: the room with the person's membership, a page of messages
 * (newest PAGE_SIZE before the cursor, found by the (room, created_at, id) index) with the files
 * they link to as this reader may see them, the members and the tenant's people. Every statement
 * carries the access condition, so nobody outside the room reads anything. Null when the person may
 * not see the room (or it is another tenant's).
 */
export async function roomView(env: Env, reader: ChatActor, roomId: string, cursorRaw?: string | null, now = Date.now()): Promise<RoomView | null> {
  const { tenantId, userId } = reader;
  const db = dbFor(env, tenantId);
  const cursor = decodeCursor(cursorRaw);
  const access = canAccess(tenantId, roomId, userId);
  const before = cursor ? sql`AND (msg.created_at < ${cursor.createdAt} OR (msg.created_at = ${cursor.createdAt} AND msg.id < ${cursor.id}))` : sql``;
  const pageWhere = sql`msg.tenant_id = ${tenantId} AND msg.room_id = ${roomId} AND ${access} ${before}`;
  const pageOrder = sql`msg.created_at DESC, msg.id DESC`;
  const pageIds = sql`SELECT msg.id FROM ${chatMessages} msg WHERE ${pageWhere} ORDER BY ${pageOrder} LIMIT ${PAGE_SIZE + 1}`;
  // Showing the newest messages marks the room read, in the same round trip.
  const read = cursor ? [] : markReadStatements(db, tenantId, userId, roomId, now);
  const results = await db.batch([
    ...read,
    roomStatement(db, tenantId, userId, roomId),
    selectMessages(db, tenantId, sql`msg.room_id = ${roomId} AND ${access} ${before}`, { orderBy: pageOrder, limit: PAGE_SIZE + 1 }),
    pageFilesStatement(db, reader, roomId, pageIds),
    selectRaw(
      db,
      { id: sql<string>`mu.id`, displayName: sql<string>`mu.display_name`, email: sql<string>`mu.email`, role: sql<"admin" | "member">`mm.role` },
      sql`${chatMembers} mm JOIN ${users} mu ON mu.id = mm.user_id AND mu.tenant_id = ${tenantId}`,
      sql`mm.tenant_id = ${tenantId} AND mm.room_id = ${roomId} AND ${access}`,
      { orderBy: sql`mu.display_name`, limit: 500 },
    ),
    peopleStatement(db, tenantId),
  ] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const [rooms, page, fileRows, members, people] = results.slice(read.length) as [
    RoomRow[],
    MessageRow[],
    FileRow[],
    (Person & { role: "admin" | "member" })[],
    Person[],
  ];
  const r = rooms[0];
  if (!r) return null;
  const hasOlder = page.length > PAGE_SIZE;
  const shown = page.slice(0, PAGE_SIZE).reverse();
  return {
    room: {
      id: r.id,
      kind: r.kind,
      name: r.kind === "direct" ? (r.other ?? "Direct chat") : (r.name ?? "Group"),
      everyone: !!r.everyone,
      myRole: r.role,
      lastReadAt: r.lastReadAt ?? 0,
    },
    messages: withFiles(shown.map(wireOf), fileRows),
    older: hasOlder && shown[0] ? { createdAt: shown[0].createdAt, id: shown[0].id } : null,
    members,
    people,
  };
}

/** One of the person's own messages, not deleted, in a room they are in: what the edit and delete pages show. */
export async function ownMessage(env: Env, tenantId: string, userId: string, roomId: string, messageId: string): Promise<WireMessage | null> {
  const db = dbFor(env, tenantId);
  const mine = sql`msg.room_id = ${roomId} AND msg.id = ${messageId} AND msg.sender_id = ${userId} AND msg.deleted_at IS NULL`;
  const [row] = await selectMessages(db, tenantId, sql`${mine} AND ${canAccess(tenantId, roomId, userId)}`);
  return row ? wireOf(row) : null;
}

/** The rooms a person may have sockets in: those they are a member of, and the tenant's everyone groups. */
export async function roomsOfPerson(env: Env, tenantId: string, userId: string): Promise<string[]> {
  const db = dbFor(env, tenantId);
  const rows = await db.all<{ id: string }>(sql`SELECT r.id FROM ${chatRooms} r WHERE r.tenant_id = ${tenantId} AND (r.everyone = 1
    OR EXISTS (SELECT 1 FROM ${chatMembers} m WHERE m.tenant_id = ${tenantId} AND m.room_id = r.id AND m.user_id = ${userId})) LIMIT 1000`);
  return rows.map((r) => r.id);
}

/** Whether the person may be in the room now (the socket route asks before connecting). */
export async function mayJoinRoom(env: Env, tenantId: string, userId: string, roomId: string): Promise<boolean> {
  const db = dbFor(env, tenantId);
  const rows = await db.all<{ ok: number }>(sql`SELECT 1 AS ok WHERE ${canAccess(tenantId, roomId, userId)}`);
  return rows.length > 0;
}

/** The stored id of a message: the same for every retry of one send. */
export async function messageIdFor(roomId: string, senderId: string, clientId: string): Promise<string> {
  return (await sha256Hex(`${roomId}\n${senderId}\n${clientId}`)).slice(0, 32);
}

export type Sent = { message: WireMessage; created: boolean };

type SendPlan = { id: string; clientId: string; text: string; now: number; fileIds: readonly string[]; audience: Person[] };

/**
 * What sending needs to know first, in one round trip: the stored message if this is a retry,
 * whether the sender may write to the room and how much they sent lately, who could be mentioned,
 * and which of the chosen files the sender may see in Files.
 */
async function readBeforeSend(db: Db, actor: ChatActor, roomId: string, id: string, now: number, fileIds: readonly string[]) {
  const { tenantId, userId } = actor;
  const access = canAccess(tenantId, roomId, userId);
  const files = attachableFilesQuery(db, tenantId, fileViewer(tenantId, actor), fileIds);
  const [existing, state, audience, seen] = await db.batch([
    selectMessages(db, tenantId, sql`msg.id = ${id} AND msg.room_id = ${roomId} AND ${access}`),
    db
      .select({
        access: sql<number>`${access}`,
        recent: sql<number>`(SELECT count(*) FROM ${chatMessages} rm WHERE rm.tenant_id = ${tenantId} AND rm.sender_id = ${userId} AND rm.created_at > ${now - RATE_LIMIT_WINDOW_MS})`,
      })
      .from(sql`(SELECT 1)`),
    db
      .select({ id: users.id, displayName: users.displayName, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          eq(users.disabled, false),
          sql`${users.id} <> ${userId}`,
          sql`(EXISTS (SELECT 1 FROM ${chatRooms} pr WHERE pr.tenant_id = ${tenantId} AND pr.id = ${roomId} AND pr.everyone = 1)
            OR EXISTS (SELECT 1 FROM ${chatMembers} pm WHERE pm.tenant_id = ${tenantId} AND pm.room_id = ${roomId} AND pm.user_id = ${users.id}))`,
        ),
      )
      .limit(1000),
    files ??
      db
        .select({ id: sql<string>`NULL` })
        .from(sql`(SELECT 1)`)
        .where(sql`0 = 1`),
  ]);
  return { existing: existing[0], access: !!state[0]?.access, recent: Number(state[0]?.recent ?? 0), audience, seenFiles: seen.length };
}

/**
 * The batch that stores a new message: the row (only while the sender may access the room, is
 * under the rate limit and the id is new, all checked by the database in the same statement), its
 * file links, the room's activity time and a notification for each person mentioned, then the row.
 */
function sendStatements(db: Db, actor: ChatActor, roomId: string, plan: SendPlan): BatchItem<"sqlite">[] {
  const { tenantId, userId } = actor;
  const { id, text, now } = plan;
  const underLimit = sql`(SELECT count(*) FROM ${chatMessages} rl WHERE rl.tenant_id = ${tenantId} AND rl.sender_id = ${userId} AND rl.created_at > ${now - RATE_LIMIT_WINDOW_MS}) < ${RATE_LIMIT_MESSAGES}`;
  const fresh = sql`NOT EXISTS (SELECT 1 FROM ${chatMessages} dm WHERE dm.tenant_id = ${tenantId} AND dm.id = ${id})`;
  // Written by this batch: the row with this id and this batch's time.
  const writtenNow = sql`EXISTS (SELECT 1 FROM ${chatMessages} wm WHERE wm.tenant_id = ${tenantId} AND wm.id = ${id} AND wm.created_at = ${now})`;
  const row = { id, tenantId, roomId, senderId: userId, clientId: plan.clientId, text, createdAt: now, fileCount: plan.fileIds.length };
  return [
    insertWhere(db, chatMessages, row, and(canAccess(tenantId, roomId, userId), underLimit, fresh)!),
    ...plan.fileIds.map((fileId, position) => insertWhere(db, chatMessageFiles, { tenantId, roomId, messageId: id, fileId, position }, writtenNow)),
    db
      .update(chatRooms)
      .set({ lastActivityAt: sql`max(${chatRooms.lastActivityAt}, ${now})` })
      .where(and(eq(chatRooms.tenantId, tenantId), eq(chatRooms.id, roomId), writtenNow)),
    ...mentionedPeople(text, plan.audience).map((p) =>
      insertWhere(
        db,
        notifications,
        {
          id: newId(),
          tenantId,
          targetUserId: p.id,
          type: "chat.mention",
          title: `${actor.name} mentioned you in chat`,
          message: text.length > 140 ? `${text.slice(0, 139)}…` : text,
          link: `/chat/${roomId}`,
          subjectType: "chat_message",
          subjectId: id,
          fromUserId: userId,
          read: false,
          createdAt: now,
        },
        writtenNow,
      ),
    ),
    selectMessages(db, tenantId, sql`msg.id = ${id}`),
  ];
}

/**
 * Stores a message once: a retry with the same client id answers the stored message and writes
 * nothing. It may link to up to MAX_MESSAGE_FILES files, each one the sender may see in Files now
 * (otherwise nothing is stored). Readers see each file only if they may see it when they read.
 */
export async function sendMessage(
  env: Env,
  actor: ChatActor,
  roomId: string,
  clientId: string,
  rawText: string,
  now = Date.now(),
  fileIds: readonly string[] = [],
): Promise<ChatResult<Sent>> {
  const checked = checkMessageText(rawText);
  const db = dbFor(env, actor.tenantId);
  const id = await messageIdFor(roomId, actor.userId, clientId);
  const wanted = [...new Set(fileIds)];
  if (wanted.length > MAX_MESSAGE_FILES) return fail("too_many_files");
  const before = await readBeforeSend(db, actor, roomId, id, now, wanted);
  if (before.existing) return { ok: true, value: { message: wireOf(before.existing), created: false } };
  if (!before.access) return fail("not_found");
  if (!checked.ok) return fail(checked.code);
  if (before.seenFiles !== wanted.length) return fail("file_unavailable");
  if (before.recent >= RATE_LIMIT_MESSAGES) return fail("rate_limited");
  const statements = sendStatements(db, actor, roomId, { id, clientId, text: checked.text, now, fileIds: wanted, audience: before.audience });
  const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const row = (results[results.length - 1] as MessageRow[])[0];
  if (!row) return fail("rate_limited");
  return { ok: true, value: { message: wireOf(row), created: row.createdAt === now } };
}

/** Changes the text of one's own message (not a deleted one). */
export async function editMessage(
  env: Env,
  actor: ChatActor,
  roomId: string,
  messageId: string,
  rawText: string,
  now = Date.now(),
): Promise<ChatResult<WireMessage>> {
  const checked = checkMessageText(rawText);
  if (!checked.ok) return fail(checked.code);
  const db = dbFor(env, actor.tenantId);
  const { tenantId, userId } = actor;
  const [, rows] = await db.batch([
    db
      .update(chatMessages)
      .set({ text: checked.text, editedAt: now })
      .where(
        and(
          eq(chatMessages.tenantId, tenantId),
          eq(chatMessages.roomId, roomId),
          eq(chatMessages.id, messageId),
          eq(chatMessages.senderId, userId),
          sql`${chatMessages.deletedAt} IS NULL`,
          canAccess(tenantId, roomId, userId),
        ),
      ),
    selectMessages(db, tenantId, sql`msg.room_id = ${roomId} AND msg.id = ${messageId} AND msg.sender_id = ${userId}`),
  ]);
  const row = rows[0];
  if (!row || row.deletedAt) return fail("not_found");
  if (row.editedAt !== now) return fail("not_yours");
  return { ok: true, value: wireOf(row) };
}

/** Deletes one's own message: the row stays, marked deleted, its text no longer shown. */
export async function deleteMessage(
  env: Env,
  actor: ChatActor,
  roomId: string,
  messageId: string,
  now = Date.now(),
): Promise<ChatResult<{ id: string; deletedAt: number }>> {
  const db = dbFor(env, actor.tenantId);
  const { tenantId, userId } = actor;
  const rows = await db
    .update(chatMessages)
    .set({ deletedAt: now })
    .where(
      and(
        eq(chatMessages.tenantId, tenantId),
        eq(chatMessages.roomId, roomId),
        eq(chatMessages.id, messageId),
        eq(chatMessages.senderId, userId),
        sql`${chatMessages.deletedAt} IS NULL`,
        canAccess(tenantId, roomId, userId),
      ),
    )
    .returning({ id: chatMessages.id });
  if (!rows[0]) return fail("not_found");
  return { ok: true, value: { id: messageId, deletedAt: now } };
}

/**
 * Marks a room read: the person's read time becomes now plus the read-ahead, on every device at
 * once (it is stored, not kept in the browser). In an everyone group the first read creates the row.
 */
export async function markRead(env: Env, tenantId: string, userId: string, roomId: string, now = Date.now()): Promise<ChatResult<number>> {
  const db = dbFor(env, tenantId);
  const [updated, inserted] = await db.batch(markReadStatements(db, tenantId, userId, roomId, now));
  return updated.length + inserted.length > 0 ? { ok: true, value: readTimeFor(now) } : fail("not_found");
}

function markReadStatements(db: Db, tenantId: string, userId: string, roomId: string, now: number) {
  const at = readTimeFor(now);
  const access = canAccess(tenantId, roomId, userId);
  return [
    db
      .update(chatMembers)
      .set({ lastReadAt: sql`max(${chatMembers.lastReadAt}, ${at})` })
      .where(and(eq(chatMembers.tenantId, tenantId), eq(chatMembers.roomId, roomId), eq(chatMembers.userId, userId)))
      .returning({ userId: chatMembers.userId }),
    insertWhere(
      db,
      chatMembers,
      { tenantId, roomId, userId, role: "member", lastReadAt: at, joinedAt: now },
      sql`${access} AND NOT EXISTS (SELECT 1 FROM ${chatMembers} xm WHERE xm.tenant_id = ${tenantId} AND xm.room_id = ${roomId} AND xm.user_id = ${userId})`,
    ).returning({ userId: chatMembers.userId }),
  ] as const;
}

/** The people of the tenant among `ids` (active ones), to check a form's choices. */
async function tenantPeople(db: Db, tenantId: string, ids: readonly string[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, displayName: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false), inArray(users.id, [...ids])));
}

/** The direct chat between the actor and another person of the tenant, created on first use. */
export async function openDirectChat(env: Env, actor: ChatActor, otherId: string, now = Date.now()): Promise<ChatResult<string>> {
  const db = dbFor(env, actor.tenantId);
  const { tenantId, userId } = actor;
  if (otherId === userId) return fail("unknown_person");
  const [other] = await tenantPeople(db, tenantId, [otherId]);
  if (!other) return fail("unknown_person");
  const key = directKey(userId, otherId);
  const id = newId();
  const roomIs = sql`EXISTS (SELECT 1 FROM ${chatRooms} nr WHERE nr.tenant_id = ${tenantId} AND nr.id = ${id})`;
  const [, , , rows] = await db.batch([
    db
      .insert(chatRooms)
      .values({ id, tenantId, kind: "direct", name: null, everyone: false, directKey: key, createdBy: userId, createdAt: now, lastActivityAt: now })
      .onConflictDoNothing(),
    insertWhere(db, chatMembers, { tenantId, roomId: id, userId, role: "member", lastReadAt: 0, joinedAt: now }, roomIs),
    insertWhere(db, chatMembers, { tenantId, roomId: id, userId: otherId, role: "member", lastReadAt: 0, joinedAt: now }, roomIs),
    db
      .select({ id: chatRooms.id })
      .from(chatRooms)
      .where(and(eq(chatRooms.tenantId, tenantId), eq(chatRooms.directKey, key))),
  ]);
  return rows[0] ? { ok: true, value: rows[0].id } : fail("not_found");
}

export type GroupInput = { name: string; everyone: boolean; memberIds: string[] };

function checkName(raw: string): ChatResult<string> {
  const name = raw.trim();
  if (!name) return fail("name_required");
  if (name.length > ROOM_NAME_MAX_CHARS) return fail("name_too_long");
  return { ok: true, value: name };
}

export function audit(actor: ChatActor, action: AuditEntry["action"], roomId: string, payload: Record<string, unknown> = {}) {
  return {
    tenantId: actor.tenantId,
    action,
    actorId: actor.userId,
    actorEmail: actor.email,
    targetType: "chat_room",
    targetId: roomId,
    payload,
    ip: actor.ip ?? null,
  };
}

/** Creates a group with the actor as its admin, and its audit entry, in one batch. */
export async function createGroup(env: Env, actor: ChatActor, input: GroupInput, now = Date.now()): Promise<ChatResult<string>> {
  const name = checkName(input.name);
  if (!name.ok) return name;
  const db = dbFor(env, actor.tenantId);
  const { tenantId, userId } = actor;
  const wanted = [...new Set(input.memberIds.filter((m) => m !== userId))];
  if (!input.everyone && wanted.length === 0) return fail("members_required");
  const people = input.everyone ? [] : await tenantPeople(db, tenantId, wanted);
  if (people.length !== (input.everyone ? 0 : wanted.length)) return fail("unknown_person");
  const id = newId();
  await db.batch([
    db.insert(chatRooms).values({
      id,
      tenantId,
      kind: "group",
      name: name.value,
      everyone: input.everyone,
      directKey: null,
      createdBy: userId,
      createdAt: now,
      lastActivityAt: now,
    }),
    db
      .insert(chatMembers)
      .values([
        { tenantId, roomId: id, userId, role: "admin", lastReadAt: 0, joinedAt: now },
        ...people.map((p) => ({ tenantId, roomId: id, userId: p.id, role: "member" as const, lastReadAt: 0, joinedAt: now })),
      ]),
    auditInsert(db, audit(actor, "chat.group.created", id, { name: name.value, everyone: input.everyone, members: people.map((p) => p.displayName) }), now),
  ]);
  return { ok: true, value: id };
}

/** Renames a group (its admins only), audited in the same batch. */
export async function renameGroup(env: Env, actor: ChatActor, roomId: string, rawName: string): Promise<ChatResult<string>> {
  const name = checkName(rawName);
  if (!name.ok) return name;
  const db = dbFor(env, actor.tenantId);
  const admin = isAdmin(actor.tenantId, roomId, actor.userId);
  const [rows] = await db.batch([
    db
      .update(chatRooms)
      .set({ name: name.value })
      .where(and(eq(chatRooms.tenantId, actor.tenantId), eq(chatRooms.id, roomId), eq(chatRooms.kind, "group"), admin))
      .returning({ id: chatRooms.id }),
    auditInsertWhere(db, audit(actor, "chat.group.renamed", roomId, { name: name.value }), admin),
  ]);
  return rows[0] ? { ok: true, value: name.value } : fail("not_admin");
}

/** Adds people to a group that is not an everyone group (its admins only), audited per person. */
export async function addMembers(env: Env, actor: ChatActor, roomId: string, memberIds: string[], now = Date.now()): Promise<ChatResult<number>> {
  const db = dbFor(env, actor.tenantId);
  const { tenantId } = actor;
  const wanted = [...new Set(memberIds)];
  if (wanted.length === 0) return fail("members_required");
  const people = await tenantPeople(db, tenantId, wanted);
  if (people.length !== wanted.length) return fail("unknown_person");
  const admin = isAdmin(tenantId, roomId, actor.userId);
  const notEveryone = sql`NOT EXISTS (SELECT 1 FROM ${chatRooms} er WHERE er.tenant_id = ${tenantId} AND er.id = ${roomId} AND er.everyone = 1)`;
  const results = await db.batch([
    db
      .select({ everyone: chatRooms.everyone })
      .from(chatRooms)
      .where(and(eq(chatRooms.tenantId, tenantId), eq(chatRooms.id, roomId), admin)),
    ...people.flatMap((p) => {
      const absent = sql`NOT EXISTS (SELECT 1 FROM ${chatMembers} xm WHERE xm.tenant_id = ${tenantId} AND xm.room_id = ${roomId} AND xm.user_id = ${p.id})`;
      const when = sql`${admin} AND ${notEveryone} AND ${absent}`;
      return [
        auditInsertWhere(db, audit(actor, "chat.member.added", roomId, { member: p.displayName }), when),
        insertWhere(db, chatMembers, { tenantId, roomId, userId: p.id, role: "member", lastReadAt: 0, joinedAt: now }, when),
      ];
    }),
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const room = (results[0] as { everyone: boolean }[])[0];
  if (!room) return fail("not_admin");
  if (room.everyone) return fail("everyone_group");
  return { ok: true, value: people.length };
}

/**
 * Takes a person out of a group: an admin removing someone, or anyone leaving (`memberId` is
 * then the actor). Not in everyone groups or direct chats; the last admin cannot leave while
 * others remain. The caller closes the person's live sockets once this has committed.
 */
export async function removeMember(env: Env, actor: ChatActor, roomId: string, memberId: string): Promise<ChatResult<"removed" | "left">> {
  const db = dbFor(env, actor.tenantId);
  const { tenantId } = actor;
  const leaving = memberId === actor.userId;
  const [room] = await db.all<{
    kind: "direct" | "group";
    everyone: number;
    my_role: string | null;
    target: number;
    admins: number;
    others: number;
    name: string | null;
  }>(sql`
    SELECT r.kind, r.everyone,
      (SELECT me.role FROM ${chatMembers} me WHERE me.tenant_id = ${tenantId} AND me.room_id = r.id AND me.user_id = ${actor.userId}) AS my_role,
      EXISTS (SELECT 1 FROM ${chatMembers} tm WHERE tm.tenant_id = ${tenantId} AND tm.room_id = r.id AND tm.user_id = ${memberId}) AS target,
      (SELECT count(*) FROM ${chatMembers} am WHERE am.tenant_id = ${tenantId} AND am.room_id = r.id AND am.role = 'admin' AND am.user_id <> ${memberId}) AS admins,
      (SELECT count(*) FROM ${chatMembers} om WHERE om.tenant_id = ${tenantId} AND om.room_id = r.id AND om.user_id <> ${memberId}) AS others,
      (SELECT u.display_name FROM ${users} u WHERE u.tenant_id = ${tenantId} AND u.id = ${memberId}) AS name
    FROM ${chatRooms} r WHERE r.tenant_id = ${tenantId} AND r.id = ${roomId}`);
  if (!room || (!room.my_role && !room.everyone) || !room.target) return fail("not_found");
  if (room.kind === "direct") return fail("direct_chat");
  if (room.everyone) return fail("everyone_group");
  if (!leaving && room.my_role !== "admin") return fail("not_admin");
  if (leaving && room.my_role === "admin" && Number(room.admins) === 0 && Number(room.others) > 0) return fail("last_admin");
  const stillThere = sql`EXISTS (SELECT 1 FROM ${chatMembers} sm WHERE sm.tenant_id = ${tenantId} AND sm.room_id = ${roomId} AND sm.user_id = ${memberId})`;
  const allowed = leaving ? stillThere : sql`${stillThere} AND ${isAdmin(tenantId, roomId, actor.userId)}`;
  const entry = leaving ? audit(actor, "chat.member.left", roomId) : audit(actor, "chat.member.removed", roomId, { member: room.name ?? "a former member" });
  const [, removed] = await db.batch([
    auditInsertWhere(db, entry, allowed),
    db
      .delete(chatMembers)
      .where(
        and(
          eq(chatMembers.tenantId, tenantId),
          eq(chatMembers.roomId, roomId),
          eq(chatMembers.userId, memberId),
          leaving ? sql`1 = 1` : isAdmin(tenantId, roomId, actor.userId),
        ),
      )
      .returning({ userId: chatMembers.userId }),
  ]);
  if (!removed[0]) return fail(leaving ? "not_found" : "not_admin");
  return { ok: true, value: leaving ? "left" : "removed" };
}
