// A queue far past what the stage can show (issue 10: snapshots scale;
// issue 14: counted stacks): each lane draws its first CELL_CARDS
// messages as cards and the rest as one counted stack, "+ 4,870 more ·
// oldest 3 s", whose numbers come from the engine's counts and whose
// oldest message opens in the peek; the page asks the engine for no more
// than STAGE_WINDOW messages a queue.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { artifacts, open, root, scaled } from "./harness.mjs";
import { CELL_CARDS } from "../../web/views/stage/render-queue.js";

const BIG = JSON.stringify({
  title: "A backlog of 5,000 jobs",
  seed: 3,
  durationMs: 6000,
  queues: [{ name: "backlog", visibilityTimeoutSeconds: 30 }],
  producers: [{ name: "importer", queue: "backlog", rate: { startMs: 0, everyMs: 1, count: 5000, body: "job #{n}" } }],
  consumers: [{ name: "worker-1", queue: "backlog", batchSize: 10, processing: { fixedMs: 60000 } }],
});

// The picker lists it beside the shipped scenarios.
const INDEX = JSON.stringify([...JSON.parse(readFileSync(`${root}web/scenarios/index.json`, "utf8")), "big-backlog.json"]);

/** What the stage draws of the backlog, what the engine says it holds, and whether any two cards or stacks overlap. */
function read(page) {
  return page.evaluate(() => {
    const box = document.querySelector('[data-queue="backlog"]');
    const lanes = ["visible", "in-flight", "delayed"];
    const cell = (lane) => box.querySelector(`.q-row [data-lane="${lane}"]`);
    const pg = document.getElementById("lab").playground;
    const c = pg.counts().queues.find((q) => q.name === "backlog");
    const listed = pg.snapshot({ messagesPerQueue: 200 }).queues.find((q) => q.name === "backlog").messages;
    const rects = [...box.querySelectorAll(".token, .stack")].map((e) => e.getBoundingClientRect());
    const overlaps = rects.some((a, i) => rects.slice(i + 1).some((b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5));
    return {
      tokens: box.querySelectorAll(".token").length,
      drawn: Object.fromEntries(lanes.map((l) => [l, [...cell(l).querySelectorAll(".token")].map((t) => t.dataset.messageId)])),
      stored: { visible: c.visible, "in-flight": c.inFlight, delayed: c.delayed },
      listed: Object.fromEntries(lanes.map((l) => [l, listed.filter((m) => m.state === l)])),
      stacks: Object.fromEntries(lanes.map((l) => {
        const st = cell(l).querySelector(".stack");
        return [l, st && { text: st.textContent, count: Number(st.dataset.count), oldest: st.dataset.messageId ?? null, last: cell(l).lastElementChild === st }];
      })),
      moreShown: !box.querySelector(".q-more").hidden,
      overlaps,
      now: pg.now(),
    };
  });
}

test("a queue of 5,000 messages draws each lane's first cards and a counted stack of the rest, whose oldest opens in the peek", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 400, height: 800 }]) {
    const { page, problems, close } = await open("?scenario=big-backlog&speed=max&autoplay=1", {
      viewport,
      routes: { "scenarios/big-backlog.json": BIG, "scenarios/index.json": INDEX },
    });
    await page.waitForSelector("body[data-finished='true']", { timeout: scaled(60_000) });
    const s = await read(page);
    assert.equal(s.stored.visible + s.stored["in-flight"], 5000, "the engine holds every job");
    assert.ok(s.tokens <= 3 * CELL_CARDS, `at most ${CELL_CARDS} cards a lane: ${s.tokens}`);
    assert.equal(s.moreShown, false, "a standard queue's stacks carry what the snapshot left out");
    assert.equal(s.overlaps, false, "no card or stack overlaps another");
    for (const lane of ["visible", "in-flight", "delayed"]) {
      // The lane's first messages in the queue's order are its cards.
      assert.deepEqual(s.drawn[lane], s.listed[lane].slice(0, CELL_CARDS).map((m) => m.messageId), `${lane}: the first messages are drawn`);
      const rest = s.stored[lane] - s.drawn[lane].length;
      if (rest === 0) {
        assert.equal(s.stacks[lane], null, `${lane}: no stack`);
        continue;
      }
      assert.equal(s.stacks[lane].count, rest, `${lane}: the stack counts every message not drawn`);
      assert.ok(s.stacks[lane].last, `${lane}: the stack comes after the cards`);
      const hidden = s.listed[lane].slice(CELL_CARDS);
      const oldest = hidden.reduce((o, m) => (o && o.sentAt <= m.sentAt ? o : m), null);
      assert.equal(s.stacks[lane].oldest, oldest?.messageId ?? null, `${lane}: the stack's oldest listed message`);
      const age = Math.floor((s.now - oldest.sentAt) / 1000);
      assert.equal(s.stacks[lane].text, `+ ${rest.toLocaleString("en-US")} moreoldest ${age < 1 ? "< 1 s" : `${age} s`}`);
    }
    assert.match(s.stacks.visible.text, /^\+ 4,\d{3} more/);
    // Peekable: the stack opens its oldest message.
    await page.locator('[data-queue="backlog"] [data-lane="visible"] .stack').click();
    await page.waitForSelector("#peek:not([hidden])");
    assert.match(await page.locator("#peek").textContent(), new RegExp(s.stacks.visible.oldest));
    const name = viewport.width === 400 ? "big-queue-400.png" : "big-queue-1280.png";
    await page.screenshot({ path: `${artifacts}${name}`, fullPage: viewport.width === 400 });
    assert.deepEqual(problems, []);
    await close();
  }
});

