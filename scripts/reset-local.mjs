// `npm run db:reset`: throws away the local D1, R2, queue and Durable Object state used by
// `npm run dev` and builds it again from migrations/ and the seed. .dev.vars is kept, so
// nothing else (cookies already issued aside) changes.
import { rmSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { printWelcome, ROOT, setupLocal } from "./setup-local.mjs";

const state = path.join(ROOT, ".wrangler", "state");
rmSync(state, { recursive: true, force: true });
console.log(`[reset] deleted ${path.relative(ROOT, state)}`);
try {
  const { accounts } = await setupLocal();
  printWelcome(accounts);
} catch (err) {
  console.error(`[reset] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
