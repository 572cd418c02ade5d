import { env } from "cloudflare:workers";
import { mintSubmissionKey } from "~/features/platform/submission-keys.server";
import { SUBMISSION_KEY_FIELD } from "~/features/platform/submission-key-codes";
import { all, page } from "./html";

/**
 * One-time submission keys for tests that post forms with an effect beyond their row: mint one
 * directly (the scope the route uses), or read the one a page rendered, as a browser would.
 */
export { SUBMISSION_KEY_FIELD };

export function mintKey(t: { id: string }, user: { id: string }, action: string): Promise<string> {
  return mintSubmissionKey(env, { tenantId: t.id, userId: user.id, action });
}

/** The submission keys a page renders, in document order (inside `within` when given). */
export async function pageKeys(b: { get(url: string): Promise<Response> }, url: string, within = "body"): Promise<string[]> {
  const doc = await page(await b.get(url));
  return all(doc, `${within} input[name="${SUBMISSION_KEY_FIELD}"]`).map((el) => el.getAttribute("value") ?? "");
}

/** The first submission key the page renders (inside `within`); throws when there is none. */
export async function pageKey(b: { get(url: string): Promise<Response> }, url: string, within = "body"): Promise<string> {
  const [key] = await pageKeys(b, url, within);
  if (!key) throw new Error(`No submission key on ${url} inside ${within}`);
  return key;
}

/** `form` with the key read from `url` added, unless it carries one already. */
export async function withPageKey(
  b: { get(url: string): Promise<Response> },
  url: string,
  form: Record<string, string | string[]>,
  within = "body",
): Promise<Record<string, string | string[]>> {
  if (SUBMISSION_KEY_FIELD in form) return form;
  return { ...form, [SUBMISSION_KEY_FIELD]: await pageKey(b, url, within) };
}
