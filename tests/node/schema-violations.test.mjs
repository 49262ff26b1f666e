// "The engine rejects what the schema rejects, naming the field" (docs/scenario-format.md),
// checked on violations generated from web/scenarios/scenario.schema.json:
// a scenario valid for both, then, for every constraint the schema states
// (type, enum, minimum, maximum, minLength, pattern, required,
// additionalProperties, oneOf), a copy that breaks exactly that one. Ajv
// must reject each, and Playground.fromScenario must throw a message that
// names the field, except for the differences docs/scenario-format.md
// documents (section 11), listed below with their reasons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { Playground } from "./load.mjs";

const schema = JSON.parse(readFileSync(new URL("../../web/scenarios/scenario.schema.json", import.meta.url), "utf8"));
const validate = new Ajv({ allErrors: true }).compile(schema);

/** The subschema a `$ref` points at (only local `#/...` references occur). */
function deref(node) {
  if (!node.$ref) return node;
  return node.$ref.slice(2).split("/").reduce((n, key) => n[key], schema);
}

/**
 * A lab's parts, left out of the generated scenarios: their rules tie
 * fields together in ways a schema cannot state (a knob's range depends on
 * its target, a fix's settings must pass its knobs, `orderKeptPer` cannot
 * go with a `rate`), so crates/simulation/tests/lab_format.rs checks them.
 */
const LAB_PARTS = ["goal", "knobs", "explain"];

/**
 * A value valid for `node` with every property present, so that every
 * constraint has a value to break; `branch` picks the form of each oneOf.
 */
function sample(node, branch) {
  node = deref(node);
  if (node.oneOf) return sample(node.oneOf[branch % node.oneOf.length], branch);
  // A number or a setting's placeholder (a count): the number.
  if (node.anyOf) return sample(node.anyOf[0], branch);
  if (node.enum) return node.enum[0];
  if ("const" in node) return node.const;
  switch (node.type) {
    case "object": {
      const value = {};
      for (const [name, property] of Object.entries(node.properties ?? {})) {
        if (node === schema && LAB_PARTS.includes(name)) continue;
        value[name] = sample(property, branch);
      }
      if (typeof node.additionalProperties === "object") value.key = sample(node.additionalProperties, branch);
      return value;
    }
    case "array": return Array.from({ length: Math.max(1, node.minItems ?? 0) }, () => sample(node.items, branch));
    case "integer":
    case "number": return node.minimum ?? 0;
    case "string": return "x".repeat(Math.max(1, node.minLength ?? 1));
    case "boolean": return false;
    default: throw new Error(`sample() does not know the schema type ${JSON.stringify(node.type)}`);
  }
}

/**
 * What the schema cannot say: names that must refer to queues. The one
 * queue becomes a FIFO queue (its FIFO-only attributes are sampled) whose
 * dead-letter queue is listed before it, and everyone uses it. A
 * checkpoint's answer is decided one way (`when` or `atEnd`), and at most
 * one answer gives neither. Producers, schedules, operators and workers have
 * names of their own, an operator's calls name the two queues (or the first
 * KMS key), keys have aliases KMS accepts, a bucket notifies a standard
 * queue of its own, and a behaviour claim names the
 * first worker.
 */
