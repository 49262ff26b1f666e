// Labs (issue 13) as a learner and a course author meet them: a lab
// solved through its form, a failed check opening the exact failing run,
// a refused knob value said beside its field, hints one at a time, the
// progress kept, and an embedded lab's goal-met event and API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { artifacts, axeViolations, clockMs, open, root, scaled } from "./harness.mjs";
import { assertDrawing } from "./drawing.mjs";

const LAB = "?lab=duplicate-orders&checkpoints=off";

/** Clicks Check my fix and waits for its verdict. */
async function checkFix(root) {
  await root.locator("#check-fix").click();
  await root.locator("#goal:not([data-goal-state='checking']) #goal-result:not([hidden])").waitFor({ timeout: scaled(20_000) });
}

test("a lab is solved through its form: the verdict, the conditions held, the progress kept and the picker's ✓", async () => {
  const { page, problems, close } = await open(LAB);
  const goal = page.locator("#goal");
  assert.equal(await goal.getAttribute("data-lab"), "duplicate-orders");
  assert.equal(await goal.getAttribute("data-goal-state"), "unmet");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), ["Each message is charged at most once", "No message is lost", "Every message is charged by t = 50 s"]);
  assert.equal(await page.locator("#scenario-place").textContent(), "Lab 1 of 19");
  // The lab's own (broken) settings fill the form.
  assert.equal(await page.locator("#knob-visibility").inputValue(), "2");
  assert.equal(await page.locator("#knob-heartbeat-on").isChecked(), false);

  await page.locator("#knob-visibility").fill("10");
  await page.locator("#knob-visibility").press("Enter");
  await page.waitForSelector("[data-changed]:not([hidden])");
  assert.match(await page.locator("[data-changed]").textContent(), /Visibility timeout: 2 s → 10 s/);
  await checkFix(page);
  assert.equal(await goal.getAttribute("data-goal-state"), "met");
  assert.match(await page.locator("#goal-result").textContent(), /^✓ Goal met: fixed, on every seed\.Met over 12 seeds: no message charged more than once\.$/);
  assert.deepEqual(await page.locator("#goal-conditions li").evaluateAll((lis) => lis.map((li) => li.dataset.held)), ["true", "true", "true"]);
  // Solved: the cause and the fix are shown, the lab is marked in this browser and in the picker.
  assert.ok(await page.locator("#goal-explain").isVisible());
  assert.ok(await page.locator("#goal-solved").isVisible());
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("queuelab.labs.solved")));
  assert.deepEqual(kept["duplicate-orders"].settings, { heartbeat: "off", heartbeatVisibility: "off", idempotent: false, visibility: 10 });
  assert.match(await page.locator("#scenario option[value='labs/01-duplicate-orders']").textContent(), /✓$/);
  await page.screenshot({ path: join(artifacts, "lab-solved.png") });

  // A changed setting makes the verdict stale: it goes, the progress stays.
  await page.locator("#knob-idempotent").check();
  await page.waitForSelector("#goal[data-goal-state='unmet'] #goal-result[hidden]", { state: "attached" });
  assert.ok(await page.locator("#goal-solved").isVisible());
  assert.deepEqual(problems, []);
  await close();
});

test("a failed check names the first failing seed and opens that exact run at the breach", async () => {
  const { page, problems, close } = await open(LAB);
  const failed = page.evaluate(() => new Promise((resolve) => document.body.addEventListener("goal-failed", (e) => resolve(e.detail), { once: true })));
  await checkFix(page);
  const detail = await failed;
  assert.equal(detail.lab, "duplicate-orders");
  assert.equal(detail.condition, "sideEffectsAtMost");
  const first = page.locator("#goal-result .first-failure");
  assert.match(await first.textContent(), new RegExp(`^With seed ${detail.seed}, order A-\\d+ was charged twice at t = [\\d.]+ s`));
  assert.deepEqual(await page.locator("#goal-conditions li[data-held='false']").evaluateAll((lis) => lis.map((li) => li.dataset.condition)), ["sideEffectsAtMost"]);
  // A screen reader hears the verdict.
  await page.waitForFunction(() => document.getElementById("announcer").textContent.includes("Goal not met. With seed"));

  await page.locator("#open-failing-run").click();
  await page.waitForSelector(`#clock[data-time-ms='${detail.atMs}']`);
  assert.equal(await page.locator("#seed").inputValue(), String(detail.seed));
  // The run on screen is that seed's: the message the check named has been charged twice by now.
  const twice = await page.evaluate((id) => document.getElementById("lab").playground.snapshot({ messagesPerQueue: 0 }).simulation.sideEffects.find((s) => s.messageId === id)?.count, detail.failures[0].messageId);
  assert.equal(twice, 2);
  assert.equal(await clockMs(page), detail.atMs);
  // The verdict stays beside the run it describes.
  assert.ok(await first.isVisible());
  await page.screenshot({ path: join(artifacts, "lab-failed-run.png") });
  assert.deepEqual(problems, []);
  await close();
});

