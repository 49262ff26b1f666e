// The story follows the run: a learner's change that stops something from
// happening also stops the narration about it (the simulation fires a line
// only when its trigger happens), the recap counts the run on screen and
// says how it differs from the file's run, and "you changed" lists the change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd } from "./harness.mjs";

/** Plays the run to its end; returns what the page said along the way. */
async function playToEnd(page) {
  await page.locator("#play").click();
  await runToEnd(page);
  return {
    narration: await page.locator("[data-narration]").textContent(),
    log: await page.locator("#log").textContent(),
    outcome: page.locator("[data-outcome]"),
    changed: page.locator("[data-changed]"),
  };
}

/** Neither the narration now nor any narration line in the log matches these. */
function neverSaid(said, patterns) {
  for (const p of patterns) {
    assert.doesNotMatch(said.narration, p, `the narration does not say ${p}`);
    assert.doesNotMatch(said.log, p, `no narration line in the log says ${p}`);
  }
}

async function setting(page, key, value) {
  const input = page.locator(`#settings [data-setting='${key}']`).first();
  if (typeof value === "boolean") await input.setChecked(value);
  else await input.fill(String(value));
  await input.dispatchEvent("change");
}

test("scenario 2 with the visibility timeout at 5 s: no line about a duplicate or a second charge, and the recap says charged once", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max&checkpoints=off");
  await setting(page, "visibilityTimeoutSeconds", 5);
  const said = await playToEnd(page);
  neverSaid(said, [/receives it \(receive #2\)/, /charges the card again/, /with its older receipt handle/, /charging takes 3\.5 s/]);
  assert.equal(await said.outcome.isVisible(), true, "the recap shows at the end");
  assert.equal(await said.outcome.getAttribute("data-side-effects"), "1", "charged once");
  assert.equal(said.narration, "Charged exactly once: worker-1 deleted the message while it was still invisible, so no other worker received it.", "the ending written for the fix");
  assert.match(await said.outcome.textContent(), /You raised orders' visibility timeout to 5 s: .*no duplicate delivery this time/);
  assert.match(await said.changed.textContent(), /You changed: orders' visibility timeout 2 s → 5 s/);
  assert.match(await page.locator("#summary").textContent(), /./, "the file's summary stays");
  assert.deepEqual(problems, []);
  await close();
});

test("scenario 4 with heartbeat off: no heartbeat line and no 'never visible again'; the recap counts the second charge", async () => {
  const { page, problems, close } = await open("?scenario=04-heartbeat&speed=max");
  await setting(page, "heartbeat", false);
  const said = await playToEnd(page);
  neverSaid(said, [/Heartbeat: worker-1 calls ChangeMessageVisibility/, /never became visible again/]);
  assert.equal(await said.outcome.getAttribute("data-side-effects"), "2", "charged twice without the heartbeat");
  assert.match(await said.changed.textContent(), /worker-1's heartbeat 1 s → off/);
  assert.match(
    await page.locator("[data-explanation]").textContent(),
    /^worker-1 deleted order A-1001 with an older receipt handle, though worker-2 has received it since \(receive #2\)/,
    "the simulation explains the moment no authored line covers",
  );
  // Under the latest line, which it follows: "Since then:", not "Why:", so it is not read as the line's cause.
  const label = await page.locator("[data-explanation]").evaluate((el) => [el.hasAttribute("data-after-line"), getComputedStyle(el, "::before").content]);
  assert.deepEqual(label, [true, '"Since then: "']);
  assert.deepEqual(problems, []);
  await close();
});

test("scenario 9 with delete-before-process off: no line about deleting first or a lost order", async () => {
  const { page, problems, close } = await open("?scenario=09-delete-before-process&speed=max");
  await page.locator("#json-panel summary").click();
  const editor = page.locator("#json-text");
  const scenario = JSON.parse(await editor.inputValue());
  scenario.consumers[0].behaviour.deletesBeforeProcessing = false;
  await editor.fill(JSON.stringify(scenario, null, 2));
  await page.getByRole("button", { name: "Run this scenario" }).click();
  const said = await playToEnd(page);
  neverSaid(said, [/deletes each message right after receiving it/, /happens to work out/, /the order is lost/, /Process first, delete last/]);
  assert.match(await said.changed.textContent(), /worker-1's delete before processing on → off/);
  assert.match(await said.outcome.textContent(), /no message lost this time/);
  assert.match(said.narration, /but nothing was lost: it had not deleted the message/, "the ending written for the fix");
  assert.deepEqual(problems, []);
  await close();
});

test("the file's own run has no you-changed line and its recap counts its outcome", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max&checkpoints=off");
  const said = await playToEnd(page);
  assert.equal(await said.changed.isVisible(), false, "nothing changed: no line");
  assert.equal(await said.outcome.getAttribute("data-side-effects"), "2", "charged twice, as the file teaches");
  assert.match(said.narration, /charges the card again/, "the file's lines all apply to its own run");
  await close();
});

test("predict, then see: scenario 2 pauses at its checkpoints, and the run says whether a prediction was right or wrong", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max");
  const box = page.locator("#checkpoint");
  const clock = () => page.locator("#clock").getAttribute("data-time-ms");
  // The first question is asked at 0, when worker-1 receives the order: the run waits for an answer.
  await page.waitForSelector("[data-checkpoint='worker-2-gets']");
  assert.equal(await clock(), "0");
  assert.match(await box.textContent(), /charging takes 3\.5 s, and the visibility timeout is 2 s\. .*What will worker-2 get\?/);
  const ticks = await page.locator("#timeline-marks .tl-checkpoint").evaluateAll((els) => els.map((e) => Number(e.dataset.markerMs)));
  assert.deepEqual(ticks, [0, 3500], "the timeline marks where each question is asked");
  // Right: worker-2 gets the same order; the run stops where it happens to say so.
  await page.getByRole("button", { name: /Order A-1001 again/ }).click();
  await page.waitForSelector("#checkpoint[data-checkpoint-result='right']");
  assert.equal(await clock(), "2000", "answered at the duplicate delivery");
  assert.match(await box.textContent(), /✔ You were right: Order A-1001 again.*its 2 s visibility timeout ended/);
  await page.getByRole("button", { name: "Continue ▶" }).click();
  // Wrong: "once" for a card the run charges twice.
  await page.waitForSelector("[data-checkpoint='charges']");
  assert.equal(await clock(), "3500");
  await page.getByRole("button", { name: "Once", exact: true }).click();
  await page.waitForSelector("#checkpoint[data-checkpoint-result='wrong']");
  assert.match(await box.textContent(), /✘ Not this time\. You predicted: Once\. What happened: Twice/);
  assert.equal(await clock(), "10000", "decided at the end of the run");
  // The answer is the run's, not the file's: at 5 s the same prediction is right.
  await setting(page, "visibilityTimeoutSeconds", 5);
  await page.waitForSelector("[data-checkpoint='worker-2-gets']");
  assert.match(await box.textContent(), /the visibility timeout is 5 s/, "the question quotes the run's setting");
  // Play at an open question skips it: the question closes and the run goes on (at 1×, to see it).
  await page.locator("#speed").selectOption("1");
  await page.locator("#play").click();
  await page.waitForSelector("#checkpoint[data-state='predicted']");
  assert.match(await box.textContent(), /^Skipped.*The run will answer it/);
  await page.locator("#speed").selectOption("max");
  await page.waitForSelector("[data-checkpoint='charges']");
  await page.getByRole("button", { name: "Once", exact: true }).click();
  await page.waitForSelector("#checkpoint[data-checkpoint-result='right']");
  assert.match(await box.textContent(), /✔ You were right: Once/);
  assert.deepEqual(problems, []);
  await close();
});
