// The playback controls: play/pause, step, restart, speed, timeline and
// seed, plus keyboard shortcuts. They call into `app` and show what
// `syncControls` is told; they hold no state of the run. A host may show
// only some of them (a <queue-lab controls="play step">), so every one is
// optional. `$` finds an element by id in the lab's root. The `controls`
// view at the end wires them and shows each frame's state.

import { isTyping, setText } from "../../ui/dom.js";
import { span, wallClock } from "../../text/format.js";

/** Wires the controls that exist; shortcuts listen on `keys` (document or a shadow root). */
export function wireControls(app, $, keys) {
  const on = (id, type, fn) => $(id)?.addEventListener(type, fn);
  on("play", "click", () => app.togglePlay());
  on("step", "click", () => app.step());
  on("restart", "click", () => app.restart());
  on("speed", "change", (e) => app.setSpeed(e.target.value));
  on("seed", "change", (e) => app.setSeed(e.target.value));
  on("replay-cancel", "click", () => app.cancelReplay());
  const tl = $("timeline");
  if (tl) wireTimeline(tl, app);
  keys.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.composedPath()[0];
    if (isTyping(t)) return;
    // Space and Enter already press a focused button, checkbox or link.
    const presses = t.closest?.("button, a, summary, input[type=checkbox], input[type=radio]");
    if (e.key === " " && !presses) {
      e.preventDefault();
      app.togglePlay();
    } else if ((e.key === "n" || e.key === "N") && !e.shiftKey) app.step();
    else if (e.key === "r" || e.key === "R") app.restart();
    else if (e.key === "Escape") app.closePeek();
  });
}

function wireTimeline(tl, app) {
  tl.addEventListener("input", () => app.scrub(Number(tl.value), true));
  tl.addEventListener("change", () => app.scrub(Number(tl.value), false));
  tl.addEventListener("pointerdown", () => (app.dragging = true));
  tl.addEventListener("pointerup", () => (app.dragging = false));
  tl.addEventListener("keydown", (e) => {
    const max = Number(tl.max);
    const now = Number(tl.value);
    const moves = { ArrowLeft: -100, ArrowDown: -100, ArrowRight: 100, ArrowUp: 100, PageDown: -1000, PageUp: 1000 };
    let to;
    if (e.key in moves) to = now + moves[e.key];
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = max;
    else return;
    e.preventDefault();
    to = Math.max(0, Math.min(max, to));
    tl.value = String(to);
    app.scrub(to, false);
  });
}

/** Shows the run's state { playing, now, duration, finished, epochMs } on the controls and on `host`'s data-finished (`epochMs`: a scenario's startEpochMs, the wall clock shown beside virtual time). */
export function syncControls(s, dragging, $, host) {
  const play = $("play");
  if (play) {
    const pressed = String(s.playing);
    if (play.getAttribute("aria-pressed") !== pressed) play.setAttribute("aria-pressed", pressed);
    setText(play.querySelector(".ic"), s.playing ? "❚❚" : s.finished ? "↻" : "▶");
    setText(play.querySelector(".lbl"), s.playing ? "Pause" : s.finished ? "Play again" : "Play");
  }
  const tl = $("timeline");
  if (tl) {
    if (tl.max !== String(s.duration)) tl.max = String(s.duration);
    if (!dragging && tl.value !== String(s.now)) tl.value = String(s.now);
    const at = s.epochMs == null ? "" : `, ${wallClock(Math.floor(s.now / 1000) * 1000, s.epochMs, s.duration)}`;
    tl.setAttribute("aria-valuetext", `${(s.now / 1000).toFixed(1)} seconds of ${(s.duration / 1000).toFixed(1)}${at}`);
  }
  const clock = $("clock");
  if (clock.dataset.timeMs !== String(s.now)) clock.dataset.timeMs = String(s.now);
  const wall = s.epochMs == null ? "" : ` · ${wallClock(Math.floor(s.now / 1000) * 1000, s.epochMs, s.duration)}`;
  setText(clock, `t = ${(s.now / 1000).toFixed(2)} s${wall}`);
  setText($("duration"), `${(s.duration / 1000).toFixed(1)} s`);
  const fin = String(s.finished);
  if (host.dataset.finished !== fin) host.dataset.finished = fin;
}

/**
 * The controls as a view: wired to the lab's commands; each frame shows
 * playing, time, the speed and how many of your actions the run replays.
 * The seed field is filled when a run starts (not while you type in it).
 */
export const controls = {
  mount(root, lab) {
    const $ = (id) => root.getElementById(id);
    const app = { ...lab.commands, dragging: false }; // wireTimeline sets `dragging`
    wireControls(app, $, lab.keys);
    let noted = 0;
    return {
      duringReplay: true, // the clock, the timeline and the bar draw a replay's progress (lab/frames.js's drawProgress)
      update(d) {
        const epochMs = d.scenario?.startEpochMs ?? null;
        syncControls({ playing: d.playing, now: d.now, duration: d.duration, finished: !d.live && d.now >= d.duration, epochMs }, app.dragging, $, lab.host);
        if (d.started && $("seed")) $("seed").value = String(d.scenario.seed ?? 0);
        if ($("speed") && $("speed").value !== d.speed) $("speed").value = d.speed;
        if (d.journal !== noted || d.fresh) noteJournal($("replay-note"), (noted = d.journal), d.live);
        showReplay($, d.replay);
      },
      destroy() {},
    };
  },
};

/**
 * A long replay's progress: how far it got in virtual time, of how far it
 * goes, and Cancel (which stops it there). Hidden when no long replay runs.
 */
function showReplay($, replay) {
  const box = $("replay-progress");
  if (!box) return;
  if (box.hidden !== !replay) box.hidden = !replay;
  // The stage and the log keep the moment they drew until the replay ends: marked busy (and dimmed) meanwhile.
  for (const id of ["stage", "log"]) {
    const el = $(id);
    if (!el || el.hasAttribute("aria-busy") === !!replay) continue;
    if (replay) el.setAttribute("aria-busy", "true");
    else el.removeAttribute("aria-busy");
  }
  if (!replay) return;
  const bar = $("replay-bar");
  const done = replay.target > 0 ? replay.reached / replay.target : 1;
  const pct = done > 0 && done < 0.01 ? "under 1%" : `${Math.floor(done * 100)}%`;
  bar.value = done;
  bar.setAttribute("aria-valuetext", pct);
  setText($("replay-label"), `Replaying to ${span(replay.target)}: at ${span(replay.reached)} (${pct}); the queues are drawn when it ends`);
}

/** Says how many of your actions the run includes (the timeline replays them); a live run's are its host's calls. */
function noteJournal(note, n, live) {
  if (!note) return;
  note.hidden = n === 0;
  if (n && live) note.textContent = `This run is the server's ${n} call${n === 1 ? "" : "s"} so far, made again here at ${n === 1 ? "its moment" : "their moments"}: the timeline replays ${n === 1 ? "it" : "them"}.`;
  else if (n) note.textContent = `This run includes ${n} action${n === 1 ? "" : "s"} of yours. The timeline replays ${n === 1 ? "it" : "them"} at the moment${n === 1 ? "" : "s"} you made ${n === 1 ? "it" : "them"}; Restart clears ${n === 1 ? "it" : "them"}.`;
}
