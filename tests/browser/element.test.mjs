// The <queue-lab> element as a good citizen of any page: it recovers from
// an error when an attribute changes or when asked (el.reload()), and its
// content reflows down to 280 px wide with nothing cut (WCAG 1.4.10).
// One small host page per test; the elements are added by script, as a
// scenario picker or a framework page does after insertion.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

const HOST = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>Host page</h1><main id="main"></main>
<script type="module" src="/web/queue-lab.js"></script></body></html>`;

/**
 * The host page, with every element's queuelab-ready and queuelab-error
 * events recorded in window.seen: { ready: [{ id, title, playground }], errors: [{ id, message }] }.
 */
async function openHost(routes = {}, options = {}) {
  const opened = await open("host.html", { routes: { "host.html": { body: HOST, contentType: "text/html" }, ...routes }, readyWhen: "h1", ...options });
  await opened.page.waitForFunction(() => customElements.get("queue-lab"));
  await opened.page.evaluate(() => {
    window.seen = { ready: [], errors: [] };
    document.addEventListener("queuelab-ready", (e) => window.seen.ready.push({ id: e.target.id, title: e.detail.scenario.title, playground: e.detail.playground }));
    document.addEventListener("queuelab-error", (e) => window.seen.errors.push({ id: e.target.id, message: e.detail.message }));
  });
  return opened;
}

/** Adds `<queue-lab id=…>` with `attrs` to the host page. */
function add(page, id, attrs = {}) {
  return page.evaluate(([i, a]) => {
    const el = document.createElement("queue-lab");
    el.id = i;
    for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
    document.getElementById("main").append(el);
  }, [id, attrs]);
}

const setAttr = (page, id, name, value) => page.evaluate(([i, n, v]) => document.getElementById(i).setAttribute(n, v), [id, name, value]);

/** Waits for the element's `n`th queuelab-error event (1-based) and returns what its box then says. */
async function nthError(page, id, n) {
  await page.waitForFunction(([i, k]) => window.seen.errors.filter((e) => e.id === i).length >= k, [id, n]);
  return page.evaluate((i) => {
    const root = document.getElementById(i).shadowRoot;
    return { boxes: root.querySelectorAll(".boot.failed").length, text: root.querySelector(".boot.failed")?.textContent ?? null };
  }, id);
}

/** Waits for the element's `n`th queuelab-ready event and returns the title on screen, and whether any error box is left. */
async function nthReady(page, id, n) {
  await page.waitForFunction(([i, k]) => window.seen.ready.filter((e) => e.id === i).length >= k, [id, n]);
  return page.evaluate((i) => {
    const root = document.getElementById(i).shadowRoot;
    return { title: root.getElementById("title")?.textContent ?? null, boot: root.querySelectorAll(".boot").length, labs: root.querySelectorAll(".lab").length };
  }, id);
}

test("an element with no scenario starts when it later gets scenario=\"heartbeat\"", async () => {
  const { page, problems, close } = await openHost();
  await add(page, "later");
  assert.match((await nthError(page, "later", 1)).text, /no scenario/);
  await setAttr(page, "later", "scenario", "heartbeat");
  assert.deepEqual(await nthReady(page, "later", 1), { title: "Heartbeat: extend visibility while working", boot: 0, labs: 1 });
  assert.deepEqual(problems, []);
  await close();
});

test("a misspelled scenario corrected to slow-consumer starts, and the error box is replaced on every error, never added to", async () => {
  const { page, close } = await openHost();
  await add(page, "typo", { scenario: "slow-consumr" });
  const first = await nthError(page, "typo", 1);
  assert.match(first.text, /slow-consumr/);
  await setAttr(page, "typo", "scenario", "slow-consumre");
  const second = await nthError(page, "typo", 2);
  assert.equal(second.boxes, 1, "one error box, the latest");
  assert.match(second.text, /slow-consumre/);
  assert.doesNotMatch(second.text, /slow-consumr”/, "the old message is gone");
  await setAttr(page, "typo", "scenario", "slow-consumer");
  assert.deepEqual(await nthReady(page, "typo", 1), { title: "Slow consumer, duplicate delivery", boot: 0, labs: 1 });
  await close();
});

test("a running element set to scenario=\"nope\" shows why, frees its engine, and runs poison when set to it", async () => {
  const { page, close } = await openHost();
  await add(page, "running", { scenario: "heartbeat" });
  await nthReady(page, "running", 1);
  await setAttr(page, "running", "scenario", "nope");
  const failed = await nthError(page, "running", 1);
  assert.match(failed.text, /“?nope”?.*not a Queuelab scenario/);
  const freed = await page.evaluate(() => {
    const [first] = window.seen.ready;
    try {
      first.playground.now();
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(freed, true, "the heartbeat run's Playground was freed");
  assert.equal(await page.evaluate(() => document.getElementById("running").playground), null);
  await setAttr(page, "running", "scenario", "poison");
  assert.deepEqual(await nthReady(page, "running", 2), { title: "Poison message and the dead-letter queue", boot: 0, labs: 1 });
  await close();
});

test("an element whose src failed starts when src changes, and a scenario that cannot run recovers on any attribute change", async () => {
  const bad = JSON.stringify({ title: "x", durationMs: 1000, queues: [], colour: "red" });
  const { page, close } = await openHost({ "bad.json": bad });
  await add(page, "src", { src: "missing.json" });
  assert.match((await nthError(page, "src", 1)).text, /Could not load src="missing.json"/);
  await setAttr(page, "src", "src", "/web/scenarios/04-heartbeat.json");
  assert.deepEqual(await nthReady(page, "src", 1), { title: "Heartbeat: extend visibility while working", boot: 0, labs: 1 });
  // The engine refuses this one: its message shows in the lab's own error box.
  await setAttr(page, "src", "src", "bad.json");
  await nthError(page, "src", 2);
  assert.match(await page.locator("#src #error-text").textContent(), /unknown field `colour`/);
  await setAttr(page, "src", "src", "/web/scenarios/05-poison-message.json");
  assert.equal((await nthReady(page, "src", 2)).title, "Poison message and the dead-letter queue");
  assert.equal(await page.locator("#src #error").isHidden(), true, "the refusal is gone");
  // A seed is not a rebuilding attribute on a running element, but after an error any change is a new try.
  await setAttr(page, "src", "src", "bad.json");
  await nthError(page, "src", 3);
  await page.route("**/bad.json", (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ title: "Fixed", durationMs: 1000, queues: [{ name: "q" }] }) }));
  await setAttr(page, "src", "seed", "3");
  assert.equal((await nthReady(page, "src", 3)).title, "Fixed");
  await close();
});

test("el.reload() retries a failed element on demand: a scenario that could not be fetched starts once it can", async () => {
  let up = false;
  const { page, close } = await openHost();
  await page.route("**/flaky.json", (route) => (up
    ? route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ title: "Flaky but fine", durationMs: 1000, queues: [{ name: "q" }] }) })
    : route.fulfill({ status: 503, body: "down" })));
  await add(page, "flaky", { src: "flaky.json" });
  assert.match((await nthError(page, "flaky", 1)).text, /flaky\.json/);
  up = true;
  await page.evaluate(() => document.getElementById("flaky").reload());
  assert.deepEqual(await nthReady(page, "flaky", 1), { title: "Flaky but fine", boot: 0, labs: 1 });
  // On a running element it starts again from its source: a new engine, the old one freed.
  await page.evaluate(() => document.getElementById("flaky").reload());
  await nthReady(page, "flaky", 2);
  const engines = await page.evaluate(() => {
    const [a, b] = window.seen.ready.map((r) => r.playground);
    let freed = false;
    try {
      a.now();
    } catch {
      freed = true;
    }
    return { freed, current: document.getElementById("flaky").playground === b };
  });
  assert.deepEqual(engines, { freed: true, current: true });
  await close();
});

test("rapid attribute changes after an error end on the last one, with every earlier engine freed", async () => {
  const { page, close } = await openHost();
  await add(page, "rapid", { scenario: "nope" });
  await nthError(page, "rapid", 1);
  // Each change in its own task, so earlier builds are already fetching when the next arrives.
  await page.evaluate(async () => {
    const el = document.getElementById("rapid");
    for (const name of ["heartbeat", "poison", "nope-again", "slow-consumer", "fifo-message-groups"]) {
      el.setAttribute("scenario", name);
      await new Promise((r) => setTimeout(r, 0));
    }
  });
  await page.waitForFunction(() => document.getElementById("rapid").shadowRoot.getElementById("title")?.textContent === "FIFO message groups" && document.getElementById("rapid").dataset.ready === "true");
  const seen = await page.evaluate(() => {
    const el = document.getElementById("rapid");
    const mine = window.seen.ready.filter((r) => r.id === "rapid");
    const alive = mine.filter((r) => {
      try {
        r.playground.now();
        return true;
      } catch {
        return false;
      }
    });
    return {
      lastReady: mine.at(-1).title,
      alive: alive.map((r) => r.title),
      current: el.playground === mine.at(-1).playground,
      boot: el.shadowRoot.querySelectorAll(".boot").length,
      labs: el.shadowRoot.querySelectorAll(".lab").length,
    };
  });
  assert.deepEqual(seen, { lastReady: "FIFO message groups", alive: ["FIFO message groups"], current: true, boot: 0, labs: 1 });
  await close();
});

/** Parts of the playground that scroll sideways on purpose: the log, code, JSON and form controls' own text. */
const DELIBERATE_SCROLLERS = "#log-scroll, .code-text, .code-out, .m-out, #json-text, .peek, textarea, input, select";

/**
 * What does not fit the element `id` at its current width, in words: the
 * element or a descendant whose content overflows its box sideways, text an
 * overflow: hidden box cuts, a box that sticks out of the element, and a
 * page that scrolls sideways. Deliberate scrollers are checked as boxes,
 * not for their content; visually hidden labels (.vh) are skipped.
 */
function misfits(page, id) {
  return page.evaluate(([i, scrollers]) => {
    const el = document.getElementById(i);
    const name = (n) => `${n.localName}${n.id ? `#${n.id}` : ""}${n.classList.length ? `.${[...n.classList].join(".")}` : ""}`;
    const found = [];
    if (el.scrollWidth > el.clientWidth + 1) found.push(`the element's content is ${el.scrollWidth} px wide in ${el.clientWidth} px`);
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) found.push(`the page scrolls sideways (${doc.scrollWidth} px in ${doc.clientWidth} px)`);
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const [left, right] = [box.left + parseFloat(cs.borderLeftWidth), box.right - parseFloat(cs.borderRightWidth)];
    const walk = (node) => {
      for (const child of node.children) {
        const style = getComputedStyle(child);
        if (style.display === "none" || child.matches(".vh, style, script, template")) continue;
        const r = child.getBoundingClientRect();
        if (r.width === 0 && r.height === 0 && style.display !== "contents") continue; // not rendered (a closed <details>' content)
        if (r.left < left - 1 || r.right > right + 1) {
          found.push(`${name(child)} sticks out: ${Math.round(r.left - left)}..${Math.round(r.right - left)} px in ${Math.round(right - left)} px`);
          continue; // its descendants stick out with it
        }
        const scroller = child.matches(scrollers);
        if (!scroller && child.namespaceURI === "http://www.w3.org/1999/xhtml" && style.display !== "inline" && child.scrollWidth > child.clientWidth + 1) {
          const how = style.overflowX === "visible" ? "overflows" : style.overflowX === "hidden" || style.overflowX === "clip" ? "cuts its text" : "scrolls sideways";
          found.push(`${name(child)} ${how}: ${child.scrollWidth} px in ${child.clientWidth} px${child.textContent ? ` (“${child.textContent.trim().slice(0, 40)}”)` : ""}`);
        }
        if (!scroller && child.localName !== "svg") walk(child);
      }
    };
    walk(el.shadowRoot);
    return found;
  }, [id, DELIBERATE_SCROLLERS]);
}

