// The page as a person (or a course's test suite) uses it: stepping and
// scrubbing agree with playing, untrusted bodies stay text, the keyboard
// reaches everything, no serious accessibility violations, and bad input
// gets a readable message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { artifacts, axeViolations, hookState, open, root, runToEnd } from "./harness.mjs";

const scenarioText = (stem) => readFileSync(`${root}/web/scenarios/${stem}.json`, "utf8");

test("stepping and scrubbing give the same state as playing", async () => {
  const stem = "02-slow-consumer-duplicate";
  const played = await open(`?scenario=${stem}&speed=max&autoplay=1`);
  await runToEnd(played.page);
  const end = await hookState(played.page);

  // Step event by event to the end.
  const stepped = await open(`?scenario=${stem}`);
  const stepTimes = [];
  for (let i = 0; i < 500; i++) {
    if ((await stepped.page.locator("body[data-finished='true']").count()) > 0) break;
    await stepped.page.locator("#step").click();
    stepTimes.push(Number(await stepped.page.locator("[data-time-ms]").first().getAttribute("data-time-ms")));
  }
  assert.deepEqual(await hookState(stepped.page), end, "stepping to the end = playing to the end");

  // Scrub back to a moment stepping visited: same state as when stepping was there.
  const moment = stepTimes.find((t) => t >= 2000);
  const steppedAgain = await open(`?scenario=${stem}`);
  while (Number(await steppedAgain.page.locator("[data-time-ms]").first().getAttribute("data-time-ms")) < moment) {
    await steppedAgain.page.locator("#step").click();
  }
  const atMoment = await hookState(steppedAgain.page);
  await played.page.locator("#timeline").fill(String(moment));
  await played.page.waitForSelector(`[data-time-ms='${moment}']`);
  assert.deepEqual(await hookState(played.page), atMoment, `scrubbing to ${moment} ms = stepping there`);
  for (const s of [played, stepped, steppedAgain]) await s.close();
});

test("a message body that looks like HTML shows as text", async () => {
  const scenario = JSON.parse(scenarioText("01-process-then-delete"));
  const evil = "<img src=x onerror=alert(1)>";
  scenario.producers[0].sends[0].body = evil;
  scenario.consumers = [];
  const { page, problems, close } = await open("?scenario=01-process-then-delete&speed=max&autoplay=1", {
    routes: { "web/scenarios/01-process-then-delete.json": JSON.stringify(scenario) },
  });
  await runToEnd(page);
  assert.equal(await page.locator("img[src='x']").count(), 0, "no element made from the body");
  assert.ok((await page.getByText(evil).count()) > 0, "the body is shown as text");
  assert.deepEqual(problems, [], "no script ran");
  await close();
});

test("everything works by keyboard: Tab reaches the controls and Space plays", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.id);
    if (id) reached.add(id);
  }
  for (const id of ["scenario", "play", "step", "restart", "speed", "timeline", "seed"]) {
    assert.ok(reached.has(id), `Tab reaches #${id} (reached: ${[...reached].join(", ")})`);
  }
  await page.evaluate(() => document.activeElement?.blur());
  const before = Number(await page.locator("[data-time-ms]").first().getAttribute("data-time-ms"));
  await page.keyboard.press("Space");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "true", "Space starts playing");
  await page.waitForFunction((t) => Number(document.querySelector("[data-time-ms]").dataset.timeMs) > t, before);
  await page.keyboard.press("Space");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "false", "Space pauses");
  await close();
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    const { page, close } = await open("?scenario=06-fifo-message-groups&speed=1&autoplay=1", { colorScheme });
    await page.waitForFunction(() => Number(document.querySelector("[data-time-ms]").dataset.timeMs) > 1500);
    await page.locator("#play").click();
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });
}

test("a malformed scenario file gets a readable message on the page", async () => {
  const broken = scenarioText("01-process-then-delete").replace('"durationMs"', '"durationSeconds"');
  const { page, close } = await open("?scenario=01-process-then-delete", {
    routes: { "web/scenarios/01-process-then-delete.json": broken },
    readyWhen: "#error:not([hidden])",
  });
  const error = page.locator("#error");
  assert.ok(await error.isVisible());
  assert.match(await error.textContent(), /durationSeconds|durationMs/);
  await close();
});

test("an invalid setting shows the SQS error text", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const input = page.locator("[data-setting='visibilityTimeoutSeconds']").first();
  await input.fill("50000");
  await input.dispatchEvent("change");
  const error = page.locator("#error");
  await error.waitFor({ state: "visible" });
  assert.match(await error.textContent(), /VisibilityTimeout/);
  await close();
});

test("changing the visibility timeout to 5 s makes the duplicate disappear", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max");
  const input = page.locator("[data-setting='visibilityTimeoutSeconds']").first();
  await input.fill("5");
  await input.dispatchEvent("change");
  await page.locator("#play").click();
  await runToEnd(page);
  const counts = await page.evaluate(() =>
    [...document.querySelectorAll("[data-message-id][data-side-effect-count]")].map((e) => Number(e.dataset.sideEffectCount)),
  );
  assert.equal(Math.max(...counts), 1);
  await close();
});

test("reduced motion and a narrow screen still show every message, and a screenshot is saved", async () => {
  const narrow = await open("?scenario=05-poison-message&speed=max&autoplay=1", {
    reducedMotion: "reduce",
    viewport: { width: 400, height: 800 },
  });
  await runToEnd(narrow.page);
  assert.equal(await narrow.page.locator("[data-state='dlq']").count(), 1);
  await narrow.page.screenshot({ path: `${artifacts}/playground-narrow.png`, fullPage: true });
  await narrow.close();

  const wide = await open("?scenario=02-slow-consumer-duplicate&speed=1&autoplay=1");
  await wide.page.waitForFunction(() => Number(document.querySelector("[data-time-ms]").dataset.timeMs) >= 2600);
  await wide.page.locator("#play").click();
  await wide.page.screenshot({ path: `${artifacts}/playground.png` });
  await wide.close();
});
