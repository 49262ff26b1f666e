// The embedding story in headless Chromium: the course page's <queue-lab>
// elements, share links, and the code cell. Playwright's CSS selectors
// pierce open shadow roots, so "#lab-dlq #play" is the play button inside
// that element.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artifacts, axeViolations, hookState, open, root, scaled, shownAt } from "./harness.mjs";
import { startServer } from "../../scripts/static-server.mjs";

const COURSE = "web/examples/course.html";
const LABS = ["lab-duplicates", "lab-dlq", "lab-fifo", "lab-code"];

/** The course page, once its first playground (on screen at load) is ready. */
const openCourse = (options) => open(COURSE, { readyWhen: "#lab-duplicates[data-ready='true']", ...options });

/** Scrolls an element into view and waits for its engine. */
async function start(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-ready='true']`);
}

/** The element's clock, from its shadow root. */
const clock = (page, id) => page.locator(`#${id} #clock`).getAttribute("data-time-ms").then(Number);

/** Adds an element to the page from HTML and returns its id. */
async function addElement(page, html) {
  return page.evaluate((markup) => {
    const box = document.createElement("div");
    box.innerHTML = markup;
    const el = box.firstElementChild;
    document.querySelector("article").prepend(el);
    return el.id;
  }, html);
}

test("the course page renders three playgrounds and a code cell, each with its own engine from one shared wasm module", async () => {
  const { page, problems, close } = await openCourse();
  for (const id of LABS) await start(page, id);
  const wasmLoads = await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length);
  assert.equal(wasmLoads, 1, "four elements, one download and compile of the engine");
  const distinct = await page.evaluate((ids) => {
    const pgs = ids.map((id) => document.getElementById(id).playground);
    return new Set(pgs).size === pgs.length && pgs.every((p) => p && typeof p.now === "function");
  }, LABS);
  assert.ok(distinct, "every element has its own Playground");
  const titles = await Promise.all(LABS.map((id) => page.locator(`#${id} #title`).textContent()));
  assert.deepEqual(titles, ["Slow consumer, duplicate delivery", "Poison message and the dead-letter queue", "FIFO message groups", "Process, then delete"]);
  assert.ok(await page.locator("#lab-code #code-text").isVisible(), "the editor attribute gives a code cell");
  assert.equal(await page.locator("#lab-duplicates #code-text").count(), 0, "no code cell without the attribute");
  await page.locator("#lab-duplicates").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artifacts}course.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});

test("each element runs independently: playing one leaves the others' clocks alone", async () => {
  const { page, close } = await openCourse();
  await start(page, "lab-dlq");
  await page.locator("#lab-duplicates #speed").selectOption("max");
  await page.locator("#lab-duplicates #play").click();
  await page.waitForSelector("#lab-duplicates[data-finished='true']");
  assert.equal(await clock(page, "lab-duplicates"), 10_000);
  assert.equal(await clock(page, "lab-dlq"), 0, "the DLQ playground did not move");
  // The duplicate delivery shows in that element only (its tray marks the order delivered to two workers at once), and the course page's callout reacted to its event.
  const marked = page.locator("#lab-duplicates #tray .token[data-duplicate='true']");
  assert.ok((await marked.count()) > 0, "its tray marks an order delivered to two workers at once");
  assert.match(await marked.first().textContent(), /was delivered to worker-\d and worker-\d at once/);
  assert.equal(await page.locator("#lab-dlq [data-duplicate='true']").count(), 0, "nothing in the DLQ playground is marked a duplicate");
  assert.equal(await page.locator("#dup-callout").isVisible(), true);
  assert.equal(await page.locator("#dlq-callout").isVisible(), false);
  await close();
});

test("an element starts its engine only when scrolled into view", async () => {
  const { page, close } = await openCourse();
  const far = await page.evaluate(() => ({ ready: document.getElementById("lab-code").dataset.ready ?? null, pg: document.getElementById("lab-code").playground }));
  assert.deepEqual(far, { ready: null, pg: null }, "below the fold: not started");
  assert.match(await page.evaluate(() => document.getElementById("lab-code").shadowRoot.textContent), /Loading Queuelab/, "a loading box, not a blank one");
  await start(page, "lab-code");
  assert.ok(await page.evaluate(() => document.getElementById("lab-code").playground != null));
  await close();
});