/** Code for the cell: a long line of output, then an SQS error by name. */
const REFLOW_CODE = `const { QueueUrl } = await sqs.getQueueUrl({ QueueName: "orders" });
console.log("the queue's URL, which is long and has no spaces to wrap at:", QueueUrl);
await sqs.getQueueUrl({ QueueName: "a-queue-that-does-not-exist-in-this-playground" });`;

test("the element reflows down to 280 px: a scenario, a lab, the code cell and Act yourself fit at 280, 300 and 320 px, at t = 0, mid-run and after Check my fix", async () => {
  // Reduced motion: what is measured is where things settle, not a token in the middle of its move.
  const { page, problems, close } = await openHost({}, { viewport: { width: 336, height: 800 }, reducedMotion: "reduce" });
  await page.addStyleTag({ content: "body { margin: 0 8px; }" });
  const elements = {
    scenario: { scenario: "slow-consumer", view: "full", checkpoints: "off", controls: "play step restart speed timeline seed" },
    fifo: { scenario: "fifo-message-groups", checkpoints: "off", controls: "play step restart speed timeline" },
    lab: { lab: "duplicate-orders", checkpoints: "off", controls: "play step restart speed timeline" },
    code: { scenario: "process-then-delete", editor: "", code: REFLOW_CODE, controls: "play restart speed timeline" },
  };
  for (const [id, attrs] of Object.entries(elements)) {
    await add(page, id, attrs);
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await nthReady(page, id, 1);
  }
  await page.locator("#scenario #manual-panel summary").click(); // Act yourself, open
  const look = async (moment) => {
    const found = [];
    for (const width of [280, 300, 320]) {
      await page.setViewportSize({ width: width + 16, height: 800 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      for (const id of Object.keys(elements)) {
        assert.equal(await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().width), width, `${id} is ${width} px wide`);
        for (const m of await misfits(page, id)) found.push(`${moment}, ${width} px, ${id}: ${m}`);
      }
    }
    return found;
  };
  const found = await look("t = 0");
  // Mid-run: every element halfway through its run; the code cell has run (its output and an SQS error).
  await page.locator("#code #code-run").click();
  await page.waitForSelector("#code #code-status:text('Failed.')");
  for (const id of Object.keys(elements)) await page.locator(`#${id}`).evaluate((el) => el.controls.scrub(el.controls.scenario.durationMs / 2, false));
  found.push(...(await look("mid-run")));
  // After Check my fix with the lab's own settings: its failures, in words, with their buttons.
  await page.locator("#lab #check-fix").click();
  await page.waitForSelector("#lab #goal-result:not([hidden])");
  found.push(...(await look("after Check my fix")));
  assert.deepEqual(found, [], `${found.length} misfits:\n${found.slice(0, 40).join("\n")}`);
  assert.deepEqual(problems, []);
  await close();
});

test("a word's tooltip inside an element opens at the word, wherever the element sits on the page", async () => {
  const { page, close } = await openHost();
  await page.addStyleTag({ content: "#main::before { content: ''; display: block; height: 1500px; }" }); // the element far down a long page
  await add(page, "words", { scenario: "slow-consumer", controls: "play" });
  await page.locator("#words").scrollIntoViewIfNeeded();
  await nthReady(page, "words", 1);
  const term = page.locator("#words .term[data-term='dlq']");
  await term.focus();
  const tip = page.locator("#words .term-tip");
  await tip.waitFor();
  const [at, box, width] = [await term.boundingBox(), await tip.boundingBox(), page.viewportSize().width];
  const near = (a, b) => Math.abs(a - b) <= 1;
  assert.ok(near(box.y, at.y + at.height + 8) || near(box.y + box.height, at.y - 8), `the tip (top ${box.y}) is just under or over the word (${at.y}..${at.y + at.height})`);
  assert.ok(near(box.x, Math.min(at.x, width - box.width - 8)), `the tip starts at the word's left (${box.x} vs ${at.x})`);
  await close();
});
