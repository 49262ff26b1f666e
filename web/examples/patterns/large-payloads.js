// The patterns guide's large payloads through S3 (its own variant of the
// extended client), as the code cell runs it: the guide's Python in
// comments, each line translated to the cell's JavaScript under it.
// `asWritten` is the guide's code: a body over 200,000 characters goes to
// S3 and the message carries a pointer; the receiver deletes the object
// as soon as it has read it, so a crash during processing leaves a
// redelivered message pointing at nothing (NoSuchKey). And it counts
// characters, not bytes: 200,000 two-byte characters pass the test, go
// inline, and are refused by a queue whose limit is 256 KiB. `fixed`
// measures UTF-8 bytes and deletes the object only after the message is
// processed and deleted. tests/node/patterns-code.test.mjs runs both.

/** The settings, the queue, the bucket and the demo's `process`: the same in both versions. */
const SETUP = `// Settings: change them and run again.
const BODY_CHAR = "x";
const BODY_LENGTH = 250000;
const CRASHES = 1;
const POLLS = 4;

// import itertools, json
// import boto3
//
// sqs = boto3.client("sqs")          (the cell's sqs and s3: new SQS({}) and new S3({}) in the AWS SDK)
// s3 = boto3.client("s3")
// # 256 KiB: the size the guide's threshold was chosen under; a queue may keep it below SQS's 1 MiB
// QUEUE = sqs.create_queue(QueueName="orders", Attributes={"MaximumMessageSize": "262144"})["QueueUrl"]
// BUCKET = "large-payloads"
// s3.create_bucket(Bucket=BUCKET)
// sequence = itertools.count(1)
const QUEUE = (await sqs.createQueue({ QueueName: "orders", Attributes: { "MaximumMessageSize": "262144" } }))["QueueUrl"];
const BUCKET = "large-payloads";
await s3.createBucket({ Bucket: BUCKET });
let sequence = 0;

// crashes_left = CRASHES
// def process(body):
//     global crashes_left
//     if crashes_left > 0:          # the demo's worker dies while processing, CRASHES times
//         crashes_left -= 1
//         raise RuntimeError("the worker crashed while processing")
//     print("processed", len(body), "characters")
let crashes_left = CRASHES;
function process(body) {
  if (crashes_left > 0) {
    crashes_left -= 1;
    throw new Error("the worker crashed while processing");
  }
  console.log("processed", body.length, "characters");
}
`;

/** The sender; `measure` is how the version sizes a body. */
const send = (measure) => `
// THRESHOLD = 200_000      # ${measure.what}; bigger bodies go to S3
//
// def send(body):
//     if ${measure.py} > THRESHOLD:
//         key = f"payloads/{next(sequence)}"
//         s3.put_object(Bucket=BUCKET, Key=key, Body=body)
//         sqs.send_message(
//             QueueUrl=QUEUE,
//             MessageBody=json.dumps({"s3Bucket": BUCKET, "s3Key": key}),
//             MessageAttributes={"PayloadLocation": {"DataType": "String", "StringValue": "s3"}},
//         )
//     else:
//         sqs.send_message(QueueUrl=QUEUE, MessageBody=body)
const THRESHOLD = 200000;

async function send(body) {
  if (${measure.js} > THRESHOLD) {
    const key = "payloads/" + (sequence += 1);
    await s3.putObject({ Bucket: BUCKET, Key: key, Body: body });
    await sqs.sendMessage({
      QueueUrl: QUEUE,
      MessageBody: JSON.stringify({ "s3Bucket": BUCKET, "s3Key": key }),
      MessageAttributes: { "PayloadLocation": { "DataType": "String", "StringValue": "s3" } },
    });
  } else {
    await sqs.sendMessage({ QueueUrl: QUEUE, MessageBody: body });
  }
}
`;

