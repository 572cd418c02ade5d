import { data } from "react-router";
import { cloudflareContext } from "~/context";
import { formatDateTime } from "~/utils/dates";
import { listDevMailbox } from "../email/dev-mailbox.server";
import { devToolsEnabled } from "../environment.server";
import type { Route } from "./+types/dev-mailbox";

export const middleware: Route.MiddlewareFunction[] = [
  // ?format=json (how scripts and e2e helpers read mail) must answer JSON on a document
  // request too: a Response returned by the loader would be rendered into the page instead.
  async ({ request, context }, next) => {
    const url = new URL(request.url);
    if (url.searchParams.get("format") !== "json") return next();
    const { env } = context.get(cloudflareContext);
    if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
    const to = url.searchParams.get("to")?.trim().toLowerCase() || null;
    return Response.json({ messages: await listDevMailbox(env, { to, limit: 50 }) });
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  // Not merely hidden: in production the route does not exist.
  if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
  const url = new URL(request.url);
  const to = url.searchParams.get("to")?.trim().toLowerCase() || null;
  const messages = await listDevMailbox(env, { to, limit: 50 });
  return { messages, to };
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { messages, to } = loaderData;
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <h1 className="text-2xl font-bold">Development mailbox</h1>
      <p className="mt-1 text-sm opacity-70">Mail the dev transport would have delivered, newest first. This page does not exist in production.</p>
      <form method="get" className="mt-4 flex gap-2">
        <label htmlFor="to" className="sr-only">
          Recipient
        </label>
        <input id="to" name="to" defaultValue={to ?? ""} placeholder="Filter by recipient" className="rounded border border-line px-3 py-1.5 text-sm" />
        <button type="submit" className="rounded border border-line px-3 py-1.5 text-sm">
          Filter
        </button>
      </form>
      {messages.length === 0 ? <p className="mt-8 opacity-70">No messages yet.</p> : null}
      <ol className="mt-6 space-y-4">
        {messages.map((m) => (
          <li key={m.id} className="rounded-brand border border-line bg-elevated p-4" data-testid="mail">
            <p className="text-xs opacity-70">
              {formatDateTime(m.createdAt)} · to <span data-testid="mail-to">{m.toAddress}</span>
            </p>
            <h2 className="mt-1 font-semibold" data-testid="mail-subject">
              {m.subject}
            </h2>
            <p className="text-xs opacity-70">
              from <span data-testid="mail-from">{m.fromAddress}</span>
              {m.replyTo ? (
                <>
                  {" · reply to "}
                  <span data-testid="mail-reply-to">{m.replyTo}</span>
                </>
              ) : null}
            </p>
            <pre className="mt-2 whitespace-pre-wrap text-sm" data-testid="mail-body">
              {m.text}
            </pre>
            {m.attachments.length > 0 ? (
              <ul className="mt-2 text-sm" aria-label="Attachments">
                {m.attachments.map((a, i) => (
                  <li key={i} data-testid="mail-attachment">
                    <a href={`data:${a.contentType};base64,${a.base64}`} download={a.filename} className="underline">
                      {a.filename}
                    </a>{" "}
                    <span className="opacity-70">{`(${a.contentType}, ${a.size.toLocaleString("en-GB")} bytes)`}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </main>
  );
}

export function meta() {
  return [{ title: "Development mailbox" }];
}
