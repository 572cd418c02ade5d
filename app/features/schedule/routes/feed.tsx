import { requireTenant } from "~/features/auth/index.server";
import { moduleOn } from "~/features/auth/index.server";
import { cloudflareContext } from "~/context";
import { feedDocument } from "../feed.server";
import type { Route } from "./+types/feed";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** A person's calendar subscription (no session: the token in the address is the key). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  const tenant = requireTenant(context);
  if (!moduleOn(tenant, "schedule")) return notFound();
  const m = /^([A-Za-z0-9_-]{20,64})\.ics$/.exec(params.token ?? "");
  if (!m) return notFound();
  const doc = await feedDocument(env, tenant.id, m[1]!, new URL(request.url).host);
  if (doc === null) return notFound();
  return new Response(doc, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="calendar.ics"',
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
