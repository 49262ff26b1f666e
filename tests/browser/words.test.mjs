// The page's words for the run on screen: the summary quotes the run's
// settings and says it describes the file's run once settings change; a
// lab's changes are said in its knobs' words, one line per knob; scenario
// 8's workers show the receive requests each was billed for, and its recap
// tells two "reading #1" apart by their queues; a FIFO lab's failure names
// the group its late order waited in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, open, runToEnd, scaled } from "./harness.mjs";

test("poison with maxReceiveCount 5: the summary says 5, and that it describes the file's run", async () => {
  const { page, problems, close } = await open("?scenario=05-poison-message&checkpoints=off");
  assert.match(await page.locator("#summary").textContent(), /until maxReceiveCount \(3\);/, "the file's own number first");
  const field = page.locator("#settings [data-path='queues[1].redrive.maxReceiveCount']");
  await field.fill("5");
  await field.dispatchEvent("change");
  await page.waitForFunction(() => /\(5\)/.test(document.getElementById("summary").textContent));
  assert.match(await page.locator("#summary").textContent(), /until maxReceiveCount \(5\);/);
  assert.match(await page.locator("[data-changed]").textContent(), /describes the file's run, with this run's settings\./);
  assert.deepEqual(problems, []);
  await close();
});

test("scenario 8 at its end: each worker shows its billed receive requests, and the recap names the queue of each “reading #1”", async () => {
  const { page, problems, close } = await open("?scenario=08-long-vs-short-polling&checkpoints=off&speed=max");
  await page.locator("#play").click();
  await runToEnd(page);
  const requests = async (name) => {
    const text = await page.locator(`[data-consumer='${name}'] .c-requests`).textContent();
    assert.match(text, /^\d+ receive requests \(each billed\)$/, text);
    return Number(/\d+/.exec(text)[0]);
  };
  const [short, long] = [await requests("short-poller"), await requests("long-poller")];
  assert.ok(long >= 6 && short > 3 * long, `short-poller ${short}, long-poller ${long}`);
  const lines = await page.locator("#outcome .effects li").allTextContents();
  assert.ok(lines.includes("reading #1 (in short-polled): stored ×1"), lines.join("\n"));
  assert.ok(lines.includes("reading #1 (in long-polled): stored ×1"), lines.join("\n"));
  assert.equal(new Set(lines).size, lines.length, "no two recap lines alike");
  await page.screenshot({ path: join(artifacts, "words-scenario-8.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});

test("the FIFO lab: two knob changes are two lines in the knobs' words, and one group for all fails naming the group it waited in", async () => {
  const { page, problems, close } = await open("?lab=fifo-order&checkpoints=off");
  await page.locator("#knob-queueType").selectOption("fifo");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.queueType === "fifo");
  await page.locator("#knob-groupId").selectOption("perMessage");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.groupId === "perMessage");
  assert.deepEqual(await page.locator("[data-changed] .change").allTextContents(), ["Queue type: Standard → FIFO;", "Message group id: A group per customer → A group per message."]);
  await page.locator("#knob-groupId").selectOption("one");
  await page.waitForFunction(() => document.getElementById("lab").lab.settings.groupId === "one");
  await page.locator("#check-fix").click();
  await page.locator("#goal:not([data-goal-state='checking']) #goal-result:not([hidden])").waitFor({ timeout: scaled(30_000) });
  const verdict = await page.locator("#goal-result").textContent();
  assert.match(verdict, /waited behind \d+ earlier messages of its group shop, each in flight in turn/, verdict);
  assert.doesNotMatch(verdict, /invisible until/, verdict);
  await page.screenshot({ path: join(artifacts, "words-fifo-lab.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await close();
});
