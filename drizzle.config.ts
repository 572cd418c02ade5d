import { defineConfig } from "drizzle-kit";

// Migrations are generated here and applied by wrangler (dev, deploy) and by the tests.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema/index.ts",
  out: "./migrations",
});
