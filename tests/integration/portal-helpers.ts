import { expect } from "vitest";
import type { TestTenant } from "../factories";
import { withPageKey } from "../factories/submission-keys";
import { waitForMail } from "./auth-helpers";
import type { Browser } from "./http";

/** A portal magic link in a mail or a page. */
export const PORTAL_LINK = /https?:\/\/[^\s"'<>]+\/portal\/auth\?token=[^\s"'<>&]+/;

/** The portal link mailed to `to` since `after`, read from the dev mailbox the EMAIL consumer fills. */
export async function mailedPortalLink(to: string, after: number): Promise<string> {
  const mail = await waitForMail(to, { after });
  const m = PORTAL_LINK.exec(mail.text);
  if (!m) throw new Error(`No portal link in the mail to ${to}`);
  return m[0];
}

/**
 * Invites a subcontractor from the staff page and returns the link as the subcontractor gets it:
 * by e-mail (the invite result shows no link when the e-mail went).
 */
export async function inviteByMail(t: TestTenant, staff: Browser, sub: { id: string; email: string | null }) {
  if (!sub.email) throw new Error("the subcontractor needs an e-mail address");
  const since = Date.now();
  const page = `${t.origin}/cis/subcontractors/${sub.id}/invite`;
  const res = await staff.post(page, await withPageKey(staff, page, { intent: "invite" }));
  const html = await res.text();
  expect(res.status, html.slice(0, 500)).toBe(200);
  return { res, html, link: await mailedPortalLink(sub.email, since) };
}