test("events go out as CustomEvents: ready, each engine event, and the scenario's end", async () => {
  const { page, close } = await openCourse();
  await page.evaluate(() => {
    const el = document.createElement("queue-lab");
    el.setAttribute("scenario", "process-then-delete");
    el.setAttribute("speed", "max");
    const log = (window.seen = { ready: 0, types: [], live: 0, end: null });
    el.addEventListener("queuelab-ready", (e) => (log.ready += e.detail.playground ? 1 : 0));
    el.addEventListener("queuelab-event", (e) => {
      if (!log.types.includes(e.detail.event.type)) log.types.push(e.detail.event.type);
      if (!e.detail.replay) log.live++;
    });
    el.addEventListener("queuelab-end", (e) => (log.end = e.detail.time));
    document.querySelector("article").prepend(el);
    el.setAttribute("autoplay", "");
  });
  const seen = await page.waitForFunction(() => window.seen.end != null && window.seen).then((h) => h.jsonValue());
  assert.equal(seen.ready, 1);
  assert.equal(seen.end, 12_000);
  assert.ok(seen.live > 10);
  for (const t of ["queueCreated", "sent", "received", "deleted"]) assert.ok(seen.types.includes(t), `saw ${t}`);
  await close();
});

/**
 * Wraps the page's requestAnimationFrame so every callback scheduled from
 * now on (on the course page: the labs' loops) is counted in
 * window.__frames.run and, while `sample` is set, followed by a sample
 * { ts, ...sample() }. window.__frames.wait(n) waits n page frames through
 * the original function, so the waiting itself is not counted.
 */
function probeFrames(page) {
  return page.evaluate(() => {
    const raf = window.requestAnimationFrame.bind(window);
    const probe = { run: 0, samples: [], sample: null };
    probe.wait = (n) => new Promise((resolve) => {
      const tick = () => (n-- <= 0 ? resolve() : raf(tick));
      raf(tick);
    });
    window.requestAnimationFrame = (cb) => raf((ts) => {
      cb(ts);
      probe.run++;
      if (probe.sample) probe.samples.push({ ts, ...probe.sample() });
    });
    window.__frames = probe;
  });
}

test("removing an element frees its engine and stops its loop", async () => {
  const { page, close } = await openCourse();
  await probeFrames(page);
  const seen = await page.evaluate(async () => {
    const el = document.getElementById("lab-duplicates");
    const frames = window.__frames;
    el.controls.play();
    await frames.wait(3);
    const whilePlaying = frames.run;
    const pg = el.playground;
    el.remove();
    const atRemoval = frames.run;
    // A frame the loop had asked for runs within the next page frame; wait a few.
    await frames.wait(4);
    let threw = null;
    try {
      pg.now();
    } catch (e) {
      threw = e instanceof Error;
    }
    return { whilePlaying, afterRemoval: frames.run - atRemoval, threw, handle: el.playground };
  });
  assert.ok(seen.whilePlaying >= 2, `the probe sees the loop while it plays (${seen.whilePlaying} frames)`);
  assert.equal(seen.afterRemoval, 0, "no frame of the removed element's loop ran after removal");
  assert.equal(seen.threw, true, "the freed Playground refuses calls");
  assert.equal(seen.handle, null);
  // The other elements still work after one is gone.
  await start(page, "lab-dlq");
  await page.locator("#lab-dlq #step").click();
  assert.ok((await clock(page, "lab-dlq")) > 0);
  await close();
});

/** An element's drawn state at the end of its run, replayed there by the timeline. */
async function stateAtEnd(page, id) {
  await page.locator(`#${id}`).evaluate((el) => el.controls.scrub(el.controls.scenario.durationMs, false));
  return hookState(page, id);
}

test("the seed attribute changes the run: another seed draws other messages, the same seed the same ones", async () => {
  const { page, close } = await openCourse();
  const lab = page.locator("#lab-duplicates");
  const seven = await stateAtEnd(page, "lab-duplicates");
  assert.ok(seven.tokens.length > 0);
  await lab.evaluate((el) => el.setAttribute("seed", "99"));
  const other = await stateAtEnd(page, "lab-duplicates");
  assert.equal(other.time, seven.time);
  assert.notDeepEqual(other.tokens, seven.tokens, "seed 99: other message ids");
  await lab.evaluate((el) => el.setAttribute("seed", "7"));
  assert.deepEqual(await stateAtEnd(page, "lab-duplicates"), seven, "seed 7 again: the same run");
  await close();
});

