// The course's patterns guide, its Python translated line for line into
// the code cell's JavaScript (web/examples/patterns/), run as text through
// the scope the page gives the cell (web/client/code-scope.js) against
// the wasm engine, virtual time moved by tests/node/code-driver.mjs as
// the page's clock moves it. Each pattern's code as the guide writes it
// shows its flaw; the fixed code does not, over a few seeds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Playground } from "./load.mjs";
import { assertQueueDoesNotExist } from "./sdk-client.mjs";
import { runCode, withSetting } from "./code-driver.mjs";
import * as requestResponse from "../../web/examples/patterns/request-response.js";

/** The Playground's startEpochMs, given so `Date.now()` in the code and SentTimestamp agree. */
const EPOCH_MS = Date.UTC(2024, 0, 1);
const SEEDS = [1, 2, 3, 4, 5];
/** Receives that return fewer messages than they could, so a seed changes what each poll gets. */
const REALISM = { fewerMessagesProbability: 0.5 };

/** A run of `code` on a fresh engine; `pg` is kept for what the test reads after. */
async function run(code, { seed = 1, realism } = {}) {
  const pg = new Playground({ seed, startEpochMs: EPOCH_MS, realism });
  const result = await runCode(pg, code, { epochMs: EPOCH_MS });
  return { pg, ...result };
}

/** A small seeded generator (mulberry32) for the settings a seed tries. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const queues = (pg) => new Map(pg.snapshot().queues.map((q) => [q.name, q]));
const errors = (lines) => lines.filter((l) => l.kind === "error");
/** The replies the code printed, as `order-N -> reply` lines: [[request id, reply]]. */
const replies = (lines) => lines.filter((l) => l.args[1] === "->").map((l) => [l.args[0], l.args[2]]);

// ---------------------------------------------------------------------------
// Request-response

test("the guide's request-response loses a reply the responder sends after the requester deleted its queue", async () => {
  const { pg, lines } = await run(requestResponse.asWritten);
  // Order 2 takes the responder 30 s; its requester waited 20 s (until 25 s) and deleted reply-order-2.
  const [failure, ...more] = errors(lines);
  assert.deepEqual(more, []);
  assert.equal(failure.t, 35_000, "the responder sends when its work ends, 30 s after it took the request at 5 s");
  assert.equal(failure.args[0], "Exception in thread responder:");
  assertQueueDoesNotExist(failure.args[1]);
  assert.deepEqual(replies(lines), [["order-1", { order: 1, status: "confirmed" }]], "order 2's reply never came");
  assert.equal(queues(pg).has("reply-order-2"), false);
  assert.equal(queues(pg).get("requests").messages.length, 1, "the responder died holding order 2's request");
});

test("the guide's request-response cannot ask again within 60 s: the reply queue's name was deleted recently", async () => {
  const { error } = await run(requestResponse.asWritten);
  // The second attempt, at 25 s, makes reply-order-2 again 0 s after the first attempt's finally deleted it.
  assert.equal(error.name, "QueueDeletedRecently");
  assert.equal(error.Code, "AWS.SimpleQueueService.QueueDeletedRecently");
  assert.equal(error.message, "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
  assert.equal(error.$metadata.httpStatusCode, 400);
});

/**
 * Four orders whose work takes 1–35 s, at least one longer than a
 * requester's 20 s wait and all within its two attempts' 40 s.
 */
function orders(seed) {
  const next = random(seed);
  const list = [1, 2, 3, 4].map((order) => ({ order, seconds: 1 + Math.floor(next() * 35) }));
  list[Math.floor(next() * 4)].seconds = 21 + Math.floor(next() * 15);
  return list;
}

test("the guide's request-response loses a reply on every seed where work outlasts the wait", async () => {
  for (const seed of SEEDS) {
    const code = withSetting(requestResponse.asWritten, "ORDERS", orders(seed));
    const { error, lines } = await run(code, { seed, realism: REALISM });
    assert.equal(error?.name, "QueueDeletedRecently", `seed ${seed}`);
    assert.ok(replies(lines).length < 4, `seed ${seed}: a reply is missing`);
  }
});

test("with one reply queue for the client's life, every request gets its own reply over several seeds", async () => {
  for (const seed of SEEDS) {
    const list = orders(seed);
    const code = withSetting(requestResponse.fixed, "ORDERS", list);
    const { pg, error, lines } = await run(code, { seed, realism: REALISM });
    assert.equal(error, null, `seed ${seed}: ${error?.message}`);
    assert.deepEqual(errors(lines), [], `seed ${seed}: the responder never fails`);
    assert.deepEqual(replies(lines), list.map(({ order }) => [`order-${order}`, { order, status: "confirmed" }]), `seed ${seed}`);
    const left = queues(pg);
    assert.equal(left.has("replies-checkout"), false, `seed ${seed}: deleted once no reply was awaited`);
    assert.equal(left.get("requests").messages.length, 0, `seed ${seed}: every request, retries too, answered`);
  }
});
