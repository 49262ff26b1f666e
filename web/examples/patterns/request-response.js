// The patterns guide's request-response over SQS, as the code cell runs
// it: the guide's Python in comments, each line translated to the cell's
// JavaScript under it. `asWritten` is the guide's code: a requester makes
// a reply queue for each request and deletes it in `finally`, so a
// responder slower than the requester's wait sends its reply to a queue
// that is gone (QueueDoesNotExist), and asking again under the same name
// within 60 s of the delete is refused (QueueDeletedRecently). `fixed`
// keeps one reply queue for the client's life, matches replies by
// CorrelationId, and deletes the queue only once no reply is awaited.
// tests/node/patterns-code.test.mjs runs both.

/** What both versions start with: the settings a learner changes, and the requests queue. */
const SETUP = `// Settings: change them and run again.
const ORDERS = [{ "order": 1, "seconds": 5 }, { "order": 2, "seconds": 30 }];
const TIMEOUT = 20;
const ATTEMPTS = 2;

// import json, threading, time
// import boto3
//
// sqs = boto3.client("sqs")          (the cell's sqs: new SQS({}) in the AWS SDK)
// REQUESTS = sqs.create_queue(QueueName="requests")["QueueUrl"]
const REQUESTS = (await sqs.createQueue({ QueueName: "requests" }))["QueueUrl"];

// (TimeoutError is Python's own; JavaScript needs the class)
class TimeoutError extends Error {}
`;

/** The responder: the same in both versions (the flaw is the requester's). */
const RESPONDER = `
// def responder(stop):
//     while not stop.is_set():
//         resp = sqs.receive_message(QueueUrl=REQUESTS, MessageAttributeNames=["All"], WaitTimeSeconds=20)
//         for m in resp.get("Messages", []):
//             attrs = m["MessageAttributes"]
//             request = json.loads(m["Body"])
//             time.sleep(request["seconds"])          # the work
//             reply = {"order": request["order"], "status": "confirmed"}
//             sqs.send_message(
//                 QueueUrl=attrs["ReplyTo"]["StringValue"],
//                 MessageBody=json.dumps(reply),
//                 MessageAttributes={"CorrelationId": attrs["CorrelationId"]},
//             )
//             sqs.delete_message(QueueUrl=REQUESTS, ReceiptHandle=m["ReceiptHandle"])
async function responder(stop) {
  while (!stop.isSet) {
    const resp = await sqs.receiveMessage({ QueueUrl: REQUESTS, MessageAttributeNames: ["All"], WaitTimeSeconds: 20 });
    for (const m of resp["Messages"] ?? []) {
      const attrs = m["MessageAttributes"];
      const request = JSON.parse(m["Body"]);
      await sleep(request["seconds"] * 1000); // the work
      const reply = { "order": request["order"], "status": "confirmed" };
      await sqs.sendMessage({
        QueueUrl: attrs["ReplyTo"]["StringValue"],
        MessageBody: JSON.stringify(reply),
        MessageAttributes: { "CorrelationId": attrs["CorrelationId"] },
      });
      await sqs.deleteMessage({ QueueUrl: REQUESTS, ReceiptHandle: m["ReceiptHandle"] });
    }
  }
}
`;

