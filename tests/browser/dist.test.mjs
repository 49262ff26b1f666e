// dist/queuelab.js, the one-file build (scripts/build-dist.mjs): a course
// author's lesson needs one classic <script src>, opened from disk or
// served by another origin that sends no CORS headers, and the element
// behaves as the module build does (the same run, and trap containment).
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startServer } from "../../scripts/static-server.mjs";
import { baseUrl, hookState, open, root, scaled } from "./harness.mjs";

/** A lesson page with two elements, loading Queuelab with `script` (an HTML tag). */
const lesson = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title></head>
<body><main><h1>Visibility timeouts</h1>
<queue-lab id="dup" scenario="slow-consumer" seed="3" speed="max" checkpoints="off" controls="play step restart speed timeline"></queue-lab>
<queue-lab id="fifo" scenario="fifo-message-groups" speed="max" checkpoints="off"></queue-lab>
</main>${script}</body></html>`;

/** A folder holding `lesson.html` (and, when asked, a copy of dist/queuelab.js beside it). */
function lessonFolder(script, { withDist = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "queuelab-lesson-"));
  writeFileSync(join(dir, "lesson.html"), lesson(script));
  if (withDist) copyFileSync(join(root, "dist/queuelab.js"), join(dir, "queuelab.js"));
  return dir;
}

/** Plays element `id` to its end and gives what it shows. */
async function playToEnd(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-ready='true']`, { timeout: scaled(20_000) });
  await page.evaluate((i) => document.getElementById(i).controls.play(), id);
  await page.waitForSelector(`#${id}[data-finished='true']`, { timeout: scaled(30_000) });
  return hookState(page, id);
}

