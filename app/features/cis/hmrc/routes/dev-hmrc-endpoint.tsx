import { data } from "react-router";
import { cloudflareContext } from "~/context";
import { devToolsEnabled } from "~/features/platform/index.server";
import { handleFakeTransactionEngine } from "../fake-te.server";
import type { Route } from "./+types/dev-hmrc-endpoint";

/**
 * The development Transaction Engine over HTTP (/dev/hmrc/submission and /dev/hmrc/poll): the
 * same handler the fake transport calls in-process. Not merely hidden: in production it does not exist.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
  return handleFakeTransactionEngine(env, request);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
  throw data("POST a GovTalk message", { status: 405, headers: { Allow: "POST" } });
}
