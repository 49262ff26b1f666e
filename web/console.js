// The request console: sends SQS JSON requests to the in-page engine and
// draws its snapshot and event log. It holds no queue logic of its own.
import init, { Playground } from "./pkg/queuelab.js";

const TEMPLATES = {
  CreateQueue: { QueueName: "orders", Attributes: { VisibilityTimeout: "5" } },
  SendMessage: { QueueUrl: "", MessageBody: "order A-1001" },
  ReceiveMessage: { QueueUrl: "", MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ["All"] },
  DeleteMessage: { QueueUrl: "", ReceiptHandle: "" },
  ChangeMessageVisibility: { QueueUrl: "", ReceiptHandle: "", VisibilityTimeout: 0 },
  GetQueueAttributes: { QueueUrl: "", AttributeNames: ["All"] },
  ListQueues: {},
  PurgeQueue: { QueueUrl: "" },
};

const $ = (id) => document.getElementById(id);
let pg;
let lastQueueUrl = "";
let lastHandle = "";
let seenSeq = 0;

function template(op) {
  const t = structuredClone(TEMPLATES[op] ?? {});
  if ("QueueUrl" in t) t.QueueUrl = lastQueueUrl;
  if ("ReceiptHandle" in t) t.ReceiptHandle = lastHandle;
  return JSON.stringify(t, null, 2);
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text; // bodies are untrusted: text only
  return node;
}

function render() {
  const snap = pg.snapshot();
  const clock = $("clock");
  clock.dataset.timeMs = String(snap.timeMs);
  clock.textContent = `t = ${(snap.timeMs / 1000).toFixed(1)} s`;
  const queues = $("queues");
  queues.replaceChildren();
  if (snap.queues.length === 0) queues.append(el("p", { class: "counts" }, "No queues yet: send a CreateQueue request."));
  for (const q of snap.queues) {
    const box = el("article", { class: "queue", "data-queue": q.name });
    box.append(el("h3", {}, `${q.name}${q.fifo ? " (FIFO)" : ""}`));
    box.append(el("p", { class: "counts" }, `visible ${q.visible} · in flight ${q.inFlight} · delayed ${q.delayed}`));
    const list = el("ul", { class: "messages" });
    for (const m of q.messages) {
      const item = el("li", { class: `token ${m.state}`, "data-message-id": m.messageId, "data-state": m.state });
      const when = m.visibleAt === null ? "" : ` until ${(m.visibleAt / 1000).toFixed(1)} s`;
      item.append(el("span", { class: "state" }, `${m.state}${when}`));
      item.append(el("span", { class: "body" }, m.body));
      item.append(el("span", { class: "meta" }, `${m.group ? `group ${m.group} · ` : ""}receives ${m.receiveCount}${m.holder ? ` · held by ${m.holder}` : ""}`));
      list.append(item);
    }
    box.append(list);
    queues.append(box);
  }
  const log = $("log");
  for (const e of pg.events(seenSeq)) {
    seenSeq = e.seq;
    const { seq, timeMs, type, ...rest } = e;
    log.prepend(el("li", {}, `t=${(timeMs / 1000).toFixed(1)} s ${type} ${JSON.stringify(rest)}`));
  }
}

// A short walk-through: a queue, three orders, one worker holding one.
// Runs from the "Run the demo" button, or on load with #demo in the URL.
async function demo() {
  const call = (op, body, caller) => pg.dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller }).then((r) => JSON.parse(r.body));
  const { QueueUrl } = await call("CreateQueue", { QueueName: "orders", Attributes: { VisibilityTimeout: "5" } });
  lastQueueUrl = QueueUrl;
  for (const body of ["order A-1001", "order A-1002", "order B-2001"]) await call("SendMessage", { QueueUrl, MessageBody: body }, "shop");
  await call("SendMessage", { QueueUrl, MessageBody: "order C-3001 (scheduled)", DelaySeconds: 10 }, "shop");
  pg.advance(1500);
  const got = await call("ReceiveMessage", { QueueUrl, MaxNumberOfMessages: 1 }, "worker-1");
  lastHandle = got.Messages?.[0]?.ReceiptHandle ?? "";
  $("body").value = template($("operation").value);
  render();
}

function show(res) {
  $("response").textContent = `${res.status}\n${JSON.stringify(JSON.parse(res.body), null, 2)}`;
  const body = JSON.parse(res.body);
  if (body.QueueUrl) lastQueueUrl = body.QueueUrl;
  if (body.Messages?.length) lastHandle = body.Messages[0].ReceiptHandle;
  render();
}

async function main() {
  await init();
  pg = new Playground({ seed: 1 });
  const select = $("operation");
  for (const op of Object.keys(TEMPLATES)) select.append(el("option", { value: op }, op));
  select.addEventListener("change", () => ($("body").value = template(select.value)));
  $("body").value = template(select.value);
  $("request").addEventListener("submit", (event) => {
    event.preventDefault();
    let promise;
    try {
      promise = pg.dispatch(`AmazonSQS.${select.value}`, $("body").value, { caller: $("caller").value || undefined });
    } catch (error) {
      $("response").textContent = String(error);
      return;
    }
    $("response").textContent = "waiting (long poll: advance the clock)…";
    promise.then(show);
    render();
  });
  $("run-demo").addEventListener("click", () => demo().catch((e) => ($("response").textContent = String(e))));
  if (location.hash === "#demo") await demo();
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.addEventListener("click", () => {
      pg.advance(Number(button.dataset.advance));
      render();
    });
  }
  render();
}

main().catch((error) => {
  $("response").textContent = `Could not start the engine: ${error}`;
});
