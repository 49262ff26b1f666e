// The embedding story in headless Chromium: the course page's <queue-lab>
// elements, share links, and the code cell. Playwright's CSS selectors
// pierce open shadow roots, so "#lab-dlq #play" is the play button inside
// that element.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artifacts, axeViolations, hookState, open, root } from "./harness.mjs";
import { startServer } from "../../scripts/static-server.mjs";
import { pack } from "../../web/share.js";

const COURSE = "web/examples/course.html";
const LABS = ["lab-duplicates", "lab-dlq", "lab-fifo", "lab-code"];

/** The course page, once its first playground (on screen at load) is ready. */
const openCourse = (options) => open(COURSE, { readyWhen: "#lab-duplicates[data-ready='true']", ...options });

/** Scrolls an element into view and waits for its engine. */
async function start(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-ready='true']`, { timeout: 15_000 });
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
  await page.waitForSelector("#lab-duplicates[data-finished='true']", { timeout: 30_000 });
  assert.equal(await clock(page, "lab-duplicates"), 10_000);
  assert.equal(await clock(page, "lab-dlq"), 0, "the DLQ playground did not move");
  // The duplicate delivery shows in that element only, and the course page's callout reacted to its event.
  assert.ok(await page.locator("#lab-duplicates #dup-banner").count());
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
  const seen = await page.evaluate(async () => {
    const el = document.createElement("queue-lab");
    el.setAttribute("scenario", "process-then-delete");
    el.setAttribute("speed", "max");
    const log = { ready: 0, types: new Set(), live: 0, end: null };
    el.addEventListener("queuelab-ready", (e) => (log.ready += e.detail.playground ? 1 : 0));
    el.addEventListener("queuelab-event", (e) => {
      log.types.add(e.detail.event.type);
      if (!e.detail.replay) log.live++;
    });
    const ended = new Promise((resolve) => el.addEventListener("queuelab-end", (e) => resolve(e.detail.time)));
    document.querySelector("article").prepend(el);
    el.setAttribute("autoplay", "");
    log.end = await ended;
    return { ...log, types: [...log.types].sort() };
  });
  assert.equal(seen.ready, 1);
  assert.equal(seen.end, 12_000);
  assert.ok(seen.live > 10);
  for (const t of ["queueCreated", "sent", "received", "deleted"]) assert.ok(seen.types.includes(t), `saw ${t}`);
  await close();
});

test("removing an element frees its engine and stops its loop", async () => {
  const { page, close } = await openCourse();
  const after = await page.evaluate(async () => {
    const el = document.getElementById("lab-duplicates");
    el.controls.play();
    const pg = el.playground;
    el.remove();
    let threw = null;
    try {
      pg.now();
    } catch (e) {
      threw = e instanceof Error;
    }
    await new Promise((r) => setTimeout(r, 300));
    return { threw, handle: el.playground };
  });
  assert.equal(after.threw, true, "the freed Playground refuses calls");
  assert.equal(after.handle, null);
  // The other elements still work after one is gone.
  await start(page, "lab-dlq");
  await page.locator("#lab-dlq #step").click();
  assert.ok((await clock(page, "lab-dlq")) > 0);
  await close();
});

test("attribute changes take effect: speed, seed, controls and scenario", async () => {
  const { page, close } = await openCourse();
  const lab = page.locator("#lab-duplicates");
  await lab.evaluate((el) => el.setAttribute("speed", "8"));
  assert.equal(await page.locator("#lab-duplicates #speed").inputValue(), "8");
  await lab.evaluate((el) => el.setAttribute("seed", "99"));
  assert.equal(await lab.evaluate((el) => el.controls.scenario.seed), 99);
  await lab.evaluate((el) => el.setAttribute("controls", "play"));
  await page.waitForFunction(() => !document.getElementById("lab-duplicates").shadowRoot.getElementById("step") && document.getElementById("lab-duplicates").dataset.ready);
  assert.equal(await page.locator("#lab-duplicates #play").count(), 1);
  await lab.evaluate((el) => el.setAttribute("scenario", "fifo-message-groups"));
  await page.waitForFunction(() => document.getElementById("lab-duplicates").shadowRoot.getElementById("title")?.textContent === "FIFO message groups");
  assert.ok(await page.locator("#lab-duplicates [data-group]").count() > 0, "the FIFO groups are drawn");
  await close();
});

test("view=full gives an element the page's log, metrics, settings and manual actions", async () => {
  const { page, close } = await openCourse();
  const id = await addElement(page, `<queue-lab id="full-view" scenario="poison-message" view="full" controls="play step seed"></queue-lab>`);
  await start(page, id);
  await page.locator(`#${id} #step`).click();
  assert.ok(await page.locator(`#${id} #log li`).count() > 0, "the event log fills");
  assert.equal(await page.locator(`#${id} #chart svg.chart`).count(), 1, "the metrics chart");
  assert.ok(await page.locator(`#${id} #settings input`).count() > 3);
  assert.equal(await page.locator(`#${id} #manual`).count(), 1);
  assert.equal(await page.locator(`#${id} #seed`).count(), 1, "the seed control was asked for");
  assert.equal(await page.locator(`#${id} #restart`).count(), 0, "restart was not");
  await close();
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

