import { sql } from "drizzle-orm";
import { and, eq } from "drizzle-orm";
import { chatRooms } from "~/db/schema";
import { registerShellCount } from "~/features/auth/index.server";
import type { ServerFeature } from "~/features/platform/index.server";
import { chatUnreadTotal, roomsOfPerson } from "./chat.server";
import { chatRoomStub } from "./live.server";

/**
 * The chat's server registration: the shell's unread total (carried by the session's own statement,
 * so it costs no round trip) and how the audit log names a group.
 */
export const chatServer: ServerFeature = {
  name: "chat",
  register() {
    registerShellCount("chat", chatUnreadTotal);
  },
  // A disabled person's sockets close at once in every room they could be in, as a removal does.
  async onPersonDisabled(env, tenantId, userId) {
    const rooms = await roomsOfPerson(env, tenantId, userId);
    await Promise.allSettled(rooms.map((roomId) => chatRoomStub(env, tenantId, roomId).kick(userId)));
  },
  auditNamers: {
    targets: [
      {
        targetType: "chat_room",
        name: (target) =>
          sql`SELECT coalesce(${chatRooms.name}, 'direct chat') FROM ${chatRooms} WHERE ${and(eq(chatRooms.id, target.id), eq(chatRooms.tenantId, target.tenantId))}`,
      },
    ],
  },
};