function wire(scenario) {
  for (const c of scenario.checkpoints) c.choices.forEach((choice, i) => delete choice[i % 2 ? "when" : "atEnd"]);
  // A behaviour claim names a consumer and a behaviour the registry has.
  const claims = [...scenario.narration, ...scenario.checkpoints, ...scenario.checkpoints.flatMap((c) => c.choices)].flatMap((x) => x.claims ?? []);
  for (const claim of claims) {
    const named = claim.behaviour ?? claim.noBehaviour;
    if (named) Object.assign(named, { consumer: "worker-1", is: "idempotent" });
  }
  const [work] = scenario.queues;
  work.name = "work.fifo";
  work.redrive.deadLetterQueue = "dead.fifo";
  scenario.queues.unshift({ name: "dead.fifo" });
  const users = [...scenario.producers, ...scenario.schedule, ...scenario.consumers, ...scenario.alarms];
  for (const user of users) user.queue = "work.fifo";
  // An operator's calls name queues too: a purge the work queue, a move task its dead-letter queue.
  for (const { call } of (scenario.operators ?? []).flatMap((o) => o.calls)) {
    const [op] = Object.values(call);
    if ("queue" in op) op.queue = "work.fifo";
    if ("source" in op) op.source = "dead.fifo";
    if ("destination" in op) op.destination = "work.fifo";
    if ("key" in op) op.key = "alias/key-1";
  }
  // A bucket notifies a standard queue (S3 sends to no FIFO queue) of an
  // event S3 knows; its objects put a key, then delete it.
  for (const bucket of scenario.buckets ?? []) {
    if (!scenario.queues.some((q) => q.name === "uploads")) scenario.queues.push({ name: "uploads" });
    for (const n of bucket.notifications) Object.assign(n, { queue: "uploads", events: ["s3:ObjectCreated:*"] });
    const [op] = bucket.objects;
    delete op.delete;
    bucket.objects.push({ atMs: op.atMs, delete: op.put });
  }
  // A producer's offload names one of the scenario's buckets, with its
  // style's threshold only (the extended client counts bytes).
  for (const producer of scenario.producers.filter((p) => p.offload)) {
    const [bucket] = scenario.buckets ?? [];
    if (!bucket) delete producer.offload;
    else {
      Object.assign(producer.offload, { bucket: bucket.name, style: "extendedClient" });
      delete producer.offload.thresholdChars;
    }
  }
  // A standard topic subscribes standard queues of its own (a FIFO queue
  // takes only a FIFO topic's messages), with a filter policy SNS accepts;
  // its publishes carry no FIFO ids.
  for (const [i, topic] of (scenario.topics ?? []).entries()) {
    topic.name = `news-${i + 1}`;
    for (const name of ["news", "news-dlq"]) if (!scenario.queues.some((q) => q.name === name)) scenario.queues.push({ name });
    for (const sub of topic.subscriptions) Object.assign(sub, { queue: "news", deadLetterQueue: "news-dlq", filterPolicy: { type: ["order"] } });
    for (const send of [...(topic.publishes ?? []), ...(topic.rate ? [topic.rate] : [])]) {
      delete send.groupId;
      delete send.dedupId;
    }
    if (topic.rate) delete topic.rate.batchSize; // a producer's only: a topic publishes one at a time
  }
  // An alarm watches a metric SQS publishes; its actions name a topic.
  for (const alarm of scenario.alarms ?? []) {
    Object.assign(alarm, { namespace: "AWS/SQS", metricName: "ApproximateNumberOfMessagesVisible", dimensions: {} });
    alarm.alarmActions = (scenario.topics ?? []).slice(0, 1).map((t) => t.name);
    alarm.okActions = [...alarm.alarmActions];
  }
  // A function polls the work queue, under a name of its own.
  (scenario.lambdas ?? []).forEach((lambda, i) => Object.assign(lambda, { name: `fn-${i + 1}`, queue: "work.fifo", functionResponseTypes: ["ReportBatchItemFailures"] }));
  // Another account calls by its 12-digit id.
  for (const user of [...scenario.producers, ...scenario.consumers].filter((u) => "account" in u)) user.account = "111111111111";
  // A queue policy SQS accepts.
  for (const queue of scenario.queues.filter((q) => "policy" in q)) {
    queue.policy = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: "*" }] };
  }
  // KMS keys: aliases KMS accepts, a policy naming a service; a disableKey or enableKey call names the first.
  (scenario.keys ?? []).forEach((key, i) => Object.assign(key, { alias: `alias/key-${i + 1}`, allow: key.allow.map(() => "sns.amazonaws.com") }));
  (scenario.operators ?? []).forEach((operator, i) => (operator.name = `ops-${i + 1}`));
  // A send's wall-clock `at` is a UTC time within the run, counted from
  // startEpochMs (the schema cannot say): the sends keep their atMs.
  for (const send of [...scenario.producers, ...scenario.schedule].flatMap((p) => p.sends ?? [])) delete send.at;
  // A FIFO queue's consumer does not re-delay (SQS refuses a message's own DelaySeconds there).
  for (const consumer of scenario.consumers) delete consumer.behaviour?.redelayUntil;
  scenario.producers.forEach((producer, i) => (producer.name = `shop-${i + 1}`));
  scenario.schedule.forEach((schedule, i) => (schedule.name = `scheduler-${i + 1}`));
  scenario.consumers.forEach((consumer, i) => (consumer.name = `worker-${i + 1}`));
  // Requesters and responders use a standard queue of their own (requests carry no MessageGroupId).
  if ((scenario.requesters ?? []).length + (scenario.responders ?? []).length > 0) scenario.queues.push({ name: "requests" });
  (scenario.requesters ?? []).forEach((r, i) => {
    Object.assign(r, { name: `client-${i + 1}`, queue: "requests" });
    for (const field of ["groupId", "batchSize", "groupCount"]) delete r.rate[field]; // a requester's rate takes none of them
  });
  (scenario.responders ?? []).forEach((r, i) => Object.assign(r, { name: `service-${i + 1}`, queue: "requests" }));
  return scenario;
}