test("a lesson opened by double-click (file://) plays <queue-lab> from dist/queuelab.js, the same run as the module build", async () => {
  const dir = lessonFolder(`<script src="queuelab.js"></script>`, { withDist: true });
  try {
    const countFetches = () => {
      window.fetches = [];
      const fetch = window.fetch;
      window.fetch = (...args) => (window.fetches.push(String(args[0])), fetch(...args));
    };
    const fromDisk = await open("lesson.html", { base: pathToFileURL(dir).href + "/", readyWhen: "queue-lab", init: countFetches });
    const shown = await playToEnd(fromDisk.page, "dup");
    assert.ok(shown.tokens.length > 0, "the stage draws the scenario's messages");
    assert.deepEqual(await fromDisk.page.evaluate(() => window.fetches), [], "the engine, styles and scenario come from inside the script");
    assert.deepEqual(fromDisk.problems, []);
    await fromDisk.close();

    // The module build, served, shows the same moment of the same run.
    const served = await open("lesson.html", {
      routes: { "lesson.html": { body: lesson(`<script type="module" src="${baseUrl}web/queue-lab.js"></script>`), contentType: "text/html" } },
      readyWhen: "queue-lab",
    });
    assert.deepEqual(await playToEnd(served.page, "dup"), shown);
    await served.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("from another origin that sends no CORS headers, dist/queuelab.js runs where the module build cannot load", async () => {
  const dir = lessonFolder(`<script src="${baseUrl}dist/queuelab.js"></script>`);
  // The script element's error event: the browser refused the module (the positive signal that it will never run).
  const moduleDir = lessonFolder(`<script type="module" src="${baseUrl}web/queue-lab.js" onerror="document.documentElement.dataset.refused = 'true'"></script>`);
  const course = await startServer(dir);
  const moduleCourse = await startServer(moduleDir);
  try {
    assert.notEqual(new URL(course.url).origin, new URL(baseUrl).origin, "the lesson is on another origin");
    const { page, problems, close } = await open("lesson.html", { base: course.url, readyWhen: "queue-lab" });
    const shown = await playToEnd(page, "fifo");
    assert.ok(shown.tokens.length > 0);
    assert.deepEqual(problems, []);
    await close();

    // The control: the same lesson with the module build stays dead (its script is refused without CORS headers).
    const mod = await open("lesson.html", { base: moduleCourse.url, readyWhen: "html[data-refused='true']" });
    assert.equal(await mod.page.evaluate(() => customElements.get("queue-lab") === undefined), true, "a cross-origin module script needs CORS");
    await mod.close();
  } finally {
    course.server.close();
    moduleCourse.server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(moduleDir, { recursive: true, force: true });
  }
});

test("a trap in one dist/queuelab.js element leaves the other running on a fresh engine made from the same file", async () => {
  const dir = lessonFolder(`<script src="queuelab.js"></script>`, { withDist: true });
  try {
    const { page, problems, close } = await open("lesson.html", { base: pathToFileURL(dir).href + "/", readyWhen: "queue-lab" });
    for (const id of ["dup", "fifo"]) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForSelector(`#${id}[data-ready='true']`, { timeout: scaled(20_000) });
    }
    const broke = await page.evaluate(() => {
      window.before = document.getElementById("fifo").playground;
      document.getElementById("dup").playground.__wbg_ptr = 0xffff_fff0; // out of memory's bounds: a genuine trap (containment.test.mjs)
      try {
        document.getElementById("dup").controls.step();
        return "no error";
      } catch (e) {
        return e.name;
      }
    });
    assert.equal(broke, "EngineTrap");
    await page.waitForFunction(() => document.getElementById("fifo").playground && document.getElementById("fifo").playground !== window.before);
    await page.locator("#fifo").evaluate((el) => el.controls.step());
    assert.ok((await page.evaluate(() => document.getElementById("fifo").playground.now())) > 0, "the bystander runs on its fresh engine");
    await page.locator("#dup").evaluate((el) => el.controls.restart());
    await page.locator("#dup").evaluate((el) => el.controls.step());
    assert.ok((await page.evaluate(() => document.getElementById("dup").playground.now())) > 0, "Restart brings the broken one back");
    assert.deepEqual(problems.filter((p) => !/EngineTrap/.test(p)), []);
    await close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("fallback content inside <queue-lab> shows until the element starts, and stays, with the error in words, when it cannot start", async () => {
  const page = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fallback</title></head><body><main>
<div style="height: 1500px">Scroll down for the playground.</div>
<queue-lab id="later" scenario="slow-consumer"><p class="fb">Picture: a message charged twice.</p></queue-lab>
<queue-lab id="broken" src="missing.json"><p class="fb">Picture: the dead-letter queue.</p></queue-lab>
</main>${script}</body></html>`;
  const dir = mkdtempSync(join(tmpdir(), "queuelab-fallback-"));
  writeFileSync(join(dir, "lesson.html"), page(`<script src="queuelab.js"></script>`));
  writeFileSync(join(dir, "no-script.html"), page(`<script src="nowhere/queuelab.js"></script>`));
  copyFileSync(join(root, "dist/queuelab.js"), join(dir, "queuelab.js"));
  const course = await startServer(dir);
  const shown = (p, id) => p.evaluate((i) => document.querySelector(`#${i} .fb`).getClientRects().length > 0, id);
  try {
    const { page: p, problems, close } = await open("lesson.html", { base: course.url, readyWhen: "h1, main" });
    await p.waitForFunction(() => customElements.get("queue-lab"));
    assert.equal(await shown(p, "later"), true, "below the fold, not started: the fallback shows");
    await p.locator("#later").scrollIntoViewIfNeeded();
    await p.waitForSelector("#later[data-ready='true']", { timeout: scaled(20_000) });
    assert.equal(await shown(p, "later"), false, "started: the playground replaces it");
    await p.locator("#broken").scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.getElementById("broken").shadowRoot.querySelector(".boot.failed"));
    assert.equal(await shown(p, "broken"), true, "it cannot start: the fallback stays");
    assert.match(await p.evaluate(() => document.getElementById("broken").shadowRoot.querySelector("[role=alert]").textContent), /^Queuelab: Could not load src="missing.json" from .*missing\.json: HTTP 404/);
    assert.deepEqual(problems, []);
    await close();

    // The script itself missing: the browser shows what is inside the unknown element.
    const none = await open("no-script.html", { base: course.url, readyWhen: "main" });
    assert.equal(await shown(none.page, "later"), true);
    await none.close();
  } finally {
    course.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a lab from dist/queuelab.js opened from disk shows its goal and checks a fix with no fetch", async () => {
  const dir = mkdtempSync(join(tmpdir(), "queuelab-lab-"));
  writeFileSync(join(dir, "lab.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A lab</title></head>
<body><main><queue-lab id="fix" lab="duplicate-orders" checkpoints="off"></queue-lab></main><script src="queuelab.js"></script></body></html>`);
  copyFileSync(join(root, "dist/queuelab.js"), join(dir, "queuelab.js"));
  try {
    const { page, problems, close } = await open("lab.html", { base: pathToFileURL(dir).href + "/", readyWhen: "#fix[data-ready='true']" });
    assert.equal(await page.locator("#fix").getAttribute("data-lab"), "duplicate-orders");
    assert.equal(await page.locator("#fix #goal-conditions li").count(), 3);
    const check = await page.evaluate(async () => {
      const lab = document.getElementById("fix").lab;
      lab.settings = { visibility: 10 };
      return lab.checkGoal();
    });
    assert.equal(check.met, true, check.summary);
    assert.deepEqual(problems, []);
    await close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
