// Pressing Play on the full page brings the run into view: the page scrolls
// until the playback controls reach the top, so the narration, the stage and
// (on a wide screen, in their column beside it) the event log and metrics
// are on screen together while the run plays. Only a learner's own press
// (a click or Space) scrolls, never an autoplaying link, and only ever
// down to the controls: a learner already below them (the controls then
// stick at the top) stays where they are. A <queue-lab> never scrolls its
// host page, so only main.js calls this.

/** Gap kept above the controls; the sticky controls and the side column stop there too (styles.css). */
const GAP = 8;

/** Wires `lab` (createLab's) on `doc`'s full page: Play pressed → the controls at the top. */
export function followPlay(doc, lab) {
  const play = doc.getElementById("play");
  const controls = doc.querySelector("#lab .transport");
  if (!play || !controls) return;
  const pressed = () => {
    if (!lab.playing) return; // that press paused
    const by = controls.getBoundingClientRect().top - GAP;
    if (by <= 1) return;
    const still = doc.defaultView.matchMedia("(prefers-reduced-motion: reduce)").matches;
    doc.defaultView.scrollBy({ top: by, behavior: still ? "instant" : "smooth" });
  };
  // Listeners added after the controls' own, so the press has already toggled playing.
  play.addEventListener("click", pressed);
  doc.addEventListener("keydown", (e) => {
    if (e.key === " " && e.defaultPrevented) pressed(); // the controls took Space as play/pause
  });
}

/**
 * Act yourself opened on a phone (styles.css makes it a drawer on the
 * screen's lower part): the page scrolls the stage's queues to just under the sticky
 * controls, so the queue you act on is in view above the drawer. A wider
 * screen puts the drawer beside the stage, and nothing scrolls.
 * @param {Document} doc
 */
export function stageAboveDrawer(doc) {
  const win = doc.defaultView;
  const stage = doc.getElementById("rows") ?? doc.getElementById("stage"); // the queues, past the stage's key
  const controls = doc.querySelector("#lab .transport");
  if (!win || !stage || !controls || !win.matchMedia("(max-width: 760px)").matches) return;
  const by = stage.getBoundingClientRect().top - controls.getBoundingClientRect().bottom - GAP;
  if (Math.abs(by) > 1) win.scrollBy({ top: by, behavior: "instant" });
}