/** Every array of oneOf branches anywhere in `node`. */
function oneOfs(node, out = []) {
  if (node && typeof node === "object") {
    if (Array.isArray(node.oneOf)) out.push(node.oneOf);
    for (const value of Object.values(node)) oneOfs(value, out);
  }
  return out;
}
/** One base scenario per oneOf form, each valid for the schema and the engine. */
const forms = Math.max(1, ...oneOfs(schema).map((branches) => branches.length));
const bases = Array.from({ length: forms }, (_, branch) => wire(sample(schema, branch)));

/** A value of the wrong JSON type for a node of `type`. */
const WRONG_TYPE = { integer: "1", string: 1, boolean: "false", array: {}, object: [] };

/**
 * Every single-constraint violation of `node` at `value` (JSON pointer
 * `path`), each as { path, kind, field, change(scenario) }; `field` is the
 * name the engine's message must contain.
 */
function violations(node, value, path, field, out, form) {
  node = deref(node);
  const at = (kind, name, change) => out.push({ path, kind, field: name, change });
  const set = (v) => (s) => setAt(s, path, v);
  if (node.oneOf) {
    at("oneOf: no form", field, set({}));
    // An object names its form by its one key; a word (a unit variant) by itself.
    const words = (b) => deref(b).enum ?? ("const" in deref(b) ? [deref(b).const] : []);
    const branch = typeof value === "string"
      ? node.oneOf.findIndex((b) => words(b).includes(value))
      : node.oneOf.findIndex((b) => Object.keys(value)[0] in (deref(b).properties ?? {}));
    // Inside a form, a missing or extra key breaks the form as a whole:
    // serde reports it at the field holding the form.
    violations(node.oneOf[branch], value, path, field, out, field);
    return out;
  }
  // (The top level is always an object: fromScenario reads JSON text.)
  if (node.type && path !== "") at(`type ${node.type}`, field, set(WRONG_TYPE[node.type]));
  if (node.type === "integer") at("type integer (a fraction)", field, set(0.5));
  if (node.enum) at("enum", field, set("not-one-of-them"));
  if (node.minimum !== undefined) at("minimum", field, set(node.minimum - 1));
  if (node.maximum !== undefined) at("maximum", field, set(node.maximum + 1));
  if (node.minLength) at("minLength", field, set(""));
  if (node.pattern) at("pattern", field, set("not a valid name!"));
  if (node.type === "object") {
    for (const name of node.required ?? []) at("required", form ?? name, (s) => deleteAt(s, `${path}/${name}`));
    const extra = (s) => (objectAt(s, path).unexpectedField = 1);
    if (node.additionalProperties === false) at("additionalProperties", form ?? "unexpectedField", extra);
    else if (typeof node.additionalProperties === "object") violations(node.additionalProperties, value.key, `${path}/key`, "key", out);
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      if (name in value) violations(property, value[name], `${path}/${name}`, name, out);
    }
  }
  if (node.type === "array") value.forEach((item, i) => violations(node.items, item, `${path}/${i}`, field, out));
  return out;
}