test("a knob value the lab refuses is said beside its field, and the field gets back the run's value", async () => {
  const { page, close } = await open(LAB);
  await page.locator("#knob-visibility").fill("500");
  await page.locator("#knob-visibility").press("Enter");
  const note = page.locator("[data-knob-error='visibility']");
  await note.waitFor();
  assert.equal(await note.textContent(), "Visibility timeout (s) must be a whole number of seconds from 1 to 180. You entered “500”. Back to 2, the value running now.");
  assert.equal(await page.locator("#knob-visibility").inputValue(), "2");
  assert.equal(await page.locator("#knob-visibility").getAttribute("aria-invalid"), "true");
  // Enter applies a value; it does not check.
  await page.locator("#knob-visibility").fill("10");
  await page.locator("#knob-visibility").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.visibility === 10);
  assert.equal(await page.locator("#goal").getAttribute("data-goal-state"), "unmet");
  assert.equal(await page.locator("#goal-result").isVisible(), false);
  // Switching the heartbeat on starts it at its smallest value, and the run follows.
  await page.locator("#knob-heartbeat-on").check();
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.heartbeat === 500);
  assert.equal(await page.locator("[data-knob-error]").count(), 0);
  await close();
});

test("hints come one at a time, then the cause and the fix, with the AWS documentation", async () => {
  const { page, close } = await open(LAB);
  await page.locator("#goal-help summary").click();
  assert.equal(await page.locator("#goal-hints li").count(), 0);
  for (let n = 1; n <= 3; n++) {
    assert.equal(await page.locator("#goal-hint").textContent(), `Show a hint (${n} of 3)`);
    await page.locator("#goal-hint").click();
    assert.equal(await page.locator("#goal-hints li").count(), n);
  }
  assert.ok(!(await page.locator("#goal-explain").isVisible()));
  assert.equal(await page.locator("#goal-hint").textContent(), "Show the cause and the fix");
  await page.locator("#goal-hint").click();
  assert.match(await page.locator("#goal-explain").textContent(), /The cause.*visibility timeout is 2 s.*Fixes that only move the problem.*A three-minute visibility timeout/s);
  assert.equal(await page.locator("#goal-explain a").getAttribute("href"), "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html");
  assert.deepEqual(await axeViolations(page), []);
  await close();
});

test("an embedded lab fires goal-met with its settings, and its API reads and writes them", async () => {
  const html = `<!doctype html><html lang="en"><head><title>Lab</title><script type="module" src="/web/queue-lab.js"></script></head>
    <body><main><queue-lab id="fix" lab="duplicate" checkpoints="off"></queue-lab></main></body></html>`;
  const { page, problems, close } = await open("tests/course-lab.html", { routes: { "tests/course-lab.html": { body: html, contentType: "text/html" } }, readyWhen: "#fix[data-ready='true']" });
  const el = page.locator("#fix");
  assert.equal(await el.getAttribute("data-lab"), "duplicate-orders");
  assert.equal(await el.getAttribute("data-goal-state"), "unmet");
  const met = page.evaluate(() => new Promise((resolve) => document.getElementById("fix").addEventListener("goal-met", (e) => resolve(e.detail), { once: true })));
  const api = await page.evaluate(async () => {
    const lab = document.getElementById("fix").lab;
    const before = lab.settings;
    let refused = null;
    try {
      lab.settings = { visibility: 0 };
    } catch (e) {
      refused = { path: e.path, rule: e.rule };
    }
    lab.settings = { heartbeat: 1000, heartbeatVisibility: 3 };
    return { before, refused, conditions: lab.conditions.map((c) => c.id), knobs: lab.knobs.map((k) => k.id) };
  });
  assert.deepEqual(api.before, { heartbeat: "off", heartbeatVisibility: "off", idempotent: false, visibility: 2 });
  assert.deepEqual(api.refused, { path: "settings.visibility", rule: "a whole number of seconds from 1 to 180" });
  assert.deepEqual(api.conditions, ["sideEffectsAtMost", "noneLost", "processedByMs"]);
  assert.deepEqual(api.knobs, ["visibility", "heartbeat", "heartbeatVisibility", "idempotent"]);
  // The learner presses the button inside the element.
  await el.locator("#check-fix").click();
  assert.deepEqual(await met, { lab: "duplicate-orders", settings: { heartbeat: 1000, heartbeatVisibility: 3, idempotent: false, visibility: 2 } });
  assert.equal(await el.getAttribute("data-goal-state"), "met");
  const check = await page.evaluate(() => document.getElementById("fix").lab.checkGoal());
  assert.equal(check.met, true);
  assert.match(check.summary, /^Met over 12 seeds/);
  assert.deepEqual(problems, []);
  await close();
});

