import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
// Tests call can() and scope-checking code directly, as the worker would after app/scopes.ts.
import "~/scopes";

// Migrations are idempotent (d1_migrations table), so every test file can run this.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS ?? []);
import "../tenancy/guard";
