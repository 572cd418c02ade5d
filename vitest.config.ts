import os from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";

// Integration tests run inside workerd with the real bindings from wrangler.toml.
// reactRouter() supplies virtual:react-router/server-build so tests can call the
// whole app through exports.default.fetch.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_ENV: "test",
            SESSION_SECRETS: "test-session-secret-new,test-session-secret-old",
            TOKEN_SECRET: "test-token-secret-0123456789abcdef",
            PII_KEYS: "1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
            PII_HMAC_KEY: "test-pii-hmac-key-0123456789abcdef",
            PASSWORD_PEPPER: "1:test-password-pepper-0123456789abcdef",
          },
          // A second local D1 database for tests only: tests/integration/shards.test.ts runs one
          // tenant on it through dbFor (ADR 0064). Merged with wrangler.toml's DB, not instead of it.
          d1Databases: { DB_SHARD_1: "cis-workspace-test-shard-1" },
          // The EMAIL consumer takes a batch as soon as a message is sent instead of waiting
          // max_batch_timeout (2 s) for more: every test that reads a mailed code or link waited
          // those 2 s (ADR 0044). The rest of the consumer's settings are wrangler.toml's.
          // JOBS keeps its 2 s: tests that deliver jobs themselves must not race its consumer.
          queueConsumers: {
            "cis-workspace-email": { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 5, deadLetterQueue: "cis-workspace-email-dlq" },
          },
        },
      }),
      reactRouter(),
    ],
    resolve: { tsconfigPaths: true },
    test: {
      include: ["tests/integration/**/*.test.ts", "app/**/*.server.test.ts", "workers/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      // Every test file gets its own workerd runtime (fresh storage, nothing left over from another
      // file), which loads the whole app afresh. Without pre-bundling that is some 900 modules
      // from node_modules, each fetched from Vite over the runner's socket: most of a file's
      // start-up. Bundled, they are a few dozen files (ADR 0040). A dependency many files import
      // belongs in this list.
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              "react",
              "react/jsx-runtime",
              "react/jsx-dev-runtime",
              "react-dom/server",
              "react-router",
              "drizzle-orm",
              "drizzle-orm/d1",
              "drizzle-orm/sqlite-core",
              "zod",
              "date-fns",
              "date-fns-tz",
              "pdf-lib",
              "@pdf-lib/fontkit",
              "jose",
              "linkedom",
              "@conform-to/react",
              "@conform-to/zod/v4",
              "isbot",
              "@xmldom/xmldom",
            ],
          },
        },
      },
      // Vitest leaves one core idle by default; the test files spend much of their time waiting on
      // workerd, so using every core ran a sample of 8 files in 110 s instead of 165 s on 2 cores.
      maxWorkers: os.availableParallelism(),
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
});
