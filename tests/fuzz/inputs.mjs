// The fuzzer's inputs: what one fuzz case is, and how it is drawn from a
// seed. Shared by the test (tests/node/fuzz.test.mjs) and the long runs
// (scripts/fuzz.sh); run.mjs executes an input and checks the invariants.
//
// An input is plain JSON, so a failure can be printed and checked in as
// tests/fuzz/corpus/<name>.json and replayed by later runs exactly:
//
//   { kind: "requests" | "session" | "scenario",
//     options: PlaygroundOptions (may hold special values, see `special`),
//     scenario: text (kind "scenario": made with Playground.fromScenario),
//     steps: [step] }
//
// A step is one call on the Playground:
//   { call: "dispatch", target, body (JSON text, or not), caller? }
//   { call: "advance", ms } | { call: "toNext" } (advance to nextEventTime())
//   { call: "snapshot" } | { call: "counts" } | { call: "nextEventTime" }
//   { call: "peek", id } | { call: "events", since }
//   { call: "misuse", method, args }: a call with wrong argument types;
//     it may throw an Error, never trap, and the Playground must work after.
//   { repeat: n, steps: [step] }: the steps n times, with "{i}" and
//     "{i+1}" in their strings replaced by the round's number (compact
//     corpus entries such as a chain of 1,150 queues).
// Strings "$url:k", "$arn:k", "$handle:k", "$id:k" inside a body stand for
// the k-th queue URL, queue ARN, receipt handle or message id the session
// has seen so far (modulo how many), so generated sessions reach real
// queues and messages although they are drawn before they run.

/** A small fast PRNG (sfc32) with the picks the generators need. */
export class Rng {
  constructor(seed) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32() {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  int(n) {
    return n <= 1 ? 0 : this.u32() % n;
  }
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.u32() < p * 4294967296;
  }
  pick(list) {
    return list[this.int(list.length)];
  }
}

/** The seed of input number `index` of a run with `seed`: any input can be drawn alone. */
export const inputSeed = (seed, index) => (Math.imul(seed ^ 0x5bd1e995, 0x01000193) + Math.imul(index, 0x9e3779b1)) >>> 0;

// ---- values ------------------------------------------------------------------

/** Number literals as JSON text: limits of SQS ranges, of integer types, and of JSON itself. */
const NUMBER_TEXT = ["0", "-0", "1", "-1", "2", "9", "10", "11", "20", "21", "60", "255", "256", "900", "901", "1000", "1001", "43200", "43201", "1209600", "1209601", "262144", "262145", "1048576", "1048577",
  "2147483647", "2147483648", "4294967295", "4294967296", "9007199254740991", "9007199254740992", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
  "1e308", "1e999", "-1e999", "0.5", "1.5", "1E2", "0.0000001", "123456789012345678901234567890"];
const STRINGS = ["", "a", "q", "orders", "orders.fifo", "x".repeat(80), "x".repeat(81), "bad name!", "é", "\u0000", "\ud800", "10", "-1", "true", "null", "All", "SentTimestamp",
  "https://sqs.us-east-1.amazonaws.com/000000000000/orders", "arn:aws:sqs:us-east-1:000000000000:orders", "{\"deadLetterTargetArn\":\"$arn:0\",\"maxReceiveCount\":1}"];

/** SQS request members and attribute names: what a random body is made of. */
const MEMBERS = ["QueueName", "QueueUrl", "QueueNamePrefix", "Attributes", "AttributeNames", "MessageSystemAttributeNames", "MessageAttributeNames", "MessageBody", "MessageAttributes", "MessageSystemAttributes",
  "DelaySeconds", "MessageDeduplicationId", "MessageGroupId", "Entries", "Id", "ReceiptHandle", "VisibilityTimeout", "MaxNumberOfMessages", "WaitTimeSeconds", "ReceiveRequestAttemptId",
  "NextToken", "MaxResults", "Tags", "TagKeys", "SourceArn", "DestinationArn", "MaxNumberOfMessagesPerSecond", "TaskHandle", "QueueOwnerAWSAccountId", "DataType", "StringValue", "BinaryValue"];
const ATTRIBUTES = ["VisibilityTimeout", "DelaySeconds", "MessageRetentionPeriod", "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "RedriveAllowPolicy", "FifoQueue",
  "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit", "Policy", "KmsMasterKeyId", "SqsManagedSseEnabled", "All", "Nope"];

