import { data, Form } from "react-router";
import { cloudflareContext } from "~/context";
import { devToolsEnabled } from "~/features/platform/index.server";
import { formatDateTime } from "~/utils/dates";
import { DEV_HMRC_MODES } from "../codes";
import { listDevHmrc, setDevHmrcMode } from "../fake-te.server";
import { devHmrcModeSchema } from "../schemas";
import type { Route } from "./+types/dev-hmrc";

const MODE_LABELS: Record<(typeof DEV_HMRC_MODES)[number], string> = {
  accept: "Accept (success receipt)",
  business_error: "Business error (3001 / 5005)",
  slow: "Slow (one more 'not yet' before the answer)",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context.get(cloudflareContext);
  // Not merely hidden: in production the route does not exist.
  if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
  return listDevHmrc(env);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = context.get(cloudflareContext);
  if (!devToolsEnabled(env, request)) throw data("Page not found", { status: 404 });
  const form = await request.formData();
  const parsed = devHmrcModeSchema.safeParse({ employerRef: form.get("employerRef"), mode: form.get("mode") });
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Invalid form" }, { status: 400 });
  await setDevHmrcMode(env, parsed.data.employerRef, parsed.data.mode);
  return { error: null, saved: parsed.data };
}

// eslint-disable-next-line max-lines-per-function -- one page read top to bottom, a little over the limit; a split would only pass the loader data through props
export default function DevHmrc({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, modes } = loaderData;
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <h1 className="text-2xl font-bold">Development HMRC Transaction Engine</h1>
      <p className="mt-1 text-sm opacity-70">
        What the fake Transaction Engine received and answered, newest first. It answers with HMRC&apos;s sample messages: an acknowledgement (poll every
        second), then a success receipt quoting the message&apos;s IRmark, or error 2021 when the IRmark does not match the Body, or 5005 when the GovTalk keys
        differ from the IRheader keys. Messages without Government Gateway credentials get 1046. This page does not exist in production.
      </p>
      <p className="mt-2 text-sm opacity-70">
        Verification answers follow the subcontractor&apos;s UTR: last digit 0 is matched and paid gross (0%), last digit 9 is unmatched (higher rate, 30%,
        verification number ending in A), anything else is matched and paid net (20%). The verification number is V followed by ten digits derived from the UTR
        (the same UTR always gets the same number). Messages are stored encrypted and shown here decrypted.
      </p>

      <section className="mt-6 rounded-brand border border-line p-4">
        <h2 className="font-semibold">Answer for an employer reference</h2>
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="employerRef" className="block text-sm">
              Employer reference
            </label>
            <input
              id="employerRef"
              name="employerRef"
              required
              placeholder="123/AB12345"
              aria-describedby={actionData?.error ? "employerRef-error" : undefined}
              className="rounded border border-line px-3 py-1.5 text-sm"
            />
          </div>
          <div>
            <label htmlFor="mode" className="block text-sm">
              Answer
            </label>
            <select id="mode" name="mode" className="rounded border border-line px-3 py-1.5 text-sm">
              {DEV_HMRC_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="rounded border border-line px-3 py-1.5 text-sm">
            Save
          </button>
        </Form>
        {actionData?.error ? (
          <p id="employerRef-error" role="alert" className="mt-2 text-sm text-danger">
            {actionData.error}
          </p>
        ) : null}
        {modes.length > 0 ? (
          <ul className="mt-3 text-sm" data-testid="modes">
            {modes.map((m) => (
              <li key={m.employerRef}>
                {m.employerRef}: {MODE_LABELS[m.mode]}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      {messages.length === 0 ? <p className="mt-8 opacity-70">No messages yet.</p> : null}
      <ol className="mt-6 space-y-4">
        {messages.map((m) => (
          <li key={m.id} className="rounded-brand border border-line bg-elevated p-4" data-testid="hmrc-message">
            <p className="text-xs opacity-70">
              {formatDateTime(m.createdAt)} · {m.messageClass ?? "unknown class"} · {m.qualifier ?? "?"}/{m.function ?? "?"} · correlation{" "}
              <span data-testid="hmrc-correlation">{m.correlationId ?? "none"}</span>
              {m.employerRef ? ` · employer ${m.employerRef}` : ""}
            </p>
            <h2 className="mt-1 font-semibold" data-testid="hmrc-outcome">
              {m.outcome}
            </h2>
            <details className="mt-2">
              <summary className="cursor-pointer text-sm">Received</summary>
              <pre className="mt-2 overflow-x-auto whitespace-pre-wrap text-xs" data-testid="hmrc-request">
                {m.requestXml}
              </pre>
            </details>
            <details className="mt-2">
              <summary className="cursor-pointer text-sm">Answered</summary>
              <pre className="mt-2 overflow-x-auto whitespace-pre-wrap text-xs" data-testid="hmrc-response">
                {m.responseXml}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </main>
  );
}

export function meta() {
  return [{ title: "Development HMRC Transaction Engine" }];
}