test("a queue within its lanes' cards has no stack and no \"more\" mark", async () => {
  const { page, close } = await open("?scenario=01-process-then-delete&speed=max&autoplay=1");
  await page.waitForSelector("body[data-finished='true']", { timeout: scaled(30_000) });
  assert.equal(await page.locator(".q-more:not([hidden])").count(), 0);
  assert.equal(await page.locator("#rows .stack").count(), 0);
  await close();
});

test("a message of 300 KB: the stage's snapshot carries its first KiB and length, and the peek shows the whole body", async () => {
  const body = `order {n}: ${"x".repeat(300_000)} end of order {n}`;
  const scenario = JSON.stringify({
    title: "Big bodies",
    seed: 1,
    durationMs: 100,
    queues: [{ name: "uploads" }],
    producers: [{ name: "p", queue: "uploads", rate: { startMs: 0, everyMs: 10, count: 3, body } }],
  });
  const index = JSON.stringify([...JSON.parse(readFileSync(`${root}web/scenarios/index.json`, "utf8")), "big-bodies.json"]);
  const { page, problems, close } = await open("?scenario=big-bodies&speed=max&autoplay=1", {
    routes: { "scenarios/big-bodies.json": scenario, "scenarios/index.json": index },
  });
  await page.waitForSelector("body[data-finished='true']", { timeout: scaled(30_000) });
  const listed = await page.evaluate(() => document.getElementById("lab").playground.snapshot({ messagesPerQueue: 200 }).queues[0].messages
    .map(({ messageId, body, bodyBytes, bodyTruncated }) => ({ messageId, length: body.length, bodyBytes, bodyTruncated })));
  assert.equal(listed.length, 3);
  const whole = body.replaceAll("{n}", "1").length;
  assert.deepEqual(listed[0], { messageId: listed[0].messageId, length: 1024, bodyBytes: whole, bodyTruncated: true });
  await page.locator(`[data-queue="uploads"] .token[data-message-id="${listed[0].messageId}"]`).click();
  await page.waitForSelector("#peek:not([hidden])");
  const shown = await page.locator("#peek .peek-body").textContent();
  assert.equal(shown.length, whole);
  assert.ok(shown.endsWith("end of order 1"), shown.slice(-40));
  assert.deepEqual(problems, []);
  await close();
});
