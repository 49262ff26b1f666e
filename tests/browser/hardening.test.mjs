// Issue 10 on the page: no link freezes the tab, a heavy link asks first,
// other sites cannot frame the full page, code from a link asks before it
// runs, and the element snippet cannot swallow the page it is pasted in.
// Every assertion is on state (what the page shows and holds), never on
// how long something took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, clockMs, open } from "./harness.mjs";
import { deflateRawSync } from "node:zlib";
import { checksum, elementSnippet, pack } from "../../web/page/share.js";

/**
 * The 146 bytes: one consumer short-polling an empty queue every
 * millisecond. Its 35 days are now refused by the engine as a whole
 * (limits().maxScenarioWork); 5 hours is about the most it accepts (about
 * 4.5 units of work a poll), and still 18 million polls: minutes of this
 * computer's work.
 */
const POLL_EVERY_MS = {
  title: "An empty queue polled every millisecond",
  durationMs: 5 * 3_600_000,
  queues: [{ name: "q" }],
  consumers: [{ name: "c", queue: "q", pollIntervalMs: 1, processing: { fixedMs: 1 } }],
};
const pollLink = async (params) => `index.html?scenario=01-process-then-delete&run=${await pack({ scenario: POLL_EVERY_MS })}&${params}`;

/** What the page and its engine say now: the clock, the engine's time, playing, the replay bar. */
const state = (page) =>
  page.evaluate(() => ({
    clock: Number(document.getElementById("clock").dataset.timeMs),
    engine: document.getElementById("lab").playground.now(),
    playing: document.getElementById("play").getAttribute("aria-pressed") === "true",
    replaying: !document.getElementById("replay-progress").hidden,
  }));

