import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", "build/", ".react-router/", ".wrangler/", "worker-configuration.d.ts", "coverage/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // No function over 80 lines (blank lines and comments not counted): split it into named steps,
    // or say on the line above why not (`// eslint-disable-next-line max-lines-per-function -- why`).
    // Test files are exempt: a describe() callback groups cases, it is not one long function.
    ignores: ["**/*.test.ts", "tests/e2e/**/*.e2e.mjs"],
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The recommended preset (rules of hooks plus the React Compiler checks), limited to the UI.
    // A missing effect dependency is a stale-closure bug here, so it fails the lint like the rest.
    files: ["app/**/*.tsx"],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", fetch: "readonly", setTimeout: "readonly", clearTimeout: "readonly" },
    },
  },
  {
    // Platform code (sign-in, scopes, shell, queues) knows no feature: features plug in through
    // composition roots such as app/scopes.ts.
    files: ["app/features/auth/**/*.{ts,tsx}", "app/features/platform/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/features/*", "!~/features/auth", "!~/features/auth/**", "!~/features/platform", "!~/features/platform/**"],
              message: "Platform code must not import a feature; register it from a composition root (app/scopes.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // The CIS rules engine is pure: no data access, router or runtime imports.
    files: ["app/features/cis/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["drizzle-orm", "drizzle-orm/*"], message: "domain/ is pure: no drizzle." },
            { group: ["react-router", "react-router/*", "@react-router/*"], message: "domain/ is pure: no router." },
            { group: ["cloudflare:*"], message: "domain/ is pure: no runtime imports." },
            { group: ["*.server", "*.server.ts", "**/*.server", "**/*.server.ts"], message: "domain/ must not import server modules." },
          ],
        },
      ],
    },
  },
  {
    // Routes parse, guard, call a *.server.ts function and return: no data access of their own.
    files: ["app/features/*/routes/**/*.{ts,tsx}", "app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["drizzle-orm", "drizzle-orm/*"], message: "Routes do not query: put the data access in a *.server.ts function." },
            {
              group: ["~/db", "~/db/*", "**/db", "**/db/*"],
              message: "Routes do not touch the database: call a *.server.ts function (and take constants from schemas.ts).",
            },
          ],
        },
      ],
    },
  },
);
