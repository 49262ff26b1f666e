// Every shipped scenario, played on the page to its end, judged only
// through the page's test hooks (data-* attributes), as a course's own
// tests would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { open, root, runToEnd } from "./harness.mjs";

const scenarios = readdirSync(`${root}/web/scenarios`)
  .filter((f) => /^\d\d-.*\.json$/.test(f))
  .map((f) => f.replace(/\.json$/, ""));

/** Plays a scenario at full speed to its end; returns the page. */
async function played(stem) {
  const session = await open(`?scenario=${stem}&speed=max&autoplay=1`);
  await runToEnd(session.page);
  return session;
}

const count = (page, selector) => page.locator(selector).count();

/** Side-effect counts per message label, from the page's hooks. */
function sideEffectCounts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("[data-message-id][data-side-effect-count]")].map((e) => Number(e.dataset.sideEffectCount)),
  );
}

function consumerEffects(page) {
  return page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll("[data-consumer]")].map((c) => [c.dataset.consumer, Number(c.dataset.sideEffects)])),
  );
}

/** Log lines as [seconds, text], in time order. */
async function logLines(page) {
  const texts = await page.locator("#log li").allTextContents();
  return texts
    .map((t) => [Number(/t\s*=\s*([\d.]+)/.exec(t)?.[1] ?? NaN), t])
    .sort((a, b) => a[0] - b[0]);
}

test("there are ten scenarios, in tutorial order", () => {
  assert.equal(scenarios.length, 10);
});

for (const stem of scenarios) {
  test(`scenario ${stem} plays to its end without page errors`, async () => {
    const { page, problems, close } = await played(stem);
    assert.deepEqual(problems, []);
    assert.ok((await page.locator("#log li").count()) > 0, "the log tells what happened");
    assert.equal(await page.locator("#error").isVisible(), false, "no error shown");
    await close();
  });
}

test("scenario 2: the slow consumer charges the order twice, on receive #2", async () => {
  const { page, close } = await played("02-slow-consumer-duplicate");
  assert.deepEqual(await sideEffectCounts(page).then((c) => Math.max(...c)), 2);
  assert.deepEqual(await consumerEffects(page), { "worker-1": 1, "worker-2": 1 });
  assert.ok((await count(page, "[data-state='deleted'][data-receive-count='2']")) >= 1, "deleted after receive #2");
  const lines = await logLines(page);
  assert.ok(lines.some(([, t]) => /duplicate/i.test(t)), "the log calls it a duplicate delivery");
  await close();
});

test("scenario 3: the idempotent consumer charges the order once", async () => {
  const { page, close } = await played("03-idempotent-consumer");
  assert.equal(Math.max(...(await sideEffectCounts(page))), 1);
  const effects = await consumerEffects(page);
  assert.equal(effects["worker-1"] + effects["worker-2"], 1);
  await close();
});

test("scenario 5: the poison message rests in the DLQ after exactly 3 receives", async () => {
  const { page, close } = await played("05-poison-message");
  assert.equal(await count(page, "[data-state='dlq']"), 1);
  assert.equal(await count(page, "[data-state='dlq'][data-receive-count='3']"), 1);
  await close();
});

test("scenario 6: customer A's orders are delivered in order, and a locked group is visible while its head is in flight", async () => {
  const { page, close } = await played("06-fifo-message-groups");
  const lines = await logLines(page);
  const firstReceive = (n) => lines.find(([, t]) => /receiv/i.test(t) && t.includes(`A-${n}`))?.[0];
  const times = [1, 2, 3, 4].map(firstReceive);
  assert.ok(times.every((t) => Number.isFinite(t)), `every A order received: ${times}`);
  assert.deepEqual([...times].sort((a, b) => a - b), times, `A's orders in order: ${times}`);
  assert.ok(times[1] > times[0] && times[2] > times[1] && times[3] > times[2]);
  // Back to t = 1 s by replay: worker-1 holds A-1, so customer-A is locked.
  await page.locator("#timeline").fill("1000");
  await page.waitForSelector("[data-time-ms='1000']");
  assert.equal(await count(page, "[data-group='customer-A'][data-locked='true']"), 1);
  assert.ok((await count(page, "[data-group='customer-A'] [data-state='in-flight']")) >= 1, "its head is in flight");
  await close();
});
