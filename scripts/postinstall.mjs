// Runs after `npm install`. npm puts node_modules/.bin first on PATH for install scripts, so
// this runs on the Node 24 that the `node` devDependency installed, not the host's Node 20.
import { spawnSync } from "node:child_process";
import process from "node:process";

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  // The `node` package's own install script creates node_modules/.bin/node; npm 11 only runs
  // it when package.json "allowScripts" lists it.
  console.warn(`postinstall: running on Node ${process.versions.node}; wrangler and React Router need >= 22.`);
  console.warn('postinstall: check that package.json "allowScripts" includes "node": true, then `npm install` again.');
}

// worker-configuration.d.ts (the Env type) is generated, not committed. wrangler echoes the
// whole file, so its output is shown only when it fails.
const r = spawnSync("npx", ["wrangler", "types", "--strict-vars=false"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
if (r.status === 0) {
  console.log("postinstall: wrote worker-configuration.d.ts (wrangler types)");
} else {
  process.stdout.write(r.stdout ?? "");
  process.stderr.write(r.stderr ?? "");
  console.warn("postinstall: wrangler types failed; `npm run typecheck` runs it again");
}