test("the speed attribute sets how much virtual time passes per rendered frame", async () => {
  const { page, close } = await openCourse();
  await probeFrames(page);
  for (const speed of ["4", "0.5"]) {
    const samples = await page.locator("#lab-duplicates").evaluate(async (el, s) => {
      const frames = window.__frames;
      el.setAttribute("speed", s);
      el.controls.restart();
      frames.samples = [];
      frames.sample = () => ({ clock: Number(el.shadowRoot.getElementById("clock").dataset.timeMs) });
      el.controls.play();
      for (let i = 0; i < 600 && frames.samples.length < 12; i++) await frames.wait(1);
      el.controls.pause();
      frames.sample = null;
      return frames.samples;
    }, speed);
    // Between two frames of the loop, the clock moves by speed × the frames'
    // time apart (the lab caps a gap at 250 ms and rounds down to whole ms).
    const end = 10_000;
    const pairs = samples.slice(1).map((s, i) => ({ dt: s.ts - samples[i].ts, dv: s.clock - samples[i].clock, last: s.clock }))
      .filter((p) => p.dt <= 250 && p.last < end);
    assert.ok(pairs.length >= 5, `speed ${speed}: enough frames to measure (${pairs.length} of ${samples.length - 1})`);
    for (const p of pairs) assert.ok(Math.abs(p.dv - Number(speed) * p.dt) <= 1, `speed ${speed}: ${p.dv} ms of virtual time in a frame ${p.dt.toFixed(1)} ms after the last`);
    assert.ok(pairs.some((p) => p.dv > 0), `speed ${speed}: the clock moved`);
  }
  await close();
});

test("attribute changes take effect: controls and scenario", async () => {
  const { page, close } = await openCourse();
  const lab = page.locator("#lab-duplicates");
  await lab.evaluate((el) => el.setAttribute("controls", "play"));
  await page.waitForFunction(() => !document.getElementById("lab-duplicates").shadowRoot.getElementById("step") && document.getElementById("lab-duplicates").dataset.ready);
  assert.equal(await page.locator("#lab-duplicates #play").count(), 1);
  await lab.evaluate((el) => el.setAttribute("scenario", "fifo-message-groups"));
  await page.waitForFunction(() => document.getElementById("lab-duplicates").shadowRoot.getElementById("title")?.textContent === "FIFO message groups");
  assert.ok(await page.locator("#lab-duplicates [data-group]").count() > 0, "the FIFO groups are drawn");
  await close();
});

