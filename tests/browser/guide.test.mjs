// Guidance for a first-time learner (issue 12): the first-visit tour, the
// words that explain themselves (tooltip and glossary), Tab leaving the
// code cell, "Next scenario →" with the place in the sequence, and axe in
// light and dark with the tour and a tooltip open. Screenshots of a tooltip
// and of the tour go to docs/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { artifacts, axeViolations, open, root, runToEnd } from "./harness.mjs";

const stems = JSON.parse(readFileSync(`${root}/web/scenarios/index.json`, "utf8")).map((f) => f.replace(/\.json$/, ""));
const tourShown = (page) => page.locator("#tour").isVisible();
const ready = (page) => page.waitForSelector("body[data-ready='true']");

test("the tour opens on a first visit, can be skipped, is not shown again, and the ? button reopens it", async () => {
  const { page, problems, close } = await open("?scenario=02-slow-consumer-duplicate", { tour: true });
  assert.ok(await tourShown(page), "a first visit shows the tour");
  assert.equal(await page.locator("#tour .tour-count").textContent(), "Step 1 of 6");
  assert.ok(await page.locator("#stage[data-tour-target]").count(), "step 1 points at the stage");
  await page.locator("#tour-next").click();
  assert.equal(await page.locator("#tour .tour-count").textContent(), "Step 2 of 6");
  assert.ok(await page.locator("#rows .token[data-tour-target]").count(), "step 2 points at one token");
  await page.screenshot({ path: `${artifacts}tour.png` });
  await page.locator("#tour-skip").click();
  assert.ok(!(await tourShown(page)), "Skip closes the tour");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "tour-open", "focus goes back to the ? button");

  await page.reload();
  await ready(page);
  assert.ok(!(await tourShown(page)), "a skipped tour does not open again");
  await page.locator("#tour-open").click();
  assert.ok(await tourShown(page), "? reopens the tour");
  assert.equal(await page.locator("#tour .tour-count").textContent(), "Step 1 of 6", "from its first step");
  for (let i = 1; i < 6; i++) await page.locator("#tour-next").click();
  assert.ok(await page.locator("#lab .code-panel[data-tour-target]").count(), "the last step points at the code cell");
  await page.keyboard.press("Escape");
  assert.ok(!(await tourShown(page)), "Escape closes the tour");
  assert.deepEqual(problems, []);
  await close();
});

test("the tour never opens in the embed view or on a course page's <queue-lab> elements", async () => {
  const embed = await open("?scenario=02-slow-consumer-duplicate&embed=1", { tour: true });
  assert.equal(await embed.page.locator("#tour, #tour-open").count(), 0, "no tour, no ? button in an embed");
  await embed.close();
  const course = await open("web/examples/course.html", { tour: true, readyWhen: "#lab-duplicates[data-ready='true']" });
  const inElements = await course.page.evaluate(() => [...document.querySelectorAll("queue-lab")].some((el) => el.shadowRoot?.querySelector("#tour, #tour-open")));
  assert.equal(await course.page.locator("#tour, #tour-open").count(), 0, "no tour on the course page");
  assert.equal(inElements, false, "no tour inside a <queue-lab>");
  await course.close();
});

test("a word on the stage explains itself by keyboard focus, and links to its glossary entry and AWS page", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate");
  const tip = page.locator(".term-tip");
  assert.ok(!(await tip.isVisible()), "no tooltip before anything asks");
  await page.locator(".key .term[data-term='visible']").focus();
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement?.dataset.term);
  assert.equal(focused, "in-flight", "Tab moves along the key");
  assert.ok(await tip.isVisible(), "keyboard focus opens the tooltip");
  assert.match(await tip.textContent(), /^in flight: .*visibility timeout/);
  await page.screenshot({ path: `${artifacts}tooltip.png` });
  const describedBy = await page.evaluate(() => document.activeElement.getAttribute("aria-describedby"));
  const entry = page.locator(`#${describedBy}`);
  assert.match(await entry.textContent(), /visibility timeout/, "the button is described by its glossary entry");
  assert.equal(await entry.locator("a").getAttribute("href"), "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html");
  await page.keyboard.press("Escape");
  assert.ok(!(await tip.isVisible()), "Escape closes it");

  // A click (a tap on a phone) pins it; its link opens the glossary at the entry.
  await page.locator(".key .term[data-term='locked']").click();
  assert.match(await tip.textContent(), /^locked: FIFO/);
  await page.locator(".term-tip .tip-link").click();
  assert.ok(await page.locator("#glossary").evaluate((d) => d.open), "the glossary opens");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "gl-locked", "at the word's entry");
  await close();
});

