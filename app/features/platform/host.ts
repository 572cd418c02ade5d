/** How a request's host relates to APP_DOMAIN. Pure so it can be unit tested. */
export type HostResolution = { kind: "bare" } | { kind: "tenant"; slug: string } | { kind: "unknown" };

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function stripPort(host: string): string {
  return host.replace(/:\d+$/, "").toLowerCase();
}

export function resolveHost(host: string, appDomain: string): HostResolution {
  const h = stripPort(host);
  const domain = stripPort(appDomain);
  if (h === domain || h === `www.${domain}`) return { kind: "bare" };
  if (!h.endsWith(`.${domain}`)) return { kind: "unknown" };
  const label = h.slice(0, -(domain.length + 1));
  // Only one label below the domain names a tenant; deeper names are not ours.
  if (label.includes(".") || !SLUG_RE.test(label)) return { kind: "unknown" };
  return { kind: "tenant", slug: label };
}

export function isValidSlug(slug: string): boolean {
  return SLUG_RE.test(slug) && slug !== "www";
}

/** Origin of a tenant's workspace, keeping APP_DOMAIN's port and the request's scheme. */
export function tenantOrigin(slug: string, appDomain: string, protocol: string): string {
  return `${protocol}//${slug}.${appDomain}`;
}
