// A first-time learner's page (issue 12, time and forms): quiet time is
// skipped and said so, the early moments of a long run are reachable,
// an error shows beside its cause with the value restored, and "Act
// yourself" fills in the handle it received.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

const clockMs = (page) => page.locator("#clock").getAttribute("data-time-ms").then(Number);

test("scenario 7's quiet minutes are skipped at 1× and the page says so", async () => {
  const { page, problems, close } = await open("?scenario=07-fifo-deduplication&checkpoints=off");
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
  const { page, close } = await open("?scenario=07-fifo-deduplication&checkpoints=off");
  const ticks = await page.locator("#timeline-marks [data-marker-ms]").evaluateAll((els) => els.map((e) => Number(e.dataset.markerMs)));
  assert.deepEqual(ticks, [0, 2000, 3000, 301500], "a tick for each narration entry");
  await page.locator("#moments").selectOption("301500");
  await page.waitForSelector("#clock[data-time-ms='301500']");
  await page.locator("#moments").selectOption("2000");
  await page.waitForSelector("#clock[data-time-ms='2000']");
  await page.locator("#timeline-marks [data-marker-ms='3000']").click();
  await page.waitForSelector("#clock[data-time-ms='3000']");
  await close();
});

test("a bad setting shows under its field in plain words, and the field gets back the value the run uses", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const batch = page.locator("#settings [data-setting='batchSize']").first();
  await batch.fill("2.5");
  await batch.dispatchEvent("change");
  const note = page.locator("#settings [data-field-error='batchSize']");
  await note.waitFor({ state: "visible" });
  assert.equal(await note.textContent(), "Batch size must be a whole number from 1 to 10. You entered “2.5”. Back to 1, the value running now.");
  assert.equal(await batch.inputValue(), "1", "the form shows what the run uses");
  assert.equal(await batch.getAttribute("aria-invalid"), "true");
  assert.equal(await batch.getAttribute("aria-describedby"), await note.getAttribute("id"));
  // A good value clears it.
  await batch.fill("2");
  await batch.dispatchEvent("change");
  await note.waitFor({ state: "detached" });
  assert.equal(await batch.getAttribute("aria-invalid"), null);
  await close();
});

test("a queue setting out of range shows its plain-word error under its field and the value is restored", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const timeout = page.locator("#settings [data-path='queues[0].visibilityTimeoutSeconds']");
  await timeout.fill("50000");
  await timeout.dispatchEvent("change");
  const note = page.locator("#settings [data-field-error='visibilityTimeoutSeconds']");
  await note.waitFor({ state: "visible" });
  assert.equal(await note.textContent(), "Visibility timeout must be a whole number of seconds from 0 to 43200 (12 hours), the range SQS allows for VisibilityTimeout. You entered “50000”. Back to 2, the value running now.");
  assert.equal(await timeout.inputValue(), "2", "the form shows what the run uses");
  assert.equal(await timeout.getAttribute("aria-describedby"), await note.getAttribute("id"));
  await close();
});

test("every worker behaviour is a setting: deletes before processing, switched off, runs without losing messages", async () => {
  const { page, close } = await open("?scenario=09-delete-before-process");
  const box = page.locator("#settings [data-setting='deletesBeforeProcessing']").first();
  assert.equal(await box.isChecked(), true, "scenario 9's worker deletes first");
  for (const key of ["failsEveryNth", "failsOn", "crashesBeforeSideEffectOn", "crashesAfterSideEffectOn", "batchSize", "idempotent", "heartbeat"]) {
    assert.ok((await page.locator(`#settings [data-setting='${key}']`).count()) > 0, `a ${key} field`);
  }
  await box.uncheck();
  await page.waitForFunction(() => document.querySelector("#json-text").value.includes('"deletesBeforeProcessing": false'));
  await close();
});

test("bad scenario JSON shows under the editor with its line", async () => {
  const { page, close } = await open("?scenario=01-process-then-delete");
  await page.locator("#json-panel summary").click();
  const text = await page.locator("#json-text").inputValue();
  const bad = text.replace('"waitTimeSeconds": 20', '"waitTimeSeconds": 2.5');
  await page.locator("#json-text").fill(bad);
  await page.getByRole("button", { name: "Run this scenario" }).click();
  const note = page.locator("[data-json-error]");
  await note.waitFor({ state: "visible" });
  const line = bad.slice(0, bad.indexOf('"waitTimeSeconds"')).split("\n").length;
  assert.equal(await note.getAttribute("data-line"), String(line));
  assert.match(await note.textContent(), new RegExp(`^This file cannot run: line ${line} column \\d+: consumers\\[0\\]\\.waitTimeSeconds must be a whole number of seconds from 0 to 20, got 2\\.5$`));
  await close();
});

test("Act yourself: a receive fills the handle and enables Delete; an empty receive says who took the message", async () => {
  const { page, close } = await open("?scenario=01-process-then-delete");
  await page.locator("#manual-panel summary").click();
  const del = page.getByRole("button", { name: "DeleteMessage" });
  const chg = page.getByRole("button", { name: "ChangeMessageVisibility" });
  assert.equal(await del.isDisabled(), true, "no handle yet");
  assert.equal(await chg.isDisabled(), true);
  // At t = 0 worker-1 is long-polling: a message you send goes to it, and your receive comes back empty.
  await page.locator("#m-body").fill("order Z-9001: sent by hand");
  await page.getByRole("button", { name: "SendMessage" }).click();
  await page.getByRole("button", { name: "ReceiveMessage" }).click();
  const why = page.locator("[data-empty-why]");
  await why.waitFor({ state: "visible" });
  assert.match(await why.textContent(), /worker-1's long poll took order Z-9001 first, at t = 0 s\./);
  assert.equal(await del.isDisabled(), true, "still no handle");
  // At 1.5 s A-1002 is visible while worker-1 is busy with A-1001: yours to receive.
  await page.locator("#timeline").fill("1500");
  await page.waitForSelector("#clock[data-time-ms='1500']");
  await page.getByRole("button", { name: "ReceiveMessage" }).click();
  await page.waitForFunction(() => document.querySelector("#m-handle").value !== "");
  assert.equal(await del.isDisabled(), false);
  assert.equal(await chg.isDisabled(), false);
  assert.equal(await why.isHidden(), true);
  await del.click();
  await page.waitForFunction(() => document.querySelector("#m-out").textContent.startsWith("DeleteMessage → 200"));
  await close();
});
