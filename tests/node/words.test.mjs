// The page's words for counts, a lab's changes and the recap's lines
// (web/text/): a lab's change is said in its knob's words, one per knob; a
// count of one takes the singular; two messages with the same body name
// their queues; the summary is the run's, its settings filled in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Playground } from "./load.mjs";
import { labs } from "../../web/engine/engine.js";
import { changes, changeSentence, effectLines, knobChanges } from "../../web/text/changes.js";
import { counted, ordinal } from "../../web/text/format.js";
import { sentences } from "../../web/text/log-sentences.js";

const text = (path) => readFileSync(new URL(`../../web/scenarios/${path}`, import.meta.url), "utf8");

test("a lab's changed knobs are listed in the knobs' words, one per knob, not as the scenario fields they rewrite", () => {
  const file = text("labs/06-fifo-order.json");
  const view = labs.view(file);
  const mine = labs.scenario(file, { queueType: "fifo", groupId: "perMessage" });
  const now = labs.view(mine).settings;
  const list = knobChanges(view.knobs, view.settings, now);
  assert.deepEqual(list.map((c) => c.text), ["Queue type: Standard → FIFO", "Message group id: A group per customer → A group per message"]);
  assert.equal(changeSentence(list), "You changed “Queue type” to FIFO (and 1 more change)");
  // The same two knobs, as the fields they rewrite: what the line listed before.
  assert.ok(changes(JSON.parse(labs.scenario(file, {})), JSON.parse(mine)).length > 10, "the fields' list is long");
  // Nothing else was edited: the scenario the knobs make is the run's.
  assert.deepEqual(changes(JSON.parse(labs.scenario(file, now)), JSON.parse(mine)), []);
});

test("a number knob is said with its unit, and a toggle as on or off", () => {
  const file = text("labs/01-duplicate-orders.json");
  const view = labs.view(file);
  const number = view.knobs.find((k) => k.kind === "number");
  assert.ok(number, "lab 1 has a number knob");
  const [change] = knobChanges([number], view.settings, { ...view.settings, [number.id]: 10 });
  assert.equal(change.text, "Visibility timeout: 2 s → 10 s");
  assert.equal(changeSentence([change]), "You raised “Visibility timeout” to 10 s");
  const toggle = { id: "t", label: "Idempotent handler", kind: "toggle", choices: [], field: null };
  assert.deepEqual(knobChanges([toggle], { t: false }, { t: true }).map((c) => c.text), ["Idempotent handler: off → on"]);
  assert.equal(changeSentence(knobChanges([toggle], { t: true }, { t: false })), "You turned off “Idempotent handler”");
});

test("a count of one takes the singular, and ordinals are English", () => {
  assert.equal(counted(1, "time", "times"), "1 time");
  assert.equal(counted(1563, "time", "times"), "1,563 times");
  assert.deepEqual([2, 3, 4, 11, 21, 22, 23, 112].map(ordinal), ["second", "third", "4th", "11th", "21st", "22nd", "23rd", "112th"]);
  const moved = { type: "movedToDeadLetterQueue", seq: 1, timeMs: 0, queue: "orders", deadLetterQueue: "dlq", messageId: "m1", receiveCount: 1 };
  const [line] = sentences([moved], { label: () => "order A-1", maxReceive: () => 1 });
  assert.match(line.text, /it had been received 1 time \(maxReceiveCount 1\)/, line.text);
});

