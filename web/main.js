// Queuelab's page: loads the engine and a scenario, runs one
// requestAnimationFrame loop over virtual time, and hands each frame's
// events and snapshot to the views. No queue logic lives here: the
// engine decides, the page draws.

import init, { Playground } from "./pkg/queuelab.js";
import { $, h, nameOf, setText } from "./dom.js";
import { History } from "./history.js";
import { QueueView } from "./render-queue.js";
import { WorkersView } from "./render-workers.js";
import { EventLog } from "./event-log.js";
import { isKey } from "./log-sentences.js";
import { Chart, metrics } from "./chart.js";
import { Peek } from "./peek.js";
import { Settings } from "./settings.js";
import { Manual } from "./manual.js";
import { Announcer } from "./announce.js";
import { syncControls, wireControls } from "./controls.js";

const SPEEDS = ["0.25", "0.5", "1", "2", "4", "8", "16", "max"];
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

const run = {
  stems: [],
  stem: "",
  fileText: "", // the scenario as its file has it
  text: "", // the scenario running now (file + settings + seed)
  scenario: null,
  pg: null,
  seq: 0,
  snap: null,
  journal: [], // manual actions: { t, op, body, caller }
  playing: false,
  speed: "1",
  vt: 0, // virtual time as a float, for slow speeds
  lastTs: 0,
  raf: 0,
  batch: [], // events not yet drawn
  rebuild: false, // the next draw rebuilds the tray from the whole history
  scrubTo: null,
};

const hist = new History();
const ctx = {
  label: (id) => hist.label(id),
  maxReceive: (queue) => run.snap?.queues.find((q) => q.name === queue)?.maxReceiveCount,
};
const queues = new QueueView($("rows"), $("tray"), $("tray-empty"));
const workers = new WorkersView(queues);
const log = new EventLog($("log"), $("log-routine"));
const chart = new Chart($("chart"));
const announcer = new Announcer($("announcer"));
const peek = new Peek($("peek"), { playground: () => run.pg, history: hist, ctx, act: (op, body) => act(op, body, manual.callerName()) });
const settings = new Settings($("settings"), $("json-editor"), {
  current: () => run.scenario,
  apply: (s) => applyScenario(s),
  reset: () => applyScenario(run.fileText, { fromFile: true }),
  error: (m) => showError(m),
});
const manual = new Manual($("manual"), { act: (op, body, caller) => act(op, body, caller) });

// ---- errors -------------------------------------------------------------

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}

function clearError() {
  $("error-text").textContent = "";
  $("error").hidden = true;
}

$("error-close").addEventListener("click", clearError);
addEventListener("error", (e) => showError(`Something went wrong in the page: ${e.message}`));
addEventListener("unhandledrejection", (e) => showError(`Something went wrong in the page: ${e.reason?.message ?? e.reason}`));

// ---- starting a run ------------------------------------------------------

const duration = () => run.scenario?.durationMs ?? 0;

/** Starts `text` at time 0; false (and the engine's message shown) when it cannot run. */
function start(text, { fromFile = false, keepPlaying = false } = {}) {
  let pg;
  try {
    pg = Playground.fromScenario(text, undefined);
  } catch (e) {
    showError(`${fromFile ? `The scenario file “${run.stem}.json” cannot run` : "That change cannot run"}: ${e.message ?? e}`);
    return false;
  }
  clearError();
  run.pg?.free();
  run.pg = pg;
  run.text = text;
  run.scenario = JSON.parse(text);
  run.journal = [];
  if (fromFile) settings.load(run.scenario, text);
  else settings.showText(text);
  setText($("title"), run.scenario.title || "Untitled scenario");
  setText($("summary"), run.scenario.summary || "");
  $("seed").value = String(run.scenario.seed ?? 0);
  fresh();
  run.playing = keepPlaying && run.playing;
  run.lastTs = performance.now();
  draw({ animate: false, silent: true });
  return true;
}

/** Forgets everything drawn and reads the new playground from its start. */
function fresh() {
  run.seq = 0;
  run.snap = null;
  run.batch = [];
  run.vt = run.pg.now();
  hist.reset();
  queues.reset();
  workers.reset(run.scenario);
  log.reset();
  chart.reset(duration());
  announcer.clear();
  noteJournal();
  collect();
  chart.add(metrics(run.snap, run.pg.now()));
}

