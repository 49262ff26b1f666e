// Lambda functions on the stage (web/views/stage/lambdas.js): each
// function's card shows what the engine's snapshot says at the moment on
// screen (its state, pollers, concurrency, the running invocations and
// their batches, named as the queue's tokens name the same messages) and
// what its events said (the latest results, the failed ones going back, a
// throttled batch, Lambda's refusal of a mapping), also after scrubbing
// back. A scenario without functions draws none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, scrubTo } from "./harness.mjs";
import { LAMBDA_SCENARIO } from "../node/lambda-scenario.mjs";

/** What the Lambda cards draw, and the engine's snapshot of the same moment. */
function read(page) {
  return page.evaluate(() => {
    const pg = document.getElementById("lab").playground;
    const ids = (el) => [...el.querySelectorAll(".l-msg")].map((b) => b.dataset.messageId);
    const cards = [...document.querySelectorAll("#lambda-cards .lambda")].map((c) => ({
      name: c.dataset.function,
      state: c.dataset.state,
      pollers: Number(c.dataset.pollers),
      concurrency: Number(c.dataset.concurrency),
      running: [...c.querySelectorAll(".l-running .l-inv")].map((r) => ({ invocation: Number(r.dataset.invocation), size: Number(r.dataset.size), ids: ids(r) })),
      ended: [...c.querySelectorAll(".l-ended .l-inv")].map((r) => ({ result: r.dataset.result, invocation: r.dataset.invocation ? Number(r.dataset.invocation) : null, ids: ids(r), back: [...r.querySelectorAll(".l-msg[data-back='true']")].map((b) => b.dataset.messageId), head: r.querySelector(".l-inv-head").textContent })),
      times: [...c.querySelectorAll(".l-running .l-time")].map((t) => t.textContent),
      refusal: c.querySelector(".l-refusal")?.textContent ?? null,
      settings: c.querySelector(".l-settings").textContent,
      conc: c.querySelector(".l-conc-text").textContent,
    }));
    // The queue lane's token of each message in a running batch, and its label beside the chip's.
    const lanes = [...document.querySelectorAll(".l-running .l-msg")].map((b) => {
      const tok = document.querySelector(`#rows .token[data-message-id="${b.dataset.messageId}"]`);
      return { state: tok?.dataset.state, same: tok?.querySelector(".tk-label").textContent === b.querySelector(".tk-label").textContent };
    });
    const snap = pg.snapshot({ messagesPerQueue: 200 }).simulation.lambdas;
    return { now: pg.now(), cards, lanes, snap, hidden: document.getElementById("lambdas").hidden };
  });
}

/** Every card agrees with the engine's snapshot of its function. */
function agrees(s) {
  assert.equal(s.hidden, false);
  assert.deepEqual(s.cards.map((c) => c.name), s.snap.map((l) => l.name));
  for (const [i, c] of s.cards.entries()) {
    const l = s.snap[i];
    const at = `${c.name} at t=${s.now}`;
    assert.deepEqual([c.state, c.pollers, c.concurrency], [l.state, l.pollers, l.concurrency], at);
    assert.deepEqual(c.running, l.running.map((r) => ({ invocation: r.invocation, size: r.size, ids: r.messages })), at);
    c.times.forEach((t, k) => {
      const r = l.running[k];
      assert.equal(t, `${((s.now - r.startedAt) / 1000).toFixed(1)} s of ${(r.endsAt - r.startedAt) / 1000} s`, at);
    });
  }
  for (const x of s.lanes) assert.deepEqual(x, { state: "in-flight", same: true }, "a batch's message is the queue's in-flight token, named the same");
}

test("a Lambda function's card shows its running batches and results as the engine says, also after scrubbing back", async () => {
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=max", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(LAMBDA_SCENARIO) },
  });
  await scrubTo(page, 3000);
  const early = await read(page);
  agrees(early);
  const orders = early.cards.find((c) => c.name === "process-orders");
  assert.equal(orders.running.length, 2, "two invocations at once: MaximumConcurrency 2");
  assert.equal(orders.settings, "BatchSize 4 · batching window 1 s · ReportBatchItemFailures on");
  assert.equal(orders.conc, "2 pollers · 2 running of MaximumConcurrency 2");
  assert.deepEqual(orders.ended.map((e) => [e.result, e.invocation]), [["success", 2], ["success", 1]], "the latest results, newest first");
  const emails = early.cards.find((c) => c.name === "send-emails");
  assert.equal(emails.state, "refused");
  assert.equal(emails.refusal, "InvalidParameterValueException: Queue visibility timeout: 10 seconds is less than Function timeout: 20 seconds");
  assert.equal(emails.settings, "BatchSize default · batching window default · ReportBatchItemFailures off");
  const reports = early.cards.find((c) => c.name === "build-reports");
  assert.equal(reports.ended[0].result, "throttled");
  assert.equal(reports.ended.length, 1, "one batch throttled twice is one mark");
  assert.match(reports.ended[0].head, /throttled 2 times: no concurrency free; 1 message stays in flight while Lambda retries · latest t=1\.5 s/);
  assert.ok(early.lanes.length === 8, "both running batches' messages are in the queue's in-flight lane");
  // Each function is marked among its queue's consumers.
  assert.equal(await page.locator("[data-row-queue='orders'] .cons [data-lambda-pointer='process-orders']").textContent(), "λprocess-ordersLambda polls this queue · 2 running" + "its invocations below ↓");
  assert.match(await page.locator("[data-row-queue='emails'] .cons [data-lambda-pointer='send-emails']").textContent(), /mapping refused: nothing polls/);

  await scrubTo(page, 4500);
  const later = await read(page);
  agrees(later);
  const partial = later.cards.find((c) => c.name === "process-orders").ended.find((e) => e.result === "partial");
  assert.equal(partial.invocation, 3);
  assert.equal(partial.back.length, 1, "the poison order goes back; the others are deleted");
  assert.match(partial.head, /partial after 2\.4 s: 1 message back to the queue, the others deleted/);
  const poison = await page.locator(`.l-ended .l-msg[data-message-id="${partial.back[0]}"]`).first().textContent();
  assert.match(poison, /↩ back.*malformed/);

  await scrubTo(page, 12000);
  agrees(await read(page));
  await scrubTo(page, 3000);
  const back = await read(page);
  assert.deepEqual(back.cards, early.cards, "scrubbed back, the cards show the earlier moment again");
  agrees(back);
  assert.equal(await page.locator("[data-row-queue='orders'] .cons [data-lambda-pointer='process-orders']").count(), 1, "the mark is back in its queue's rebuilt row");
  // A click on a batch's message opens the peek on it, as a token does.
  await page.locator(".l-running .l-msg").first().click();
  await page.waitForSelector("#peek:not([hidden])");
  assert.deepEqual(problems, []);
  await close();
});

test("a scenario without Lambda functions draws no Lambda part", async () => {
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=max");
  await scrubTo(page, 2000);
  assert.equal(await page.locator("#lambdas").isHidden(), true);
  assert.equal(await page.locator("#lambda-cards > *").count(), 0);
  assert.deepEqual(problems, []);
  await close();
});
