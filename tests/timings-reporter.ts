// A Vitest reporter that says where a run's time went, per test file: the runtime's start
// (environment), Vitest's own set-up (prepare), the setup files, importing the test file
// (collect) and the tests themselves. It writes .tmp/test-results/<name>-timings.json and
// prints the slowest files. `node scripts/test-timings.mjs` compares two such files.
//
//   vitest run --config vitest.config.ts --reporter=default --reporter=./tests/timings-reporter.ts
//
// On a shared machine wall times drift from run to run: compare the shares and the per-file
// figures of runs made close together, not absolute seconds between days.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export type FileTiming = {
  file: string;
  environment: number;
  prepare: number;
  setup: number;
  collect: number;
  tests: number;
  total: number;
  count: number;
};

const SHOWN = 10;
const ms = (n: number) => `${(n / 1000).toFixed(1)} s`.padStart(8);

export default class TimingsReporter implements Reporter {
  private root = process.cwd();
  private name = "workers";

  onInit(vitest: { config: { root: string; config?: string } }) {
    this.root = vitest.config.root;
    this.name = vitest.config.config?.includes("unit") ? "unit" : "workers";
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files: FileTiming[] = modules.map((m) => {
      const d = m.diagnostic();
      const environment = d.environmentSetupDuration;
      const total = environment + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      return {
        file: path.relative(this.root, m.moduleId),
        environment,
        prepare: d.prepareDuration,
        setup: d.setupDuration,
        collect: d.collectDuration,
        tests: d.duration,
        total,
        count: [...m.children.allTests()].length,
      };
    });
    files.sort((a, b) => b.total - a.total);
    const sum = (k: keyof Omit<FileTiming, "file">) => files.reduce((s, f) => s + f[k], 0);
    const out = path.join(this.root, ".tmp", "test-results", `${this.name}-timings.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ files }, null, 1));
    const total = sum("total") || 1;
    const share = (k: keyof Omit<FileTiming, "file">) => `${k} ${ms(sum(k)).trim()} (${Math.round((sum(k) / total) * 100)}%)`;
    console.log(
      `\nTime summed over ${files.length} files: ${ms(total).trim()}; ${(["environment", "prepare", "setup", "collect", "tests"] as const).map(share).join(", ")}`,
    );
    console.log(`Slowest files (total = environment + prepare + setup + collect + tests):`);
    for (const f of files.slice(0, SHOWN))
      console.log(`${ms(f.total)}  ${ms(f.environment + f.prepare + f.setup + f.collect)} start-up ${ms(f.tests)} tests (${f.count})  ${f.file}`);
    console.log(`(written to ${path.relative(this.root, out)})`);
  }
}
