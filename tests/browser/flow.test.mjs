// The page's flow as a learner walks it (issue 28, "smaller defects in the
// same flow"): every checkpoint the run answers shows its verdict on the
// page, the end of a run keeps its recap, "Go to…" walks one moment per key,
// focus follows a checkpoint's answer, and Act yourself on a phone leaves
// the stage in view.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { open, clockMs } from "./harness.mjs";

async function setting(page, key, value) {
  const input = page.locator(`#settings [data-setting='${key}']`).first();
  await input.fill(String(value));
  await input.dispatchEvent("change");
}

/** Scenario 2 with a 5 s visibility timeout, both questions predicted: the run answers both at its end, in one frame. */
async function predictBothAt5s(page) {
  await setting(page, "visibilityTimeoutSeconds", 5);
  await page.waitForSelector("[data-checkpoint='worker-2-gets']");
  await page.getByRole("button", { name: "An empty receive" }).click();
  await page.waitForSelector("[data-checkpoint='charges']");
  await page.getByRole("button", { name: "Once", exact: true }).click();
  await page.waitForSelector("body[data-finished='true']");
}

test("two checkpoints answered in one frame both show their verdict on the page", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max");
  await predictBothAt5s(page);
  assert.equal(await clockMs(page), 10000, "both are decided at the end of the run");
  const box = page.locator("#checkpoint");
  await page.waitForFunction(() => document.querySelectorAll("#checkpoint .cp-verdict").length === 2);
  const said = await box.textContent();
  assert.match(said, /What will worker-2 get\?.*✘ Not this time\. You predicted: An empty receive\. What happened: Nothing: worker-1 deletes the order/);
  assert.match(said, /How many times will the customer be charged by the end\?.*✔ You were right: Once/);
  assert.deepEqual(problems, []);
  await close();
});

test("a checkpoint answered while another's prediction is shown shows its verdict too, and the run waits there", async () => {
  // Scenario 2 with a second question asked at 1 s, before the first is answered at 2 s (the duplicate delivery).
  const s = JSON.parse(readFileSync(new URL("../../web/scenarios/02-slow-consumer-duplicate.json", import.meta.url), "utf8"));
  s.checkpoints = [s.checkpoints[0], { id: "twice", atMs: 1000, question: "Will worker-2 charge the card too?", choices: [{ text: "Yes, a second charge", when: { event: "sideEffect", count: 2 } }, { text: "No" }] }];
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max", { routes: { "scenarios/02-slow-consumer-duplicate.json": JSON.stringify(s) } });
  await page.waitForSelector("[data-checkpoint='worker-2-gets']");
  await page.getByRole("button", { name: /Order A-1001 again/ }).click();
  await page.waitForSelector("[data-checkpoint='twice']");
  await page.getByRole("button", { name: "Yes, a second charge" }).click();
  const box = page.locator("#checkpoint");
  await page.waitForFunction(() => /✔ You were right: Order A-1001 again/.test(document.getElementById("checkpoint").textContent));
  assert.equal(await clockMs(page), 2000, "the run waits at the first one's answer");
  assert.match(await box.textContent(), /You predicted: Yes, a second charge\. Play on to see what happens\./, "the second prediction is still shown");
  await box.getByRole("button", { name: "Continue ▶" }).click();
  await page.waitForFunction(() => /✔ You were right: Yes, a second charge/.test(document.getElementById("checkpoint").textContent));
  assert.deepEqual(problems, []);
  await close();
});

test("at the end of a run the checkpoint's button says Close, and closing keeps the run's end and its recap", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max");
  await predictBothAt5s(page);
  const box = page.locator("#checkpoint");
  await page.waitForSelector("#checkpoint[data-checkpoint-result]");
  assert.equal(await box.getByRole("button", { name: /Continue/ }).count(), 0, "nothing to continue at the end");
  await box.getByRole("button", { name: "Close" }).first().click();
  assert.equal(await clockMs(page), 10000, "still at the end");
  assert.equal(await page.locator("[data-outcome]").isVisible(), true, "the recap stays");
  assert.equal(await page.locator("body").getAttribute("data-finished"), "true");
  assert.deepEqual(problems, []);
  await close();
});

test("Enter on a checkpoint's choice keeps the focus in the checkpoint, on its verdict", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&speed=max");
  await page.waitForSelector("[data-checkpoint='worker-2-gets']");
  await page.getByRole("button", { name: /Order A-1001 again/ }).focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("#checkpoint[data-checkpoint-result='right']");
  const focused = await page.evaluate(() => ({ inBox: document.getElementById("checkpoint").contains(document.activeElement), what: document.activeElement?.className }));
  assert.deepEqual(focused, { inBox: true, what: "cp-verdict" });
  assert.deepEqual(problems, []);
  await close();
});

test("Go to… walks one moment per ↓ without going, and goes on Enter", async () => {
  const { page, problems, close } = await open("?scenario=07-fifo-deduplication&checkpoints=off");
  const list = page.locator("#moments");
  await page.waitForFunction(() => document.querySelectorAll("#moments option").length === 5);
  await list.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await list.inputValue(), "3000", "three moments down: 0 s, 2 s, 3 s");
  assert.equal(await clockMs(page), 0, "walking does not go");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#clock[data-time-ms='3000']");
  await page.keyboard.press("ArrowDown");
  assert.equal(await clockMs(page), 3000, "walking on from there does not go either");
  assert.deepEqual(problems, []);
  await close();
});

test("Act yourself on a phone is a compact drawer whose title stays in view, and the stage stays visible above it", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&checkpoints=off", { viewport: { width: 400, height: 800 } });
  await page.locator("#manual-panel summary").click();
  const drawer = page.locator("#manual-panel");
  await drawer.evaluate((el) => el.scrollTo({ top: el.scrollHeight, behavior: "instant" }));
  const boxes = await page.evaluate(() => {
    const rect = (sel) => document.querySelector(sel).getBoundingClientRect();
    return { drawer: rect("#manual-panel"), title: rect("#manual-panel summary"), stage: rect("#rows") };
  });
  assert.ok(boxes.drawer.height <= 800 * 0.45, `the drawer takes at most 45% of the screen (${Math.round(boxes.drawer.height)} px)`);
  assert.ok(boxes.title.top >= boxes.drawer.top - 1 && boxes.title.bottom <= boxes.drawer.top + 80, "its title is at its top, scrolled to its end");
  const shown = Math.min(boxes.stage.bottom, boxes.drawer.top) - Math.max(boxes.stage.top, 0);
  assert.ok(shown >= Math.min(boxes.stage.height, 150), `the stage's queue is on screen above the drawer (${Math.round(shown)} px of it)`);
  assert.deepEqual(problems, []);
  await close();
});