const RECEIVE_AS_WRITTEN = `
// def receive_and_process():
//     resp = sqs.receive_message(QueueUrl=QUEUE, MessageAttributeNames=["PayloadLocation"], WaitTimeSeconds=20)
//     for m in resp.get("Messages", []):
//         body = m["Body"]
//         if "PayloadLocation" in m.get("MessageAttributes", {}):
//             pointer = json.loads(body)
//             body = s3.get_object(Bucket=pointer["s3Bucket"], Key=pointer["s3Key"])["Body"].read().decode()
//             s3.delete_object(Bucket=pointer["s3Bucket"], Key=pointer["s3Key"])   # read: not needed any more
//         process(body)
//         sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
async function receive_and_process() {
  const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageAttributeNames: ["PayloadLocation"], WaitTimeSeconds: 20 });
  for (const m of resp["Messages"] ?? []) {
    let body = m["Body"];
    if ("PayloadLocation" in (m["MessageAttributes"] ?? {})) {
      const pointer = JSON.parse(body);
      body = (await s3.getObject({ Bucket: pointer["s3Bucket"], Key: pointer["s3Key"] }))["Body"]; // the cell's Body is the text
      await s3.deleteObject({ Bucket: pointer["s3Bucket"], Key: pointer["s3Key"] }); // read: not needed any more
    }
    process(body);
    await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
  }
}
`;

const RECEIVE_FIXED = `
// def receive_and_process():
//     resp = sqs.receive_message(QueueUrl=QUEUE, MessageAttributeNames=["PayloadLocation"], WaitTimeSeconds=20)
//     for m in resp.get("Messages", []):
//         body, pointer = m["Body"], None
//         if "PayloadLocation" in m.get("MessageAttributes", {}):
//             pointer = json.loads(body)
//             body = s3.get_object(Bucket=pointer["s3Bucket"], Key=pointer["s3Key"])["Body"].read().decode()
//         process(body)
//         sqs.delete_message(QueueUrl=QUEUE, ReceiptHandle=m["ReceiptHandle"])
//         if pointer:      # only now: until the message is deleted, a redelivery still needs the object
//             s3.delete_object(Bucket=pointer["s3Bucket"], Key=pointer["s3Key"])
async function receive_and_process() {
  const resp = await sqs.receiveMessage({ QueueUrl: QUEUE, MessageAttributeNames: ["PayloadLocation"], WaitTimeSeconds: 20 });
  for (const m of resp["Messages"] ?? []) {
    let body = m["Body"];
    let pointer = null;
    if ("PayloadLocation" in (m["MessageAttributes"] ?? {})) {
      pointer = JSON.parse(body);
      body = (await s3.getObject({ Bucket: pointer["s3Bucket"], Key: pointer["s3Key"] }))["Body"]; // the cell's Body is the text
    }
    process(body);
    await sqs.deleteMessage({ QueueUrl: QUEUE, ReceiptHandle: m["ReceiptHandle"] });
    if (pointer) { // only now: until the message is deleted, a redelivery still needs the object
      await s3.deleteObject({ Bucket: pointer["s3Bucket"], Key: pointer["s3Key"] });
    }
  }
}
`;

/** One body sent, then a worker that polls POLLS times and is restarted after each crash. */
const MAIN = `
// send(BODY_CHAR * BODY_LENGTH)
// for poll in range(POLLS):         # the worker, restarted after a crash
//     try:
//         receive_and_process()
//     except Exception as e:
//         print("worker crashed:", e)
await send(BODY_CHAR.repeat(BODY_LENGTH));
for (let poll = 0; poll < POLLS; poll++) {
  try {
    await receive_and_process();
  } catch (e) {
    console.log("worker crashed:", e);
  }
}
`;

export const asWritten = `// The patterns guide's large payloads through S3, as written.
${SETUP}${send({ what: "characters", py: "len(body)", js: "body.length" })}${RECEIVE_AS_WRITTEN}${MAIN}`;

export const fixed = `// The patterns guide's large payloads through S3, fixed: bytes measured, the object deleted last.
${SETUP}${send({ what: "bytes of UTF-8", py: 'len(body.encode("utf-8"))', js: "new TextEncoder().encode(body).length" })}${RECEIVE_FIXED}${MAIN}`;