test("view=full gives an element a working log, metrics chart, settings form and manual actions", async () => {
  const { page, close } = await openCourse();
  const id = await addElement(page, `<queue-lab id="full-view" scenario="poison-message" view="full" checkpoints="off" controls="play step seed"></queue-lab>`);
  await start(page, id);
  assert.equal(await page.locator(`#${id} #seed`).count(), 1, "the seed control was asked for");
  assert.equal(await page.locator(`#${id} #restart`).count(), 0, "restart was not");
  // Settings: maxReceiveCount 3 -> 1 restarts the run with it.
  const max = page.locator(`#${id} #settings [data-setting='maxReceiveCount']`);
  await max.fill("1");
  await max.dispatchEvent("change");
  // Manual actions: a message sent by hand to the orders queue is drawn.
  await page.locator(`#${id} #manual-panel summary`).click();
  await page.locator(`#${id} #m-queue`).selectOption({ label: "orders" });
  await page.locator(`#${id} #m-body`).fill("order Z-1: sent by hand");
  await page.locator(`#${id} #manual`).getByRole("button", { name: "SendMessage" }).click();
  await page.waitForSelector(`#${id} .token:has-text("sent by hand")`);
  await page.locator(`#${id}`).evaluate((el) => {
    el.controls.setSpeed("max");
    el.controls.play();
  });
  await page.waitForSelector(`#${id}[data-finished='true']`);

  const seen = await page.locator(`#${id}`).evaluate((el) => {
    const root = el.shadowRoot;
    const events = el.playground.events(0);
    const snap = el.playground.snapshot();
    const dlq = snap.queues.find((q) => q.name === "orders-dlq");
    return {
      // A duplicate delivery folds into its receive's sentence; checkpoints
      // played without asking (checkpoints="off") are not told.
      eventTypes: events.map((e) => e.type).filter((t) => t !== "duplicateDelivery" && !t.startsWith("checkpoint")),
      logTypes: [...root.querySelectorAll("#log li")].map((li) => li.dataset.type),
      logByHand: [...root.querySelectorAll("#log li[data-type='sent']")].some((li) => li.textContent.includes("you ") && li.textContent.includes("Z-1")),
      points: root.querySelector("#chart .ln-dlq").getAttribute("points").trim().split(/\s+/).length,
      legendDlq: [...root.querySelectorAll("#chart .legend li")].find((li) => li.textContent.includes("dead-letter"))?.querySelector("b").textContent,
      dlqCount: String(dlq.visible + dlq.inFlight + dlq.delayed),
      dlqTokenReceives: [...root.querySelectorAll("[data-state='dlq']")].map((t) => t.dataset.receiveCount),
    };
  });
  assert.deepEqual(seen.logTypes, seen.eventTypes, "the log has one line per engine event, in order");
  assert.ok(seen.logByHand, "the log names the message sent by hand");
  assert.ok(seen.points > 50, `the chart has drawn the run (${seen.points} points)`);
  assert.equal(seen.legendDlq, seen.dlqCount, "the chart's legend shows the snapshot's dead-letter count");
  assert.deepEqual(seen.dlqTokenReceives, ["1"], "the setting took effect: the poison message moved after 1 receive, not 3");
  await close();
});

test("an element takes the host page's colour scheme; theme=light|dark fixes it and theme=auto follows the reader", async () => {
  const LIGHT = "rgb(242, 244, 248)";
  const DARK = "rgb(14, 19, 26)";
  for (const [pageScheme, reader, want] of [["", "dark", LIGHT], ["light", "dark", LIGHT], ["dark", "light", DARK], ["light dark", "dark", DARK], ["light dark", "light", LIGHT]]) {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>${pageScheme ? `<style>:root{color-scheme:${pageScheme}}</style>` : ""}</head><body><main>
<queue-lab id="plain" scenario="slow-consumer"></queue-lab><queue-lab id="auto" theme="auto" scenario="slow-consumer"></queue-lab>
</main><script type="module" src="/web/queue-lab.js"></script></body></html>`;
    const { page, close } = await open("scheme.html", { colorScheme: reader, routes: { "scheme.html": { body: html, contentType: "text/html" } }, readyWhen: "#plain[data-ready='true']" });
    const bg = (id) => page.locator(`#${id}`).evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(await bg("plain"), want, `page color-scheme "${pageScheme || "(none)"}", reader ${reader}`);
    await page.locator("#auto").scrollIntoViewIfNeeded();
    assert.equal(await bg("auto"), reader === "dark" ? DARK : LIGHT, `theme=auto follows the reader (${reader})`);
    await close();
  }
});

test("theme fixes an element's colours whatever the reader's setting; without it they follow the setting", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, close } = await openCourse({ colorScheme });
    await addElement(page, `<queue-lab id="light" theme="light" scenario="slow-consumer"></queue-lab>`);
    await addElement(page, `<queue-lab id="dark" theme="dark" scenario="slow-consumer"></queue-lab>`);
    for (const id of ["light", "dark"]) await start(page, id);
    const bg = (id) => page.locator(`#${id}`).evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(await bg("light"), "rgb(242, 244, 248)", `theme=light under ${colorScheme}`);
    assert.equal(await bg("dark"), "rgb(14, 19, 26)", `theme=dark under ${colorScheme}`);
    assert.equal(await bg("lab-duplicates"), colorScheme === "light" ? "rgb(242, 244, 248)" : "rgb(14, 19, 26)", "no theme: the reader's setting");
    await close();
  }
});