test("a shared link of a lab opens the lab with the learner's settings in its form", async () => {
  const { page, close } = await open(LAB);
  await page.locator("#knob-idempotent").check();
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.idempotent === true);
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  const href = await page.locator("#share-url").inputValue();
  assert.equal(new URL(href).searchParams.get("lab"), "duplicate-orders");
  await close();
  const again = await open(href.replace(/^https?:\/\/[^/]+\//, ""));
  assert.equal(await again.page.locator("#knob-idempotent").isChecked(), true);
  assert.equal(await again.page.locator("#goal").getAttribute("data-lab"), "duplicate-orders");
  assert.match(await again.page.locator("[data-changed]").textContent(), /Idempotent handler: off → on/);
  await again.close();
});

test("a lab's burst is drawn as the engine holds it: each lane's first cards and a counted stack", async () => {
  const { page, close } = await open("?lab=latency-spike&checkpoints=off&t=5000");
  await page.waitForSelector("#clock[data-time-ms='5000']");
  const { drawn } = await assertDrawing(page, "latency-spike at 5 s");
  assert.ok(Object.values(drawn.stacks).some((n) => n > 10), `a lane holds a stack: ${JSON.stringify(drawn.stacks)}`);
  await close();
});

test("an edit outside the lab's knobs runs, and the panel says Check my fix does not include it", async () => {
  const { page, close } = await open(LAB);
  assert.equal(await page.locator("#goal-edited").isVisible(), false);
  // The Settings panel's processing time is not one of this lab's knobs.
  await page.locator("#c0-min").fill("100");
  await page.locator("#c0-min").press("Enter");
  await page.waitForSelector("#goal-edited:not([hidden])");
  assert.equal(await page.locator("#goal-edited").textContent(), "Your other edits run here, but Check my fix checks the lab with these settings only.");
  // A knob changed through the Settings panel is a knob change: no note for it.
  await page.locator("#c0-min").fill("3000");
  await page.locator("#c0-min").press("Enter");
  await page.waitForSelector("#goal-edited[hidden]", { state: "attached" });
  await page.locator("#q0-visibilityTimeoutSeconds").fill("10");
  await page.locator("#q0-visibilityTimeoutSeconds").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.visibility === 10);
  assert.equal(await page.locator("#goal-edited").isVisible(), false);
  assert.equal(await page.locator("#knob-visibility").inputValue(), "10");
  await close();
});

/** Lab 1 with a busy auditor beside it (short-polling another queue every millisecond for `seconds`): a check of many slices. */
function busyLab(seconds) {
  const lab = JSON.parse(readFileSync(join(root, "web/scenarios/labs/01-duplicate-orders.json"), "utf8"));
  lab.durationMs = seconds * 1000;
  lab.queues.push({ name: "audit" });
  lab.consumers.push({ name: "auditor", queue: "audit", pollIntervalMs: 1, processing: { fixedMs: 1 }, sideEffect: "audited" });
  return JSON.stringify(lab);
}

