// `npm test`: the unit tests, then the workers tests and the browser tests side by side, then one
// closing line (scripts/test-summary.mjs). The browser run spends most of its time waiting on
// Chromium and wrangler (about half a core), the workers run about one and a half cores: on two
// cores they fit beside each other, and the whole run takes about the longer of the two instead
// of their sum. Each suite keeps its own state (the workers tests run in miniflare's isolated
// storage, the browser tests in .wrangler/e2e-state on their own port), so neither sees the
// other's data. The browser run's lines are prefixed with "e2e │" so the two can be told apart.
import { spawn } from "node:child_process";
import readline from "node:readline";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(script, prefix) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(npm, ["run", "--silent", script], { stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on("line", (line) => console.log(`${prefix}${line}`));
      }
    }
    child.on("close", (code, signal) => {
      const secs = ((Date.now() - t0) / 1000).toFixed(0);
      console.log(`[test] ${script} ended with ${signal ?? code} after ${secs} s`);
      resolve(code === 0 ? 0 : 1);
    });
  });
}

const clean = await run("test:clean");
if (clean !== 0) process.exit(1);
const unit = await run("test:unit");
const [workers, e2e] = await Promise.all([run("test:workers"), run("test:e2e", "e2e │ ")]);
const summary = await run("test:summary");
process.exit(unit || workers || e2e || summary ? 1 : 0);
