import { type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";

/** Team chat, under /chat. Assembled by app/routes.ts. */
export const chatRoutes: RouteConfigEntry[] = [
  ...prefix("chat", [
    // The live socket: checked here, then handed to the room's Durable Object.
    route(":roomId/socket", "features/chat/routes/socket.tsx"),
    layout("features/chat/routes/layout.tsx", [
      index("features/chat/routes/index.tsx"),
      route("new", "features/chat/routes/new-direct.tsx"),
      route("new-group", "features/chat/routes/new-group.tsx"),
      route(":roomId", "features/chat/routes/room.tsx"),
      route(":roomId/messages/:messageId/edit", "features/chat/routes/message-edit.tsx"),
      route(":roomId/messages/:messageId/delete", "features/chat/routes/message-delete.tsx"),
      route(":roomId/attach", "features/chat/routes/attach.tsx"),
    ]),
  ]),
];