test("the host page's CSS does not leak in, and the element's does not leak out", async () => {
  const { page, close } = await openCourse();
  const styleOf = () => page.evaluate(() => {
    const root = document.getElementById("lab-duplicates").shadowRoot;
    const cs = (el) => getComputedStyle(el);
    const n = cs(root.getElementById("narration"));
    const p = cs(root.getElementById("play"));
    return { color: n.color, font: n.fontFamily, spacing: n.letterSpacing, transform: n.textTransform, size: n.fontSize, play: p.display, playBg: p.backgroundColor, rows: root.getElementById("rows").getBoundingClientRect().height };
  });
  const out = await page.evaluate(() => {
    const probe = document.createElement("div");
    probe.className = "transport narration lab";
    probe.id = "stage";
    document.body.append(probe);
    const cs = getComputedStyle(probe);
    return { bg: cs.backgroundColor, border: cs.borderTopStyle, radius: cs.borderTopLeftRadius };
  });
  assert.deepEqual(out, { bg: "rgba(0, 0, 0, 0)", border: "none", radius: "0px" }, "the element's class and id rules do not reach the host page");
  const before = await styleOf();
  await page.addStyleTag({ content: `
    html { font-size: 8px; }
    body { color: rgb(255, 0, 0); font-family: "Comic Sans MS", cursive; letter-spacing: 4px; text-transform: uppercase; }
    button, #play, .transport, p { display: none !important; background: lime !important; }
    queue-lab * { color: rgb(0, 0, 255) !important; }` });
  assert.deepEqual(await styleOf(), before, "host rules change nothing inside the element");
  await close();
});

test("an element sizes itself to its container", async () => {
  const { page, close } = await openCourse();
  const sizes = await page.evaluate(async () => {
    const el = document.getElementById("lab-duplicates");
    const widths = [];
    for (const w of [900, 420]) {
      el.parentElement.style.width = `${w}px`;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const rows = el.shadowRoot.getElementById("rows");
      widths.push({ el: Math.round(el.getBoundingClientRect().width), overflow: rows.scrollWidth > rows.clientWidth + 1, head: getComputedStyle(el.shadowRoot.querySelector(".stage-head")).display });
    }
    return widths;
  });
  assert.ok(sizes[0].el <= 900 - 48 && sizes[0].el > 800, `fills a wide column (${sizes[0].el}px)`);
  assert.ok(sizes[1].el <= 420 - 48, `fits a narrow column (${sizes[1].el}px)`);
  assert.equal(sizes[1].overflow, false, "nothing overflows sideways when narrow");
  assert.equal(sizes[1].head, "none", "narrow: the one-column layout, by container size not window size");
  await page.locator("#lab-duplicates").screenshot({ path: `${artifacts}element-narrow.png` });
  await close();
});

test("a broken scenario or attribute shows a readable error inside the element's box and in a queuelab-error event", async () => {
  const { page, close } = await openCourse();
  await page.evaluate(() => {
    window.errorEvents = [];
    document.addEventListener("queuelab-error", (e) => window.errorEvents.push({ id: e.target.id, message: e.detail.message }));
  });
  const errorEvents = (id) => page.evaluate((i) => window.errorEvents.filter((e) => e.id === i).map((e) => e.message), id);
  const cases = [
    [`<queue-lab id="bad-json"><script type="application/json">{ "title": "oops", "queues": [ </script></queue-lab>`, /inline scenario cannot run: invalid scenario: .*line \d+ column \d+/],
    [`<queue-lab id="bad-field"><script type="application/json">{ "title": "x", "durationMs": 1000, "queues": [], "colour": "red" }</script></queue-lab>`, /unknown field `colour`/],
    [`<queue-lab id="bad-name" scenario="no-such-thing"></queue-lab>`, /“?no-such-thing”?.*not a Queuelab scenario.*slow-consumer-duplicate/],
    [`<queue-lab id="bad-src" src="missing.json"></queue-lab>`, /Could not load src="missing.json".*404/],
    [`<queue-lab id="bad-controls" scenario="slow-consumer" controls="play rewind"></queue-lab>`, /“rewind” is not a control/],
    [`<queue-lab id="bad-view" scenario="slow-consumer" view="tiny"></queue-lab>`, /view="tiny" is not a view/],
    [`<queue-lab id="none"></queue-lab>`, /no scenario/],
  ];
  for (const [html, message] of cases) {
    const id = await addElement(page, html);
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const text = await page.waitForFunction((i) => {
      const root = document.getElementById(i).shadowRoot;
      const box = root.querySelector(".boot.failed") ?? (root.getElementById("error")?.hidden === false ? root.getElementById("error") : null);
      return box?.textContent;
    }, id).then((h) => h.jsonValue());
    assert.match(text, message, id);
    const events = await errorEvents(id);
    assert.equal(events.length, 1, `${id}: one queuelab-error event`);
    assert.match(events[0], message, `${id}: the event carries the same message`);
    const height = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height > 40, `${id}: not a blank box (${height}px)`);
  }
  // A bad speed or seed keeps the playground running and says why.
  const id = await addElement(page, `<queue-lab id="bad-speed" scenario="slow-consumer" speed="warp" seed="-1"></queue-lab>`);
  await start(page, id);
  assert.match(await page.locator(`#${id} #error-text`).textContent(), /speed="warp" is not a speed/);
  assert.deepEqual(await errorEvents(id), [], "it started, so no queuelab-error");
  await page.locator(`#bad-json`).screenshot({ path: `${artifacts}element-error.png` });
  await close();
});

