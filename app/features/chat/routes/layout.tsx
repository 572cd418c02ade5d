import { Outlet } from "react-router";
import { AppShell } from "~/features/platform";
import { requireModule } from "~/features/auth/index.server";
import type { Route } from "./+types/layout";

/** The chat area: module switched on and a signed-in member with chat.view. No D1 of its own. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireModule(request, context, { module: "chat" });
  return null;
}

export default function ChatLayout() {
  return (
    <AppShell>
      <div className="mx-auto max-w-5xl px-4 py-6">
        <Outlet />
      </div>
    </AppShell>
  );
}
