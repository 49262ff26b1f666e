// Why your receive came back empty (web/empty-receive.js), from the run's
// own events and snapshot: who took the message, what is in flight and
// until when, what is delayed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { Run } from "../../web/run.js";
import { whyEmpty } from "../../web/empty-receive.js";

const text = readFileSync(new URL("../../web/scenarios/01-process-then-delete.json", import.meta.url), "utf8");

test("an empty receive says worker-1's long poll took the message first, and when it comes back", async () => {
  const run = new Run();
  run.start(text);
  const url = run.snap.queues[0].url;
  const sent = await run.dispatch("AmazonSQS.SendMessage", JSON.stringify({ QueueUrl: url, MessageBody: "order Z-9001: by hand" }));
  assert.equal(sent.status, 200);
  const got = await run.dispatch("AmazonSQS.ReceiveMessage", JSON.stringify({ QueueUrl: url }));
  assert.equal(JSON.parse(got.body).Messages, undefined, "worker-1 was waiting: yours is empty");
  run.collect();
  const queue = run.snap.queues[0];
  const why = whyEmpty({ queue, last: run.facts.lastReceived.get(queue.name), label: (id) => run.facts.label(id), scenario: run.scenario, caller: "you" });
  assert.equal(why, "Nothing received. worker-1's long poll took Z-9001 first, at t = 0.0 s. 1 message is in flight (invisible to every receive); the first comes back at t = 30.0 s unless worker-1 deletes it.");
});

test("an empty queue says so", () => {
  const queue = { name: "q", fifo: false, visible: 0, inFlight: 0, delayed: 0, messages: [] };
  assert.equal(whyEmpty({ queue, last: null, caller: "you" }), "Nothing received. The queue holds no messages.");
});