/** Raw JSON text of a random value, with numbers written as given (so u64 and out-of-range literals reach the parser). */
function value(rng, depth = 0) {
  const r = rng.int(depth > 2 ? 4 : 8);
  if (r === 0) return rng.pick(NUMBER_TEXT);
  if (r === 1 || r === 2) return JSON.stringify(rng.chance(0.1) ? placeholder(rng) : rng.pick(STRINGS));
  if (r === 3) return rng.pick(["true", "false", "null"]);
  if (r === 4 || r === 5) return object(rng, depth + 1);
  if (r === 6) return `[${Array.from({ length: rng.int(rng.chance(0.1) ? 14 : 4) }, () => value(rng, depth + 1)).join(",")}]`;
  return JSON.stringify("s".repeat(rng.chance(0.02) ? 70000 : rng.chance(0.1) ? 4096 : rng.pick([1, 100])));
}

function object(rng, depth) {
  const n = rng.int(5);
  const keys = Array.from({ length: n }, () => (rng.chance(0.8) ? rng.pick(rng.chance(0.7) ? MEMBERS : ATTRIBUTES) : rng.pick(STRINGS)));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${value(rng, depth)}`).join(",")}}`;
}

const placeholder = (rng) => `$${rng.pick(["url", "arn", "handle", "id"])}:${rng.int(4)}`;

