// The page as a person (or a course's test suite) uses it: stepping and
// scrubbing agree with playing, untrusted bodies stay text, the keyboard
// reaches everything, no serious accessibility violations, and bad input
// gets a readable message.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { artifacts, axeViolations, hookState, open, root, runToEnd, scrubTo, shownAt, stepUntil } from "./harness.mjs";
import { pack } from "../../web/page/share.js";
import { assertDrawing } from "./drawing.mjs";

const scenarioText = (stem) => readFileSync(`${root}/web/scenarios/${stem}.json`, "utf8");

test("stepping and scrubbing give the same state as playing, and every step draws what the engine holds", async () => {
  const stem = "02-slow-consumer-duplicate";
  const played = await open(`?scenario=${stem}&speed=max&autoplay=1&checkpoints=off`);
  await runToEnd(played.page);
  const end = await hookState(played.page);

  // Step event by event to the end, holding the drawing to the engine at every step.
  const stepped = await open(`?scenario=${stem}`);
  const stepTimes = [];
  const finished = async () => (await stepped.page.locator("body[data-finished='true']").count()) > 0;
  await stepUntil(stepped.page, finished, {
    each: async (t) => {
      stepTimes.push(t);
      await assertDrawing(stepped.page, `stepped to ${t} ms`);
    },
  });
  assert.deepEqual(await hookState(stepped.page), end, "stepping to the end = playing to the end");

  // Scrub back to a moment stepping visited: same state as when stepping was there.
  const moment = stepTimes.find((t) => t >= 2000);
  const steppedAgain = await open(`?scenario=${stem}`);
  await stepUntil(steppedAgain.page, (t) => t >= moment);
  const atMoment = await hookState(steppedAgain.page);
  await scrubTo(played.page, moment);
  assert.deepEqual(await hookState(played.page), atMoment, `scrubbing to ${moment} ms = stepping there`);
  await assertDrawing(played.page, `scrubbed to ${moment} ms`, { atMoment: true });
  for (const s of [played, stepped, steppedAgain]) await s.close();
});

test("after the timeline is dragged back and forth, the stage, the event log and the chart say exactly what a link to that moment opens with", async () => {
  const stem = "02-slow-consumer-duplicate";
  const log = (page) => page.evaluate(() => [
    ...[...document.querySelectorAll("#log li")].map((li) => `${li.className}|${li.dataset.type}|${li.textContent}`),
    ...[...document.querySelectorAll("#chart polyline, #chart text")].map((el) => el.getAttribute("points") ?? el.textContent),
  ]);
  const dragged = await open(`?scenario=${stem}&checkpoints=off`);
  const end = Number(await dragged.page.locator("#timeline").getAttribute("max"));
  for (const moment of [4400, end, 1200, 4400, 300, end, 2600]) {
    await scrubTo(dragged.page, moment);
    const linked = await open(`?scenario=${stem}&checkpoints=off&t=${moment}`);
    await linked.page.waitForSelector(`#clock[data-time-ms='${moment}']`);
    const expected = await log(linked.page);
    assert.ok(expected.length > 0 || moment < 500, `the log at ${moment} ms has lines`);
    assert.deepEqual(await log(dragged.page), expected, `the log and the chart at ${moment} ms`);
    assert.deepEqual(await hookState(dragged.page), await hookState(linked.page), `the stage at ${moment} ms`);
    await linked.close();
  }
  await dragged.close();
});

test("the chart drawn again with fewer, more or other samples draws what a new chart draws with them", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const mismatches = await page.evaluate(async () => {
    const { Chart } = await import("/web/views/stage/chart.js");
    const sample = (t, v) => ({ t, visible: v % 4, inFlight: (v * 3) % 4, delayed: v % 2, dlq: 0, age: 2 });
    const all = Array.from({ length: 40 }, (_, i) => sample(i * 100, i));
    const points = (chart) => [...chart.svg.querySelectorAll("polyline")].map((l) => l.getAttribute("points"));
    const drawn = (list) => {
      const chart = new Chart(document.createElement("div"));
      chart.draw(0, null, { duration: 4000, list, version: 1 });
      return points(chart);
    };
    // One chart through a drag's sequence: back (a prefix of the same samples), forward, and to other samples.
    const other = all.slice(0, 30).concat(Array.from({ length: 10 }, (_, i) => sample(3000 + i * 100, i + 7)));
    const chart = new Chart(document.createElement("div"));
    const out = [];
    [all, all.slice(0, 25), all.slice(0, 10), all, other, all.slice(0, 35)].forEach((list, n) => {
      chart.draw(0, null, { duration: 4000, list, version: n + 1 });
      if (JSON.stringify(points(chart)) !== JSON.stringify(drawn(list))) out.push(`draw ${n + 1} (${list.length} samples)`);
    });
    return out;
  });
  assert.deepEqual(mismatches, []);
  await close();
});

