// Writes the Env types after install. Runs on the project's Node 24 (npm puts node_modules/.bin first).
import { spawnSync } from "node:child_process";
const r = spawnSync("npx", ["wrangler", "types", "--strict-vars=false"], { stdio: "inherit" });
if (r.status !== 0) console.warn("wrangler types failed; run `npm run typecheck` later");
