// `npm run dev`: prepares the local database (scripts/setup-local.mjs), prints where the
// workspace is, then starts `react-router dev` with the same arguments. The port comes from
// `--port N` or PORT (default 5173, see scripts/dev-port.mjs); vite.config.ts reads the same
// and gives the Worker APP_DOMAIN=localhost:<port>, so tenant URLs follow the port.
import { spawn } from "node:child_process";
import process from "node:process";
import { devAppDomain, devPort } from "./dev-port.mjs";
import { printWelcome, ROOT, setupLocal } from "./setup-local.mjs";

const args = process.argv.slice(2);
let port;
try {
  port = devPort({ argv: args });
  const { accounts } = await setupLocal();
  printWelcome(accounts, devAppDomain(port));
} catch (err) {
  console.error(`[dev] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

const child = spawn("react-router", ["dev", ...args], { cwd: ROOT, stdio: "inherit", env: { ...process.env, PORT: String(port) } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
