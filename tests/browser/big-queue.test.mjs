// A queue far past what the stage can show (issue 10: snapshots scale):
// the stage draws the first STAGE_WINDOW messages of each queue and marks
// each lane's rest as "+ N more", the numbers coming from the snapshot's
// counts; the page asks the engine for no more than that window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { artifacts, open, root, scaled } from "./harness.mjs";

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

/** What the stage draws of the backlog, and what the engine says it holds. */
function read(page) {
  return page.evaluate(() => {
    const box = document.querySelector('[data-queue="backlog"]');
    const drawn = (lane) => box.querySelectorAll(`.q-row [data-lane="${lane}"] .token`).length;
    const c = document.getElementById("lab").playground.counts().queues.find((q) => q.name === "backlog");
    const more = box.querySelector(".q-more");
    return {
      tokens: box.querySelectorAll(".token").length,
      drawn: { visible: drawn("visible"), "in-flight": drawn("in-flight"), delayed: drawn("delayed") },
      stored: { visible: c.visible, "in-flight": c.inFlight, delayed: c.delayed },
      moreShown: !!more && !more.hidden,
      marks: Object.fromEntries([...box.querySelectorAll(".q-more [data-lane]")].map((m) => [m.dataset.lane, m.textContent])),
      label: more?.getAttribute("aria-label"),
      counts: box.querySelector(".q-counts").textContent,
    };
  });
}

test("a queue of 5,000 messages draws at most the window and says \"+ … more\" per lane", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 400, height: 800 }]) {
    const { page, problems, close } = await open("?scenario=big-backlog&speed=max&autoplay=1", {
      viewport,
      routes: { "scenarios/big-backlog.json": BIG, "scenarios/index.json": INDEX },
    });
    await page.waitForSelector("body[data-finished='true']", { timeout: scaled(60_000) });
    const s = await read(page);
    assert.equal(s.stored.visible + s.stored["in-flight"], 5000, "the engine holds every job");
    assert.equal(s.tokens, 200, "the stage draws the window: the first 200 messages");
    assert.ok(s.moreShown, "the rest is marked");
    for (const lane of ["visible", "in-flight", "delayed"]) {
      const rest = s.stored[lane] - s.drawn[lane];
      assert.equal(s.marks[lane], rest > 0 ? `+ ${rest.toLocaleString("en-US")} more` : "", `${lane}: the mark counts what is not drawn`);
    }
    assert.match(s.marks.visible, /^\+ 4,\d{3} more$/);
    assert.match(s.label, /^Not drawn: 4,\d{3} visible.*first 200 messages of each queue/);
    assert.match(s.counts, /visible/);
    const name = viewport.width === 400 ? "big-queue-400.png" : "big-queue-1280.png";
    await page.screenshot({ path: `${artifacts}${name}`, fullPage: viewport.width === 400 });
    assert.deepEqual(problems, []);
    await close();
  }
});

test("a queue within the window has no \"more\" mark", async () => {
  const { page, close } = await open("?scenario=01-process-then-delete&speed=max&autoplay=1");
  await page.waitForSelector("body[data-finished='true']", { timeout: scaled(30_000) });
  assert.equal(await page.locator(".q-more:not([hidden])").count(), 0);
  await close();
});