test("a long check shows which seed it is on while the page stays usable, and Cancel stops it and puts the panel back", async () => {
  const routes = { "web/scenarios/labs/01-duplicate-orders.json": busyLab(400) };
  const { page, problems, close } = await open(LAB, { routes });
  const ended = page.evaluate(() => {
    window.checkEvents = [];
    for (const type of ["goal-met", "goal-failed"]) document.body.addEventListener(type, () => window.checkEvents.push(type));
  });
  await ended;
  await page.locator("#check-fix").click();
  const status = page.locator("#check-status");
  await page.waitForSelector("#goal[data-goal-state='checking'] #check-progress:not([hidden])");
  assert.match(await status.textContent(), /^Checking seed \d+ of 12…$/);
  // Its progress and Cancel stand in the button's place, and focus moved with it.
  assert.equal(await page.locator("#check-fix").isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "check-cancel");
  // The page answers between slices: the bar moves on to the next seed while the check runs.
  await page.waitForFunction(() => /^Checking seed ([2-9]|1[0-2]) of 12…$/.test(document.getElementById("check-status").textContent), null, { timeout: scaled(60_000) });
  const bar = await page.locator("#check-bar").evaluate((el) => el.value);
  assert.ok(bar > 1 / 12 && bar < 1, `bar at ${bar}`);
  await page.locator("#goal").screenshot({ path: join(artifacts, "lab-checking.png") });
  assert.deepEqual(await axeViolations(page), []);
  await page.locator("#check-cancel").click();
  await page.waitForSelector("#goal[data-goal-state='unmet'] #check-progress[hidden]", { state: "attached" });
  assert.equal(await page.locator("#check-fix").isVisible(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "check-fix");
  assert.equal(await page.locator("#goal-result").isVisible(), false, "no verdict from a cancelled check");
  await page.waitForFunction(() => document.getElementById("announcer").textContent.includes("Check cancelled."));
  assert.deepEqual(await page.evaluate(() => window.checkEvents), []);
  // The API's check is the button's: cancelling it rejects with an AbortError.
  const cancelled = page.evaluate(() => document.getElementById("lab").lab.checkGoal().then(() => "resolved", (e) => e.name));
  await page.waitForSelector("#check-progress:not([hidden])");
  await page.locator("#check-cancel").click();
  assert.equal(await cancelled, "AbortError");
  // A new setting makes a running check moot: it stops, and the run goes on with the setting.
  await page.locator("#check-fix").click();
  await page.waitForSelector("#check-progress:not([hidden])");
  await page.locator("#knob-visibility").fill("10");
  await page.locator("#knob-visibility").press("Enter");
  await page.waitForSelector("#goal[data-goal-state='unmet'] #check-progress[hidden]", { state: "attached" });
  assert.equal(await page.evaluate(() => document.getElementById("lab").lab.settings.visibility), 10);
  assert.deepEqual(await page.evaluate(() => window.checkEvents), []);
  assert.deepEqual(problems, []);
  await close();
});

test("the check's progress fits a phone-width panel", async () => {
  const routes = { "web/scenarios/labs/01-duplicate-orders.json": busyLab(400) };
  const { page, close } = await open(LAB, { routes, viewport: { width: 400, height: 800 } });
  await page.locator("#check-fix").click();
  await page.waitForFunction(() => /^Checking seed ([2-9]|1[0-2]) of 12…$/.test(document.getElementById("check-status").textContent), null, { timeout: scaled(60_000) });
  const box = await page.locator("#check-progress").boundingBox();
  const panel = await page.locator("#goal").boundingBox();
  assert.ok(box.x >= panel.x && box.x + box.width <= panel.x + panel.width, `${JSON.stringify(box)} inside ${JSON.stringify(panel)}`);
  assert.ok(await page.locator("#check-cancel").isVisible());
  await page.locator("#goal").screenshot({ path: join(artifacts, "lab-checking-400.png") });
  await page.locator("#check-cancel").click();
  await page.waitForSelector("#check-progress[hidden]", { state: "attached" });
  await close();
});

test("a check past the engine's budget is refused in the verdict's place, naming the budget", async () => {
  // Every millisecond for 2,000 s: about 4 million units a seed, twice what a check may take.
  const routes = { "web/scenarios/labs/01-duplicate-orders.json": busyLab(2000) };
  const { page, problems, close } = await open(LAB, { routes });
  await page.locator("#check-fix").click();
  const result = page.locator("#goal-result[data-verdict='refused']");
  await result.waitFor();
  assert.match(await result.textContent(), /^✗ Cannot check these settings\.check refused: check must be at most 24,000,000 units of work \(the check's budget: its 12 seeds' runs together\), got about/);
  await page.locator("#goal").screenshot({ path: join(artifacts, "lab-check-refused.png") });
  assert.equal(await page.locator("#goal").getAttribute("data-goal-state"), "unmet");
  assert.equal(await page.locator("#check-progress").isVisible(), false);
  assert.equal(await page.locator("#check-fix").isVisible(), true);
  assert.deepEqual(problems, []);
  await close();
});

test("lab 07 played with its fix says what changed in its knobs' words: the retries, the backoff, no field's raw path", async () => {
  const { page, problems, close } = await open("?lab=retry-storm&checkpoints=off&speed=max");
  // The lab's first fix (explain.fixes[0]): no immediate retry, a backoff from 2 s.
  await page.locator("#knob-retryImmediately").uncheck();
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.retryImmediately === false);
  await page.locator("#knob-backoffBase-on").check();
  await page.locator("#knob-backoffBase").fill("2");
  await page.locator("#knob-backoffBase").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.backoffBase === 2);
  const changed = page.locator("[data-changed]");
  await changed.waitFor();
  const line = await changed.textContent();
  assert.equal(
    line,
    "You changed: Release a failed order at once: on → off; Back off: first delay, doubling each retry: off → 2 s. " +
      "The summary above describes the file's run.",
  );
  assert.doesNotMatch(line, /behaviour\./, "no field is named by its raw path");
  // The worker's card says what it does now, each behaviour in the engine's words.
  const card = page.locator("[data-consumer='worker-1'] .c-traits");
  assert.equal(await card.textContent(), "long-polls 20 s · 200 ms per message · fails every message from t = 0 s to t = 15 s · backs off 2 s after a failure, doubling up to 5 min");
  // The settings form offers the same behaviours, set as the run has them.
  assert.equal(await page.locator("#settings [data-path='consumers[0].behaviour.retryImmediately']").isChecked(), false);
  assert.equal(await page.locator("#settings [data-path='consumers[0].behaviour.retryBackoff']").isChecked(), true);
  assert.equal(await page.locator("#settings [data-path='consumers[0].behaviour.retryBackoff.baseSeconds']").inputValue(), "2");
  // Played to its end, the recap's sentence names the first change in words.
  await page.locator("#play").click();
  await page.locator("#outcome:not([hidden])").waitFor({ timeout: scaled(30_000) });
  assert.match(await page.locator("#outcome").textContent(), /^.*You turned off “Release a failed order at once” \(and 1 more change\)/s);
  await page.screenshot({ path: join(artifacts, "lab-07-fixed.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});

// Labs 10–12 (who may call, what encryption costs): each played with a
// wrong fix (Check my fix fails, naming the condition) and the right one.

/** A lab file's fixes and non-fixes by name: the policies the tests type are the lab's own. */
const labParts = (file) => JSON.parse(readFileSync(join(root, "web/scenarios/labs", file), "utf8")).explain;

/** Types `text` into a policy knob's text area and applies it; waits for the run to take it. */
async function typePolicy(page, text) {
  await page.locator("#knob-policy").fill(text);
  await page.locator("[data-knob-apply='policy']").click();
  await page.waitForFunction((want) => JSON.stringify(JSON.parse(document.getElementById("lab").lab.settings.policy)) === JSON.stringify(JSON.parse(want)), text);
}

/** Check my fix: the verdict, and the conditions that failed. */
async function verdict(page) {
  await checkFix(page);
  return {
    state: await page.locator("#goal").getAttribute("data-goal-state"),
    failed: await page.locator("#goal-conditions li[data-held='false']").evaluateAll((lis) => lis.map((li) => li.dataset.condition)),
    text: await page.locator("#goal-result").textContent(),
  };
}

test("the lost notifications: the policy is edited in its text area, a wrong topic ARN still loses deliveries, the SourceArn statement passes", async () => {
  const { page, problems, close } = await open("?lab=lost-notifications&checkpoints=off");
  const { fixes, nonFixes } = labParts("10-lost-notifications.json");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), [
    "No message a topic sends to a subscribed queue is lost (refused, then dropped or dead-lettered)",
    "orders' policy grants no more than needed: sns.amazonaws.com for arn:aws:sns:us-east-1:000000000000:orders-topic may call SendMessage; no other account or service may call anything",
  ]);
  // The text area holds the queue's policy as the run has it, indented, in AWS's order.
  const area = page.locator("#knob-policy");
  assert.equal(await area.evaluate((el) => el.tagName), "TEXTAREA");
  const shown = await area.inputValue();
  assert.match(shown, /^\{\n {2}"Version": "2012-10-17",\n {2}"Statement": \[\n {4}\{\n {6}"Sid": "__owner_statement",\n {6}"Effect": "Allow",/);

  // The lab as shipped: every delivery is refused and dropped.
  let v = await verdict(page);
  assert.equal(v.state, "unmet");
  assert.deepEqual(v.failed, ["noDeliveryLost"]);
  assert.match(v.text, /With seed 1, orders-topic's delivery to orders was refused at t = 1 s: AccessDenied, and dropped: the subscription has no dead-letter queue; 8 of 8 deliveries were lost by the end/);
  await page.screenshot({ path: join(artifacts, "lab-lost-notifications-1280.png"), fullPage: true });

  // A policy SQS would refuse is said under the area in SQS's words; the run keeps its policy.
  await area.fill(shown.replace('"Effect": "Allow",', ""));
  await page.locator("[data-knob-apply='policy']").click();
  const note = page.locator("[data-knob-error='policy']");
  await note.waitFor();
  assert.equal(
    await note.textContent(),
    "orders' access policy must be a queue policy SQS accepts (a JSON object with Version and Statement). SQS refuses this one: Invalid value for the parameter Policy. Reason: statement 1 (\"__owner_statement\"): it has no Effect. The run keeps the policy it had.",
  );
  assert.equal(JSON.parse(await page.evaluate(() => document.getElementById("lab").lab.settings.policy)).Statement[0].Effect, "Allow");

  // The statement names another topic: still lost, and the lab says why.
  await typePolicy(page, nonFixes[0].settings.policy);
  assert.equal(await page.locator("[data-knob-error]").count(), 0);
  await page.waitForSelector("[data-changed]:not([hidden])");
  assert.match(await page.locator("[data-changed]").textContent(), /orders' access policy: edited/);
  v = await verdict(page);
  assert.deepEqual(v.failed, ["noDeliveryLost"]);
  assert.match(v.text, /The statement names another topic only moves the problem\./);

  // The SourceArn statement, typed: every delivery arrives and nothing more is granted.
  await typePolicy(page, fixes[0].settings.policy);
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(await page.locator("#goal-conditions li").evaluateAll((lis) => lis.map((li) => li.dataset.held)), ["true", "true"]);
  await page.screenshot({ path: join(artifacts, "lab-lost-notifications-met-1280.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});

test("the lost notifications at a phone's width: the policy's text area fits and scrolls inside itself", async () => {
  const { page, problems, close } = await open("?lab=lost-notifications&checkpoints=off", { viewport: { width: 400, height: 800 } });
  const area = page.locator("#knob-policy");
  const box = await area.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 400, `the area fits: ${JSON.stringify(box)}`);
  assert.ok(box.height >= 150, `room for the statements: ${box.height}`);
  // The page itself does not scroll sideways; long lines scroll in the area.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 400));
  await area.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "lab-lost-notifications-400.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});

test("the wrong account: sqs:* and a grant without DeleteMessage fail their conditions, the partner's exact grant passes", async () => {
  const { page, problems, close } = await open("?lab=wrong-account&checkpoints=off");
  const { fixes, nonFixes } = labParts("11-wrong-account.json");
  let v = await verdict(page);
  assert.ok(v.failed.includes("noAccessDenied"), v.failed.join());
  assert.match(v.text, /partner-reader's ReceiveMessage on partner-orders was refused at t = 0 s: AccessDenied, no statement of its policy allows account 111111111111 to ReceiveMessage/);

  const byName = (name) => nonFixes.find((n) => n.name === name).settings.policy;
  await typePolicy(page, byName("Allow the partner sqs:*"));
  v = await verdict(page);
  assert.deepEqual(v.failed, ["leastPrivilege"]);
  assert.match(v.text, /partner-orders' policy lets account 111111111111 call SendMessage/);

  await typePolicy(page, byName("Allow ReceiveMessage only"));
  v = await verdict(page);
  assert.deepEqual(v.failed, ["noAccessDenied"]);
  assert.match(v.text, /partner-reader's DeleteMessage on partner-orders was refused/);

  await typePolicy(page, fixes[0].settings.policy);
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});

test("the KMS bill: SSE-SQS is no fix (the queue must stay on its KMS key), a day-long data key reuse period is", async () => {
  const { page, problems, close } = await open("?lab=kms-bill&checkpoints=off");
  assert.equal(await page.locator("#knob-reusePeriod").inputValue(), "60");
  assert.equal(await page.locator("#knob-encryption").inputValue(), "kms");
  assert.deepEqual(await page.locator("#knob-encryption option").allTextContents(), ["SSE-KMS (alias/orders)", "SSE-SQS (keys SQS owns)", "None (unencrypted)"]);
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["kmsRequestsAtMost"]);
  assert.match(v.text, /SQS made its 11th KMS request at t = 180 s \(goal: at most 10\); 60 by the end \(20 GenerateDataKey, 40 Decrypt\)/);

  await page.locator("#knob-encryption").selectOption("sqs");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.encryption === "sqs");
  v = await verdict(page);
  assert.deepEqual(v.failed, ["encryptedWithKms"], `${v.state}: ${v.text}`);
  assert.match(v.text, /at the end \(t = 1200 s\), orders was encrypted with SSE-SQS \(keys SQS owns\), not with a KMS key/);
  assert.match(v.text, /Switch to SSE-SQS only moves the problem\./);

  await page.locator("#knob-encryption").selectOption("kms");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.encryption === "kms");
  await page.locator("#knob-reusePeriod").fill("86400");
  await page.locator("#knob-reusePeriod").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.reusePeriod === 86400);
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.match(v.text, /at most 3 requests to KMS/);
  assert.deepEqual(problems, []);
  await close();
});

test("the batch that runs twice: a real event source mapping; an empty batchItemFailures loses the corrupt invoice, ReportBatchItemFailures with the failed ids passes", async () => {
  const { page, problems, close } = await open("?lab=lost-batches&checkpoints=off");
  assert.equal(await page.locator("#goal").getAttribute("data-lab"), "lost-batches");
  let v = await verdict(page);
  assert.ok(v.failed.includes("sideEffectsAtMost"), `${v.state}: ${v.text}`);
  assert.match(v.text, /was emailed twice at t = [\d.]+ s \(each time by send-invoices\)/);

  await page.locator("#knob-reportBatchItemFailures").check();
  await page.locator("#knob-response").selectOption("empty");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.response === "empty");
  v = await verdict(page);
  assert.deepEqual(v.failed, ["deadLetterQueue"], `${v.state}: ${v.text}`);
  assert.match(v.text, /an empty batchItemFailures tells Lambda every record succeeded/);

  await page.locator("#knob-response").selectOption("valid");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.response === "valid");
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.match(v.text, /no message emailed more than once/);
  assert.deepEqual(problems, []);
  await close();
});

test("the timeout trap: a second more of visibility timeout still duplicates, six times the function timeout passes", async () => {
  const { page, problems, close } = await open("?lab=timeout-trap&checkpoints=off");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), ["Each message is sent at most once", "Every message is sent by t = 25 s"]);
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["sideEffectsAtMost"], `${v.state}: ${v.text}`);
  assert.match(v.text, /report #\d+ was sent twice at t = [\d.]+ s \(each time by render-reports\)/);

  await page.locator("#knob-visibility").fill("7");
  await page.locator("#knob-visibility").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.visibility === 7);
  v = await verdict(page);
  assert.deepEqual(v.failed, ["sideEffectsAtMost"], `${v.state}: ${v.text}`);
  assert.match(v.text, /A second more of visibility timeout only moves the problem\./);

  await page.locator("#knob-visibility").fill("30");
  await page.locator("#knob-visibility").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.visibility === 30);
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});

test("the alarm that never fires: its own settings never leave INSUFFICIENT_DATA, SampleCount never counts messages, Maximum over 10 s fires", async () => {
  const { page, problems, close } = await open("?lab=silent-alarm&checkpoints=off");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), ["orders-backlog goes into ALARM by t = 60 s, and not before t = 20 s"]);
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["alarmFires"], `${v.state}: ${v.text}`);
  assert.match(v.text, /orders-backlog was not in ALARM by t = 60 s: it never changed state \(INSUFFICIENT_DATA from the start/);

  await page.locator("#knob-period").fill("10");
  await page.locator("#knob-period").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.period === 10);
  v = await verdict(page);
  assert.deepEqual(v.failed, ["alarmFires"], `${v.state}: ${v.text}`);
  assert.match(v.text, /its last change was to OK at t = 10 s \(the latest datapoint \(10\) is not at or above 30\)/);
  assert.match(v.text, /SampleCount over 10 s periods only moves the problem\./);

  await page.locator("#knob-statistic").selectOption("Maximum");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.statistic === "Maximum");
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.match(v.text, /the alarm fired by t = \d+ s at the latest/);
  assert.deepEqual(problems, []);
  await close();
});

test("the DLQ nobody watched: NumberOfMessagesSent never counts a redriven message, the DLQ's visible messages page on-call", async () => {
  const { page, problems, close } = await open("?lab=unwatched-dlq&checkpoints=off");
  assert.equal(await page.locator("#knob-dlqAlarm").inputValue(), "none");
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["alarmNotifies"], `${v.state}: ${v.text}`);
  assert.match(v.text, /no alarm notified ops-pager by t = 30 s: no alarm went into ALARM/);

  await page.locator("#knob-dlqAlarm").selectOption("NumberOfMessagesSent");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.dlqAlarm === "NumberOfMessagesSent");
  v = await verdict(page);
  assert.deepEqual(v.failed, ["alarmNotifies"], `${v.state}: ${v.text}`);
  assert.match(v.text, /NumberOfMessagesSent counts the messages sent to a queue with SendMessage, not those the redrive policy moves into it/);

  await page.locator("#knob-dlqAlarm").selectOption("ApproximateNumberOfMessagesVisible");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.dlqAlarm === "ApproximateNumberOfMessagesVisible");
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  // The page came to the end of the run on screen: the alarm is in ALARM, on-call holds the notification.
  await page.evaluate(() => document.getElementById("lab").playground.advance(40_000));
  const snap = await page.evaluate(() => document.getElementById("lab").playground.snapshot());
  assert.equal(snap.simulation.alarms.find((a) => a.name === "dlq-not-empty").state, "ALARM");
  assert.equal(snap.queues.find((q) => q.name === "on-call").visible, 1);
  assert.deepEqual(problems, []);
  await close();
});

