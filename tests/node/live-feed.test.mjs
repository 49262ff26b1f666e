// The live view's connection (web/page/live-feed.js) against a fake
// server: the journal read in pages before the stream opens, the stream
// opened from where the pages ended, a lost connection retried after a
// wait that doubles up to its cap, a restarted server's new run shown
// from its start, and a server that is not Queuelab's refused in words.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { LiveFeed, RETRY_MAX_MS, RETRY_MS, reachOf } from "../../web/page/live-feed.js";

const call = (t) => ({ t, op: "SendMessage", body: {}, caller: "a" });

/** A fake server: `journal` answers pages of at most `page` calls; `down` makes every request fail. */
function fakeServer({ calls = [], page = 2, options = { startEpochMs: 1 } } = {}) {
  const server = { calls, options, down: false, asked: [], streams: [] };
  server.fetch = async (url) => {
    server.asked.push(new URL(url).pathname + new URL(url).search);
    if (server.down) throw new TypeError("fetch failed");
    const from = Number(new URL(url).searchParams.get("from"));
    const list = server.calls.slice(from, from + page);
    const body = { scenario: null, seed: 0, options: server.options, from, calls: list, recorded: server.calls.length, unrecorded: 0, unrecordedFrom: null, now: 5000, paused: false };
    return { ok: true, status: 200, json: async () => body };
  };
  server.EventSource = class {
    constructor(url) {
      this.url = url;
      this.closed = false;
      server.streams.push(this);
    }
    close() {
      this.closed = true;
    }
  };
  return server;
}

function feedOn(server) {
  const seen = { begun: 0, calls: [] };
  const feed = new LiveFeed(new URL("http://server.test/"), {
    begin: () => {
      seen.begun++;
      seen.calls = [];
      return true;
    },
    take: (p) => {
      if (p.from !== seen.calls.length) return false;
      seen.calls.push(...p.calls);
      return true;
    },
    EventSource: /** @type {any} */ (server.EventSource),
    fetch: /** @type {any} */ (server.fetch),
  });
  return { feed, seen };
}

test("the journal is read in pages, then its stream opens from where they ended", async () => {
  const server = fakeServer({ calls: [call(1), call(2), call(3), call(4), call(5)] });
  const { feed, seen } = feedOn(server);
  await feed.connect();
  assert.equal(seen.begun, 1);
  assert.equal(seen.calls.length, 5);
  assert.deepEqual(server.asked, ["/_queuelab/journal?from=0", "/_queuelab/journal?from=2", "/_queuelab/journal?from=4"]);
  assert.equal(server.streams.at(-1).url, "http://server.test/_queuelab/journal/live?from=5");
  feed.stop();
});

test("a lost stream is closed and tried again after a wait that doubles, up to its cap", async () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const server = fakeServer({ calls: [call(1)] });
    const { feed } = feedOn(server);
    await feed.connect();
    server.down = true;
    server.streams.at(-1).onerror();
    assert.equal(server.streams.at(-1).closed, true);
    assert.equal(feed.state().state, "lost");
    assert.equal(feed.state().retryInMs, RETRY_MS);
    const waits = [];
    for (let i = 0; i < 6; i++) {
      waits.push(feed.state().retryInMs);
      mock.timers.tick(feed.state().retryInMs);
      await new Promise((r) => setImmediate(r)); // the retry's fetch fails
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(waits, [1000, 2000, 4000, 8000, RETRY_MAX_MS, RETRY_MAX_MS]);
    server.down = false;
    mock.timers.tick(feed.state().retryInMs);
    for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
    assert.equal(server.streams.at(-1).url, "http://server.test/_queuelab/journal/live?from=1", "back from where it got to");
    feed.stop();
  } finally {
    mock.timers.reset();
  }
});

test("a server restarted with another run is shown from its start", async () => {
  const server = fakeServer({ calls: [call(1), call(2)] });
  const { feed, seen } = feedOn(server);
  await feed.connect();
  server.calls = [call(7)];
  server.options = { startEpochMs: 2 };
  await feed.connect();
  assert.equal(seen.begun, 2);
  assert.deepEqual(seen.calls.map((c) => c.t), [7]);
  feed.stop();
});

test("a message whose calls do not follow on makes the feed read again from where it got to", async () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"] });
  try {
    const server = fakeServer({ calls: [call(1)] });
    const { feed, seen } = feedOn(server);
    await feed.connect();
    server.streams.at(-1).onmessage({ data: JSON.stringify({ from: 7, calls: [call(9)], recorded: 8, now: 10, paused: false }) });
    assert.equal(feed.state().state, "lost");
    server.calls.push(call(2));
    mock.timers.tick(RETRY_MS);
    for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen.calls.map((c) => c.t), [1, 2]);
    feed.stop();
  } finally {
    mock.timers.reset();
  }
});

test("a server that answers, but not as Queuelab, is refused in words and not asked again", async () => {
  const { feed } = feedOn({
    fetch: async () => ({ ok: false, status: 404, json: async () => ({ error: "no such page" }) }),
    EventSource: class {},
  });
  await feed.connect();
  assert.deepEqual([feed.state().state, feed.state().error], ["refused", "It answered, but not as a Queuelab server: no such page"]);
});

test("the view plays to the server's now only once every call before it is here, and never past a full journal's first unrecorded call", () => {
  const page = (o) => ({ from: 0, calls: [call(10), call(20)], recorded: 2, now: 500, unrecordedFrom: null, ...o });
  assert.equal(reachOf(page()), 500, "complete: the server's now");
  assert.equal(reachOf(page({ recorded: 5 })), 20, "more calls to come: the last call's moment");
  assert.equal(reachOf(page({ unrecordedFrom: 300 })), 300, "the journal is full from 300 ms");
  assert.equal(reachOf(page({ calls: [], recorded: 0 })), 500);
});
