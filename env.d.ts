// Secrets are not in wrangler.toml, so `wrangler types` cannot see them: declared here
// for the global Env (app code) and Cloudflare.Env (cloudflare:test's env).
interface ProjectSecrets {
  /** Comma-separated, newest first: cookies are signed with the first and accepted with any. */
  SESSION_SECRETS: string;
  /** HMAC key for jose-signed hand-over and magic-link tokens. */
  TOKEN_SECRET: string;
  /** Comma-separated `version:base64key` AES-256-GCM keys for UTR/NINO; the highest version encrypts. */
  PII_KEYS: string;
  /** HMAC key for searchable hashes of identifiers. */
  PII_HMAC_KEY: string;
  /**
   * Password pepper: comma-separated `version:secret` (secret at least 32 characters), the
   * highest version peppers new hashes, any listed version verifies (ADR 0009).
   */
  PASSWORD_PEPPER: string;
  EMAIL_HTTP_URL?: string;
  EMAIL_HTTP_TOKEN?: string;
  /** Tenants living outside the DB binding: a JSON object, tenant id -> D1 binding name (ADR 0064). */
  TENANT_SHARDS?: string;
  TEST_MIGRATIONS?: import("@cloudflare/vitest-plugin").D1Migration[];
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging, not a new type
interface Env extends ProjectSecrets {}
declare namespace Cloudflare {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging, not a new type
  interface Env extends ProjectSecrets {}
}