test("everything works by keyboard: Tab reaches the controls and Space plays", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const reached = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.id);
    if (id) reached.add(id);
  }
  for (const id of ["scenario", "play", "step", "restart", "speed", "timeline", "seed"]) {
    assert.ok(reached.has(id), `Tab reaches #${id} (reached: ${[...reached].join(", ")})`);
  }
  await page.evaluate(() => document.activeElement?.blur());
  const before = Number(await page.locator("[data-time-ms]").first().getAttribute("data-time-ms"));
  await page.keyboard.press("Space");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "true", "Space starts playing");
  await page.waitForFunction((t) => Number(document.querySelector("[data-time-ms]").dataset.timeMs) > t, before);
  await page.keyboard.press("Space");
  assert.equal(await page.locator("#play").getAttribute("aria-pressed"), "false", "Space pauses");
  await close();
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violations (${colorScheme})`, async () => {
    const { page, close } = await open("?scenario=06-fifo-message-groups&speed=1&autoplay=1", { colorScheme });
    // The run stops at 0.6 s to ask its checkpoint: the question, then the run's answer, are checked too.
    await page.waitForSelector("[data-checkpoint]");
    assert.deepEqual(await axeViolations(page), [], "with the checkpoint's question open");
    await page.locator("[data-checkpoint] .cp-choice").first().click();
    await page.waitForSelector("#checkpoint[data-checkpoint-result]");
    assert.deepEqual(await axeViolations(page), [], "with the run's answer shown");
    await page.locator("#checkpoint .cp-continue").click();
    await page.waitForFunction(() => Number(document.querySelector("[data-time-ms]").dataset.timeMs) > 1500);
    await page.locator("#play").click();
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });
}

test("a malformed scenario file gets a readable message on the page", async () => {
  const broken = scenarioText("01-process-then-delete").replace('"durationMs"', '"durationSeconds"');
  const { page, close } = await open("?scenario=01-process-then-delete", {
    routes: { "web/scenarios/01-process-then-delete.json": broken },
    readyWhen: "#error:not([hidden])",
  });
  const error = page.locator("#error");
  assert.ok(await error.isVisible());
  assert.match(await error.textContent(), /durationSeconds|durationMs/);
  await close();
});

test("an invalid setting shows the SQS error text", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const input = page.locator("[data-setting='visibilityTimeoutSeconds']").first();
  await input.fill("50000");
  await input.dispatchEvent("change");
  const error = page.locator("#error");
  await error.waitFor({ state: "visible" });
  assert.match(await error.textContent(), /VisibilityTimeout/);
  await close();
});

test("changing the visibility timeout to 5 s makes the duplicate disappear", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max&checkpoints=off");
  const input = page.locator("[data-setting='visibilityTimeoutSeconds']").first();
  await input.fill("5");
  await input.dispatchEvent("change");
  await page.locator("#play").click();
  await runToEnd(page);
  const counts = await page.evaluate(() =>
    [...document.querySelectorAll("[data-message-id][data-side-effect-count]")].map((e) => Number(e.dataset.sideEffectCount)),
  );
  assert.equal(Math.max(...counts), 1);
  await close();
});

/** Runs in the page before its scripts: records every animation it starts (Web Animations, CSS animations and transitions). */
function recordMotion() {
  window.motions = [];
  const name = (el) => `${el.nodeName.toLowerCase()}.${el.className?.baseVal ?? el.className}`;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.motions.push(`animate() on ${name(this)}`);
    return animate.apply(this, args);
  };
  for (const type of ["animationstart", "transitionrun"]) addEventListener(type, (e) => window.motions.push(`${type} on ${name(e.target)}`), true);
}

/**
 * Plays scenario 5 at 1× from 4.2 s to 6.4 s, pauses, and says what moved:
 * the poison message's third receive and processing, then its move to the DLQ.
 */
async function playAcrossTheDlqMove(options) {
  const session = await open("?scenario=05-poison-message&speed=1&t=4200&autoplay=1", { ...options, init: recordMotion });
  const { page } = session;
  assert.equal(await page.locator("#speed").inputValue(), "1", "it plays at 1×");
  await page.waitForFunction(() => Number(document.getElementById("clock").dataset.timeMs) >= 6400);
  await page.locator("#play").click();
  const motions = await page.evaluate(() => window.motions);
  return { ...session, motions };
}

/** Scrubs to 4.4 s, while worker-1 processes the poison message, and lists the animations running there. */
async function animationsWhileProcessing(page) {
  await scrubTo(page, 4400);
  assert.equal(await page.locator("[data-consumer='worker-1']").getAttribute("data-state"), "processing");
  return page.evaluate(() => document.getAnimations().map((a) => `${a.constructor.name} ${a.animationName ?? ""}`.trim()));
}

test("under reduced motion, playing at 1× animates nothing and still shows every message; screenshots are saved", async () => {
  // The same stretch with motion allowed: tokens glide and a busy worker's
  // icon spins, so these checks see motion when there is some.
  const moving = await playAcrossTheDlqMove({});
  assert.ok(moving.motions.some((m) => m.startsWith("animate() on button.token")), `tokens glide when motion is allowed (${moving.motions.join("; ")})`);
  assert.ok((await animationsWhileProcessing(moving.page)).includes("CSSAnimation spin"), "a busy worker's icon spins when motion is allowed");
  await moving.close();

  const still = await playAcrossTheDlqMove({ reducedMotion: "reduce", viewport: { width: 400, height: 800 } });
  assert.deepEqual(still.motions, [], "nothing animates under reduced motion");
  const { drawn, events } = await assertDrawing(still.page, "reduced motion, 400 px wide");
  assert.deepEqual(
    [...drawn.tokens, ...drawn.tray].filter((t) => t.shown).map((t) => t.id).sort(),
    events.filter((e) => e.type === "sent").map((e) => e.messageId).sort(),
    "every message sent is on screen, in a queue or in the tray",
  );
  assert.deepEqual(drawn.tokens.filter((t) => t.state === "dlq").map((t) => `${t.where} rc${t.rc}`), ["orders-dlq||visible rc3"], "the poison message is shown in the DLQ");
  await still.page.screenshot({ path: `${artifacts}/playground-narrow.png`, fullPage: true });
  assert.deepEqual(await animationsWhileProcessing(still.page), [], "no icon spins under reduced motion");
  await still.close();

  // The headline picture: scenario 2 while two workers hold the order.
  const wide = await open("?scenario=02-slow-consumer-duplicate&t=2600");
  await shownAt(wide.page, 2600); // a link's moment is rebuilt after the page says it is ready
  assert.equal((await assertDrawing(wide.page, "scenario 2 at 2.6 s", { atMoment: true })).drawn.banner.shown, true, "the duplicate banner is on screen");
  await wide.page.screenshot({ path: `${artifacts}/playground.png` });
  await wide.close();
});

test("a link naming no scenario says so, focuses the picker with every scenario, and a pick loads it", async () => {
  const { page, problems, close } = await open("?scenario=slow-consumr&seed=4");
  const error = await page.locator("#error-text").textContent();
  assert.match(error, /^This link asks for the scenario “slow-consumr”, and Queuelab has no scenario by that name\. Pick one in the Scenario list: 1\. process then delete; 2\. slow consumer duplicate;/);
  assert.doesNotMatch(error, /src=|<script/, "the page's words, not the element's");
  assert.equal(await page.locator("#title").textContent(), "Pick a scenario");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "scenario");
  assert.equal(await page.locator("#scenario").inputValue(), "");
  // Once the scenarios' titles have arrived, the placeholder still says what to do.
  await page.waitForFunction(() => document.querySelector("#scenario option[value='02-slow-consumer-duplicate']").textContent.includes("Slow consumer"));
  assert.equal(await page.evaluate(() => document.getElementById("scenario").selectedOptions[0].textContent), "Pick a scenario…");
  await page.locator("#scenario").selectOption("02-slow-consumer-duplicate");
  await page.waitForFunction(() => document.getElementById("title").textContent === "Slow consumer, duplicate delivery");
  assert.equal(await page.locator("#error").isVisible(), false, "the message goes with the pick");
  assert.equal(await page.locator("#scenario option[value='']").count(), 0);
  assert.deepEqual(problems, []);
  await close();
});

/** Sends `body` from Act yourself, at the run's current moment. */
async function sendByHand(page, body) {
  if (!(await page.locator("#manual-panel").evaluate((d) => d.open))) await page.locator("#manual-panel summary").click();
  // Set at once: typing 100 KB into the field would take minutes.
  await page.locator("#m-body").evaluate((el, text) => {
    el.value = text;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, body);
  await page.getByRole("button", { name: "SendMessage" }).click();
  await page.waitForFunction((n) => document.getElementById("lab").playground.events(0).filter((e) => e.type === "sent" && e.by === "you").length >= n, 1);
}

test("a share link carries a 100 KB body in its fragment, which no server sees, and opens the same run", async () => {
  const { page, close } = await open("index.html?scenario=slow-consumer&checkpoints=off");
  await page.locator("#step").click();
  const body = Array.from({ length: 4000 }, (_, i) => `line ${i}: order A-${1000 + (i % 97)} for ${(i * 7919) % 1000} units`).join("\n").slice(0, 100_000);
  assert.equal(body.length, 100_000);
  await sendByHand(page, body);
  await page.locator("#step").click();
  const want = await hookState(page);
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  const href = await page.locator("#share-url").inputValue();
  const url = new URL(href);
  assert.ok(url.search.length < 200, `the query stays short: ${url.search}`);
  assert.match(url.hash, /^#actions=1&sum=[0-9a-f]{8}&run=[\w-]+$/);
  await close();

  const seen = [];
  const shared = await open(href.slice(href.indexOf("index.html")), { init: () => {} });
  shared.page.on("request", (r) => seen.push(r.url()));
  assert.deepEqual(await hookState(shared.page), want);
  const sent = await shared.page.evaluate(() => document.getElementById("lab").playground.events(0).find((e) => e.type === "sent" && e.by === "you"));
  assert.ok(sent, "your message is in the shared run");
  assert.equal(await shared.page.evaluate((id) => document.getElementById("lab").playground.peek(id).message.body.length, sent.messageId), 100_000);
  assert.ok(seen.every((u) => !u.includes("run=")), "no request carries the run");
  assert.deepEqual(shared.problems, []);
  await shared.close();
});

test("a link cut short says it is damaged and what the scenario opened without, never silently", async () => {
  const { page, close } = await open("index.html?scenario=slow-consumer&checkpoints=off");
  await page.locator("#step").click();
  await sendByHand(page, "first of mine");
  await sendByHand(page, "second of mine");
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  const href = await page.locator("#share-url").inputValue();
  await close();
  // Cut short, and changed: a run that still decodes, but not the one its sum was made for.
  const changed = href.replace(/run=[\w-]+$/, `run=${await pack({ actions: [] })}`);
  for (const cut of [href.slice(0, -12), href.slice(0, href.indexOf("&run=") + 8), changed]) {
    const shared = await open(cut.slice(cut.indexOf("index.html")));
    assert.equal(await shared.page.locator("#error-text").textContent(), "This link is damaged (it was cut short or changed on the way): the scenario opened without your 2 actions (and any changed settings or code). Ask for the link again, or for its run file.");
    assert.equal(await shared.page.locator("#title").textContent(), "Slow consumer, duplicate delivery", "the scenario itself opens");
    assert.equal(await shared.page.evaluate(() => document.getElementById("lab").playground.events(0).some((e) => e.by === "you")), false);
    await shared.close();
  }
});

test("a run too big for a link is saved with Download run and opened again with Open run file", async () => {
  const { page, close } = await open("index.html?scenario=slow-consumer&checkpoints=off");
  await page.locator("#step").click();
  // 200 KB that does not compress: a link could not hold it.
  const body = await page.evaluate(() => {
    let x = 1;
    return Array.from({ length: 200_000 }, () => String.fromCharCode(33 + ((x = (x * 48271) % 2147483647) % 90))).join("");
  });
  await sendByHand(page, body);
  await page.locator("#step").click();
  const want = await hookState(page);
  await page.locator("#share-link").click();
  await page.waitForFunction(() => document.getElementById("share-status").textContent);
  assert.match(await page.locator("#share-status").textContent(), /^This run is \d+ KiB compressed, more than a link carries \(64 KiB\): use Download run, and Open run file to open it\.$/);
  assert.equal(await page.locator("#share-url").inputValue(), "");
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download-run").click()]);
  const file = await download.path();
  // Open it in a fresh page of another scenario.
  const other = await open("index.html?scenario=heartbeat");
  const [chooser] = await Promise.all([other.page.waitForEvent("filechooser"), other.page.locator("#open-run-button").click()]);
  await Promise.all([other.page.waitForEvent("load"), chooser.setFiles(file)]);
  await other.page.waitForSelector("body[data-ready='true']");
  assert.deepEqual(await hookState(other.page), want);
  assert.deepEqual(other.problems, []);
  await other.close();
  await close();
});

test("Act yourself on a FIFO queue: a per-message delay goes to the engine, and its refusal is shown in SQS's words", async () => {
  const { page, close } = await open("?scenario=06-fifo-message-groups");
  await page.locator("#manual-panel summary").click();
  await page.locator("#m-delay").fill("5");
  await page.getByRole("button", { name: "SendMessage" }).click();
  await page.waitForFunction(() => document.querySelector("#m-out").textContent.startsWith("SendMessage → "));
  const out = await page.locator("#m-out").textContent();
  assert.match(out, /^SendMessage → 400\n/);
  assert.match(out, /Value 5 for parameter DelaySeconds is invalid\. Reason: The request include parameter that is not valid for this queue type\./);
  // 0 is no per-message delay: accepted, as SQS accepts it.
  await page.locator("#m-delay").fill("0");
  await page.getByRole("button", { name: "SendMessage" }).click();
  await page.waitForFunction(() => document.querySelector("#m-out").textContent.startsWith("SendMessage → 200"));
  await close();
});

test("a behaviour switched on in the settings shows the values the run now has, and an unused behaviour's times stay out of sight", async () => {
  const { page, problems, close } = await open("index.html?lab=retry-storm&checkpoints=off");
  const field = (path) => page.locator(`#settings [data-path='consumers[0].behaviour.${path}']`);
  // Off, a backoff's delays and a heartbeat's time are not shown: they would say nothing.
  assert.equal(await field("retryBackoff.baseSeconds").isVisible(), false);
  assert.equal(await page.locator("#settings #c0-heartbeatEveryMs").isVisible(), false);
  await field("retryImmediately").uncheck();
  await page.waitForFunction(() => document.querySelector("[data-changed]")?.textContent.includes("immediate retry"));
  await field("retryBackoff").check();
  await page.waitForFunction(() => document.querySelector("[data-changed]")?.textContent.includes("retry backoff"));
  // Switched on, the delays show the values the run was restarted with (the engine's minimums), as the card says.
  assert.equal(await field("retryBackoff.baseSeconds").isVisible(), true);
  assert.equal(await field("retryBackoff.baseSeconds").inputValue(), "1");
  assert.equal(await field("retryBackoff.maxSeconds").inputValue(), "1");
  assert.match(await page.locator("[data-consumer='worker-1'] .c-traits").textContent(), /backs off 1 s after a failure, doubling up to 1 s/);
  assert.match(await page.locator("[data-changed]").textContent(), /backoff's first delay 1 s, backoff's longest delay 1 s/);
  assert.deepEqual(problems, []);
  await close();
});

test("a scenario whose workers have no behaviour object still offers every behaviour in the settings, each time field with its box", async () => {
  const { page, problems, close } = await open("index.html?scenario=slow-consumer&checkpoints=off");
  const form = page.locator("#settings");
  // Scenario 2's workers say nothing of behaviours; the form offers them all, off.
  assert.equal(await form.locator("#c0-heartbeatEveryMs-on").count(), 1);
  assert.equal(await form.locator("[data-path='consumers[0].behaviour.idempotent']").count(), 1);
  assert.equal(await form.locator("[data-path='consumers[0].behaviour.retryBackoff']").count(), 1);
  // No field of a switched behaviour stands without its box.
  const orphans = await form.evaluate((f) =>
    [...f.querySelectorAll("[data-in-switch]")]
      .filter((el) => !f.querySelector(`[data-switch="${el.dataset.inSwitch}"][data-consumer-index="${el.dataset.consumerIndex}"]`))
      .map((el) => el.id),
  );
  assert.deepEqual(orphans, []);
  assert.deepEqual(problems, []);
  await close();
});
