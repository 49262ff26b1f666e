// Issue 10: "A chain of about 1,150 dead-letter queues, each with a long
// poll waiting. Exhausting one message recurses once per queue and
// overflows the wasm stack", after which even `new Playground()` failed.
// The same 10,000-queue chain as crates/protocol/tests/dead_letter.rs, run
// in wasm (a small stack) through Playground.dispatch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground, call } from "./load.mjs";

const CHAIN = 10_000;

test("a chain of 10000 dead-letter queues with waiting polls does not overflow the wasm stack", async () => {
  const pg = new Playground({ eventCapacity: 100_000 });
  const urls = [];
  const arns = [];
  for (let k = 0; k < CHAIN; k++) {
    const created = await call(pg, "CreateQueue", { QueueName: `q${k}` });
    urls.push(created.body.QueueUrl);
    const got = await call(pg, "GetQueueAttributes", { QueueUrl: urls[k], AttributeNames: ["QueueArn"] });
    arns.push(got.body.Attributes.QueueArn);
  }
  for (let k = 0; k < CHAIN - 1; k++) {
    const policy = JSON.stringify({ deadLetterTargetArn: arns[k + 1], maxReceiveCount: 1 });
    const set = await call(pg, "SetQueueAttributes", { QueueUrl: urls[k], Attributes: { RedrivePolicy: policy } });
    assert.equal(set.status, 200);
  }
  await call(pg, "SendMessage", { QueueUrl: urls[0], MessageBody: "deep" });
  const first = await call(pg, "ReceiveMessage", { QueueUrl: urls[0], VisibilityTimeout: 1 });
  assert.equal(first.body.Messages.length, 1);
  const answers = new Array(CHAIN).fill(null);
  const polls = urls.map((QueueUrl, k) =>
    call(pg, "ReceiveMessage", { QueueUrl, WaitTimeSeconds: 20, MessageSystemAttributeNames: ["All"] }).then(
      (r) => (answers[k] = { at: pg.now(), reply: r }),
    ),
  );
  pg.advance(1_000);
  await new Promise((r) => setImmediate(r));
  const tail = answers[CHAIN - 1];
  assert.ok(tail, "the tail's poll is answered at 1 s");
  assert.equal(tail.reply.body.Messages[0].Body, "deep");
  assert.equal(tail.reply.body.Messages[0].Attributes.ApproximateReceiveCount, "2");
  assert.equal(tail.reply.body.Messages[0].Attributes.DeadLetterQueueSourceArn, arns[CHAIN - 2]);
  assert.equal(answers.filter(Boolean).length, 1, "every other poll still waits");
  pg.advance(19_000);
  await Promise.all(polls);
  for (let k = 0; k < CHAIN - 1; k++) {
    assert.equal(answers[k].at, 20_000, `q${k}'s poll ends at its 20 s`);
    assert.equal(answers[k].reply.body.Messages, undefined, `q${k}'s poll ends empty`);
  }
  const moves = pg.events().filter((e) => e.type === "movedToDeadLetterQueue");
  assert.equal(moves.length, CHAIN - 1, "one move per link");
  // The module is still healthy: a new playground works.
  const fresh = new Playground();
  assert.equal((await call(fresh, "CreateQueue", { QueueName: "after" })).status, 200);
});