test("the lost reply: a 5 s wait still loses a slow authorization's reply, a reply queue kept per client loses none", async () => {
  const { page, problems, close } = await open("?lab=lost-reply&checkpoints=off");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), ["No reply is lost: every responder's reply reaches an existing reply queue"]);
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["noReplyLost"], `${v.state}: ${v.text}`);
  assert.match(v.text, /payment-service's reply to checkout-\d+ was lost at t = [\d.]+ s: its reply queue checkout-replies-\d+ no longer existed \(QueueDoesNotExist\)/);

  await page.locator("#knob-replyWait").fill("5");
  await page.locator("#knob-replyWait").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.replyWait === 5);
  v = await verdict(page);
  assert.deepEqual(v.failed, ["noReplyLost"], `${v.state}: ${v.text}`);
  assert.match(v.text, /A 5 s wait only moves the problem\./);

  await page.locator("#knob-replyWait").fill("3");
  await page.locator("#knob-replyWait").press("Enter");
  await page.locator("#knob-replyQueue").selectOption("perClient");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.replyQueue === "perClient");
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});

test("the vanished payload: deleting the object on receive leaves pointers to nothing, more receives do not help, deleting it with the message does", async () => {
  const { page, problems, close } = await open("?lab=vanished-payload&checkpoints=off");
  assert.equal(await page.locator("#knob-deleteObject").inputValue(), "onReceive");
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["deadLetterQueue"], `${v.state}: ${v.text}`);
  assert.match(v.text, /was moved to scans-dlq at t = 15 s after 3 receives/);

  await page.locator("#knob-redrive").fill("10");
  await page.locator("#knob-redrive").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.redrive === 10);
  v = await verdict(page);
  assert.ok(v.failed.includes("sideEffectsExactly"), `${v.state}: ${v.text}`);

  await page.locator("#knob-redrive").fill("3");
  await page.locator("#knob-redrive").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.redrive === 3);
  await page.locator("#knob-deleteObject").selectOption("withMessage");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.deleteObject === "withMessage");
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});

