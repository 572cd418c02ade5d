import { z } from "zod";
import { ConfigurationError } from "~/features/platform/index.server";

/**
 * The public site's addresses come from configuration in every environment (wrangler.toml has
 * local ones): a missing or malformed one is an error, never a guessed address, so requests are
 * never e-mailed to nobody and the Contact link never points at a stranger's mailbox.
 */
function configuredEmail(value: unknown, name: string): string {
  const v = typeof value === "string" ? value.trim() : "";
  if (!z.email().safeParse(v).success) throw new ConfigurationError(`${name} is not configured`);
  return v;
}

/** The address behind the navigation's Contact link. */
export function contactEmail(env: { CONTACT_EMAIL?: string }): string {
  return configuredEmail(env.CONTACT_EMAIL, "CONTACT_EMAIL");
}

/** Where 'Start a project' requests are e-mailed. */
export function salesEmail(env: { SALES_EMAIL?: string }): string {
  return configuredEmail(env.SALES_EMAIL, "SALES_EMAIL");
}
