// The patterns guide's scheduling past SQS's 15-minute delay ("delay 900
// and filter on receive"), as the code cell runs it: the guide's Python
// in comments, each line translated to the cell's JavaScript under it.
// The sender delays a message by at most 900 s and writes when it is due
// in a `DeliverAt` attribute (epoch ms). `asWritten` is the guide's
// receiver, which handles whatever it receives: a reminder due in an hour
// is handled after 15 minutes, 45 minutes early. `fixed` checks DeliverAt
// and sends a message that is not due yet again, delayed by what remains
// (at most 900 s), deleting the one it received: it is handled at its
// time, after ceil(remaining / 900) − 1 re-sends. The cell's `Date.now()`
// tells virtual time. tests/node/patterns-code.test.mjs runs both.

/** The settings, the queue and the sender: the same in both versions. */
const SETUP = `// Settings: change them and run again.
const DUE_IN_SECONDS = 3600;

// import json, math, time
// import boto3
//
// sqs = boto3.client("sqs")          (the cell's sqs: new SQS({}) in the AWS SDK)
// QUEUE = sqs.create_queue(QueueName="reminders")["QueueUrl"]
// MAX_DELAY = 900        # seconds: SQS's longest DelaySeconds
//
// def now_ms():
//     return int(time.time() * 1000)
const QUEUE = (await sqs.createQueue({ QueueName: "reminders" }))["QueueUrl"];
const MAX_DELAY = 900;

function now_ms() {
  return Math.trunc(Date.now());
}

// def schedule(body, deliver_at):       # deliver_at: epoch ms
//     remaining = (deliver_at - now_ms()) / 1000
//     sqs.send_message(
//         QueueUrl=QUEUE,
//         MessageBody=body,
//         DelaySeconds=int(min(MAX_DELAY, max(0, remaining))),
//         MessageAttributes={"DeliverAt": {"DataType": "Number", "StringValue": str(deliver_at)}},
//     )
async function schedule(body, deliver_at) {
  const remaining = (deliver_at - now_ms()) / 1000;
  await sqs.sendMessage({
    QueueUrl: QUEUE,
    MessageBody: body,
    DelaySeconds: Math.trunc(Math.min(MAX_DELAY, Math.max(0, remaining))),
    MessageAttributes: { "DeliverAt": { "DataType": "Number", "StringValue": String(deliver_at) } },
  });
}

// def handle(m):
//     due = int(m["MessageAttributes"]["DeliverAt"]["StringValue"])
//     print("handled", m["Body"], "at", now_ms(), "due", due, "early by", (due - now_ms()) / 1000, "s")
function handle(m) {
  const due = Number(m["MessageAttributes"]["DeliverAt"]["StringValue"]);
  console.log("handled", m["Body"], "at", now_ms(), "due", due, "early by", (due - now_ms()) / 1000, "s");
}
`;

const RECEIVE_AS_WRITTEN = `
// def receive():
//     resp = sqs.receive_message(QueueUrl=QUEUE, MessageAttributeNames=["DeliverAt"], WaitTimeSeconds=20)
//     for m in resp.get("Messages", []):
//         handle(m)
//         sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
//     return len(resp.get("Messages", []))
async function receive() {
  const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageAttributeNames: ["DeliverAt"], WaitTimeSeconds: 20 });
  for (const m of resp["Messages"] ?? []) {
    handle(m);
    await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
  }
  return (resp["Messages"] ?? []).length;
}
`;

const RECEIVE_FIXED = `
// resends = 0
//
// def receive():
//     global resends
//     handled = 0
//     resp = sqs.receive_message(QueueUrl=QUEUE, MessageAttributeNames=["DeliverAt"], WaitTimeSeconds=20)
//     for m in resp.get("Messages", []):
//         deliver_at = int(m["MessageAttributes"]["DeliverAt"]["StringValue"])
//         remaining = (deliver_at - now_ms()) / 1000
//         if remaining > 0:             # not due yet: again, delayed by what remains (at most 900 s)
//             sqs.send_message(
//                 QueueUrl=QUEUE,
//                 MessageBody=m["Body"],
//                 DelaySeconds=min(MAX_DELAY, math.ceil(remaining)),
//                 MessageAttributes={"DeliverAt": m["MessageAttributes"]["DeliverAt"]},
//             )
//             resends += 1
//         else:
//             handle(m)
//             handled += 1
//         sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
//     return handled
let resends = 0;

async function receive() {
  let handled = 0;
  const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageAttributeNames: ["DeliverAt"], WaitTimeSeconds: 20 });
  for (const m of resp["Messages"] ?? []) {
    const deliver_at = Number(m["MessageAttributes"]["DeliverAt"]["StringValue"]);
    const remaining = (deliver_at - now_ms()) / 1000;
    if (remaining > 0) { // not due yet: again, delayed by what remains (at most 900 s)
      await sqs.sendMessage({
        QueueUrl: QUEUE,
        MessageBody: m["Body"],
        DelaySeconds: Math.min(MAX_DELAY, Math.ceil(remaining)),
        MessageAttributes: { "DeliverAt": m["MessageAttributes"]["DeliverAt"] },
      });
      resends += 1;
    } else {
      handle(m);
      handled += 1;
    }
    await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
  }
  return handled;
}
`;

/** One reminder scheduled, then the receiver polls until it has handled it; `report` what the version prints at the end. */
const main = (report) => `
// schedule("call the customer back", now_ms() + DUE_IN_SECONDS * 1000)
// while receive() == 0:
//     pass${report.py}
await schedule("call the customer back", now_ms() + DUE_IN_SECONDS * 1000);
while ((await receive()) === 0) {
  // polls again
}${report.js}
`;

export const asWritten = `// The patterns guide's scheduling past 15 minutes, as written: delay 900, handle what comes.
${SETUP}${RECEIVE_AS_WRITTEN}${main({ py: "", js: "" })}`;

export const fixed = `// The patterns guide's scheduling past 15 minutes, fixed: not due yet, sent again.
${SETUP}${RECEIVE_FIXED}${main({ py: '\n// print("re-sent", resends, "times")', js: '\nconsole.log("re-sent", resends, "times");' })}`;