test("el.sqs sends real SQS requests into the element's engine; they are drawn, and a scrub replays them once", async () => {
  const { page, close } = await openCourse();
  const lab = page.locator("#lab-duplicates");
  await lab.evaluate((el) => el.controls.scrub(4000, false));
  const res = await lab.evaluate(async (el) => {
    const { QueueUrl } = await el.sqs.getQueueUrl({ QueueName: "orders" });
    const sent = await el.sqs.sendMessage({ QueueUrl, MessageBody: "sent by the course page" });
    let error = null;
    try {
      await el.sqs.getQueueUrl({ QueueName: "nope" });
    } catch (e) {
      error = { name: e.name, status: e.$metadata.httpStatusCode };
    }
    return { id: sent.MessageId, error };
  });
  assert.deepEqual(res.error, { name: "QueueDoesNotExist", status: 400 });
  const token = page.locator(`#lab-duplicates [data-message-id="${res.id}"]`).first();
  await token.waitFor();
  assert.match(await token.textContent(), /sent by the course page/);

  // Played on to the end with the request live, then scrubbed back before it and forward again.
  await lab.evaluate((el) => {
    el.controls.setSpeed("max");
    el.controls.play();
  });
  await page.waitForSelector("#lab-duplicates[data-finished='true']");
  const live = await hookState(page, "lab-duplicates");
  const sends = () => lab.evaluate((el) => el.playground.events(0).filter((e) => e.type === "sent" && e.by === "page script").length);
  await lab.evaluate((el) => el.controls.scrub(2000, false));
  assert.equal(await sends(), 0, "before its moment the request has not been made");
  assert.deepEqual(await stateAtEnd(page, "lab-duplicates"), live, "scrubbed back to the end: the same state as with the request live");
  assert.ok(live.tokens.some((t) => t.startsWith(res.id)), "which includes its message");
  assert.equal(await sends(), 1, "the replay sent it once");
  await close();
});

test("queuelab-event says replay: false while playing and true while a scrub rebuilds a moment", async () => {
  const { page, close } = await openCourse();
  await start(page, "lab-dlq");
  const lab = page.locator("#lab-dlq");
  await lab.evaluate((el) => {
    window.seen = [];
    el.addEventListener("queuelab-event", (e) => window.seen.push(e.detail.replay));
    el.controls.setSpeed("max");
    el.controls.play();
  });
  await page.waitForSelector("#lab-dlq[data-finished='true']");
  const played = await page.evaluate(() => window.seen.splice(0));
  assert.ok(played.length > 10, `events while playing (${played.length})`);
  assert.deepEqual([...new Set(played)], [false], "playing: live events");
  const scrubbed = await lab.evaluate((el) => {
    el.controls.scrub(7000, false);
    return { flags: window.seen.splice(0), events: el.playground.events(0).length };
  });
  assert.equal(scrubbed.flags.length, scrubbed.events, "the scrub re-sent every event up to its moment");
  assert.deepEqual([...new Set(scrubbed.flags)], [true], "all marked as replay");
  await close();
});