function applyScenario(s, opts) {
  const text = typeof s === "string" ? s : JSON.stringify(s, null, 2);
  const ok = start(text, { keepPlaying: true, ...opts });
  if (ok) {
    if (typeof s === "string" && !opts?.fromFile) settings.load(run.scenario, text);
    loop();
  }
  return ok;
}

async function loadStem(stem) {
  if (!/^[\w.-]+$/.test(stem)) {
    showError(`No such scenario: “${stem}”.`);
    return false;
  }
  run.stem = stem;
  let text;
  try {
    const res = await fetch(`web/scenarios/${stem}.json`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    text = await res.text();
  } catch (e) {
    showError(`Could not load the scenario “${stem}”: ${e.message}`);
    return false;
  }
  run.fileText = text;
  const sel = $("scenario");
  if (![...sel.options].some((o) => o.value === stem)) sel.append(h("option", { value: stem, text: stem }));
  sel.value = stem;
  return start(text, { fromFile: true });
}

// ---- virtual time --------------------------------------------------------

/** Reads new events (and a snapshot when anything happened). */
function collect() {
  const evs = run.pg.events(run.seq);
  if (evs.length) {
    run.seq = evs[evs.length - 1].seq;
    for (const e of evs) run.batch.push(e);
  }
  if (evs.length || !run.snap) run.snap = run.pg.snapshot();
  return evs.length;
}

/**
 * Advances to `target`, sampling the chart at its fixed steps and making
 * recorded manual actions at their moments (during a replay). Stops early
 * at `deadline` (performance.now()) if `yieldAt` is set, or jumps straight
 * to the target past it.
 */
function advanceTo(target, { deadline = Infinity, yieldAt = false, replay = false } = {}) {
  const pg = run.pg;
  const todo = replay ? run.journal.filter((a) => a.t >= pg.now()) : [];
  const due = () => {
    while (todo.length && todo[0].t <= pg.now()) {
      const a = todo.shift();
      pg.dispatch(`AmazonSQS.${a.op}`, JSON.stringify(a.body), { caller: a.caller });
      collect();
    }
  };
  due();
  while (pg.now() < target) {
    const now = pg.now();
    pg.advance(Math.min(target, chart.nextAt(now), todo[0]?.t ?? Infinity) - now);
    collect();
    if (pg.now() % chart.step === 0) chart.add(metrics(run.snap, pg.now()));
    due();
    if (performance.now() > deadline) {
      if (yieldAt) return;
      pg.advance(target - pg.now());
      collect();
      break;
    }
  }
  if (replay || pg.now() >= duration()) chart.add(metrics(run.snap, pg.now()));
}

function frame(ts) {
  run.raf = 0;
  const began = performance.now();
  if (run.scrubTo != null) {
    const t = run.scrubTo;
    run.scrubTo = null;
    replayTo(t);
    run.lastTs = ts;
  } else if (run.playing && run.pg) {
    const dt = Math.min(250, Math.max(0, ts - run.lastTs));
    run.lastTs = ts;
    if (run.speed === "max") advanceTo(duration(), { deadline: began + 12, yieldAt: true });
    else {
      run.vt = Math.min(duration(), run.vt + dt * Number(run.speed));
      const target = Math.floor(run.vt);
      if (target > run.pg.now()) advanceTo(target, { deadline: began + 5 });
    }
    if (run.pg.now() >= duration()) {
      run.playing = false;
      announcer.say(`Run finished at ${(duration() / 1000).toFixed(1)} seconds.`);
    }
  }
  draw({ animate: run.speed !== "max" && !reducedMotion.matches, silent: run.speed === "max" });
  if (run.playing) run.raf = requestAnimationFrame(frame);
}

function loop() {
  if (!run.raf) run.raf = requestAnimationFrame(frame);
}

// ---- drawing -------------------------------------------------------------

let ledgerKey = "";

function draw({ animate, silent }) {
  const pg = run.pg;
  if (!pg || !run.snap) return;
  const now = pg.now();
  const snap = run.snap;
  const batch = run.batch;
  run.batch = [];
  const leftNow = hist.ingest(batch);
  if (batch.length || snap !== draw.lastSnap) {
    draw.lastSnap = snap;
    const heldBy = new Map();
    for (const w of snap.simulation.workers) {
      for (const x of w.holding) {
        if (x.done) continue;
        const list = heldBy.get(x.messageId);
        if (list) list.push(w.name);
        else heldBy.set(x.messageId, [w.name]);
      }
    }
    const fx = new Map(snap.simulation.sideEffects.map((s) => [s.messageId, s]));
    const animMs = Math.max(140, Math.min(520, 520 / Math.max(1, Number(run.speed) || 16)));
    const v = {
      snap, now, hist, heldBy, fx, animate, animMs, scenario: run.scenario,
      leftNow: run.rebuild ? hist.leftOrder.slice(-40) : leftNow, scenarioOrder: run.scenario.queues.map((q) => q.name), alarms: snap.simulation.alarms,
    };
    run.rebuild = false;
    queues.render(v);
    workers.render(v);
    dupBanner(heldBy);
    ledger(snap);
    manual.render(snap);
    const narration = snap.simulation.narration ?? "";
    const nar = $("narration");
    if (nar.textContent !== narration) {
      nar.textContent = narration || "—";
      if (animate) nar.parentElement.animate([{ transform: "scale(1.015)" }, { transform: "none" }], { duration: 400, easing: "ease-out" });
    }
    const lines = log.append(batch, ctx);
    if (!silent) for (const l of lines) if (isKey(l.e) || (l.e.type === "received" && l.kind === "warn")) announcer.say(l.kind === "narration" ? l.text : `${l.who} ${l.text}.`);
    peek.refresh(batch);
  } else {
    queues.tick(now);
    workers.tick(now);
  }
  chart.draw(now, metrics(snap, now));
  queues.flip();
  syncControls({ playing: run.playing, now, duration: duration(), finished: now >= duration() }, app.dragging);
}

/** Says in words, above the stage, which messages two consumers hold at once. */
function dupBanner(heldBy) {
  const dups = [...heldBy].filter(([, names]) => names.length > 1);
  const el = $("dup-banner");
  el.hidden = dups.length === 0;
  const text = dups.map(([id, names]) => `${nameOf(hist.label(id), id)} (${id.slice(0, 8)}) is held by ${names.join(" and ")} at the same time`).join("; ");
  setText(el, dups.length ? `Duplicate delivery: ${text}.` : "");
}

function ledger(snap) {
  const fx = snap.simulation.sideEffects;
  const key = fx.map((s) => `${s.messageId}${s.count}`).join();
  if (key === ledgerKey) return;
  ledgerKey = key;
  const shown = fx.slice(-12);
  $("ledger").replaceChildren(
    ...shown.map((s) =>
      h("li", { class: s.count > 1 ? "fx-dup" : null },
        h("span", { class: "fx-n", text: `${s.count > 1 ? "⚠ " : ""}${s.effect} ×${s.count}` }),
        " ",
        h("span", { class: "fx-what", text: s.body.length > 40 ? `${s.body.slice(0, 39)}…` : s.body }),
        h("span", { class: "fx-by", text: ` by ${s.by.join(", ")}` })),
    ),
  );
  $("ledger-empty").hidden = fx.length > 0;
}

// ---- the controls' actions ---------------------------------------------------

function replayTo(t) {
  const target = Math.max(0, Math.min(duration(), Math.round(t)));
  let pg;
  try {
    pg = Playground.fromScenario(run.text, undefined);
  } catch (e) {
    showError(`Replay failed: ${e.message}`);
    return;
  }
  run.pg.free();
  run.pg = pg;
  fresh();
  advanceTo(target, { replay: true });
  run.vt = run.pg.now();
  run.rebuild = true;
  draw({ animate: false, silent: true });
  peek.refresh(null);
}

const app = {
  dragging: false,
  togglePlay() {
    if (!run.pg) return;
    if (run.playing) run.playing = false;
    else {
      if (run.pg.now() >= duration()) replayTo(0);
      run.playing = true;
      run.lastTs = performance.now();
      run.vt = run.pg.now();
      loop();
    }
    draw({ animate: false, silent: true });
  },
  step() {
    if (!run.pg) return;
    run.playing = false;
    const now = run.pg.now();
    if (now >= duration()) return draw({ animate: false, silent: true });
    let next = run.pg.nextEventTime();
    if (next == null || next > duration()) next = duration();
    if (next <= now) next = Math.min(duration(), now + 1);
    advanceTo(next);
    run.vt = run.pg.now();
    draw({ animate: !reducedMotion.matches, silent: false });
  },
  restart() {
    if (!run.pg) return;
    run.journal = [];
    replayTo(0);
    if (run.playing) {
      run.lastTs = performance.now();
      loop();
    }
  },
  setSpeed(v) {
    run.speed = SPEEDS.includes(v) ? v : "1";
    run.vt = run.pg?.now() ?? 0;
  },
  scrub(t, live) {
    if (!run.pg) return;
    if (live) {
      run.scrubTo = t;
      loop();
    } else {
      run.scrubTo = null;
      replayTo(t);
    }
  },
  setSeed(value) {
    const seed = value.trim() === "" ? NaN : Number(value);
    if (!Number.isSafeInteger(seed) || seed < 0) {
      showError(`The seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; “${value}” is not.`);
      $("seed").setAttribute("aria-invalid", "true");
      return;
    }
    $("seed").removeAttribute("aria-invalid");
    applyScenario({ ...run.scenario, seed });
  },
  async pick(stem) {
    run.playing = false;
    const url = new URL(location.href);
    url.searchParams.set("scenario", stem);
    history.replaceState(null, "", url);
    await loadStem(stem);
  },
  closePeek() {
    peek.close();
  },
};

/** A manual SQS call; recorded so replays make it again at this moment. */
async function act(op, body, caller) {
  if (!run.pg) return { status: 0, body: {} };
  const now = run.pg.now();
  run.journal = run.journal.filter((a) => a.t <= now);
  let res;
  try {
    res = await run.pg.dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller });
  } catch (e) {
    showError(`${op} could not be sent: ${e.message}`);
    return { status: 0, body: { message: e.message } };
  }
  const parsed = JSON.parse(res.body);
  if (res.status >= 400) showError(`${op} failed (${res.status}): ${parsed.message ?? res.body}`);
  else {
    clearError();
    run.journal.push({ t: now, op, body, caller });
  }
  noteJournal();
  collect();
  draw({ animate: !reducedMotion.matches, silent: false });
  return { status: res.status, body: parsed };
}