test("a message named by its quoted body takes no apostrophe after the quote: “the visibility timeout of “reading #1””", () => {
  const ctx = { label: (id) => (id === "r" ? "reading #1" : "order A-1001: charge $25"), maxReceive: () => undefined };
  const expired = (messageId) => ({ type: "visibilityExpired", seq: 1, timeMs: 0, queue: "q", messageId, holder: "w" });
  const changed = (messageId) => ({ type: "visibilityChanged", seq: 1, timeMs: 0, queue: "q", messageId, by: "w", visibleAt: 5000 });
  const said = sentences([expired("r"), changed("r"), expired("a"), changed("a")], ctx).map((l) => l.text);
  assert.match(said[0], /^the visibility timeout of “reading #1” ran out while w held it/, said[0]);
  assert.match(said[1], /^set the visibility timeout of “reading #1”: invisible until/, said[1]);
  assert.match(said[2], /^A-1001's visibility timeout ran out/, said[2]);
  assert.match(said[3], /^set A-1001's visibility timeout/, said[3]);
  for (const text of said) assert.doesNotMatch(text, /”'s/, text);
});

test("scenario 8's two “reading #1” lines in the recap each name their queue", () => {
  const pg = Playground.fromScenario(text("08-long-vs-short-polling.json"));
  const queueOf = new Map();
  pg.advance(45000);
  for (const e of pg.events(0)) if (e.type === "sent") queueOf.set(e.messageId, e.queue);
  const { sideEffects } = pg.snapshot().simulation;
  pg.free();
  const lines = effectLines(sideEffects, (id) => queueOf.get(id));
  assert.equal(lines.length, 12);
  assert.ok(lines.includes("reading #1 (in short-polled): stored ×1"), lines.join("\n"));
  assert.ok(lines.includes("reading #1 (in long-polled): stored ×1"), lines.join("\n"));
  assert.equal(new Set(lines).size, 12, "no two lines alike");
  assert.deepEqual(effectLines([{ messageId: "a", body: "order 1", effect: "charged", count: 2 }], () => "q"), ["order 1: charged ×2"], "a body said once needs no queue");
});

test("the recap says a long body (an SNS envelope) by its first 80 characters, each run of whitespace one space", () => {
  const envelope = `{\n  "Type" : "Notification",\n  "MessageId" : "cf142bb5-0f86-4968-85d0-856262c178e2",\n  "TopicArn" : "arn:aws:sns:us-east-1:000000000000:orders-topic"\n}`;
  const [line] = effectLines([{ messageId: "a", body: envelope, effect: "charged", count: 1 }], () => "billing");
  assert.equal(line, `{ "Type" : "Notification", "MessageId" : "cf142bb5-0f86-4968-85d0-856262c178e2"…: charged ×1`);
});

test("the summary on screen quotes the run's settings: poison with maxReceiveCount 5", () => {
  const scenario = JSON.parse(text("05-poison-message.json"));
  scenario.queues[1].redrive.maxReceiveCount = 5;
  const pg = Playground.fromScenario(JSON.stringify(scenario));
  const { summary } = pg.snapshot().simulation;
  pg.free();
  assert.match(summary, /until maxReceiveCount \(5\);/);
  assert.doesNotMatch(summary, /[{}]/);
});

test("an access decision is said with its statement and the conditions that matched, or as AccessDenied with the reason", () => {
  const ctx = { label: () => undefined, maxReceive: () => undefined };
  const decided = (allowed, reason, principal = "sns.amazonaws.com", action = "SendMessage") =>
    ({ type: "accessDecided", seq: 1, timeMs: 0, queue: "orders", action, by: null, principal, allowed, reason });
  const topic = "arn:aws:sns:us-east-1:111111111111:orders-topic";
  const allowedByTopic = decided(true, { kind: "allowed", statement: { sid: "AllowTopic", index: 1 }, matched: [{ operator: "ArnEquals", key: "aws:SourceArn", value: topic }] });
  const noStatement = decided(false, { kind: "noStatementAllows" }, "111111111111", "ReceiveMessage");
  const denied = decided(false, { kind: "denied", statement: { sid: null, index: 2 }, matched: [] }, "111111111111");
  const [allow, none, deny] = sentences([allowedByTopic, noStatement, denied], ctx);
  assert.equal(allow.text, `sns.amazonaws.com may SendMessage to orders: statement AllowTopic allows it, aws:SourceArn ${topic} matches`);
  assert.equal(allow.who, "sns.amazonaws.com");
  assert.equal(none.text, "AccessDenied: no statement allows account 111111111111 to ReceiveMessage on orders");
  assert.equal(none.kind, "warn");
  assert.equal(deny.text, "AccessDenied: statement #2 denies account 111111111111 SendMessage on orders: an explicit deny wins");
});

test("a call made as another account and named by its id is said to be that account's", () => {
  const ctx = { label: () => "order A-1", maxReceive: () => undefined };
  const sent = (by) => ({ type: "sent", seq: 1, timeMs: 0, queue: "orders", messageId: "m1", label: "order A-1", group: null, delayedUntil: null, by });
  const [partner, named, arn] = sentences([sent("111111111111"), sent("partner"), sent("arn:aws:iam::111111111111:user/alice")], ctx);
  assert.equal(partner.who, "account 111111111111");
  assert.equal(named.who, "partner");
  assert.equal(arn.who, "arn:aws:iam::111111111111:user/alice");
});