test("a broken scenario or attribute shows a readable error inside the element's box", async () => {
  const { page, close } = await openCourse();
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
    }, id, { timeout: 10_000 }).then((h) => h.jsonValue());
    assert.match(text, message, id);
    const height = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height > 40, `${id}: not a blank box (${height}px)`);
  }
  // A bad speed or seed keeps the playground running and says why.
  const id = await addElement(page, `<queue-lab id="bad-speed" scenario="slow-consumer" speed="warp" seed="-1"></queue-lab>`);
  await start(page, id);
  assert.match(await page.locator(`#${id} #error-text`).textContent(), /speed="warp" is not a speed/);
  await page.locator(`#bad-json`).screenshot({ path: `${artifacts}element-error.png` });
  await close();
});

test("el.sqs sends real SQS requests into the element's engine, and they are drawn", async () => {
  const { page, close } = await openCourse();
  const res = await page.evaluate(async () => {
    const el = document.getElementById("lab-duplicates");
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
  await page.waitForSelector(`#lab-duplicates [data-message-id="${res.id}"]`);
  assert.match(await page.locator(`#lab-duplicates [data-message-id="${res.id}"]`).first().textContent(), /sent by the course page/);
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
  const want = await hookState(page);
  assert.equal(want.time, "6000");
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  const href = await page.locator("#share-url").inputValue();
  assert.match(href, /scenario=02-slow-consumer-duplicate.*seed=5.*t=6000.*run=/);
  await page.locator("#share-embed").click();
  await page.waitForFunction(() => document.getElementById("share-iframe").value);
  const element = await page.locator("#share-element").inputValue();
  const iframe = await page.locator("#share-iframe").inputValue();
  assert.match(element, /<script type="module" src="http:[^"]+\/web\/queue-lab\.js"><\/script>/);
  assert.match(element, /<queue-lab seed="5"[^>]*>\n<script type="application\/json">[\s\S]*"visibilityTimeoutSeconds": 3/);
  assert.match(iframe, /^<iframe src="[^"]+embed=1[^"]*" title="Queuelab: Slow consumer, duplicate delivery"/);
  await close();

  for (const link of [href, iframe.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&")]) {
    const shared = await open(link.slice(link.indexOf("index.html")));
    assert.deepEqual(await hookState(shared.page), want, `same state from ${link.includes("embed=1") ? "the iframe link" : "the link"}`);
    if (!link.includes("embed=1")) {
      assert.equal(await shared.page.locator("#seed").inputValue(), "5");
      assert.match(await shared.page.locator("#replay-note").textContent(), /1 action of yours/);
    }
    await shared.close();
  }
});

test("the code cell runs only on click: code from a link or an attribute is shown, not run", async () => {
  const code = `window.ranIt = (window.ranIt ?? 0) + 1;\nconsole.log("ran once");`;
  const { page, close } = await open(`index.html?scenario=process-then-delete&run=${await pack({ code })}`);
  assert.equal(await page.locator("#code-text").inputValue(), code, "the link's code is in the editor");
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.ranIt ?? 0), 0, "and has not run");
  await page.locator("#code-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  assert.equal(await page.evaluate(() => window.ranIt), 1);
  assert.match(await page.locator("#code-out").textContent(), /ran once/);

  // The same for an element's code attribute.
  const id = await addElementOn(page);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.ranIt), 1, "an attribute's code does not run by itself");
  await page.locator(`#${id} #code-run`).click();
  await page.waitForFunction(() => window.ranIt === 2);
  await close();
});

async function addElementOn(page) {
  await page.evaluate(async () => {
    await import("./web/queue-lab.js");
    const el = document.createElement("queue-lab");
    el.id = "attr-code";
    el.setAttribute("scenario", "process-then-delete");
    el.setAttribute("editor", "");
    el.setAttribute("code", "window.ranIt += 1;");
    document.querySelector("main").prepend(el);
  });
  await start(page, "attr-code");
  return "attr-code";
}

test("code in the cell moves real messages: SDK-style calls, a long poll in virtual time, SQS errors by name", async () => {
  const { page, close } = await openCourse();
  await start(page, "lab-code");
  await page.locator("#lab-code #speed").selectOption("16");
  await page.locator("#lab-code #code-run").click();
  await page.waitForSelector("#lab-code #code-status:text-matches('Finished|Failed')", { timeout: 30_000 });
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
  test(`axe-core finds no serious or critical violations on the course page, inside the elements too (${colorScheme})`, async () => {
    const { page, close } = await openCourse({ colorScheme });
    for (const id of LABS) await start(page, id);
    await page.locator("#lab-fifo #step").click();
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });
}
