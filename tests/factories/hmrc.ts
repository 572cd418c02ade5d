import { env } from "cloudflare:workers";
import { encryptPii } from "~/features/cis/pii.server";
import { utrPiiContext } from "~/features/cis/settings/settings.server";
import { uniqueEmployerRef, withCredentials } from "../integration/hmrc-helpers";
import type { TestTenant } from "./index";

/**
 * Makes a CIS tenant ready to talk to HMRC: the contractor's UTR (encrypted) and an employer
 * reference in its CIS settings (the row is created when missing, with the accounts office
 * reference 123PG00012345), and, unless `credentials: false`, its Government Gateway
 * credentials. The employer reference is one no other test uses unless `employerRef` names
 * one (a test that sets the development Transaction Engine's mode for a reference).
 */
export async function readyForHmrc(t: TestTenant, opts: { credentials?: boolean; employerRef?: string } = {}) {
  const utrEnc = await encryptPii(env.PII_KEYS, "2234567890", utrPiiContext(t.id));
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO cis_settings (tenant_id, active, company_name, employer_ref, accounts_office_ref, utr_enc, utr_masked, created_at, updated_at) VALUES (?, 1, 'Test Co', ?, '123PG00012345', ?, '******7890', ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET utr_enc = excluded.utr_enc, employer_ref = excluded.employer_ref",
  )
    .bind(t.id, opts.employerRef ?? uniqueEmployerRef(), utrEnc, now, now)
    .run();
  if (opts.credentials !== false) await withCredentials(t);
}