test("the throttled burst: high throughput alone is still throttled on its one message group, ten orders to a SendMessageBatch passes", async () => {
  const { page, problems, close } = await open("?lab=throttled-burst&checkpoints=off");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), ["Each message is shipped at most once", "No call is refused with RequestThrottled (SQS's request quotas)"]);
  let v = await verdict(page);
  assert.deepEqual(v.failed, ["noCallThrottled"], `${v.state}: ${v.text}`);
  assert.match(v.text, /checkout's SendMessage was refused at t = 0\.6 s: RequestThrottled/);

  await page.locator("#knob-highThroughput").check();
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.highThroughput === true);
  v = await verdict(page);
  assert.deepEqual(v.failed, ["noCallThrottled"], `${v.state}: ${v.text}`);
  assert.match(v.text, /a message group stays on one partition/);

  await page.locator("#knob-highThroughput").uncheck();
  await page.locator("#knob-batch-on").check();
  await page.locator("#knob-batch").fill("10");
  await page.locator("#knob-batch").press("Enter");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.batch === 10);
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});

test("the early reminder: the queue's delay at 900 s still reminds early, re-delaying until DeliverAt passes", async () => {
  const { page, problems, close } = await open("?lab=early-reminder&checkpoints=off");
  assert.deepEqual(await page.locator("#goal-conditions li").allTextContents(), [
    "Each message is reminded exactly once",
    "No message is reminded before the time in its DeliverAt attribute",
  ]);
  // As shipped: delay 900 and filter on receive handles R-1 at 06:15, due 06:40.
  let v = await verdict(page);
  assert.equal(v.state, "unmet");
  assert.deepEqual(v.failed, ["notHandledBefore"]);
  assert.match(v.text, /With seed 1, reminder R-1 was reminded at t = 900\.\d+ s by reminder-service, 25 min before its DeliverAt \(2026-12-04T06:40:00\.000Z\)/);

  // A queue delay stops at 900 s too: still early.
  await page.locator("#knob-queueDelay").fill("900");
  await page.locator("#knob-queueDelay").press("Enter");
  v = await verdict(page);
  assert.deepEqual(v.failed, ["notHandledBefore"]);

  // Re-delaying until DeliverAt: each reminder once, at its time, on every seed.
  await page.locator("#knob-queueDelay").fill("0");
  await page.locator("#knob-queueDelay").press("Enter");
  await page.locator("#knob-redelay").check();
  v = await verdict(page);
  assert.equal(v.state, "met", v.text);
  assert.deepEqual(problems, []);
  await close();
});