test("a share link reproduces the same state: settings, seed, your actions and the moment", async () => {
  const { page, close } = await open("index.html?scenario=slow-consumer");
  await page.locator("#seed").fill("5");
  await page.locator("#seed").dispatchEvent("change");
  // A setting (the settings form restarts the run with it) and an action of yours.
  const vis = page.locator('#settings [data-setting$="visibilityTimeoutSeconds"]').first();
  await vis.fill("3");
  await vis.dispatchEvent("change");
  await page.locator("#step").click();
  await page.locator("#manual-panel summary").click();
  await page.locator("#m-body").fill("my own order");
  await page.getByRole("button", { name: "SendMessage" }).click();
  await page.locator("#timeline").evaluate((tl) => {
    tl.value = "6000";
    tl.dispatchEvent(new Event("change"));
  });
  // The moment is rebuilt in slices: read it once the clock shows it.
  await shownAt(page, 6000);
  const want = await hookState(page);
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  const href = await page.locator("#share-url").inputValue();
  assert.match(href, /scenario=02-slow-consumer-duplicate.*seed=5.*t=6000.*run=/);
  await page.locator("#share-embed").click();
  await page.waitForFunction(() => document.getElementById("share-iframe").value);
  const element = await page.locator("#share-element").inputValue();
  const iframe = await page.locator("#share-iframe").inputValue();
  assert.match(element, /<script src="http:[^"]+\/dist\/queuelab\.js"><\/script>/);
  assert.match(element, /<queue-lab seed="5"[^>]*>\n<script type="application\/json">[\s\S]*"visibilityTimeoutSeconds": 3/);
  assert.match(iframe, /^<iframe src="[^"]+embed=1[^"]*" title="Queuelab: Slow consumer, duplicate delivery"/);
  await close();

  for (const link of [href, iframe.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&")]) {
    const shared = await open(link.slice(link.indexOf("index.html")));
    // The page says it is ready before the link's moment is rebuilt (in slices, several frames on a busy machine).
    await shownAt(shared.page, 6000);
    assert.deepEqual(await hookState(shared.page), want, `same state from ${link.includes("embed=1") ? "the iframe link" : "the link"}`);
    if (!link.includes("embed=1")) {
      assert.equal(await shared.page.locator("#seed").inputValue(), "5");
      assert.match(await shared.page.locator("#replay-note").textContent(), /1 action of yours/);
    }
    await shared.close();
  }
});

test("code in the cell moves real messages: SDK-style calls, a long poll in virtual time, SQS errors by name", async () => {
  const { page, close } = await openCourse();
  await start(page, "lab-code");
  await page.locator("#lab-code #speed").selectOption("16");
  await page.locator("#lab-code #code-run").click();
  await page.waitForSelector("#lab-code #code-status:text-matches('Finished|Failed')");
  const out = await page.locator("#lab-code #code-out").textContent();
  assert.match(out, /sent [0-9a-f-]{36}/);
  assert.match(out, /received [1-9]\d* message\(s\)/);
  assert.match(out, /- order .* \| receive count 1/);
  assert.match(out, /deleted them/);
  assert.match(await page.locator("#lab-code #code-status").textContent(), /Finished/);
  // Its message is on the element's stage (in the queue, or in the tray once deleted).
  assert.match(await page.locator("#lab-code #stage").textContent(), /order L-4: from the lesson/);

  await page.locator("#lab-code #code-text").fill(`await sqs.getQueueUrl({ QueueName: "nope" });`);
  await page.locator("#lab-code #code-run").click();
  await page.waitForSelector("#lab-code #code-status:text('Failed.')");
  assert.match(await page.locator("#lab-code #code-out").textContent(), /QueueDoesNotExist \(AWS\.SimpleQueueService\.NonExistentQueue\): The specified queue does not exist\./);
  await close();
});

test("the npm package, unpacked on a plain static host, runs the course page", async () => {
  const dir = mkdtempSync(join(tmpdir(), "queuelab-pack-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], { cwd: root });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir]);
  const { server, url } = await startServer(join(dir, "package"));
  try {
    const { page, problems, close } = await openCourse({ base: url });
    await start(page, "lab-fifo");
    await page.locator("#lab-fifo #step").click();
    assert.ok((await clock(page, "lab-fifo")) > 0, "the FIFO playground runs");
    await start(page, "lab-code");
    assert.deepEqual(problems, []);
    await close();
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no violations at all on the course page, inside the elements too: one main, every playground's landmarks named after its scenario (${colorScheme})`, async () => {
    const { page, close } = await openCourse({ colorScheme });
    for (const id of LABS) await start(page, id);
    await page.locator("#lab-fifo #step").click();
    assert.deepEqual(await axeViolations(page, { all: true }), []);
    const names = await page.evaluate(() => [...document.getElementById("lab-dlq").shadowRoot.querySelectorAll("section[aria-label]")].map((s) => s.getAttribute("aria-label")));
    assert.ok(names.includes("Playback controls: Poison message and the dead-letter queue"), names.join(" | "));
    await close();
  });
}

test("the iframe snippet is as tall as the run's whole stage, and its optional host line fits the iframe to its content as it grows", async () => {
  const { page, close } = await open("index.html?scenario=long-vs-short&checkpoints=off");
  await page.locator("#share-embed").click();
  await page.waitForFunction(() => document.getElementById("share-iframe").value, null, { timeout: scaled(40_000) });
  const snippet = await page.locator("#share-iframe").inputValue();
  assert.equal(await page.locator("#copy-iframe").isDisabled(), false);
  await close();
  const height = Number(snippet.match(/height="(\d+)"/)[1]);
  const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&");
  const [iframeLine, , hostLine] = snippet.split("\n");
  assert.match(hostLine, /^<script>addEventListener\("message"/);

  const host = (body) => ({ body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title></head><body><main style="width:760px">${body}</main></body></html>`, contentType: "text/html" });
  const frameDoc = (p) => p.frames().find((f) => f.url().includes("embed=1"));
  // Without the host line: the snippet's own height shows the whole stage, at the run's start and at its end.
  const { durationMs } = JSON.parse(readFileSync(join(root, "web/scenarios/08-long-vs-short-polling.json"), "utf8"));
  for (const t of [0, durationMs]) {
    const line = iframeLine.replace(/src="[^"]+"/, `src="${src.replace(/t=\d+/, `t=${t}`).replace(/&/g, "&amp;")}"`).replace(' loading="lazy"', "");
    const { page: p, close: done } = await open("course.html", { routes: { "course.html": host(line) }, readyWhen: "iframe" });
    await p.waitForFunction(() => document.querySelector("iframe").contentDocument?.body?.dataset.ready === "true", null, { timeout: scaled(20_000) });
    const stageBottom = await frameDoc(p).evaluate(() => Math.ceil(document.getElementById("stage").getBoundingClientRect().bottom + scrollY));
    assert.ok(stageBottom <= height, `at t=${t} the stage ends at ${stageBottom} px, inside the ${height} px iframe`);
    await done();
  }
  // With it: the iframe takes its content's height, and follows it.
  const { page: p, close: done } = await open("course.html", { routes: { "course.html": host(`${iframeLine.replace(' loading="lazy"', "")}\n${hostLine}`) }, readyWhen: "iframe" });
  await p.waitForFunction(() => document.querySelector("iframe").contentDocument?.body?.dataset.ready === "true", null, { timeout: scaled(20_000) });
  const fits = () => p.evaluate(() => {
    const f = document.querySelector("iframe");
    return Math.abs(f.getBoundingClientRect().height - Math.ceil(f.contentDocument.documentElement.getBoundingClientRect().height)) <= 1;
  });
  await p.waitForFunction(() => {
    const f = document.querySelector("iframe");
    return Math.abs(f.getBoundingClientRect().height - Math.ceil(f.contentDocument.documentElement.getBoundingClientRect().height)) <= 1;
  });
  const before = await p.evaluate(() => document.querySelector("iframe").getBoundingClientRect().height);
  await frameDoc(p).evaluate(() => {
    const tl = document.getElementById("timeline");
    tl.value = tl.max;
    tl.dispatchEvent(new Event("change"));
  });
  await p.waitForFunction((h) => document.querySelector("iframe").getBoundingClientRect().height > h, before);
  assert.ok(await fits());
  await done();
});
