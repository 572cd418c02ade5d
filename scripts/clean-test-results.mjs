// Results of an earlier run must not count for this one.
import { rmSync } from "node:fs";
import path from "node:path";

rmSync(path.join(import.meta.dirname, "..", ".tmp", "test-results"), { recursive: true, force: true });