/** The guide's requester: a reply queue per request, deleted in `finally`. */
const REQUEST_AS_WRITTEN = `
// def request(request_id, payload, timeout=TIMEOUT):
//     reply_url = sqs.create_queue(QueueName=f"reply-{request_id}")["QueueUrl"]
//     try:
//         sqs.send_message(
//             QueueUrl=REQUESTS,
//             MessageBody=json.dumps(payload),
//             MessageAttributes={
//                 "ReplyTo": {"DataType": "String", "StringValue": reply_url},
//                 "CorrelationId": {"DataType": "String", "StringValue": request_id},
//             },
//         )
//         deadline = time.time() + timeout
//         while time.time() < deadline:
//             wait = min(20, max(1, int(deadline - time.time())))
//             resp = sqs.receive_message(QueueUrl=reply_url, MessageAttributeNames=["All"], WaitTimeSeconds=wait)
//             for m in resp.get("Messages", []):
//                 sqs.delete_message(QueueUrl=reply_url, ReceiptHandle=m["ReceiptHandle"])
//                 if m["MessageAttributes"]["CorrelationId"]["StringValue"] == request_id:
//                     return json.loads(m["Body"])
//         raise TimeoutError(f"no reply to {request_id} in {timeout} s")
//     finally:
//         sqs.delete_queue(QueueUrl=reply_url)
async function request(request_id, payload, timeout = TIMEOUT) {
  const reply_url = (await sqs.createQueue({ QueueName: "reply-" + request_id }))["QueueUrl"];
  try {
    await sqs.sendMessage({
      QueueUrl: REQUESTS,
      MessageBody: JSON.stringify(payload),
      MessageAttributes: {
        "ReplyTo": { "DataType": "String", "StringValue": reply_url },
        "CorrelationId": { "DataType": "String", "StringValue": request_id },
      },
    });
    const deadline = Date.now() / 1000 + timeout;
    while (Date.now() / 1000 < deadline) {
      const wait = Math.min(20, Math.max(1, Math.trunc(deadline - Date.now() / 1000)));
      const resp = await sqs.receiveMessage({ QueueUrl: reply_url, MessageAttributeNames: ["All"], WaitTimeSeconds: wait });
      for (const m of resp["Messages"] ?? []) {
        await sqs.deleteMessage({ QueueUrl: reply_url, ReceiptHandle: m["ReceiptHandle"] });
        if (m["MessageAttributes"]["CorrelationId"]["StringValue"] === request_id) {
          return JSON.parse(m["Body"]);
        }
      }
    }
    throw new TimeoutError("no reply to " + request_id + " in " + timeout + " s");
  } finally {
    await sqs.deleteQueue({ QueueUrl: reply_url });
  }
}
`;

/** Asks for each order, again on a timeout, with the responder running beside; `client` is how the version asks. */
const main = ({ open, ask, close }) => `
// stop = threading.Event()
// worker = threading.Thread(target=responder, args=(stop,), name="responder")
// worker.start()${open.py}
// try:
//     for payload in ORDERS:
//         request_id = f"order-{payload['order']}"
//         for attempt in range(ATTEMPTS):
//             try:
//                 reply = ${ask.py}(request_id, payload)
//                 break
//             except TimeoutError:
//                 if attempt == ATTEMPTS - 1:
//                     raise
//         print(request_id, "->", reply)
// finally:${close.py}
//     stop.set()
//     worker.join()       (an exception in the thread is printed, and ends it)
const stop = { isSet: false };
const worker = responder(stop).catch((e) => console.error("Exception in thread responder:", e));${open.js}
try {
  for (const payload of ORDERS) {
    const request_id = "order-" + payload["order"];
    let reply;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        reply = await ${ask.js}(request_id, payload);
        break;
      } catch (e) {
        if (!(e instanceof TimeoutError)) throw e;
        if (attempt === ATTEMPTS - 1) throw e;
      }
    }
    console.log(request_id, "->", reply);
  }
} finally {${close.js}
  stop.isSet = true;
  await worker;
}
`;

