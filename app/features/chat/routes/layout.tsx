import { Outlet } from "react-router";
import { can } from "~/features/auth";
import { AppShell, SectionNav } from "~/features/platform";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/layout";

/** The chat area: module switched on and a signed-in member with chat.view. No D1 of its own. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireModule(request, context, { module: "chat" });
  const send = can(user, "chat.send");
  return {
    nav: [
      { to: "/chat", label: "Chats", end: true, show: true },
      { to: "/chat/new", label: "New chat", end: true, show: send },
      { to: "/chat/new-group", label: "New group", end: true, show: send },
    ]
      .filter((n) => n.show)
      .map(({ to, label, end }) => ({ to, label, end })),
  };
}

export default function ChatLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell>
      <SectionNav title={<p className="text-lg font-semibold">Chat</p>} label="Chat sections" links={loaderData.nav} />
      <div className="mx-auto max-w-5xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