function objectAt(scenario, path) {
  return path.split("/").slice(1).reduce((v, k) => v[k], scenario);
}
function parent(scenario, path) {
  const keys = path.split("/").slice(1);
  const last = keys.pop();
  return [keys.reduce((v, k) => v[k], scenario), last];
}
function setAt(scenario, path, value) {
  const [object, key] = parent(scenario, path);
  object[key] = value;
}
function deleteAt(scenario, path) {
  const [object, key] = parent(scenario, path);
  delete object[key];
}

/**
 * Violations the engine accepts, or refuses without naming the field, as
 * docs/scenario-format.md section 11 documents. Keyed "path kind".
 */
const DOCUMENTED = [
  [/^\/producers\/.*\/body minLength$/, "a producer's empty body loads; each such send fails at run time (MissingParameter)"],
  [/^\/producers\/0\/sends\/0\/delaySeconds (minimum|maximum)$/, "a producer's per-send delay out of range loads; the send fails at run time"],
  [/\/heartbeatVisibilitySeconds (minimum|maximum)$/, "loads; every heartbeat fails at run time"],
  [/^\/consumers\/\d+\/behaviour type object$/, "serde also reads a struct from an array of its fields in order, and every behaviour field has a default: [] is {}"],
];

function documentedReason(c) {
  const key = `${c.path} ${c.kind}`;
  return DOCUMENTED.find(([pattern]) => pattern.test(key))?.[1];
}

const cases = new Map();
for (const base of bases) {
  for (const c of violations(schema, base, "", "scenario", [])) {
    const key = `${c.path} ${c.kind}`;
    if (!cases.has(key)) cases.set(key, { ...c, base });
  }
}

test("the generated base scenarios are valid for the schema and load in the engine", () => {
  assert.ok(bases.length >= 3, "one base per processing form");
  for (const base of bases) {
    assert.ok(validate(base), JSON.stringify(validate.errors));
    Playground.fromScenario(JSON.stringify(base)).free();
  }
});

test("violations cover every kind of constraint the schema states", () => {
  const kinds = new Set([...cases.values()].map((c) => c.kind.split(" ")[0]));
  for (const kind of ["type", "enum", "minimum", "maximum", "minLength", "pattern", "required", "additionalProperties", "oneOf:"]) {
    assert.ok(kinds.has(kind), `no generated violation of ${kind}`);
  }
  assert.ok(cases.size > 100, `only ${cases.size} violations generated`);
});

for (const [key, c] of cases) {
  const reason = documentedReason(c);
  test(`${key}: ajv rejects it and the engine ${reason ? "differs as documented" : "names the field"}`, () => {
    const scenario = structuredClone(c.base);
    c.change(scenario);
    assert.equal(validate(scenario), false, "ajv accepted it");
    const text = JSON.stringify(scenario);
    if (reason) {
      // The documented difference: it loads.
      Playground.fromScenario(text).free();
      return;
    }
    assert.throws(() => Playground.fromScenario(text), (e) => {
      assert.ok(e instanceof Error);
      assert.ok(e.message.includes(c.field), `the message does not name \`${c.field}\`: ${e.message}`);
      return true;
    });
  });
}

test("every documented difference still occurs", () => {
  for (const [pattern, reason] of DOCUMENTED) {
    assert.ok([...cases.keys()].some((key) => pattern.test(key)), `no generated violation matches ${pattern} (${reason})`);
  }
});
