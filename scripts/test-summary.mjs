// Prints one closing line for the whole `npm test`: unit (Node), integration (workerd) and
// browser tests added up. Each runner writes its counts to .tmp/test-results/.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = path.join(import.meta.dirname, "..", ".tmp", "test-results");
let passed = 0;
let failed = 0;
let skipped = 0;
/** Every failed test, named again at the very end: CI shows only the last lines of a long run. */
const failures = [];
for (const name of ["unit", "workers"]) {
  const file = path.join(dir, `${name}.json`);
  if (!existsSync(file)) {
    console.error(`missing ${file}: did the ${name} tests run?`);
    process.exit(1);
  }
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`${name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  for (const file of r.testResults ?? []) {
    const where = path.relative(path.join(import.meta.dirname, ".."), file.name);
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedTests) failures.push({ name: `${name}: ${where} › ${a.fullName}`, message: (a.failureMessages ?? []).join("\n") });
    // A file that failed before any test ran (a syntax error, a failing beforeAll) has no failed test.
    if (file.status === "failed" && failedTests.length === 0) failures.push({ name: `${name}: ${where}`, message: file.message ?? "" });
  }
}
const e2eFile = path.join(dir, "e2e.json");
if (!existsSync(e2eFile)) {
  console.error("missing e2e results: did the browser tests run?");
  process.exit(1);
}
const e2e = JSON.parse(readFileSync(e2eFile, "utf8"));
passed += e2e.passed;
failed += e2e.failed;
console.log(`e2e: ${e2e.passed} passed, ${e2e.failed} failed`);
for (const f of e2e.failures ?? []) failures.push({ name: `e2e: ${f.name}`, message: f.message });
if (failures.length) {
  console.log(`\nfailed (${failures.length}):`);
  for (const f of failures) {
    console.log(`  ✗ ${f.name}`);
    const lines = String(f.message)
      .split("\n")
      .filter((l) => l.trim())
      .slice(0, 3);
    for (const l of lines) console.log(`      ${l.trim().slice(0, 300)}`);
  }
}
console.log(`total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