test("Tab leaves the code cell; Ctrl+] indents, and the Tab indents toggle makes Tab indent", async () => {
  const { page, close } = await open("?scenario=01-process-then-delete");
  const text = page.locator("#code-text");
  assert.match(await page.locator("#code-keys").textContent(), /Tab moves to the next control.*Ctrl\+\] indents/, "the keys are stated under the editor");
  await text.fill("a\nb");
  await text.focus();
  await page.keyboard.press("Tab");
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), "code-text", "Tab left the editor");
  assert.equal(await text.inputValue(), "a\nb", "and wrote nothing");

  await text.focus();
  await text.evaluate((t) => t.setSelectionRange(t.value.length, t.value.length));
  await page.keyboard.press("Control+BracketRight");
  assert.equal(await text.inputValue(), "a\n  b", "Ctrl+] indents the caret's line");
  await page.keyboard.press("Control+BracketLeft");
  assert.equal(await text.inputValue(), "a\nb", "Ctrl+[ unindents it");

  await page.locator("#code-tab-indents").check();
  await text.focus();
  await text.evaluate((t) => t.setSelectionRange(0, 0));
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "code-text", "with the toggle on, Tab stays");
  assert.equal(await text.inputValue(), "  a\nb", "and indents");
  await close();
});

test("the end of a run offers the next scenario, and the header says where the learner is in the sequence", async () => {
  const { page, close } = await open(`?scenario=${stems[0]}&speed=max&autoplay=1`);
  assert.equal(await page.locator("#scenario-place").textContent(), `Scenario 1 of ${stems.length}`);
  await runToEnd(page);
  const next = page.locator("#next-scenario");
  assert.ok(await next.isVisible(), "Next scenario appears at the end");
  assert.match(await next.textContent(), /^Next scenario → 2\. /);
  await next.click();
  await page.waitForFunction((stem) => document.getElementById("scenario").value === stem, stems[1]);
  await page.waitForSelector("#scenario-place:text('Scenario 2 of')");
  assert.ok(!(await next.isVisible()), "the box goes away while the next run plays");
  assert.equal(new URL(page.url()).searchParams.get("scenario"), stems[1], "the link follows");
  await close();
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violations with the tour, then a tooltip and the glossary open (${colorScheme})`, async () => {
    const { page, close } = await open("?scenario=06-fifo-message-groups", { colorScheme, tour: true });
    assert.ok(await tourShown(page));
    assert.deepEqual(await axeViolations(page), [], "with the tour open");
    await page.locator("#tour-skip").click();
    await page.locator("#step").click();
    await page.locator("#glossary summary").click();
    await page.locator(".key .term[data-term='locked']").focus();
    assert.ok(await page.locator(".term-tip").isVisible());
    assert.deepEqual(await axeViolations(page), [], "with a tooltip and the glossary open");
    await close();
  });
}

test("the code cell sits below the log and metrics, and on a phone the controls stay on screen while the page scrolls", async () => {
  const wide = await open("?scenario=02-slow-consumer-duplicate");
  const order = await wide.page.evaluate(() => {
    const [log, chart, code] = [".log-panel", ".chart-panel", ".code-panel"].map((s) => document.querySelector(s).getBoundingClientRect().top);
    return { logAboveCode: log < code, chartAboveCode: chart < code };
  });
  assert.deepEqual(order, { logAboveCode: true, chartAboveCode: true });
  await wide.close();

  const phone = await open("?scenario=02-slow-consumer-duplicate", { viewport: { width: 400, height: 800 } });
  await phone.page.locator(".log-panel").scrollIntoViewIfNeeded();
  const play = await phone.page.locator("#play").boundingBox();
  assert.ok(play && play.y >= 0 && play.y + play.height <= 800, `Play is on screen after scrolling to the log (at y=${play?.y})`);
  await phone.page.locator("#play").click();
  assert.equal(await phone.page.locator("#play").getAttribute("aria-pressed"), "true", "and works from there");
  await phone.close();
});

test("a token gliding across the stage passes under the headings, never over them", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate&t=6000");
  await page.waitForSelector("#tray .token");
  // Hold the tray's token mid-glide over each heading, as flip.js moves it (a transform animation), and ask what is on top there.
  const onTop = await page.evaluate(() => {
    const token = document.querySelector("#tray .token");
    return ["#tray-title", "#rows .q-head", "#rows .lanes-head", ".key"].map((sel) => {
      const heading = document.querySelector(sel);
      heading.scrollIntoView({ block: "center" }); // elementFromPoint sees only the viewport, and the stage may be taller than it
      const t = token.getBoundingClientRect();
      const hd = heading.getBoundingClientRect();
      const [x, y] = [hd.left + Math.min(40, hd.width / 2), hd.top + hd.height / 2];
      const glide = token.animate([{ transform: `translate(${x - t.left - 10}px, ${y - t.top - 10}px)` }, { transform: "none" }], { duration: 1000 });
      glide.pause();
      glide.currentTime = 0;
      const hit = document.elementFromPoint(x, y);
      glide.cancel();
      return `${sel}: ${heading.contains(hit) ? "heading" : token.contains(hit) ? "token" : hit?.className}`;
    });
  });
  assert.deepEqual(onTop, ["#tray-title: heading", "#rows .q-head: heading", "#rows .lanes-head: heading", ".key: heading"]);
  await close();
});

test("on a touch screen a tap on a word opens its tooltip, and a tap elsewhere closes it", async () => {
  const { page, close } = await open("?scenario=02-slow-consumer-duplicate", { hasTouch: true, viewport: { width: 400, height: 800 } });
  const tip = page.locator(".term-tip");
  await page.locator(".key .term[data-term='dlq']").tap();
  assert.ok(await tip.isVisible(), "a tap opens it");
  assert.match(await tip.textContent(), /^DLQ: .*maxReceiveCount/);
  await page.locator("#summary").tap();
  assert.ok(!(await tip.isVisible()), "a tap elsewhere closes it");
  await close();
});

test("at 1280x800 the stage, narration, event log and metrics are all in view while a scenario plays", async () => {
  // Without checkpoints: a question asked early (scenario 23's comes at its
  // first partial batch) would pause the run before a loaded machine looks.
  const { page, problems, close } = await open(`?scenario=${stems[0]}&checkpoints=off`);
  const missing = [];
  for (const stem of stems) {
    const { title } = JSON.parse(readFileSync(`${root}/web/scenarios/${stem}.json`, "utf8"));
    await page.locator("#scenario").selectOption(stem);
    await page.waitForFunction((t) => document.getElementById("title").textContent === t, title);
    // A learner who just picked a scenario, at the top of the page, presses Play.
    await page.evaluate(() => scrollTo(0, 0));
    await page.locator("#play").click();
    // Playing, checked at once: a short run (scenario 1's 12 s, its quiet
    // stretches skipped) may be over by the time a loaded machine has
    // scrolled.
    await page.waitForSelector("#play[aria-pressed='true']");
    // Wait until the page stops scrolling (it may bring the stage into view), then look.
    await page.evaluate(() => new Promise((done) => {
      let last = -1;
      let still = 0;
      const look = () => ((still = scrollY === last ? still + 1 : 0), (last = scrollY), still >= 5 ? done() : requestAnimationFrame(look));
      requestAnimationFrame(look);
    }));
    const boxes = await page.evaluate(() => Object.fromEntries(Object.entries({
      stage: "#stage", narration: "[data-narration]", log: "#log-scroll", metrics: "#chart",
    }).map(([name, sel]) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return [name, { top: r.top, height: r.height, left: r.left, right: r.right, shown: Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) }];
    })));
    // Each part's top is on screen and at least 150 px of it (or all of a shorter part) is in view, side by side within the width.
    for (const [name, b] of Object.entries(boxes)) {
      const ok = b.top >= 0 && b.top < 800 && b.shown >= Math.min(b.height, 150) && b.left >= 0 && b.right <= 1280;
      if (!ok) missing.push(`${stem} ${name}: top at ${Math.round(b.top)} px, ${Math.round(b.shown)} of its ${Math.round(b.height)} px on screen`);
    }
    await page.locator("#play").click(); // pause before the next pick
  }
  assert.deepEqual(missing, [], "every part in view for every scenario");
  assert.deepEqual(problems, []);
  await close();
});

test("Act yourself opens beside the stage: at 1280 wide the log and metrics move below the stage, at 1920 they keep their column between the stage and the drawer", async () => {
  const boxes = (page) => page.evaluate(() => Object.fromEntries(["#stage", "#manual-panel", ".log-panel", ".chart-panel"].map((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [sel, { left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY }];
  })));
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1920, height: 1000 }]) {
    const { page, close } = await open("?scenario=02-slow-consumer-duplicate", { viewport });
    await page.locator("#manual-panel summary").click();
    const b = await boxes(page);
    assert.ok(b["#stage"].right <= b["#manual-panel"].left, `${viewport.width}: the drawer is beside the stage`);
    if (viewport.width === 1280) {
      assert.ok(b[".log-panel"].top >= b["#stage"].bottom && b[".chart-panel"].top >= b["#stage"].bottom, "1280: log and metrics below the stage");
    } else {
      for (const sel of [".log-panel", ".chart-panel"]) {
        assert.ok(b[sel].left >= b["#stage"].right && b[sel].right <= b["#manual-panel"].left, `1920: ${sel} between the stage and the drawer`);
      }
    }
    await close();
  }
});
