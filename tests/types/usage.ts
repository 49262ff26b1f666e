// Compiled (never run) by tests/node/types.test.mjs: the package's
// declarations must describe how a course page and a test suite use it.
import "queuelab";
import type { QueueLabElement } from "queuelab";
import { queuelabHandler } from "queuelab/sdk";
import { SqsClient, SendMessageCommand, SqsError } from "queuelab/client";
import { Playground } from "queuelab/wasm";
import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const el = document.querySelector("queue-lab");
if (el) {
  const typed: QueueLabElement = el;
  typed.addEventListener("queuelab-event", (e) => {
    const kind: string = e.detail.event.type;
    const replay: boolean = e.detail.replay;
    void kind, replay;
  });
  typed.addEventListener("queuelab-ready", (e) => void e.detail.playground.now());
  typed.controls?.setSpeed("max");
  typed.addEventListener("queuelab-error", () => typed.reload());
  void typed.sqs.sendMessage({ QueueUrl: "u", MessageBody: "b" }).then((r) => r.MessageId?.toUpperCase());
}

// A lab: its settings by knob id, Check my fix, and its goal events.
export async function solveALab(el: QueueLabElement): Promise<string> {
  if (!el.lab) return "not a lab";
  el.lab.settings = { visibility: 10, heartbeat: "off", idempotent: true, queueType: "fifo" };
  const check = await el.lab.checkGoal();
  el.addEventListener("goal-failed", (e) => void e.detail.atMs.toFixed(0));
  el.addEventListener("goal-met", (e) => void e.detail.settings);
  const words = el.lab.conditions.map((c) => c.text).join("; ") + el.lab.knobs.map((k) => k.kind).join();
  return check.met ? words : `${check.failures[0]?.seed}: ${check.failures[0]?.message}`;
}

// dispatchSync: the response itself, or a long poll's Promise of it.
export async function sendSync(pg: Playground): Promise<string> {
  const answer = pg.dispatchSync("AmazonSQS.SendMessage", '{"QueueUrl":"u","MessageBody":"b"}');
  const res = answer instanceof Promise ? await answer : answer;
  return `${res.status} ${res.headers["x-amzn-requestid"]} ${res.body.length}`;
}

export async function withTheSdk(pg: Playground): Promise<number> {
  const client = new SQSClient({
    region: "us-east-1",
    credentials: { accessKeyId: "x", secretAccessKey: "x" },
    requestHandler: queuelabHandler(pg, { caller: "tests" }),
  });
  const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: "u", WaitTimeSeconds: 1 }));
  return Messages.length;
}

export async function withTheClient(pg: Playground): Promise<string | undefined> {
  const sqs = new SqsClient(() => pg, { caller: "tests" });
  try {
    const sent = await sqs.send(new SendMessageCommand({ QueueUrl: "u", MessageBody: "b" }));
    return sent.MessageId;
  } catch (e) {
    if (e instanceof SqsError) return `${e.name} ${e.Code} ${e.$metadata.httpStatusCode}`;
    throw e;
  }
}

// Big queues: a window of each queue's first messages, and one queue a page at a time.
export function bigQueue(pg: Playground, url: string): number {
  const all = pg.snapshot().queues.length + pg.events().length;
  const q = pg.snapshot({ messagesPerQueue: 200 }).queues[0];
  const page = pg.queueMessages(url, { offset: 0, limit: 100 });
  return all + (q?.messagesOmitted ?? 0) + (page?.nextOffset ?? 0) + (page?.messages.length ?? 0) + (pg.queueMessages(url)?.total ?? 0);
}

// The declarations are not `any`: misuse must not compile.
export function misuse(pg: Playground, el: QueueLabElement): void {
  // @ts-expect-error "warp" is not a speed
  el.controls?.setSpeed("warp");
  // @ts-expect-error SendMessage needs a MessageBody
  void new SqsClient(pg).sendMessage({ QueueUrl: "u" });
  // @ts-expect-error a queue-lab event's detail has no `time`
  el.addEventListener("queuelab-event", (e) => e.detail.time);
  // @ts-expect-error the handler takes an engine, not a URL
  queuelabHandler("https://sqs.us-east-1.amazonaws.com");
  // @ts-expect-error the body is JSON text, not an object
  void pg.dispatch("AmazonSQS.SendMessage", {});
  // @ts-expect-error messagesPerQueue is a number
  pg.snapshot({ messagesPerQueue: "200" });
  // @ts-expect-error a knob value is a number, true/false, a choice or "off", never an object
  if (el.lab) el.lab.settings = { visibility: { seconds: 10 } };
}
