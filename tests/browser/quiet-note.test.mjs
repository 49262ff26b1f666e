// The quiet-time note (web/run/quiet.js, web/views/panels/quiet-time.js)
// says only what is true of the run on screen: every note shown while the
// unchanged scenarios play at the speeds a student used names a span in
// which the run's log has no event (issue 28, reproduction 3).
import { test } from "node:test";
import assert from "node:assert/strict";
import { open, scaled } from "./harness.mjs";

/** Records every text the quiet note shows, from the first frame on. */
async function watchNote(page) {
  await page.evaluate(() => {
    const note = document.querySelector("[data-quiet-skip]");
    /** @type {any} */ (window).quietNotes = [];
    new MutationObserver(() => {
      const said = note.hidden ? "" : note.textContent;
      const seen = /** @type {any} */ (window).quietNotes;
      if (said && said !== seen.at(-1)) seen.push(said);
    }).observe(note, { childList: true, characterData: true, subtree: true, attributes: true });
  });
}

/** Plays the loaded run to its end; returns each note shown and the run's events ("t ms type"). */
async function playNoting(page) {
  await watchNote(page);
  await page.click("#play");
  await page.waitForSelector("body[data-finished='true']", { timeout: scaled(90_000) });
  return page.evaluate(() => ({
    notes: /** @type {any} */ (window).quietNotes,
    events: /** @type {any} */ (document.getElementById("lab")).playground.events(0).map((e) => ({ t: e.timeMs, type: e.type })),
  }));
}

/**
 * The span a note says was empty, in ms: "between t = A s and B s" (or, as
 * the note said before issue 28, "nothing happened from t = A s to B s").
 */
function claimedSpan(said) {
  const m = /(?:between|from) t = ([\d.]+) s (?:and|to) ([\d.]+) s/.exec(said);
  assert.ok(m, `a note names its span: ${said}`);
  return [Math.round(Number(m[1]) * 1000), Math.round(Number(m[2]) * 1000)];
}

function assertTrue(name, { notes, events }) {
  assert.ok(notes.length > 1, `${name}: more than one stretch was skipped (${notes.length} notes)`);
  for (const said of notes) {
    const [from, to] = claimedSpan(said);
    const inside = events.filter((e) => e.t > from && e.t < to).map((e) => `${e.type} at ${e.t} ms`);
    assert.deepEqual(inside, [], `${name}: “${said}”`);
  }
}

async function setting(page, key, value) {
  const input = page.locator(`#settings [data-setting='${key}']`).first();
  await input.fill(String(value));
  await input.dispatchEvent("change");
  await page.waitForFunction((v) => document.querySelector("#json-text").value.includes(`"visibilityTimeoutSeconds": ${v}`), value);
  await page.waitForSelector("body:not([data-finished='true'])");
}

test("the quiet notes of scenario 7 at 1× name only spans with no event in the log", async () => {
  const { page, problems, close } = await open("?scenario=07-fifo-deduplication&checkpoints=off");
  const run = await playNoting(page);
  assertTrue("scenario 7 at 1×", run);
  assert.match(run.notes.at(-1), / 4 min \d+ s of waiting in total/, "the five quiet minutes are told as a total");
  assert.deepEqual(problems, []);
  await close();
});

test("the quiet notes of scenario 10 at 4× name only spans with no event in the log", async () => {
  const { page, problems, close } = await open("?scenario=10-delay-and-retention&checkpoints=off&speed=4");
  assertTrue("scenario 10 at 4×", await playNoting(page));
  assert.deepEqual(problems, []);
  await close();
});

test("the quiet notes of scenario 2 with a 5 s and a 3 s visibility timeout name only spans with no event in the log", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate&checkpoints=off");
  for (const seconds of [5, 3]) {
    await setting(page, "visibilityTimeoutSeconds", seconds);
    assertTrue(`scenario 2 with ${seconds} s`, await playNoting(page));
  }
  assert.deepEqual(problems, []);
  await close();
});

test("the quiet note is on screen while the run plays, not under the sticky controls, wide and on a phone", async () => {
  for (const width of [1280, 400]) {
    const { page, problems, close } = await open("?scenario=07-fifo-deduplication&checkpoints=off", { viewport: { width, height: 800 } });
    await page.click("#play"); // Play scrolls the controls to the top; the page then keeps them there
    await page.waitForFunction(() => /in total/.test(document.querySelector("[data-quiet-skip]").textContent));
    const seen = await page.evaluate(() => {
      const note = document.querySelector("[data-quiet-skip]");
      const r = note.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
      return { inView: r.top >= 0 && r.bottom <= innerHeight, onTop: note.contains(top) };
    });
    assert.deepEqual(seen, { inView: true, onTop: true }, `${width} px: the note is visible`);
    assert.deepEqual(problems, []);
    await close();
  }
});
