// Containment of an engine trap (web/engine/engine.js, web/lab/lab.js): one
// playground's wasm trap must not take the others on the page down.
//
// How a test breaks one engine for real: a Playground is a JS object
// holding `__wbg_ptr`, the address of its Rust state in wasm memory. The
// test points it past the end of memory (0xFFFFFFF0), so the next call into
// the engine reads out of bounds and the instance traps with a genuine
// `WebAssembly.RuntimeError: memory access out of bounds`, the same error
// the 1,150-queue dead-letter chain of issue 10 gave. Nothing in the page
// is replaced or mocked; only that one pointer is corrupted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, scaled } from "./harness.mjs";

const BAD_POINTER = 0xffff_fff0;

const clock = (page, id) => page.locator(`#${id} #clock`).getAttribute("data-time-ms").then(Number);

async function start(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#${id}[data-ready='true']`);
}

test("a trap in one <queue-lab> leaves the other playing: it is rebuilt by replay on a fresh engine, and the broken one shows its error and fires queuelab-error", async () => {
  const { page, problems, close } = await open("web/examples/course.html", { readyWhen: "#lab-duplicates[data-ready='true']" });
  await start(page, "lab-duplicates");
  await start(page, "lab-dlq");
  // The bystander plays at 1x; wait until its clock has moved.
  await page.locator("#lab-dlq #play").click();
  await page.waitForFunction(() => Number(document.getElementById("lab-dlq").shadowRoot.getElementById("clock").dataset.timeMs) > 300);

  const broke = await page.evaluate((ptr) => {
    const victim = document.getElementById("lab-duplicates");
    const other = document.getElementById("lab-dlq");
    window.errors = [];
    for (const el of [victim, other]) el.addEventListener("queuelab-error", (e) => window.errors.push({ id: el.id, ...e.detail }));
    window.before = other.playground;
    window.beforeMs = other.playground.now();
    victim.playground.__wbg_ptr = ptr; // see the file comment
    try {
      victim.controls.step();
      return "no error";
    } catch (e) {
      return `${e.name}: ${e.message}`;
    }
  }, BAD_POINTER);
  assert.match(broke, /^EngineTrap: The engine stopped with an internal error while .*WebAssembly trap: memory access out of bounds/);

  // The broken one: its error in its box, in words, and one queuelab-error saying it was a trap.
  const errors = await page.evaluate(() => window.errors);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].id, "lab-duplicates");
  assert.equal(errors[0].trap, true);
  assert.equal(typeof errors[0].during, "string");
  assert.match(errors[0].message, /The engine stopped with an internal error .* other playgrounds on the page carry on\. Press Restart/);
  assert.equal(await page.locator("#lab-duplicates #error-text").textContent(), errors[0].message);
  assert.equal(await page.locator("#lab-duplicates #error").isVisible(), true);
  assert.equal(await page.evaluate(() => document.getElementById("lab-duplicates").playground), null);

  // The other: a new engine, rebuilt to where it was (not back at 0), and still playing.
  await page.waitForFunction(() => document.getElementById("lab-dlq").playground && document.getElementById("lab-dlq").playground !== window.before);
  const resumedAt = await page.evaluate(() => document.getElementById("lab-dlq").playground.now());
  const beforeMs = await page.evaluate(() => window.beforeMs);
  assert.ok(resumedAt >= beforeMs, `rebuilt at ${resumedAt} ms, it was at ${beforeMs} ms`);
  await page.waitForFunction((t) => Number(document.getElementById("lab-dlq").shadowRoot.getElementById("clock").dataset.timeMs) > t + 500, resumedAt, { timeout: scaled(15_000) });
  const listed = await page.evaluate(() => document.getElementById("lab-dlq").sqs.listQueues({}));
  assert.ok(listed.QueueUrls.length >= 2, "it answers el.sqs calls");
  assert.equal(await page.locator("#lab-dlq #error").isVisible(), false, "the bystander shows no error");
  const wasmLoads = await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length);
  assert.equal(wasmLoads, 1, "the fresh instance reuses the compiled module: nothing is downloaded again");

  // Restart brings the broken one back, on the fresh engine.
  await page.locator("#lab-duplicates #restart").click();
  await page.locator("#lab-duplicates #step").click();
  assert.ok((await clock(page, "lab-duplicates")) > 0, "the broken playground runs again after Restart");
  assert.deepEqual(problems, [], "no error escapes: the trap is caught and said in the broken playground's box");
  await close();
});

test("a trap on the full page stops its lab with a plain message, and Restart runs the scenario again on a fresh engine", async () => {
  const { page, close } = await open();
  await page.locator("#step").click();
  const before = Number(await page.locator("#clock").getAttribute("data-time-ms"));
  assert.ok(before > 0);
  await page.evaluate((ptr) => {
    document.getElementById("lab").playground.__wbg_ptr = ptr; // see the file comment
  }, BAD_POINTER);
  await page.locator("#step").click();
  await page.waitForSelector("#error:not([hidden])");
  const message = await page.locator("#error-text").textContent();
  assert.match(message, /^The engine stopped with an internal error while .*\(WebAssembly trap: memory access out of bounds\)\. This playground stopped at \d+\.\d s; .*Press Restart/);
  assert.equal(await page.evaluate(() => document.getElementById("lab").playground), null);
  await page.locator("#restart").click();
  await page.locator("#step").click();
  assert.ok(Number(await page.locator("#clock").getAttribute("data-time-ms")) > 0, "it runs again");
  assert.equal(await page.locator("#error").isVisible(), false);
  assert.equal(typeof (await page.evaluate(() => document.getElementById("lab").playground.now())), "number");
  await close();
});
