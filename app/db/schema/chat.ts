import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const CHAT_ROOM_KINDS = ["direct", "group"] as const;
export type ChatRoomKind = (typeof CHAT_ROOM_KINDS)[number];
export const CHAT_MEMBER_ROLES = ["admin", "member"] as const;
export type ChatMemberRole = (typeof CHAT_MEMBER_ROLES)[number];

/**
 * A chat room: a direct chat between two people or a named group. A group with `everyone` set
 * has every current and future person of the tenant as a member without a row in chat_members
 * (a row there then only carries their read time, or their admin role).
 */
export const chatRooms = sqliteTable(
  "chat_rooms",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind", { enum: CHAT_ROOM_KINDS }).notNull(),
    /** A group's name; null for a direct chat (it is named after the other person). */
    name: text("name"),
    everyone: integer("everyone", { mode: "boolean" }).notNull().default(false),
    /** A direct chat's two user ids, sorted and joined: one direct chat per pair. Null for groups. */
    directKey: text("direct_key"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The newest message's time (or the creation time): the room list's order. */
    lastActivityAt: integer("last_activity_at").notNull(),
  },
  (t) => [uniqueIndex("chat_rooms_tenant_direct").on(t.tenantId, t.directKey), index("chat_rooms_tenant_everyone").on(t.tenantId, t.everyone)],
);

/** Who is in a room, as what, and when they last read it (the unread count counts others' messages after that). */
export const chatMembers = sqliteTable(
  "chat_members",
  {
    tenantId: text("tenant_id").notNull(),
    roomId: text("room_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: CHAT_MEMBER_ROLES }).notNull().default("member"),
    lastReadAt: integer("last_read_at").notNull().default(0),
    joinedAt: integer("joined_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index("chat_members_tenant_user").on(t.tenantId, t.userId)],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    /** Derived from room, sender and client id, so a retried send names the same row. */
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    roomId: text("room_id").notNull(),
    senderId: text("sender_id").notNull(),
    /** The sender's own id for the message (made by the client): a retry carries the same one. */
    clientId: text("client_id").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    editedAt: integer("edited_at"),
    deletedAt: integer("deleted_at"),
    /** How many files the message links to (their ids are in chat_message_files). */
    fileCount: integer("file_count").notNull().default(0),
  },
  (t) => [
    uniqueIndex("chat_messages_room_sender_client").on(t.roomId, t.senderId, t.clientId),
    // Pages of a room newest first by (created_at, id), and unread counts after a read time.
    index("chat_messages_room_created").on(t.roomId, t.createdAt, t.id),
    // The per-person rate limit: one person's messages in the last minute.
    index("chat_messages_tenant_sender_created").on(t.tenantId, t.senderId, t.createdAt),
  ],
);

/**
 * Files a message links to (from the Files module), in the order the sender chose them. Only the
 * id is kept: whether a reader sees a file's name and link is decided when they read, by the files
 * area's own visibility rule.
 */
export const chatMessageFiles = sqliteTable(
  "chat_message_files",
  {
    tenantId: text("tenant_id").notNull(),
    roomId: text("room_id").notNull(),
    messageId: text("message_id").notNull(),
    fileId: text("file_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), index("chat_message_files_tenant_room").on(t.tenantId, t.roomId, t.messageId)],
);
