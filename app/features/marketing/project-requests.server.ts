import { projectRequests } from "~/db/schema";
import { countAttempt } from "~/features/auth/index.server";
import { clientIp } from "~/features/platform/index.server";
import { queueEmail } from "~/features/platform/index.server";
import { formatDateTime } from "~/utils/dates";
import { sha256Hex } from "~/utils/ids";
import { salesEmail } from "./config.server";
import type { Err, Result } from "~/utils/result";

/** Valid requests per client address in the throttle's 15-minute window. */
export const PROJECT_REQUEST_IP_LIMIT = 5;

export type ProjectRequestFields = { name: string; email: string; company?: string; message?: string };

export type ProjectRequestResult = Result<void, "rate_limited", { waitMs: number }> | Err<"send_failed", { error: unknown }>;

const londonDay = (now: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(now);

/**
 * Stores a 'Start a project' request and e-mails it to the sales address: the row and the outbox
 * entry are one D1 batch, so a stored request always has its e-mail. The attempt is counted per
 * client address first, before anything is written or queued; a filled honeypot is then answered
 * like a success and nothing else happens. A second identical request on the same London day
 * (the retry after a failure) reuses the first one's row and e-mail.
 */
export async function submitProjectRequest(
  env: Env,
  request: Request,
  input: ProjectRequestFields & { honeypot: boolean },
  now = Date.now(),
): Promise<ProjectRequestResult> {
  // Cloudflare always names the client; requests that arrive without one share a single budget.
  const ip = clientIp(request) ?? "unknown";
  const waitMs = await countAttempt(env, [{ key: `project-request:ip:${ip}`, limit: PROJECT_REQUEST_IP_LIMIT }], now);
  if (waitMs > 0) return { ok: false, code: "rate_limited", waitMs };
  if (input.honeypot) return { ok: true };
  try {
    const to = salesEmail(env);
    const company = input.company || null;
    const message = input.message || null;
    const fingerprint = await sha256Hex(JSON.stringify([londonDay(now), input.email, input.name, company, message]));
    await queueEmail(env, {
      tenantId: null,
      to,
      template: "marketing.project-request",
      data: { name: input.name, email: input.email, company, message, receivedAt: formatDateTime(now) },
      idempotencyKey: `project-request:${fingerprint}`,
      alongside: (db, outboxId) => [
        db
          .insert(projectRequests)
          .values({ id: outboxId, name: input.name, email: input.email, company, message, fingerprint, outboxId, createdAt: now })
          .onConflictDoNothing(),
      ],
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, code: "send_failed", error };
  }
}
