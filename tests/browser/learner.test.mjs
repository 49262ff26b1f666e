// A first-time learner's page (issue 12, time and forms): quiet time is
// skipped and said so, the early moments of a long run are reachable,
// an error shows beside its cause with the value restored, and "Act
// yourself" fills in the handle it received.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

const clockMs = (page) => page.locator("#clock").getAttribute("data-time-ms").then(Number);

test("scenario 7's quiet minutes are skipped at 1× and the page says so", async () => {
  const { page, problems, close } = await open("?scenario=07-fifo-deduplication");
  assert.equal(await page.locator("#speed").inputValue(), "1");
  await page.click("#play");
  // At 1× the first quiet stretch (3 s → 20.5 s) would take 17 real seconds; skipped, it takes none.
  const note = page.locator("[data-quiet-skip]");
  await note.waitFor({ state: "visible" });
  assert.match(await note.textContent(), /^⏩ \d+(\.\d)? s of quiet skipped \(nothing happened from t = 3(\.\d+)? s to 20\.0 s\)$/);
  assert.ok((await clockMs(page)) >= 20000, "the clock jumped to just before the long polls end");
  // Playing on, the skips of the five minutes add up in the note.
  await page.waitForFunction(() => / min /.test(document.querySelector("[data-quiet-skip]").textContent));
  await page.click("#play");
  assert.deepEqual(problems, []);
  await close();
});

test("the early moments of scenario 7 are reachable from the timeline's narration moments", async () => {
  const { page, close } = await open("?scenario=07-fifo-deduplication");
  const ticks = await page.locator("#timeline-marks [data-marker-ms]").evaluateAll((els) => els.map((e) => Number(e.dataset.markerMs)));
  assert.deepEqual(ticks, [0, 2000, 3000, 301000], "a tick for each narration entry");
  await page.locator("#moments").selectOption("301000");
  await page.waitForSelector("#clock[data-time-ms='301000']");
  await page.locator("#moments").selectOption("2000");
  await page.waitForSelector("#clock[data-time-ms='2000']");
  await page.locator("#timeline-marks [data-marker-ms='3000']").click();
  await page.waitForSelector("#clock[data-time-ms='3000']");
  await close();
});
