// The code cell's `lambda.attach`: AWS's partial batch response handler,
// translated from the guide's Python, answers a scenario's function from
// the page; its answer is recorded, so a scrub back and forward replays it
// without calling the handler again; Stop detaches it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, runToEnd, scrubTo } from "./harness.mjs";

const SCENARIO = {
  title: "Your handler", seed: 3, durationMs: 8_000,
  queues: [{ name: "invoices", visibilityTimeoutSeconds: 30 }],
  producers: [{ name: "shop", queue: "invoices", sends: ['{"invoice":1}', "{invoice 2", '{"invoice":3}'].map((body) => ({ atMs: 500, body, delaySeconds: 2 })) }],
  lambdas: [{ name: "invoice-mailer", queue: "invoices", timeoutSeconds: 5, functionResponseTypes: ["ReportBatchItemFailures"], handler: { processing: { fixedMs: 100 } } }],
};

// The guide's Python example, line for line (docs/sdk.md); the page counts its calls.
const CODE = `const handler = async (event, context) => {
  globalThis.handlerCalls = (globalThis.handlerCalls ?? 0) + 1;
  if (event) {
    const batch_item_failures = [];
    const sqs_batch_response = {};
    for (const record of event["Records"]) {
      try {
        JSON.parse(record["body"]); // process message
      } catch (e) {
        batch_item_failures.push({ "itemIdentifier": record["messageId"] });
      }
    }
    sqs_batch_response["batchItemFailures"] = batch_item_failures;
    return sqs_batch_response;
  }
};
await lambda.attach("invoice-mailer", handler);`;

/** The function's results as the engine logged them, and the recorded Lambda requests. */
const read = (page) =>
  page.evaluate(() => {
    const pg = document.getElementById("lab").playground;
    const ends = pg.events(0).filter((e) => e.type === "lambdaReturned").map((e) => ({ t: e.timeMs, result: e.result, failed: e.failed.length }));
    const calls = pg.journal(0).calls.filter((c) => c.op.startsWith("Lambda.")).map((c) => `${c.t} ${c.op}`);
    return { ends, calls, handlerCalls: globalThis.handlerCalls ?? 0 };
  });

test("a handler attached in the code cell answers the function, and a scrub replays its answer without calling it", async () => {
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=1", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(SCENARIO) },
  });
  await page.locator("#code-text").fill(CODE);
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Your code answers invoice-mailer')");
  await page.waitForFunction(() => document.getElementById("lab").playground.events(0).some((e) => e.type === "lambdaReturned"));
  const first = await read(page);
  assert.deepEqual(first.ends.map((e) => [e.result, e.failed]), [["partial", 1]]);
  assert.equal(first.handlerCalls, 1);
  assert.equal(first.calls.length, 2, first.calls.join("; "));
  assert.match(first.calls[1], /^\d+ Lambda\.InvocationResponse$/);

  // Back before the invocation and forward to the end: the recorded answer, not the handler.
  await runToEnd(page);
  await scrubTo(page, 1_000);
  assert.deepEqual((await read(page)).ends, []);
  await scrubTo(page, SCENARIO.durationMs);
  const again = await read(page);
  assert.deepEqual(again.ends, first.ends);
  assert.equal(again.handlerCalls, 1, "the handler was not called again");

  await page.locator("#code-stop").click();
  await page.waitForSelector("#code-status:text('Stopped.')");
  assert.match((await read(page)).calls.at(-1), /Lambda\.DetachHandler$/);
  assert.deepEqual(problems, []);
  await close();
});

test("attaching to a function the scenario does not have says which it has", async () => {
  const { page, close } = await open("?scenario=process-then-delete&speed=1", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(SCENARIO) },
  });
  await page.locator("#code-text").fill(`await lambda.attach("invoice-maler", async () => null);`);
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Failed.')");
  const out = await page.locator("#code-out").textContent();
  assert.match(out, /ResourceNotFoundException: Function not found: "invoice-maler" \(this scenario's functions: invoice-mailer\)/);
  await close();
});

test("while your handler has not answered, its invocation says it waits for your code", async () => {
  // A timeout long enough that the answer comes well before it, however loaded the machine.
  const patient = { ...SCENARIO, durationMs: 40_000, lambdas: [{ ...SCENARIO.lambdas[0], timeoutSeconds: 30 }] };
  const { page, problems, close } = await open("?scenario=process-then-delete&speed=1", {
    routes: { "scenarios/01-process-then-delete.json": JSON.stringify(patient) },
  });
  // The handler answers only when the test lets it.
  await page.locator("#code-text").fill(`await lambda.attach("invoice-mailer", () => new Promise((answer) => { globalThis.answer = () => answer({ batchItemFailures: [] }); }));`);
  await page.locator("#code-run").click();
  await page.waitForFunction(() => typeof globalThis.answer === "function");
  const box = page.locator('#lambda-cards .l-inv[data-awaiting="true"]');
  await box.waitFor();
  assert.match(await box.locator(".l-inv-head").textContent(), /^⌛ invocation 1 · 3 in batch · [\d.]+ s · waiting for your code's answer \(it times out at 30\.0 s\)$/);
  await page.evaluate(() => globalThis.answer());
  await page.waitForSelector('#lambda-cards .l-inv.ended[data-result="success"]');
  assert.equal(await box.count(), 0, "no invocation waits once the code answered");
  assert.deepEqual(problems, []);
  await close();
});
