// The patterns guide's visibility extender (a heartbeat thread that calls
// ChangeMessageVisibility while a long job runs), as the code cell runs
// it: the guide's Python in comments, each line translated to the cell's
// JavaScript under it; a Python thread is an async function running
// beside the others. `asWritten` is the guide's extender: every PERIOD
// seconds it hides the message for EXTENSION more. With 30 and 60 no
// other consumer ever sees the message; with a period longer than the
// extension the message reappears between two calls and the second
// consumer takes it; and past 12 hours from the receive SQS refuses the
// extension, the thread dies with its error printed, and the message
// reappears while the job still runs. `fixed` keeps the period inside
// the extension, never asks past the 12 hours, and hands the rest of a
// job that would outlast them to a new message. tests/node/patterns-code.test.mjs
// runs both.

/** The settings, the queue, threading.Event and the job: the same in both versions. */
const SETUP = `// Settings: change them and run again.
const PERIOD = 30;
const EXTENSION = 60;
const JOB_SECONDS = 300;

// import json, threading, time
// import boto3
//
// sqs = boto3.client("sqs")          (the cell's sqs: new SQS({}) in the AWS SDK)
// QUEUE = sqs.create_queue(QueueName="jobs", Attributes={"VisibilityTimeout": "60"})["QueueUrl"]
// RUN_SECONDS = JOB_SECONDS + 300    # how long the consumers take new messages
const QUEUE = (await sqs.createQueue({ QueueName: "jobs", Attributes: { "VisibilityTimeout": "60" } }))["QueueUrl"];
const RUN_SECONDS = JOB_SECONDS + 300;

// threading.Event, as the threads below use it: set(), and wait(timeout), which returns early once set.
class Event {
  constructor() {
    this.flag = false;
    this.waiters = [];
  }

  set() {
    this.flag = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  async wait(timeout) {
    if (!this.flag) await Promise.race([sleep(timeout * 1000), new Promise((wake) => this.waiters.push(wake))]);
    return this.flag;
  }
}

// A thread: its function runs beside the others; an exception is printed and ends it.
function thread(name, target) {
  return target().catch((e) => console.error("Exception in thread " + name + ":", e));
}
`;

const EXTENDER_AS_WRITTEN = `
// class VisibilityExtender(threading.Thread):
//     """While a message is processed, hides it for \`extension\` more seconds every \`period\` seconds."""
//
//     def __init__(self, queue_url, receipt_handle, period=PERIOD, extension=EXTENSION):
//         super().__init__(name="extender", daemon=True)
//         self.queue_url = queue_url
//         self.receipt_handle = receipt_handle
//         self.period = period
//         self.extension = extension
//         self.done = threading.Event()
//
//     def run(self):
//         while not self.done.wait(self.period):
//             sqs.change_message_visibility(
//                 QueueUrl=self.queue_url, ReceiptHandle=self.receipt_handle, VisibilityTimeout=self.extension
//             )
//
//     def stop(self):
//         self.done.set()
//         self.join()
class VisibilityExtender {
  constructor(queue_url, receipt_handle, period = PERIOD, extension = EXTENSION) {
    this.queue_url = queue_url;
    this.receipt_handle = receipt_handle;
    this.period = period;
    this.extension = extension;
    this.done = new Event();
  }

  start() {
    this.running = thread("extender", () => this.run());
  }

  async run() {
    while (!(await this.done.wait(this.period))) {
      await sqs.changeMessageVisibility({
        QueueUrl: this.queue_url, ReceiptHandle: this.receipt_handle, VisibilityTimeout: this.extension,
      });
    }
  }

  async stop() {
    this.done.set();
    await this.running;
  }
}

// def consumer(name, stop_at):
//     while time.time() < stop_at:
//         resp = sqs.receive_message(QueueUrl=QUEUE, MessageSystemAttributeNames=["ApproximateReceiveCount"], WaitTimeSeconds=20)
//         for m in resp.get("Messages", []):
//             job = json.loads(m["Body"])
//             print(name, "received", job["job"], "receive count", m["Attributes"]["ApproximateReceiveCount"])
//             extender = VisibilityExtender(QUEUE, m["ReceiptHandle"])
//             extender.start()
//             try:
//                 time.sleep(job["seconds"])          # the long job
//             finally:
//                 extender.stop()
//             sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
//             print(name, "worked", job["job"], job["seconds"], "s")
async function consumer(name, stop_at) {
  while (Date.now() / 1000 < stop_at) {
    const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageSystemAttributeNames: ["ApproximateReceiveCount"], WaitTimeSeconds: 20 });
    for (const m of resp["Messages"] ?? []) {
      const job = JSON.parse(m["Body"]);
      console.log(name, "received", job["job"], "receive count", Number(m["Attributes"]["ApproximateReceiveCount"]));
      const extender = new VisibilityExtender(QUEUE, m["ReceiptHandle"]);
      extender.start();
      try {
        await sleep(job["seconds"] * 1000); // the long job
      } finally {
        await extender.stop();
      }
      await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
      console.log(name, "worked", job["job"], job["seconds"], "s");
    }
  }
}
`;