/** A malformed or odd body text: broken JSON, other top-level types, duplicate keys, deep nesting. */
function oddBody(rng) {
  return rng.pick([
    () => "",
    () => "{",
    () => "not json",
    () => "[]",
    () => "null",
    () => "5",
    () => '"text"',
    () => '{"QueueName":"a","QueueName":"b"}',
    () => `${"[".repeat(200)}${"]".repeat(200)}`,
    () => `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    () => '{"QueueName":"\\ud800"}',
    () => object(rng, 0).slice(0, -1),
  ])();
}

// ---- requests: random targets, members and types ----------------------------------

function randomRequest(rng, operations) {
  const target = rng.chance(0.9) ? `AmazonSQS.${rng.pick(operations)}` : rng.pick(["", "AmazonSQS.", "SendMessage", "AmazonSQS.Nope", "amazonsqs.SendMessage", "AmazonSQS.SendMessage ", "x".repeat(300)]);
  const body = rng.chance(0.15) ? oddBody(rng) : object(rng, 0);
  const step = { call: "dispatch", target, body };
  if (rng.chance(0.1)) step.caller = rng.pick(["", "worker-1", "x".repeat(200), "\u0000"]);
  return step;
}

function requestsInput(rng, operations) {
  const steps = [dispatch("CreateQueue", { QueueName: "orders" }), dispatch("CreateQueue", { QueueName: "orders.fifo", Attributes: { FifoQueue: "true" } })];
  const n = rng.range(3, 20);
  for (let i = 0; i < n; i++) {
    steps.push(randomRequest(rng, operations));
    if (rng.chance(0.15)) steps.push(between(rng));
  }
  return { kind: "requests", options: { seed: rng.int(1000) }, steps };
}

// ---- sessions: valid calls with extreme parameters ---------------------------------

const dispatch = (op, body) => ({ call: "dispatch", target: `AmazonSQS.${op}`, body: JSON.stringify(body) });
const ADVANCES = [0, 1, 2, 999, 1000, 1001, 20_000, 30_000, 60_000, 300_001, 43_200_000, 1_209_600_000, 1_209_600_001];

/** A call between SQS requests: time, and the read-only views of the engine. */
function between(rng, { far = true } = {}) {
  switch (rng.int(8)) {
    case 0:
    case 1:
      // A scenario's workers act all the time, so only a session without one jumps days ahead.
      return { call: "advance", ms: far && rng.chance(0.8) ? rng.pick(ADVANCES) : rng.int(far ? 100_000 : 5000) };
    case 2:
      return { call: "toNext" };
    case 3:
      return { call: "snapshot" };
    case 4:
      return { call: "counts" };
    case 5:
      return { call: "peek", id: rng.chance(0.8) ? `$id:${rng.int(8)}` : rng.pick(STRINGS) };
    case 6:
      return { call: "events", since: rng.pick([0, 1, 5, 1e9, null]) };
    default:
      return { call: "nextEventTime" };
  }
}

const extreme = (rng, lo, hi) => rng.pick([lo, hi, lo, hi, rng.range(lo, hi)]);
const url = (rng) => `$url:${rng.int(6)}`;
const handle = (rng) => `$handle:${rng.int(12)}`;
const body = (rng) => (rng.chance(0.03) ? "b".repeat(rng.pick([262_144, 262_145])) : rng.pick(["m", "order {n}", "", "\u00e9\ud83d\ude00", "b".repeat(1000)]));

function queueAttributes(rng, fifo) {
  const a = {};
  if (fifo) a.FifoQueue = "true";
  if (fifo && rng.chance(0.5)) a.ContentBasedDeduplication = "true";
  if (rng.chance(0.5)) a.VisibilityTimeout = String(extreme(rng, 0, 43200));
  if (rng.chance(0.3)) a.DelaySeconds = String(extreme(rng, 0, 900));
  if (rng.chance(0.3)) a.MessageRetentionPeriod = String(extreme(rng, 60, 1209600));
  if (rng.chance(0.3)) a.ReceiveMessageWaitTimeSeconds = String(extreme(rng, 0, 20));
  if (rng.chance(0.2)) a.MaximumMessageSize = String(extreme(rng, 1024, 262144));
  if (rng.chance(0.4)) a.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: `$arn:${rng.int(6)}`, maxReceiveCount: extreme(rng, 1, 1000) });
  return a;
}

const SESSION_OPS = [
  (rng) => {
    const fifo = rng.chance(0.3);
    return dispatch("CreateQueue", { QueueName: `q${rng.int(6)}${fifo ? ".fifo" : ""}`, Attributes: queueAttributes(rng, fifo) });
  },
  (rng) => {
    const b = { QueueUrl: url(rng), MessageBody: body(rng) };
    if (rng.chance(0.3)) b.DelaySeconds = extreme(rng, 0, 900);
    if (rng.chance(0.4)) b.MessageGroupId = `g${rng.int(3)}`;
    if (rng.chance(0.3)) b.MessageDeduplicationId = `d${rng.int(5)}`;
    if (rng.chance(0.2)) b.MessageAttributes = { k: { DataType: "String", StringValue: "v" } };
    return dispatch("SendMessage", b);
  },
  (rng) => dispatch("SendMessageBatch", { QueueUrl: url(rng), Entries: Array.from({ length: rng.range(1, 10) }, (_, i) => ({ Id: `e${i}`, MessageBody: body(rng), MessageGroupId: `g${rng.int(3)}`, MessageDeduplicationId: `b${rng.int(40)}`, DelaySeconds: rng.chance(0.2) ? 900 : 0 })) }),
  (rng) => {
    const b = { QueueUrl: url(rng), MaxNumberOfMessages: extreme(rng, 1, 10), WaitTimeSeconds: extreme(rng, 0, 20), MessageSystemAttributeNames: ["All"], MessageAttributeNames: ["All"] };
    if (rng.chance(0.4)) b.VisibilityTimeout = extreme(rng, 0, 43200);
    if (rng.chance(0.2)) b.ReceiveRequestAttemptId = `a${rng.int(3)}`;
    return dispatch("ReceiveMessage", b);
  },
  (rng) => dispatch("ReceiveMessage", { QueueUrl: url(rng), WaitTimeSeconds: 0, VisibilityTimeout: rng.pick([0, 1]) }),
  (rng) => dispatch("DeleteMessage", { QueueUrl: url(rng), ReceiptHandle: handle(rng) }),
  (rng) => dispatch("DeleteMessageBatch", { QueueUrl: url(rng), Entries: Array.from({ length: rng.range(1, 10) }, (_, i) => ({ Id: `d${i}`, ReceiptHandle: handle(rng) })) }),
  (rng) => dispatch("ChangeMessageVisibility", { QueueUrl: url(rng), ReceiptHandle: handle(rng), VisibilityTimeout: extreme(rng, 0, 43200) }),
  (rng) => dispatch("ChangeMessageVisibilityBatch", { QueueUrl: url(rng), Entries: [{ Id: "c", ReceiptHandle: handle(rng), VisibilityTimeout: extreme(rng, 0, 43200) }] }),
  (rng) => dispatch(rng.pick(["PurgeQueue", "DeleteQueue", "ListDeadLetterSourceQueues", "ListQueueTags"]), { QueueUrl: url(rng) }),
  (rng) => dispatch("GetQueueAttributes", { QueueUrl: url(rng), AttributeNames: ["All"] }),
  (rng) => dispatch("SetQueueAttributes", { QueueUrl: url(rng), Attributes: queueAttributes(rng, false) }),
  (rng) => dispatch("ListQueues", rng.chance(0.5) ? {} : { QueueNamePrefix: "q", MaxResults: extreme(rng, 1, 1000) }),
  (rng) => dispatch("GetQueueUrl", { QueueName: `q${rng.int(6)}` }),
  (rng) => dispatch("TagQueue", { QueueUrl: url(rng), Tags: { [`k${rng.int(60)}`]: "v" } }),
  (rng) => dispatch("StartMessageMoveTask", { SourceArn: `$arn:${rng.int(6)}`, ...(rng.chance(0.5) ? { MaxNumberOfMessagesPerSecond: extreme(rng, 1, 500) } : {}) }),
  (rng) => dispatch("ListMessageMoveTasks", { SourceArn: `$arn:${rng.int(6)}`, MaxResults: extreme(rng, 1, 10) }),
  (rng) => dispatch("CancelMessageMoveTask", { TaskHandle: rng.pick(["x", "$handle:0"]) }),
  (rng) => dispatch("AddPermission", { QueueUrl: url(rng), Label: `p${rng.int(4)}`, AWSAccountIds: [rng.pick(["111122223333", "x"])], Actions: [rng.pick(["SendMessage", "*", "CreateQueue"])] }),
  (rng) => dispatch("RemovePermission", { QueueUrl: url(rng), Label: `p${rng.int(4)}` }),
];

function sessionInput(rng) {
  const steps = [];
  for (let i = rng.range(1, 4); i > 0; i--) steps.push(SESSION_OPS[0](rng));
  const n = rng.range(8, 50);
  for (let i = 0; i < n; i++) {
    steps.push(rng.chance(0.3) ? between(rng) : rng.pick(SESSION_OPS)(rng));
    if (rng.chance(0.03)) steps.push(misuse(rng));
  }
  const options = { seed: rng.int(2 ** 31) };
  if (rng.chance(0.1)) options.eventCapacity = rng.pick([1, 2, 100, 1_000_000]);
  if (rng.chance(0.1)) options.realism = { shortPollSampleRate: rng.pick([0, 0.5, 1]), duplicateDeliveryProbability: rng.pick([0, 0.5, 1]), fewerMessagesProbability: rng.pick([0, 1]) };
  if (rng.chance(0.05)) options.startEpochMs = rng.pick([0, 1, 2 ** 53 - 1 - 2 ** 40]);
  return { kind: "session", options, steps };
}

// ---- misuse: wrong JS types --------------------------------------------------------

/**
 * Special argument values a step can name in JSON: { "$special": name }.
 * `throwingGetter` is an options object whose every property throws when read.
 */
export const SPECIAL = {
  undefined: () => undefined,
  nan: () => NaN,
  infinity: () => Infinity,
  bigint: () => 5n,
  symbol: () => Symbol("x"),
  function: () => () => 1,
  object: () => ({}),
  array: () => [1, 2],
  throwingGetter: () =>
    new Proxy({}, {
      get(target, key) {
        if (typeof key === "symbol") return undefined;
        throw new Error(`getter ${String(key)} throws`);
      },
      has: () => true,
      ownKeys: () => ["seed", "caller", "eventCapacity"],
      getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true, get() { throw new Error("getter throws"); } }),
    }),
  // Plain objects with a throwing getter (the binding reads options through them).
  getterOnOptions: () => ({
    get seed() {
      throw new Error("seed getter throws");
    },
  }),
  getterOnCaller: () => ({
    get caller() {
      throw new Error("caller getter throws");
    },
  }),
  inheritedSeed: () => Object.create({ seed: 5 }),
};
const special = (rng) => ({ $special: rng.pick(Object.keys(SPECIAL)) });
const oddArg = (rng) => (rng.chance(0.5) ? special(rng) : rng.pick([5, -1, 1.5, null, true, "x", 2 ** 53, 2 ** 64, -(2 ** 64), [], {}]));

function misuse(rng) {
  const method = rng.pick(["dispatch", "dispatch", "advance", "peek", "events", "fromScenario", "construct"]);
  if (method === "dispatch") {
    const args = [`AmazonSQS.${rng.pick(["ListQueues", "CreateQueue"])}`, '{"QueueName":"m"}', undefined];
    const at = rng.int(3);
    args[at] = oddArg(rng);
    return { call: "misuse", method, args };
  }
  if (method === "fromScenario") return { call: "misuse", method, args: [oddArg(rng), rng.chance(0.5) ? oddArg(rng) : { $special: "undefined" }] };
  return { call: "misuse", method, args: [oddArg(rng)] };
}

// ---- scenarios: shipped ones mutated, and random ones --------------------------------

const SCENARIO_VALUES = [0, 1, -1, 2, 20, 1000, 2 ** 31, 2 ** 32 - 1, 2 ** 53 - 1, 2 ** 53, 2 ** 64, 1.5, "", "x", null, true, [], {}, "orders", "orders-dlq"];

/** Replaces, removes or adds values at random places of a parsed scenario. */
function mutate(rng, doc, times) {
  for (let i = 0; i < times; i++) {
    const path = [];
    let node = doc;
    while (node && typeof node === "object" && rng.chance(0.8)) {
      const keys = Object.keys(node);
      if (!keys.length) break;
      const k = rng.pick(keys);
      if (node[k] === null || typeof node[k] !== "object") {
        path.push(k);
        break;
      }
      path.push(k);
      node = node[k];
    }
    if (!path.length) continue;
    const parent = path.slice(0, -1).reduce((n, k) => n[k], doc);
    const key = path[path.length - 1];
    const r = rng.int(10);
    if (r === 0) delete parent[key];
    else if (r === 1 && Array.isArray(parent)) parent.push(structuredClone(parent[rng.int(parent.length)] ?? 0));
    else if (r === 2 && typeof parent[key] === "number") parent[key] = parent[key] * rng.pick([2, 10, 1000]) + rng.pick([0, 1, -1]);
    else parent[key] = rng.pick(SCENARIO_VALUES);
  }
  return doc;
}

function randomScenario(rng) {
  const queues = [{ name: "dlq" }, { name: "work", visibilityTimeoutSeconds: extreme(rng, 0, 43200), redrive: { deadLetterQueue: "dlq", maxReceiveCount: extreme(rng, 1, 1000) } }];
  if (rng.chance(0.4)) queues.push({ name: "f.fifo", contentBasedDeduplication: true });
  const q = () => rng.pick(queues).name;
  return {
    title: "fuzz",
    seed: rng.int(1000),
    durationMs: rng.pick([0, 1, 1000, 10_000, 60_000]),
    queues,
    producers: [
      { name: "p", queue: q(), rate: { everyMs: extreme(rng, 1, 1000), count: extreme(rng, 0, 200), body: "m{n}", groupId: "g{n}" } },
      { name: "s", queue: q(), sends: [{ atMs: rng.int(1000), body: "x", delaySeconds: extreme(rng, 0, 900) }] },
    ],
    consumers: Array.from({ length: rng.int(3) }, (_, i) => ({
      name: `w${i}`,
      queue: q(),
      waitTimeSeconds: extreme(rng, 0, 20),
      batchSize: extreme(rng, 1, 10),
      pollIntervalMs: extreme(rng, 1, 1000),
      processing: { fixedMs: rng.pick([0, 1, 300, 5000]) },
      behaviour: rng.pick([{}, { failsOn: ["m1"] }, { idempotent: true }, { heartbeatEveryMs: extreme(rng, 1, 1000) }, { failsEveryNth: extreme(rng, 1, 3) }, { retryImmediately: true }, { deletesBeforeProcessing: true }]),
    })),
    alarms: [{ name: "a", queue: "dlq", threshold: 1 }],
    narration: [{ atMs: 0, text: "n" }],
  };
}

function scenarioInput(rng, shipped) {
  const base = shipped.length && rng.chance(0.6) ? JSON.parse(rng.pick(shipped)) : randomScenario(rng);
  const doc = rng.chance(0.8) ? mutate(rng, base, rng.range(1, 4)) : base;
  const scenario = rng.chance(0.05) ? JSON.stringify(doc).slice(0, -rng.range(1, 5)) : JSON.stringify(doc);
  const steps = [];
  const n = rng.range(2, 12);
  for (let i = 0; i < n; i++) {
    if (rng.chance(0.6)) steps.push({ call: "advance", ms: rng.pick([1, 10, 100, 1000, 5000]) });
    else if (rng.chance(0.5)) steps.push(between(rng, { far: false }));
    else steps.push(rng.pick(SESSION_OPS)(rng));
  }
  const options = rng.chance(0.8) ? { $special: "undefined" } : { seed: rng.int(100) };
  return { kind: "scenario", scenario, options, steps };
}

/**
 * Input number `index` of a fuzz run with `seed`. `operations` is the
 * engine's operations(); `shipped` the texts of web/scenarios/*.json.
 */
export function generate(seed, index, { operations, shipped }) {
  const rng = new Rng(inputSeed(seed, index));
  const r = rng.int(10);
  if (r < 4) return requestsInput(rng, operations);
  if (r < 8) return sessionInput(rng);
  return scenarioInput(rng, shipped);
}
