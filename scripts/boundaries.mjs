// Feature boundaries and import cycles (ADR 0049): cruises app/ and workers/ with the rules in
// .dependency-cruiser.mjs, prints every violation and a count per rule, exits 1 on any.
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const options = await extractDepcruiseOptions("./.dependency-cruiser.mjs");
const tsConfig = extractTSConfig("./tsconfig.json");
const { output } = await cruise(["app", "workers"], { ...options, validate: true, outputType: "json" }, {}, { tsConfig });
const result = typeof output === "string" ? JSON.parse(output) : output;
const violations = result.summary.violations;

const cycles = new Set();
const counts = new Map();
for (const v of violations) {
  const rule = v.rule.name;
  if (rule === "no-circular") {
    // One cycle is reported once per edge in it: count each set of modules once.
    const members = [v.from, ...(v.cycle ?? []).map((c) => (typeof c === "string" ? c : c.name))];
    const key = [...new Set(members)].sort().join(" ");
    if (cycles.has(key)) continue;
    cycles.add(key);
    console.log(`cycle: ${members.join(" -> ")}`);
  } else {
    console.log(`${rule}: ${v.from} -> ${v.to}`);
  }
  counts.set(rule, (counts.get(rule) ?? 0) + 1);
}
const imports = (counts.get("feature-private") ?? 0) + (counts.get("feature-private-from-app") ?? 0);
console.log(
  `\nboundaries: ${imports} cross-feature import(s) outside the surfaces (feature-private ${counts.get("feature-private") ?? 0}, ` +
    `from app/workers ${counts.get("feature-private-from-app") ?? 0}), ${counts.get("schema-knows-no-feature") ?? 0} schema import(s) of a feature, ` +
    `${counts.get("feature-layers") ?? 0} import(s) against the feature layers, ` +
    `${counts.get("no-circular") ?? 0} import cycle(s); ${result.summary.totalCruised} modules cruised.`,
);
process.exit(violations.length ? 1 : 0);
