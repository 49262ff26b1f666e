// Your JavaScript as a Lambda function, against the wasm build
// (web/client/lambda-runtime.js, the code cell's `lambda.attach`): AWS's
// documented Python partial-batch-response handler, translated line for
// line, answers a function's invocations; its answers are recorded in the
// run's journal, so a replay without the code reaches the same run; and
// a handler that throws, never answers, or names no function of the
// scenario gets what Lambda gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { LambdaRuntime } from "../../web/client/lambda-runtime.js";
import { Run } from "../../web/run/run.js";
import { SqsClient } from "../../web/client/sqs-client.js";

// AWS Lambda developer guide, "Handling errors for an SQS event source in
// Lambda", "Implementing partial batch responses": the Python example,
// line for line; its "# process message" is the one line filled in (a
// body that is not JSON fails).
//
//   def lambda_handler(event, context):
//       if event:
//           batch_item_failures = []
//           sqs_batch_response = {}
//           for record in event["Records"]:
//               try:
//                   # process message
//               except Exception as e:
//                   batch_item_failures.append({"itemIdentifier": record['messageId']})
//           sqs_batch_response["batchItemFailures"] = batch_item_failures
//           return sqs_batch_response
const handler = async (event, context) => {
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

const FUNCTION = "invoice-mailer";

/** Three invoices that become visible at 1 s (one long poll takes them all), the second not JSON. */
const SCENARIO = JSON.stringify({
  title: "your handler", seed: 3, durationMs: 60_000,
  queues: [{ name: "invoices", visibilityTimeoutSeconds: 30 }, { name: "receipts" }],
  producers: [{ name: "shop", queue: "invoices", sends: ["{\"invoice\":1}", "{invoice 2", "{\"invoice\":3}"].map((body) => ({ atMs: 0, body, delaySeconds: 1 })) }],
  lambdas: [{ name: FUNCTION, queue: "invoices", timeoutSeconds: 5, functionResponseTypes: ["ReportBatchItemFailures"], handler: { processing: { fixedMs: 100 } } }],
});

function setup(code = handler) {
  const pg = Playground.fromScenario(SCENARIO);
  const answers = [];
  const runtime = new LambdaRuntime(pg, { pending: () => pg.pendingInvocations(), now: () => pg.now(), onAnswer: (a) => answers.push(a) });
  return { pg, runtime, answers, attach: () => runtime.attach(FUNCTION, code) };
}

/** Lets the handlers' Promises and the answers' dispatches settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const returned = (pg) => pg.events(0).filter((e) => e.type === "lambdaReturned");

test("AWS's partial batch response handler, translated, reports the invoice that is not JSON", async () => {
  const { pg, runtime, attach } = setup();
  await attach();
  pg.advance(1_000);
  const [waiting] = pg.pendingInvocations();
  const records = JSON.parse(waiting.event).Records;
  assert.deepEqual(records.map((r) => r.body), ["{\"invoice\":1}", "{invoice 2", "{\"invoice\":3}"]);
  runtime.poll();
  await settle();
  assert.deepEqual(pg.pendingInvocations(), [], "answered");
  pg.advance(1_000);
  const [end] = returned(pg);
  // Answered at 1 s; the batch's work takes the scenario's 300 ms.
  assert.deepEqual([end.timeMs, end.result, end.failed], [1_300, "partial", [records[1].messageId]]);
  const left = pg.snapshot().queues.find((q) => q.name === "invoices").messages;
  assert.deepEqual(left.map((m) => m.body), ["{invoice 2"], "the two others were deleted");
});

test("a replay of the journal reaches the same run without running the handler", async () => {
  const { pg, runtime, attach } = setup();
  await attach();
  pg.advance(1_000);
  runtime.poll();
  await settle();
  pg.advance(40_000);
  const { calls } = pg.journal(0);
  assert.deepEqual(calls.map((c) => [c.t, c.op]), [[0, "Lambda.AttachHandler"], [1_000, "Lambda.InvocationResponse"]]);
  assert.equal(calls[1].body.Response.batchItemFailures.length, 1);
  const again = Playground.fromScenario(SCENARIO);
  for (const c of calls) {
    again.advance(c.t - again.now());
    await again.dispatch(c.op, JSON.stringify(c.body), { caller: c.caller });
  }
  again.advance(pg.now() - again.now());
  assert.deepEqual(again.events(0), pg.events(0));
});

test("a handler that throws fails the whole batch with its error's words", async () => {
  const { pg, runtime, answers, attach } = setup(async (event) => event.Records[0].body.toUpperCase().nope());
  await attach();
  pg.advance(1_000);
  runtime.poll();
  await settle();
  pg.advance(1_000);
  const [end] = returned(pg);
  assert.equal(end.result, "error");
  assert.equal(end.failed.length, 3);
  assert.match(end.why, /^TypeError: .*nope is not a function$/);
  assert.ok(answers[0].error instanceof TypeError);
});

test("a handler that never answers times out at the function's timeout", async () => {
  const { pg, runtime, attach } = setup(() => new Promise(() => {}));
  await attach();
  pg.advance(1_000);
  runtime.poll();
  await settle();
  pg.advance(10_000);
  const [end] = returned(pg);
  assert.deepEqual([end.timeMs, end.result, end.durationMs], [6_000, "timeout", 5_000]);
});

test("an answer after the timeout is refused and told", async () => {
  let answer;
  const { pg, runtime, answers, attach } = setup(() => new Promise((resolve) => (answer = resolve)));
  await attach();
  pg.advance(1_000);
  runtime.poll();
  pg.advance(6_000);
  answer(null);
  await settle();
  assert.match(answers[0].refused, /has ended/);
  assert.equal(pg.journal(0).calls.length, 2, "recorded, as the engine's journal records every call");
});

test("an invalid response from your handler fails the whole batch", async () => {
  const { pg, runtime, attach } = setup(async () => ({ batchItemFailures: [{ itemIdentifier: "" }] }));
  await attach();
  pg.advance(1_000);
  runtime.poll();
  await settle();
  pg.advance(1_000);
  const [end] = returned(pg);
  assert.deepEqual([end.result, end.failed.length, end.why], ["invalidResponse", 3, "an itemIdentifier is an empty string"]);
});

test("a handler may call SQS itself and answer later in virtual time", async () => {
  const { pg, runtime, attach } = setup(async (event) => {
    const sqs = new SqsClient(pg, { caller: FUNCTION });
    const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "receipts" });
    for (const r of event.Records) await sqs.sendMessage({ QueueUrl, MessageBody: `receipt for ${r.messageId}` });
    return { batchItemFailures: [] };
  });
  await attach();
  pg.advance(1_000);
  runtime.poll();
  await settle();
  pg.advance(1_000);
  assert.equal(returned(pg)[0].result, "success");
  assert.equal(pg.snapshot().queues.find((q) => q.name === "receipts").messages.length, 3);
});

test("attaching to a function the scenario does not have names the ones it has", async () => {
  const { runtime } = setup();
  await assert.rejects(runtime.attach("invoice-mailr", handler), { name: "ResourceNotFoundException", message: "Function not found: \"invoice-mailr\" (this scenario's functions: invoice-mailer)" });
  await assert.rejects(runtime.attach(FUNCTION, "not a function"), { name: "TypeError", message: /handler must be a function/ });
  assert.equal(runtime.attached, false);
});

test("the binding refuses bad runtime requests in words, never trapping", async () => {
  const pg = Playground.fromScenario(SCENARIO);
  for (const [op, body] of [["Lambda.InvocationResponse", "{"], ["Lambda.Nope", "{}"], ["Lambda.InvocationError", JSON.stringify({ FunctionName: FUNCTION, Invocation: -1 })], ["Lambda.InvocationResponse", JSON.stringify({ FunctionName: FUNCTION, Invocation: 7, Response: { batchItemFailures: 1 } })]]) {
    const res = await pg.dispatch(op, body);
    assert.ok(res.status >= 400, `${op} ${body}: ${res.status}`);
    assert.ok(JSON.parse(res.body).message, res.body);
  }
  assert.deepEqual(pg.pendingInvocations(), []);
});

test("playing, the page's run stops where an invocation is handed out; a replay of the answers goes straight through", async () => {
  const run = new Run();
  run.start(SCENARIO);
  const runtime = new LambdaRuntime({ dispatch: (t, b, o) => run.dispatch(t, b, o) }, { pending: () => run.pg.pendingInvocations(), now: () => run.now });
  await runtime.attach(FUNCTION, handler);
  // One long advance, as the fastest speed asks: it yields at 1 s, where the invocation is handed out.
  assert.equal(run.advanceTo(60_000), 1_000);
  assert.equal(run.yielded, true);
  const stops = [run.now];
  while (run.now < 60_000) {
    runtime.poll();
    await settle();
    stops.push(run.advanceTo(60_000));
  }
  // The invoice that is not JSON comes back after its visibility timeout (31 s) and fails again.
  assert.deepEqual(stops, [1_000, 31_000, 60_000]);
  const live = JSON.stringify(run.pg.events(0));
  assert.deepEqual(run.journal.map((a) => [a.t, a.op]), [[0, "Lambda.AttachHandler"], [1_000, "Lambda.InvocationResponse"], [31_000, "Lambda.InvocationResponse"]]);
  // Back to 0 and forward again: the recorded answer, in one go.
  run.replayTo(60_000);
  assert.equal(run.now, 60_000);
  assert.equal(JSON.stringify(run.pg.events(0)), live);
});