const EXTENDER_FIXED = `
// MAX_VISIBILITY = 12 * 3600    # SQS's ceiling on a message's visibility, counted from its receive
// CHUNK = 60                    # seconds of work between two looks at the clock
//
// class VisibilityExtender(threading.Thread):
//     """While a message is processed, hides it for \`extension\` more seconds, well before the last extension ends,
//     and never past the 12 hours."""
//
//     def __init__(self, queue_url, receipt_handle, received_at, period=PERIOD, extension=EXTENSION):
//         super().__init__(name="extender", daemon=True)
//         self.queue_url = queue_url
//         self.receipt_handle = receipt_handle
//         self.lease_ends = received_at + MAX_VISIBILITY
//         self.period = min(period, extension / 2)      # a period as long as the extension lets the message show
//         self.extension = extension
//         self.done = threading.Event()
//
//     def run(self):
//         while not self.done.wait(self.period):
//             extension = int(min(self.extension, self.lease_ends - time.time()))
//             if extension > 0:
//                 sqs.change_message_visibility(
//                     QueueUrl=self.queue_url, ReceiptHandle=self.receipt_handle, VisibilityTimeout=extension
//                 )
//
//     def stop(self):
//         self.done.set()
//         self.join()
const MAX_VISIBILITY = 12 * 3600;
const CHUNK = 60;

class VisibilityExtender {
  constructor(queue_url, receipt_handle, received_at, period = PERIOD, extension = EXTENSION) {
    this.queue_url = queue_url;
    this.receipt_handle = receipt_handle;
    this.lease_ends = received_at + MAX_VISIBILITY;
    this.period = Math.min(period, extension / 2); // a period as long as the extension lets the message show
    this.extension = extension;
    this.done = new Event();
  }

  start() {
    this.running = thread("extender", () => this.run());
  }

  async run() {
    while (!(await this.done.wait(this.period))) {
      const extension = Math.trunc(Math.min(this.extension, this.lease_ends - Date.now() / 1000));
      if (extension > 0) {
        await sqs.changeMessageVisibility({
          QueueUrl: this.queue_url, ReceiptHandle: this.receipt_handle, VisibilityTimeout: extension,
        });
      }
    }
  }

  async stop() {
    this.done.set();
    await this.running;
  }
}

// def consumer(name, stop_at):
//     while time.time() < stop_at:
//         resp = sqs.receive_message(QueueUrl=QUEUE, MessageSystemAttributeNames=["ApproximateReceiveCount"], WaitTimeSeconds=20)
//         for m in resp.get("Messages", []):
//             job = json.loads(m["Body"])
//             print(name, "received", job["job"], "receive count", m["Attributes"]["ApproximateReceiveCount"])
//             extender = VisibilityExtender(QUEUE, m["ReceiptHandle"], received_at=time.time())
//             extender.start()
//             left = job["seconds"]
//             try:
//                 while left > 0:
//                     if time.time() + CHUNK > extender.lease_ends - extender.period:
//                         # the 12 hours end before this chunk would: the rest goes on in a new message
//                         sqs.send_message(QueueUrl=QUEUE, MessageBody=json.dumps({"job": job["job"], "seconds": left}))
//                         break
//                     step = min(CHUNK, left)
//                     time.sleep(step)          # the long job, a chunk at a time
//                     left -= step
//             finally:
//                 extender.stop()
//             sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
//             print(name, "worked", job["job"], job["seconds"] - left, "s")
async function consumer(name, stop_at) {
  while (Date.now() / 1000 < stop_at) {
    const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageSystemAttributeNames: ["ApproximateReceiveCount"], WaitTimeSeconds: 20 });
    for (const m of resp["Messages"] ?? []) {
      const job = JSON.parse(m["Body"]);
      console.log(name, "received", job["job"], "receive count", Number(m["Attributes"]["ApproximateReceiveCount"]));
      const extender = new VisibilityExtender(QUEUE, m["ReceiptHandle"], Date.now() / 1000);
      extender.start();
      let left = job["seconds"];
      try {
        while (left > 0) {
          if (Date.now() / 1000 + CHUNK > extender.lease_ends - extender.period) {
            // the 12 hours end before this chunk would: the rest goes on in a new message
            await sqs.sendMessage({ QueueUrl: QUEUE, MessageBody: JSON.stringify({ "job": job["job"], "seconds": left }) });
            break;
          }
          const step = Math.min(CHUNK, left);
          await sleep(step * 1000); // the long job, a chunk at a time
          left -= step;
        }
      } finally {
        await extender.stop();
      }
      await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
      console.log(name, "worked", job["job"], job["seconds"] - left, "s");
    }
  }
}
`;

/** One job sent, then two consumers side by side until RUN_SECONDS. */
const MAIN = `
// sqs.send_message(QueueUrl=QUEUE, MessageBody=json.dumps({"job": "job-1", "seconds": JOB_SECONDS}))
// stop_at = time.time() + RUN_SECONDS
// threads = [threading.Thread(target=consumer, args=(f"consumer-{i}", stop_at), name=f"consumer-{i}") for i in (1, 2)]
// for t in threads:
//     t.start()
// for t in threads:
//     t.join()
await sqs.sendMessage({ QueueUrl: QUEUE, MessageBody: JSON.stringify({ "job": "job-1", "seconds": JOB_SECONDS }) });
const stop_at = Date.now() / 1000 + RUN_SECONDS;
const threads = [1, 2].map((i) => thread("consumer-" + i, () => consumer("consumer-" + i, stop_at)));
await Promise.all(threads);
`;

export const asWritten = `// The patterns guide's visibility extender, as written.
${SETUP}${EXTENDER_AS_WRITTEN}${MAIN}`;

export const fixed = `// The patterns guide's visibility extender, fixed: the period inside the extension, the 12 hours kept.
${SETUP}${EXTENDER_FIXED}${MAIN}`;
