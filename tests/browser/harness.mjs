// Shared set-up of the browser tests: the repository served on a free
// loopback port, and Debian's Chromium driven by playwright-core (test
// tools' own browser downloads do not work on these machines).
import { after, before } from "node:test";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/static-server.mjs";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url));
mkdirSync(artifacts, { recursive: true });

let server;
let browser;
export let baseUrl;

before(async () => {
  ({ server, url: baseUrl } = await startServer(root));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page (own context) at `query`, waiting until the page says it
 * is ready (or for `readyWhen`). `routes` replaces files the page fetches;
 * `base` serves from another server than the repository's. */
export async function open(
  query = "",
  { colorScheme = "light", reducedMotion = "no-preference", viewport, routes = {}, readyWhen = "body[data-ready='true']", base } = {},
) {
  const context = await browser.newContext({ colorScheme, reducedMotion, viewport: viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  for (const [path, body] of Object.entries(routes)) {
    await page.route(`**/${path}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body }));
  }
  await page.goto(`${base ?? baseUrl}${query}`);
  await page.waitForSelector(readyWhen, { timeout: 15_000 });
  return { page, problems, close: () => context.close() };
}

/** Plays the loaded scenario as fast as possible and waits for its end. */
export async function runToEnd(page) {
  await page.waitForSelector("body[data-finished='true']", { timeout: 30_000 });
}

/** The state every test hook shows: tokens, groups, consumers and the clock. */
export function hookState(page) {
  return page.evaluate(() => ({
    time: document.querySelector("[data-time-ms]")?.dataset.timeMs,
    tokens: [...document.querySelectorAll("[data-message-id][data-state]")]
      .map((t) => `${t.dataset.messageId}|${t.dataset.state}|${t.dataset.receiveCount}`)
      .sort(),
    groups: [...document.querySelectorAll("[data-group]")].map((g) => `${g.dataset.group}|${g.dataset.locked}`).sort(),
    consumers: [...document.querySelectorAll("[data-consumer]")].map((c) => `${c.dataset.consumer}|${c.dataset.sideEffects}`).sort(),
  }));
}

/** axe-core's serious and critical violations on the page (it looks inside open shadow roots). */
export async function axeViolations(page) {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; ")}`);
}
