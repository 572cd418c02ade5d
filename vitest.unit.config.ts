import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Pure unit tests (domain rules, helpers) run in Node: fast, no workerd start-up.
// Anything touching bindings belongs in tests/integration (vitest.config.ts).
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/*.server.test.ts", "node_modules/**"],
    environment: "node",
  },
});