/** The fixed requester: one reply queue for the client's life, replies kept by CorrelationId. */
const REQUESTER_FIXED = `
// IDLE = 120    # seconds close() waits for replies still awaited before it gives up on them
//
// class Requester:
//     """One reply queue for the client's life; replies matched by CorrelationId."""
//
//     def __init__(self, name):
//         self.reply_url = sqs.create_queue(QueueName=f"replies-{name}")["QueueUrl"]
//         self.replies = {}      # CorrelationId -> reply, for replies not asked for yet (late ones too)
//         self.sent = set()      # CorrelationIds asked for
//         self.awaited = 0       # requests sent whose reply has not come
//
//     def request(self, request_id, payload, timeout=TIMEOUT):
//         if request_id not in self.sent:      # asked again: its reply is on its way to the same queue
//             sqs.send_message(
//                 QueueUrl=REQUESTS,
//                 MessageBody=json.dumps(payload),
//                 MessageAttributes={
//                     "ReplyTo": {"DataType": "String", "StringValue": self.reply_url},
//                     "CorrelationId": {"DataType": "String", "StringValue": request_id},
//                 },
//             )
//             self.sent.add(request_id)
//             self.awaited += 1
//         deadline = time.time() + timeout
//         while request_id not in self.replies:
//             if time.time() >= deadline:
//                 raise TimeoutError(f"no reply to {request_id} in {timeout} s")
//             self.receive(wait=min(20, max(1, int(deadline - time.time()))))
//         return self.replies.pop(request_id)
//
//     def receive(self, wait):
//         resp = sqs.receive_message(QueueUrl=self.reply_url, MessageAttributeNames=["All"],
//                                    MaxNumberOfMessages=10, WaitTimeSeconds=wait)
//         for m in resp.get("Messages", []):
//             self.replies[m["MessageAttributes"]["CorrelationId"]["StringValue"]] = json.loads(m["Body"])
//             self.awaited -= 1
//             sqs.delete_message(QueueUrl=self.reply_url, ReceiptHandle=m["ReceiptHandle"])
//
//     def close(self):
//         """Deletes the reply queue once idle: no reply awaited (or none came for IDLE seconds)."""
//         quiet_until = time.time() + IDLE
//         while self.awaited > 0 and time.time() < quiet_until:
//             before = self.awaited
//             self.receive(wait=20)
//             if self.awaited < before:
//                 quiet_until = time.time() + IDLE
//         sqs.delete_queue(QueueUrl=self.reply_url)
const IDLE = 120;

class Requester {
  constructor(reply_url) {
    this.reply_url = reply_url;
    this.replies = new Map();
    this.sent = new Set();
    this.awaited = 0;
  }

  // __init__'s create_queue, which a constructor cannot await
  static async create(name) {
    return new Requester((await sqs.createQueue({ QueueName: "replies-" + name }))["QueueUrl"]);
  }

  async request(request_id, payload, timeout = TIMEOUT) {
    if (!this.sent.has(request_id)) {
      await sqs.sendMessage({
        QueueUrl: REQUESTS,
        MessageBody: JSON.stringify(payload),
        MessageAttributes: {
          "ReplyTo": { "DataType": "String", "StringValue": this.reply_url },
          "CorrelationId": { "DataType": "String", "StringValue": request_id },
        },
      });
      this.sent.add(request_id);
      this.awaited += 1;
    }
    const deadline = Date.now() / 1000 + timeout;
    while (!this.replies.has(request_id)) {
      if (Date.now() / 1000 >= deadline) {
        throw new TimeoutError("no reply to " + request_id + " in " + timeout + " s");
      }
      await this.receive(Math.min(20, Math.max(1, Math.trunc(deadline - Date.now() / 1000))));
    }
    const reply = this.replies.get(request_id);
    this.replies.delete(request_id);
    return reply;
  }

  async receive(wait) {
    const resp = await sqs.receiveMessage({ QueueUrl: this.reply_url, MessageAttributeNames: ["All"],
                                            MaxNumberOfMessages: 10, WaitTimeSeconds: wait });
    for (const m of resp["Messages"] ?? []) {
      this.replies.set(m["MessageAttributes"]["CorrelationId"]["StringValue"], JSON.parse(m["Body"]));
      this.awaited -= 1;
      await sqs.deleteMessage({ QueueUrl: this.reply_url, ReceiptHandle: m["ReceiptHandle"] });
    }
  }

  async close() {
    let quiet_until = Date.now() / 1000 + IDLE;
    while (this.awaited > 0 && Date.now() / 1000 < quiet_until) {
      const before = this.awaited;
      await this.receive(20);
      if (this.awaited < before) {
        quiet_until = Date.now() / 1000 + IDLE;
      }
    }
    await sqs.deleteQueue({ QueueUrl: this.reply_url });
  }
}
`;

export const asWritten = `// The patterns guide's request-response, as written: a reply queue per request.
${SETUP}${RESPONDER}${REQUEST_AS_WRITTEN}${main({
  open: { py: "", js: "" },
  ask: { py: "request", js: "request" },
  close: { py: "", js: "" },
})}`;

export const fixed = `// The patterns guide's request-response, fixed: one reply queue for the client's life.
${SETUP}${RESPONDER}${REQUESTER_FIXED}${main({
  open: { py: '\n// requester = Requester("checkout")', js: '\nconst requester = await Requester.create("checkout");' },
  ask: { py: "requester.request", js: "requester.request" },
  close: { py: "\n//     requester.close()", js: "\n  await requester.close();" },
})}`;
