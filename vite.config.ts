import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { devAppDomain, devPort } from "./scripts/dev-port.mjs";
import { routeMatchMemo } from "./scripts/route-match-memo.mjs";

/**
 * Papa Parse (the CSV reader) has a reader for Node duplex streams that calls require("stream");
 * we never use it, but the bundler hoists that require into an import of node:stream at the
 * Worker's start. The call is cut out of Papa Parse's source (using that reader would now throw),
 * so the Worker imports no Node built-in.
 */
function papaParseWithoutNodeStream(): Plugin {
  return {
    name: "papaparse-without-node-stream",
    transform(code, id) {
      if (!id.includes("/node_modules/papaparse/")) return null;
      const cut = code.replaceAll("require('stream')", "{}");
      return cut === code ? null : { code: cut, map: null };
    },
  };
}

/**
 * What the browser imports from node_modules, pre-bundled when the dev server starts. Vite's scan
 * of the routes misses the ones only reached through shared components (the forms' conform and
 * zod), finds them on the first page view, re-bundles and answers that page's requests with
 * "504 Outdated Optimize Dep". Add a package here when browser code starts importing it.
 */
const BROWSER_DEPENDENCIES = [
  "react",
  "react/jsx-runtime",
  "react/jsx-dev-runtime",
  "react-dom",
  "react-dom/client",
  "react-router",
  "react-router/dom",
  "@conform-to/react",
  "@conform-to/zod/v4",
  "zod",
  "date-fns-tz",
];

export default defineConfig(({ command }) => {
  // `PORT=5181 npm run dev` or `npm run dev -- --port 5181` (default 5173). The port is strict:
  // APP_DOMAIN follows it, so falling back to another port would break every tenant URL.
  const port = devPort();
  return {
    plugins: [
      papaParseWithoutNodeStream(),
      routeMatchMemo(),
      cloudflare({
        viteEnvironment: { name: "ssr" },
        // Only the dev server: a build keeps wrangler.toml's APP_DOMAIN for its environment.
        config: command === "serve" ? { vars: { APP_DOMAIN: devAppDomain(port) } } : undefined,
      }),
      tailwindcss(),
      reactRouter(),
    ],
    resolve: { tsconfigPaths: true },
    optimizeDeps: { include: BROWSER_DEPENDENCIES },
    server: { host: "localhost", port, strictPort: true },
    environments: {
      // The browser build: every feature's index.ts only re-exports (nothing runs when it loads), so
      // it is marked free of side effects and read lazily. A page then depends on the modules it
      // uses, not on every module its feature surface names: without this, the branding editor's
      // colour maths shared a chunk with the shell (reached through the platform surface) and
      // loaded on every page.
      client: {
        build: {
          rolldownOptions: {
            treeshake: { moduleSideEffects: [{ test: /\/app\/features\/[^/]+\/index\.ts$/, sideEffects: false }] },
            experimental: { lazyBarrel: true },
            // Two chunks every page loads, each one file: React, React DOM and React Router, and the
            // workspace shell the root layout draws, with the button, field and useHydrated that many
            // pages use (68, 51 and 23 of the 76). Split into the files the bundler would pick on its
            // own (entry, two router chunks, DOM helpers, JSX runtime; toaster, app shell, nonce,
            // button, field) they compress separately and cost some 4-5 KB gzip more (ADR 0068). The
            // root route's code is in the shell chunk too (its own file is then a one-line re-export).
            // A third: a data table with its row selection, which the list pages load together (ADR 0073).
            output: {
              codeSplitting: {
                groups: [
                  { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 10 },
                  {
                    name: "shell",
                    test: /[\\/]app[\\/](root\.tsx|nonce\.tsx|utils[\\/]use-hydrated\.ts|components[\\/]ui[\\/](toaster|button|field)\.tsx|features[\\/]platform[\\/](components[\\/](app-shell|user-menu)|notifications[\\/]badge))/,
                    priority: 5,
                  },
                  { name: "table", test: /[\\/]app[\\/](components[\\/]ui[\\/](table|row-selection)\.tsx|utils[\\/]use-selection\.ts)/, priority: 4 },
                  // A fourth: rows written as markup, the delegation their links go through and the lists' export
                  // and import buttons, which the long lists and the statements page load together (ADR 0079).
                  {
                    name: "markup-rows",
                    test: /[\\/]app[\\/](utils[\\/]markup\.ts|components[\\/]ui[\\/](markup-rows\.tsx|row-links\.ts|list-toolbar\.tsx))/,
                    priority: 3,
                  },
                ],
              },
            },
          },
        },
      },
      // The Worker: its modules' source text stays in the isolate's heap for its life, and V8 keeps
      // a source with any character beyond Latin-1 as two bytes a character. Written as ASCII
      // (non-ASCII escaped, doc comments left out; licences kept), every chunk is held at one byte
      // a character (ADR 0071).
      ssr: { build: { rolldownOptions: { output: { charset: "ascii", comments: { legal: true, annotation: false, jsdoc: false } } } } },
    },
  };
});
