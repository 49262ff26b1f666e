// web/ui/flip.js bounds its forced layouts: after a measure dearer than its
// budget, tokens change place without gliding for a while. Both measures
// count, the one before the frame's writes and the one after them (which
// is the one that lays a busy page out again).
import { test } from "node:test";
import assert from "node:assert/strict";
import { flipPlan, measureFirst, playFlip } from "../../web/ui/flip.js";

// A clock of the test's own, so that what a measure costs is exact
// whatever the machine's load: flip.js reads performance.now().
let clock = 0;
performance.now = () => clock;

/** A stand-in element whose measure takes `cost()` ms, as a forced layout would. */
function element(cost) {
  const el = {
    isConnected: true,
    animated: 0,
    measures: 0,
    getBoundingClientRect() {
      clock += cost();
      return { left: 50 * (el.measures++ % 2), top: 0 }; // it moved: 0, 50, 0, …
    },
    animate() {
      el.animated++;
      return { cancel() {} };
    },
  };
  return el;
}

/** One frame's glide of `el` in `cell`: measures, then plays; whether it glided. */
function frame(el, cell) {
  const first = measureFirst([{ el }], [cell], 10);
  const before = el.animated;
  playFlip(flipPlan(first, [], true, 200));
  return el.animated > before;
}

test("a dear measure after the frame's writes rests gliding, as a dear one before them does", () => {
  let afterWrites = false;
  const el = element(() => (afterWrites ? 6 : 0));
  const cell = { childElementCount: 1, children: [el] };
  // Cheap measures: every frame glides.
  assert.equal(frame(el, cell), true);
  assert.equal(frame(el, cell), true);
  // The measure after the writes costs 6 ms (more than the 4 ms budget):
  // that frame still glides, then gliding rests.
  const first = measureFirst([{ el }], [cell], 10);
  afterWrites = true;
  playFlip(flipPlan(first, [], true, 200));
  afterWrites = false;
  for (let i = 0; i < 10; i++) assert.equal(frame(el, cell), false, `frame ${i + 1} after the dear measure rests`);
});