// A small file, a huge run: one consumer polling an empty queue every 1 ms
// for 35 days is 146 bytes of scenario and billions of steps.
test("a link to a moment billions of steps away opens paused and asks first; agreed, it replays in slices the page answers between, clamped to the run, and Cancel stops it part way", async () => {
  const { page, problems, close } = await open(await pollLink("t=3000000000&speed=max&autoplay=1"));
  // A link this heavy opens paused and asks first, in plain words.
  const notice = page.locator("#link-notice");
  await notice.waitFor();
  assert.match(await notice.textContent(), /This link replays about [\d.]+ (billion|million) steps of simulation, which could take .+ on this computer/);
  assert.deepEqual(await state(page), { clock: 0, engine: 0, playing: false, replaying: false }, "paused at the start: no autoplay until the learner agrees");

  await page.locator("#link-run").click();
  await page.locator("#replay-progress").waitFor();
  assert.match(await page.locator("#error-text").textContent(), /t=3000000000 ms, outside this run .* so it stands for the run's end instead/, "the moment past the run is clamped, saying so");
  assert.match(await page.locator("#replay-label").textContent(), /Replaying to 5 h: at .+ \((\d+%|under 1%)\)/);
  // The page answers while the replay runs: a click takes effect and the replay moves on between two questions.
  const first = await state(page);
  await page.locator("#log-routine").click();
  assert.equal(await page.locator("#log-routine").isChecked(), true, "a click is handled during the replay");
  await page.waitForFunction((t) => document.getElementById("lab").playground.now() > t, first.engine);
  assert.equal((await state(page)).replaying, true, "and the replay is still going");

  await page.locator("#replay-cancel").click();
  const stopped = await state(page);
  assert.equal(stopped.replaying, false, "Cancel hides the bar");
  assert.equal(stopped.playing, false, "and leaves the run paused (autoplay does not go on)");
  assert.ok(stopped.engine > first.engine && stopped.engine < POLL_EVERY_MS.durationMs, `it stopped part way (${stopped.engine} ms)`);
  assert.equal(stopped.clock, stopped.engine, "the clock shows where it stopped");
  // Still usable: a step moves on from there.
  await page.locator("#step").click();
  assert.ok((await clockMs(page)) > stopped.engine, "Step works after a cancelled replay");
  assert.deepEqual(problems, []);
  await close();
});

test("a heavy link that only autoplays at the fastest speed asks too; Stay at the start leaves it paused, and Play then runs in slices the page answers between", async () => {
  const { page, problems, close } = await open(await pollLink("speed=max&autoplay=1"));
  await page.locator("#link-notice").waitFor();
  assert.match(await page.locator("#link-notice").textContent(), /This link plays, at the fastest speed, about/);
  await page.locator("#link-stay").click();
  assert.equal(await page.locator("#link-notice").count(), 0);
  assert.deepEqual(await state(page), { clock: 0, engine: 0, playing: false, replaying: false });

  await page.locator("#play").click();
  await page.waitForFunction(() => document.getElementById("lab").playground.now() > 0);
  const before = await state(page);
  await page.locator("#log-routine").click();
  assert.equal(await page.locator("#log-routine").isChecked(), true, "a click is handled while it plays at full speed");
  await page.waitForFunction((t) => document.getElementById("lab").playground.now() > t, before.engine);
  await page.locator("#play").click();
  const paused = await state(page);
  assert.equal(paused.playing, false, "Pause stops it");
  assert.ok(paused.engine < POLL_EVERY_MS.durationMs, "part way through the 35 days");
  assert.equal(paused.clock, paused.engine, "and the clock shows where");
  assert.deepEqual(problems, []);
  await close();
});

test("a link to t = 2^53 opens at the run's end, saying the moment was outside the run", async () => {
  const { page, close } = await open(`index.html?scenario=01-process-then-delete&t=${2 ** 53}`);
  await page.waitForSelector("body[data-finished='true']");
  assert.equal(await clockMs(page), 12_000, "the moment is clamped to the run's end");
  assert.match(await page.locator("#error-text").textContent(), /t=9007199254740992 ms, outside this run \(0 to 12000 ms.*so it stands for the run's end instead/);
  await close();
});

/** A link to scenario 1 at `t` whose fragment carries `run` (packed) and says it holds `actions` actions, as the page's own links do. */
const fragmentLink = (run, actions, t = 0) => `index.html?scenario=01-process-then-delete&t=${t}#${new URLSearchParams({ actions: String(actions), sum: checksum(run), run })}`;

test("a link whose run unpacks past 4 MiB opens its scenario with the damaged-link message naming the bound, and the page works", async () => {
  // 64 MiB of JSON in a 65 KB link: inflating stops at 4 MiB (the 543 KB link of 400 MB crashed the tab).
  const run = deflateRawSync(Buffer.from(`{"code":"${"0".repeat(64 * 1024 * 1024)}"}`), { level: 9 }).toString("base64url");
  const { page, problems, close } = await open(fragmentLink(run, 0));
  assert.equal(
    await page.locator("#error-text").textContent(),
    "This link is damaged (its run is larger than 4 MiB once unpacked, more than Queuelab opens): the scenario opened without the run's changes and code. Ask for a shorter run.",
  );
  assert.equal(await page.locator("#code-origin").isVisible(), false, "no code from the link is shown");
  await page.locator("#step").click();
  assert.ok((await clockMs(page)) > 0, "the scenario runs: Step moves it on");
  assert.deepEqual(problems, []);
  await close();
});

test("a link of 40,002 actions at one moment replays the first 20,000 in slices the page answers between, saying what it left out", async () => {
  const actions = Array.from({ length: 40_002 }, (_, i) => ({ t: 0, op: "SendMessage", body: { QueueUrl: "orders", MessageBody: `m${i}` }, caller: "you" }));
  // From the page's start, a task of its own waits until the replay is part way (over 1,000
  // events, read cheaply from a snapshot without messages) and clicks the checkbox: it runs
  // only if the replay gives the browser its turn between slices. It lives in the page, so a
  // fast machine cannot finish the replay between the test's round trips.
  const init = () => {
    const tick = () => {
      const lab = document.getElementById("lab");
      if (!lab?.playground || lab.playground.snapshot({ messagesPerQueue: 0 }).nextEventSeq <= 1000) {
        return setTimeout(tick, 0);
      }
      document.getElementById("log-routine").click();
      window.__during = lab.playground.events(0).filter((e) => e.type === "sent" && e.by === "you").length;
    };
    addEventListener("DOMContentLoaded", tick);
  };
  const { page, problems, close } = await open(fragmentLink(await pack({ actions }), actions.length, 1), { init });
  assert.equal(
    await page.locator("#error-text").textContent(),
    "This link carries 40,002 recorded actions, more than a link replays (20,000): the run makes the first 20,000, so from t = 0.0 s it may differ from the run that was shared.",
  );
  await page.waitForFunction(() => window.__during !== undefined);
  const during = { yours: await page.evaluate(() => window.__during) };
  assert.equal(await page.locator("#log-routine").isChecked(), true, "a click is handled during the replay");
  assert.ok(during.yours < 20_000, `the click was handled before the replay's end (${during.yours} actions made)`);
  await page.waitForFunction(() => document.getElementById("replay-progress").hidden && document.getElementById("lab").playground.now() === 1);
  const sent = await page.evaluate(() => document.getElementById("lab").playground.events(0).filter((e) => e.type === "sent" && e.by === "you").length);
  assert.equal(sent, 20_000, "the first 20,000 actions were made, each once");
  assert.deepEqual(problems, []);
  await close();
});

test("a link's recorded actions count in the work it asks before: just under the limit without them, over it with 10,000", async () => {
  // 400 s of polling every millisecond: the engine estimates 1.8 million units (4.5 a poll), under limits().maxWorkWithoutAsking (2 million).
  const [scenario, t] = [POLL_EVERY_MS, 400_000];
  const plain = await open(fragmentLink(await pack({ scenario }), 0, t));
  assert.equal(await plain.page.locator("#link-notice").count(), 0, "without actions it replays without asking");
  await plain.close();

  const actions = Array.from({ length: 10_000 }, (_, i) => ({ t: 0, op: "SendMessage", body: { QueueUrl: "q", MessageBody: `m${i}` }, caller: "you" }));
  const { page, problems, close } = await open(fragmentLink(await pack({ scenario, actions }), actions.length, t));
  await page.locator("#link-notice").waitFor();
  assert.match(await page.locator("#link-notice-text").textContent(), /^This link replays about 2\.1 million steps of simulation/, "10,000 actions add 300,000 units");
  await page.locator("#link-stay").click();
  assert.deepEqual(await state(page), { clock: 0, engine: 0, playing: false, replaying: false });
  assert.deepEqual(problems, []);
  await close();
});

test("a replay cancelled among a link's actions at one moment leaves the rest for Step, which makes them in slices too", async () => {
  const actions = Array.from({ length: 20_000 }, (_, i) => ({ t: 0, op: "SendMessage", body: { QueueUrl: "orders", MessageBody: `m${i}` }, caller: "you" }));
  // A school laptop's pace (Chromium's CPU throttled 8×) from before the
  // page loads: Cancel lands among the actions, and the rest take more than
  // one slice, whatever this machine's speed (throttled only once the
  // replay had begun, a fast run left a few hundred, made in one slice, and
  // the test could not see Step slice them).
  const throttle = async (page) => (await page.context().newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: 8 });
  const { page, problems, close } = await open(fragmentLink(await pack({ actions }), actions.length, 1), { prepare: throttle });
  const yours = () => page.evaluate(() => document.getElementById("lab").playground.events(0).filter((e) => e.type === "sent" && e.by === "you").length);
  await page.locator("#replay-cancel").click();
  const cancelled = await yours();
  assert.ok(cancelled < 20_000, `Cancel stopped among the actions (${cancelled} made)`);
  // A request of yours now would have to make the rest first, in one go: it is refused, saying what to do.
  await page.locator("#manual-panel summary").click();
  await page.getByRole("button", { name: "SendMessage" }).click();
  assert.equal(await page.locator("#error-text").textContent(), `SendMessage could not be sent: The replay was cancelled with ${20_000 - cancelled} recorded actions of this moment still to make; press Step to make them, then send again.`);
  assert.equal(await yours(), cancelled, "and nothing was made");
  // Counted from the new events only at each frame: reading all 20,000 at
  // every frame (8× throttled) took longer than Step's slices, so a poll
  // could miss the frames between them.
  await page.evaluate((made) => {
    const seq = document.getElementById("lab").playground.events(0).at(-1)?.seq ?? 0;
    window.stepCount = { seq, made };
  }, cancelled);
  await page.locator("#step").click();
  // Step's work runs as a replay onward: the page draws frames between its slices, with some of the rest made and not all.
  await page.waitForFunction((from) => {
    const count = window.stepCount;
    for (const e of document.getElementById("lab").playground.events(count.seq)) {
      count.seq = e.seq;
      if (e.type === "sent" && e.by === "you") count.made++;
    }
    return count.made > from && count.made < 20_000;
  }, cancelled, { polling: "raf" });
  await page.waitForFunction(() => document.getElementById("replay-progress").hidden);
  assert.equal(await yours(), 20_000, "Step made the rest, each once");
  assert.deepEqual(problems, []);
  await close();
});

/**
 * Another site framing `src`: the course page served as http://localhost:…
 * (another origin than the tests' http://127.0.0.1:…, and still loopback,
 * so the browser's private-network rules do not block the frame for other
 * reasons) with an iframe added. `before(page)` runs before the frame loads.
 */
async function framed(src, { before = async () => {} } = {}) {
  const s = await open("web/examples/course.html", { base: baseUrl.replace("127.0.0.1", "localhost"), readyWhen: "article" });
  await before(s.page);
  await s.page.evaluate((src) => {
    const f = Object.assign(document.createElement("iframe"), { src, width: 900, height: 600 });
    f.onload = () => (document.body.dataset.loaded = "1");
    document.body.prepend(f);
  }, src);
  await s.page.waitForSelector("body[data-loaded='1']");
  return { ...s, frame: await (await s.page.$("iframe")).contentFrame() };
}

test("another origin cannot frame the full page: the server's frame-ancestors blocks it, and where a host sends no headers the page replaces itself with a notice", async () => {
  const code = await pack({ code: "globalThis.ran = true;" });
  const full = `${baseUrl}index.html?scenario=01-process-then-delete&run=${code}`;
  const blocked = await framed(full);
  assert.match(blocked.frame.url(), /^chrome-error:/, "with the header the browser refuses the frame");
  assert.equal(await blocked.frame.locator("#lab, #code-run").count(), 0, "and shows nothing of Queuelab");
  await blocked.close();

  // A static host that cannot send headers: only the page's own check stands.
  const s = await framed(full, {
    before: (page) =>
      page.route(`${baseUrl}index.html*`, async (route) => {
        const res = await route.fetch();
        const headers = { ...res.headers() };
        delete headers["content-security-policy"];
        delete headers["x-frame-options"];
        await route.fulfill({ response: res, headers });
      }),
  });
  const frame = s.frame;
  await frame.waitForSelector("#frame-notice");
  assert.match(await frame.locator("#frame-notice").textContent(), /only runs in a tab of its own/);
  assert.equal(await frame.locator("#code-run, #lab").count(), 0, "no Run button, no lab");
  const open_ = frame.locator("#frame-open");
  assert.equal(await open_.getAttribute("href"), full, "the link opens the same run");
  assert.equal(await open_.getAttribute("target"), "_blank");
  await s.close();
});

test("the embed view stays frameable by any site and has no Run button, even for code in the link; the same origin may frame the full page", async () => {
  const code = await pack({ code: "globalThis.ran = true;" });
  const { frame, close } = await framed(`${baseUrl}index.html?embed=1&scenario=01-process-then-delete&run=${code}`);
  await frame.waitForSelector("body[data-ready='true']");
  assert.equal(await frame.locator("#play").count(), 1, "the embed view runs in another site's iframe");
  assert.equal(await frame.locator("#code-run, #code-text, #frame-notice").count(), 0, "and shows no code cell");
  await close();

  const same = await open("web/examples/course.html", { readyWhen: "article" });
  await same.page.evaluate((src) => document.body.append(Object.assign(document.createElement("iframe"), { src, width: 900, height: 600 })), `${baseUrl}index.html?scenario=01-process-then-delete`);
  const inner = await (await same.page.waitForSelector("iframe")).contentFrame();
  await inner.waitForSelector("body[data-ready='true']");
  assert.equal(await inner.locator("#code-run").count(), 1, "a same-origin frame gets the whole page");
  await same.close();
});

test("code from a link says where it came from and runs only after an explicit confirmation", async () => {
  const code = "globalThis.ran = (globalThis.ran ?? 0) + 1;";
  const { page, problems, close } = await open(`index.html?scenario=01-process-then-delete&run=${await pack({ code })}`);
  const ran = () => page.evaluate(() => globalThis.ran);
  assert.equal(await page.locator("#code-origin").textContent(), "This code came from the link you opened; read it before you run it.");
  assert.equal(await page.locator("#code-origin").isVisible(), true);

  await page.locator("#code-run").click();
  assert.equal(await page.locator("#code-confirm").isVisible(), true, "Run asks first");
  assert.equal(await ran(), undefined, "and has not run the code");
  await page.locator("#code-confirm-cancel").click();
  assert.equal(await page.locator("#code-confirm").isVisible(), false);
  await page.locator("#code-text").press("Control+Enter"); // the shortcut asks too
  assert.equal(await page.locator("#code-confirm").isVisible(), true);
  assert.equal(await ran(), undefined, "Not now and the shortcut ran nothing");

  await page.locator("#code-confirm-run").click();
  await page.waitForSelector("#code-status:text('Finished')");
  assert.equal(await ran(), 1, "Run it runs it, once");
  await page.locator("#code-run").click();
  await page.waitForFunction(() => globalThis.ran === 2);
  assert.equal(await page.locator("#code-confirm").isVisible(), false, "after one confirmed run, Run runs");
  assert.deepEqual(problems, []);
  await close();
});

test("the Embed… snippet escapes < in its JSON: narration with <!--<script cannot swallow the page it is pasted into", async () => {
  const scenario = { title: "Tricky", durationMs: 1000, queues: [{ name: "q" }], narration: [{ atMs: 0, text: "a <!--<script> and a </script> in the text" }] };
  const text = JSON.stringify(scenario);
  const snippet = elementSnippet(`${baseUrl}dist/queuelab.js`, { stem: null, state: { text, fileText: "{}", scenario, speed: "1", journal: [] } });
  assert.ok(!/<!--<script/.test(snippet), "no raw <!--<script in the snippet");
  const host = `<!doctype html><title>a course</title><h1>Lesson</h1>${snippet}<p id="after">The rest of the lesson.</p>`;
  const { page, close } = await open("lesson.html", { routes: { "lesson.html": { contentType: "text/html", body: host } }, readyWhen: "queue-lab[data-ready='true']" });
  assert.equal(await page.locator("#after").textContent(), "The rest of the lesson.", "the host page after the snippet survives");
  assert.equal(await page.locator("queue-lab #narration").textContent(), scenario.narration[0].text, "and the element reads the text exactly");
  await close();
});

test("while a link's replay runs in slices, the stage and the event log keep the moment they drew, marked busy, and draw the moment reached once at its end", async () => {
  const actions = Array.from({ length: 40_002 }, (_, i) => ({ t: 0, op: "SendMessage", body: { QueueUrl: "orders", MessageBody: `m${i}` }, caller: "you" }));
  // Every change to the stage's rows or the log, counted while the replay's progress bar shows.
  // (and whether the stage and the log were marked busy then).
  const init = () => {
    Object.assign(window, { __drawnDuringReplay: 0, __busy: new Set() });
    new MutationObserver((records) => {
      if (document.getElementById("replay-progress")?.hidden !== false) return;
      for (const r of records) if (r.attributeName !== "aria-busy" && r.target.closest?.("#log, #rows")) window.__drawnDuringReplay++;
      window.__busy.add(["stage", "log"].map((id) => document.getElementById(id).getAttribute("aria-busy")).join());
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  };
  const { page, problems, close } = await open(fragmentLink(await pack({ actions }), actions.length, 1), { init });
  await page.locator("#replay-progress").waitFor();
  await page.waitForFunction(() => document.getElementById("replay-progress").hidden && document.getElementById("lab").playground.now() === 1);
  assert.equal(await page.evaluate(() => window.__drawnDuringReplay), 0, "nothing in the stage's rows or the log changed while the replay ran");
  assert.deepEqual(await page.evaluate(() => [...window.__busy]), ["true,true"], "the stage and the log said they were not the moment yet");
  // At its end, one draw of the moment reached: the busy marks gone, the log's newest lines your sends, the queue's count on the stage.
  assert.deepEqual(await page.evaluate(() => [document.getElementById("stage").hasAttribute("aria-busy"), document.getElementById("log").hasAttribute("aria-busy")]), [false, false]);
  assert.match(await page.locator("#log li").last().textContent(), /m19999/);
  assert.ok((await page.locator("#log li").count()) > 0);
  assert.equal(await page.locator("#rows [data-message-id][data-state]").count() > 0, true, "the stage draws the queue's messages");
  assert.deepEqual(problems, []);
  await close();
});

test("past the first 10,000 messages' side effects, the ledger and the recap say the details of the rest were not kept", async () => {
  const n = 10_050;
  const scenario = JSON.stringify({
    title: `${n} orders`,
    durationMs: n + 2000,
    queues: [{ name: "orders" }],
    producers: [{ name: "shop", queue: "orders", rate: { everyMs: 1, count: n, body: "order {n}" } }],
    consumers: [{ name: "worker-1", queue: "orders", batchSize: 10, processing: { fixedMs: 0 }, sideEffect: "charged" }],
  });
  const { page, problems, close } = await open(`index.html?scenario=01-process-then-delete&t=${n + 2000}`, { routes: { "web/scenarios/01-process-then-delete.json": scenario } });
  await page.waitForSelector("body[data-finished='true']");
  const note = page.locator("#ledger-omitted");
  await note.waitFor();
  assert.equal(await note.textContent(), "Details of 50 more messages not kept: the ledger keeps the first 10,000.");
  assert.equal(await page.locator("#outcome .fx-omitted").textContent(), "…and details of 50 more messages not kept: the ledger keeps the first 10,000.");
  assert.equal(await page.locator("#outcome .effects li:not(.fx-omitted)").count(), 10_000, "the recap lists the kept messages");
  assert.deepEqual(problems, []);
  await close();
});
