// Checks a running dev server the way a newcomer meets it: opens the public home, a tenant's
// sign-in page and the portal sign-in in Chromium, then /favicon.ico, and fails on any console
// error or warning (hydration mismatches, "504 Outdated Optimize Dep"), uncaught error or 4xx/5xx.
//
//   rm -rf node_modules/.vite && npm run dev -- --port 5181    (in one terminal)
//   npx node scripts/dev-check.mjs 5181                        (in another)
import process from "node:process";
import { chromium } from "playwright-core";

const port = process.argv[2] ?? process.env.PORT ?? "5173";
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage();
const problems = [];
page.on("console", (m) => {
  if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text().slice(0, 2000)}`);
});
page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
page.on("response", (r) => {
  if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
});
try {
  for (const url of [`http://localhost:${port}/`, `http://acme.localhost:${port}/login`, `http://acme.localhost:${port}/portal/login`]) {
    const res = await page.goto(url, { waitUntil: "networkidle", timeout: 120_000 });
    await page.waitForTimeout(1500);
    console.log(`${res?.status()} ${url} (${await page.title()})`);
  }
  const icon = await page.goto(`http://localhost:${port}/favicon.ico`);
  console.log(`${icon?.status()} /favicon.ico (${icon?.headers()["content-type"]})`);
} finally {
  await browser.close();
}
console.log(problems.length ? problems.join("\n") : "no problems");
process.exit(problems.length ? 1 : 0);
