// FLIP (First, Last, Invert, Play) for tokens changing place: measure where
// they are before the frame's DOM writes, then, after every view has
// written, animate each from its old place to its new one with the Web
// Animations API. Measuring is a forced layout, so it is bounded: beyond
// FLIP_MAX elements to measure or FLIP_CROWD tokens on the stage, tokens
// change place without gliding; and when a measure costs more than
// FLIP_BUDGET_MS (a big page on a slow laptop: the layout, not the token
// count, is what costs), gliding rests for FLIP_REST frames, then tries again.
// The measure after the writes is timed too: it is the one that lays out.

const FLIP_MAX = 120; // elements measured for one frame's animation
// Beyond this many tokens a forced layout costs more than a frame can
// spare: tokens then change place without gliding (new ones still slide in).
const FLIP_CROWD = 300;
// A frame has about 16 ms; a forced layout dearer than this leaves too little of it.
const FLIP_BUDGET_MS = 4;
const FLIP_REST = 60; // about a second of frames
let resting = 0; // frames left before measuring again, after a dear measure

/**
 * First: the rectangles of what is about to move, before any write.
 * `moving` are tokens changing place, `cells` the containers whose
 * children shift because of them, `crowd` how many tokens are drawn.
 * When the cells hold few enough elements, all their children are
 * measured (neighbours shift too); otherwise only the movers.
 */
export function measureFirst(moving, cells, crowd) {
  const first = new Map();
  if (!moving.length || moving.length > FLIP_MAX || crowd > FLIP_CROWD) return first;
  if (resting > 0) {
    resting--;
    return first;
  }
  const began = performance.now();
  let n = 0;
  for (const c of cells) n += c.childElementCount;
  if (n <= FLIP_MAX) {
    for (const c of cells) for (const el of c.children) first.set(el, el.getBoundingClientRect());
  } else for (const t of moving) first.set(t.el, t.el.getBoundingClientRect());
  restIfDear(began);
  return first;
}

/**
 * Rests after a measure that cost more than FLIP_BUDGET_MS. Both measures
 * count: the first is usually cheap (the layout is still clean from the
 * last frame), while the last, after the frame's DOM writes, lays out the
 * page again, and on a busy page that is the dear one.
 */
function restIfDear(began) {
  if (performance.now() - began > FLIP_BUDGET_MS) resting = FLIP_REST;
}

/** What play() needs: the measured rectangles and the new tokens to slide in; null when nothing animates. */
export function flipPlan(first, fresh, animate, ms) {
  if (!first.size && !(animate && fresh.length)) return null;
  return { first, fresh: animate && fresh.length <= FLIP_MAX ? fresh : [], ms };
}

/** Last, invert, play: call after all DOM writes of the frame. */
export function playFlip(p) {
  if (!p) return;
  const opts = { duration: p.ms, easing: "cubic-bezier(.2,.8,.2,1)" };
  for (const el of p.first.keys()) el.flip?.cancel();
  // All reads, then all writes: an animate() between two reads would force another style pass.
  const moves = [];
  const began = performance.now();
  for (const [el, a] of p.first) {
    if (!el.isConnected) continue;
    const b = el.getBoundingClientRect();
    const dx = a.left - b.left;
    const dy = a.top - b.top;
    if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) moves.push([el, dx, dy]);
  }
  restIfDear(began);
  for (const [el, dx, dy] of moves) el.flip = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], opts);
  for (const t of p.fresh) {
    if (t.el.isConnected && !p.first.has(t.el)) t.el.flip = t.el.animate([{ transform: "translateX(-28px) scale(.85)" }, { transform: "none" }], opts);
  }
}
