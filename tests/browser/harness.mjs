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

/**
 * Slow machines: QUEUELAB_TEST_TIMEOUT_SCALE=3 lets every wait of the
 * browser tests take three times as long before it fails (default 1).
 */
export const TIMEOUT_SCALE_VAR = "QUEUELAB_TEST_TIMEOUT_SCALE";
const timeoutScale = (() => {
  const raw = process.env[TIMEOUT_SCALE_VAR];
  if (raw == null || raw === "") return 1;
  const n = Number(raw);
  if (!(n > 0)) throw new Error(`${TIMEOUT_SCALE_VAR}=${raw}: use a positive number, e.g. 2 for a machine twice as slow.`);
  return n;
})();

/** `ms` stretched by QUEUELAB_TEST_TIMEOUT_SCALE: the longest a wait may take before the test fails. */
export const scaled = (ms) => Math.max(1, Math.round(ms * timeoutScale)); // 0 would mean "no limit" to Playwright
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
 * is ready (or for `readyWhen`). `routes` replaces files the page fetches
 * (text is served as JSON, `{ body, contentType }` as given);
 * `base` serves from another server than the repository's; `init` is a
 * function run in the page before any of its scripts. The first-visit
 * tour (web/page/tour.js) counts as already seen unless `tour` is true;
 * `hasTouch` makes a touch screen (for `locator.tap()`). */
export async function open(
  query = "",
  { colorScheme = "light", reducedMotion = "no-preference", viewport, routes = {}, readyWhen = "body[data-ready='true']", base, init, prepare, tour = false, hasTouch = false } = {},
) {
  const context = await browser.newContext({ colorScheme, reducedMotion, hasTouch, viewport: viewport ?? { width: 1280, height: 800 } });
  context.setDefaultTimeout(scaled(30_000));
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  if (!tour) await context.addInitScript(() => {
    try {
      localStorage.setItem("queuelab.tourSeen", "1");
    } catch {
      // about:blank and sandboxed frames have no storage, and no tour either
    }
  });
  if (init) await context.addInitScript(init);
  for (const [path, body] of Object.entries(routes)) {
    // A string is JSON; { body, contentType } anything else (an HTML page on another origin, say).
    const reply = typeof body === "string" ? { body, contentType: "application/json" } : body;
    await page.route(`**/${path}`, (route) => route.fulfill({ status: 200, ...reply }));
  }
  // `prepare(page)`: what a test sets before the page loads (a CPU throttle, say).
  if (prepare) await prepare(page);
  await page.goto(`${base ?? baseUrl}${query}`);
  await page.waitForSelector(readyWhen, { timeout: scaled(15_000) });
  return { page, problems, close: () => context.close() };
}

/** Plays the loaded scenario as fast as possible and waits for its end. */
export async function runToEnd(page) {
  await page.waitForSelector("body[data-finished='true']", { timeout: scaled(30_000) });
}

/**
 * The state every test hook shows, as a person sees it: the clock, each
 * token's state and receive count and where it is drawn (queue, group and
 * lane, or the tray), the tray's order, group locks, consumers with their
 * side effects and what they hold, each queue's counts, the duplicate
 * banner, the side-effect ledger and the narration. Two pages that agree on
 * this show the same run at the same moment. With `hostId`, the same is read
 * inside that <queue-lab>'s shadow root.
 */
export function hookState(page, hostId) {
  return page.evaluate((id) => {
    const root = id ? document.getElementById(id).shadowRoot : document;
    const all = (sel, from = root) => [...from.querySelectorAll(sel)];
    const place = (t) => {
      if (t.closest("#tray")) return "tray";
      return `${t.closest("[data-queue]")?.dataset.queue}|${t.closest("[data-group]")?.dataset.group ?? ""}|${t.closest("[data-lane]")?.dataset.lane}`;
    };
    const banner = root.getElementById("dup-banner");
    return {
      time: root.querySelector("[data-time-ms]")?.dataset.timeMs,
      tokens: all("[data-message-id][data-state]")
        .map((t) => `${t.dataset.messageId}|${t.dataset.state}|${t.dataset.receiveCount}`)
        .sort(),
      groups: all("[data-group]").map((g) => `${g.dataset.group}|${g.dataset.locked}`).sort(),
      consumers: all("[data-consumer]").map((c) => `${c.dataset.consumer}|${c.dataset.sideEffects}`).sort(),
      lanes: all("#rows .token, #tray .token").map((t) => `${t.dataset.messageId}|${place(t)}`).sort(),
      tray: all("#tray .token").map((t) => `${t.dataset.messageId}|${t.dataset.state}|${t.dataset.receiveCount}${t.dataset.lost ? "|lost" : ""}`),
      held: all("[data-consumer]").map((c) => `${c.dataset.consumer}:${all(".held", c).map((b) => `${b.dataset.messageId}|${b.dataset.receiveCount}`).join(",")}`).sort(),
      ledger: all("#ledger li").map((li) => li.textContent),
      counts: all("#rows [data-queue]").map((q) => `${q.dataset.queue}|${q.querySelector(".q-counts")?.textContent}`).sort(),
      banner: banner?.hidden ? null : banner?.textContent,
      narration: root.getElementById("narration")?.textContent,
    };
  }, hostId);
}

/** The virtual time the page's clock shows, in ms. */
export async function clockMs(page) {
  return Number(await page.locator("#clock").getAttribute("data-time-ms"));
}

/**
 * Presses Step until `done(timeMs)` holds, at most `max` times; fails
 * clearly if it never does. Calls `each(timeMs)` after every step.
 */
export async function stepUntil(page, done, { max = 500, each = async () => {} } = {}) {
  for (let i = 0; i < max; i++) {
    const t = await clockMs(page);
    if (await done(t)) return t;
    await page.locator("#step").click();
    await each(await clockMs(page));
  }
  const t = await clockMs(page);
  if (await done(t)) return t;
  throw new Error(`still not there after ${max} steps (clock at ${t} ms)`);
}

/** Drags the timeline to `ms` (a replay to that moment) and waits until the page shows it. */
export async function scrubTo(page, ms) {
  await page.locator("#timeline").fill(String(ms));
  await shownAt(page, ms);
}

/**
 * Waits until the page shows moment `ms`. A moment (a scrub's, a link's) is
 * rebuilt in slices (web/lab/replay.js): on a busy machine it takes several
 * frames, and a link's page says it is ready before it ends. The clock
 * shows the moment only once the replay ended and everything drew it.
 */
export async function shownAt(page, ms) {
  await page.waitForSelector(`#clock[data-time-ms='${ms}']`);
}

/** axe-core's serious and critical violations on the page (it looks inside open shadow roots). */
export async function axeViolations(page, { all = false } = {}) {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => all || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; ")}`);
}
