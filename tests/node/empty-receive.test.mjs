// Why your receive came back empty (`playground.whyEmpty(queueUrl, caller)`),
// in the simulation's words from the run it holds: who took the message,
// what is in flight and until when. The page shows it beside an empty
// receive under "Act yourself".
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./load.mjs";
import { Playground } from "../../web/pkg/queuelab.js";

const text = readFileSync(new URL("../../web/scenarios/01-process-then-delete.json", import.meta.url), "utf8");

test("an empty receive says worker-1's long poll took the message first, and when it comes back", async () => {
  const pg = Playground.fromScenario(text);
  const url = pg.snapshot({ messagesPerQueue: 0 }).queues[0].url;
  const call = async (op, body) => pg.dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller: "you" });
  assert.equal((await call("SendMessage", { QueueUrl: url, MessageBody: "order Z-9001: by hand" })).status, 200);
  const got = await call("ReceiveMessage", { QueueUrl: url });
  assert.equal(JSON.parse(got.body).Messages, undefined, "worker-1 was waiting: yours is empty");
  assert.equal(
    pg.whyEmpty(url, "you"),
    "Nothing received. worker-1's long poll took order Z-9001 first, at t = 0 s. 1 message is in flight (invisible to every receive); the first comes back at t = 30 s unless worker-1 deletes it.",
  );
  assert.equal(pg.whyEmpty("https://sqs.us-east-1.amazonaws.com/000000000000/gone", "you"), "Nothing received. The queue no longer exists.");
  assert.throws(() => pg.whyEmpty(url, 7), TypeError);
  pg.free();
});
