// `npm run keys:rotate [-- --remote] [--batch-size N] [--dry-run] [--persist-to DIR]`
//
// Re-encrypts every stored UTR/NINO with the newest key in PII_KEYS. The work is in
// scripts/rotate-keys.ts (TypeScript, so it can share app/features/cis/key-rotation.server.ts
// and pii.server.ts with the Worker); this wrapper only runs it through tsx on the project's Node.
import { spawnSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const result = spawnSync("npx", ["tsx", "scripts/rotate-keys.ts", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
if (result.error) {
  console.error(`[keys:rotate] ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