function noteJournal() {
  const n = run.journal.length;
  const note = $("replay-note");
  note.hidden = n === 0;
  if (n) note.textContent = `This run includes ${n} action${n === 1 ? "" : "s"} of yours. The timeline replays ${n === 1 ? "it" : "them"} at the moment${n === 1 ? "" : "s"} you made ${n === 1 ? "it" : "them"}; Restart clears ${n === 1 ? "it" : "them"}.`;
}

// ---- start -----------------------------------------------------------------

document.addEventListener("click", (e) => {
  const tok = e.target.closest?.(".token, .held");
  if (tok) peek.open(tok.dataset.messageId, tok);
});

async function main() {
  wireControls(app);
  const params = new URLSearchParams(location.search);
  const speed = params.get("speed");
  if (speed && SPEEDS.includes(speed)) {
    run.speed = speed;
    $("speed").value = speed;
  }
  await init();
  try {
    const res = await fetch("web/scenarios/index.json");
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    run.stems = (await res.json()).map((f) => f.replace(/\.json$/, ""));
  } catch (e) {
    showError(`Could not load the list of scenarios: ${e.message}`);
  }
  const sel = $("scenario");
  sel.replaceChildren(...run.stems.map((s, i) => h("option", { value: s, text: `${i + 1}. ${s.replace(/^\d+-/, "").replace(/-/g, " ")}` })));
  // Titles for the picker, without holding up the first scenario.
  Promise.all(run.stems.map((s) => fetch(`web/scenarios/${s}.json`).then((r) => r.json()).then((j) => j.title).catch(() => null))).then((titles) => {
    titles.forEach((t, i) => t && (sel.options[i].textContent = `${i + 1}. ${t}`));
  });
  const stem = params.get("scenario") ?? run.stems[0];
  if (stem) {
    const ok = await loadStem(stem);
    if (ok) {
      const seed = params.get("seed");
      if (seed != null) app.setSeed(seed);
      const t = Number(params.get("t"));
      if (t > 0) replayTo(t);
      if (params.get("autoplay") === "1") app.togglePlay();
    }
  }
  document.body.dataset.ready = "true";
}

main().catch((e) => {
  console.error(e);
  showError(`Queuelab could not start: ${e.message ?? e}`);
  document.body.dataset.ready = "true";
});
