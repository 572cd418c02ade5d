import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

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

export default defineConfig({
  plugins: [papaParseWithoutNodeStream(), cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  server: { host: "localhost", port: 5173, strictPort: true },
});
