// One playground: an engine, a scenario and the views that draw it,
// inside a root that holds labMarkup() (the page's document or a
// <queue-lab>'s shadow root). It runs one requestAnimationFrame loop over
// virtual time and hands each frame's events and snapshot to the views.
// No queue logic lives here: the engine decides, the lab draws. Hosts
// fetch scenario text and call load(); the lab never knows where it came
// from.

import { Playground } from "./engine.js";
import { h, nameOf, setText } from "./dom.js";
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

/** A seed written as text: a whole number from 0 to 2^53-1, else null. */
export function parseSeed(text) {
  const n = String(text).trim() === "" ? NaN : Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * Creates a lab in `root`. Options:
 * - `host`: the element that carries data-finished (body, or the custom element);
 * - `keys`: where keyboard shortcuts listen (document, or the shadow root);
 * - `onEvent(event, { replay })`: each engine event as it is read; `replay`
 *   is true while the timeline rebuilds a moment;
 * - `onEnd()`: the run reached the scenario's end;
 * - `onRun()`: a new run started (load, setting, seed, restart, scrub).
 */
export function createLab(root, { host, keys = root, onEvent = () => {}, onEnd = () => {}, onRun = () => {} } = {}) {
  const $ = (id) => root.getElementById(id);

  const run = {
    fileText: "", // the scenario as loaded
    text: "", // the scenario running now (file + settings + seed)
    scenario: null,
    pg: null,
    seq: 0,
    snap: null,
    journal: [], // your actions, in time order: { t, op, body, caller }
    playing: false,
    speed: "1",
    vt: 0, // virtual time as a float, for slow speeds
    lastTs: 0,
    raf: 0,
    batch: [], // events not yet drawn
    rebuild: false, // the next draw rebuilds the tray from the whole history
    scrubTo: null,
    replaying: false,
    ended: false,
    waiting: new Set(), // rejecters of your requests still waiting on this engine
    dead: false,
  };

  const hist = new History();
  const ctx = {
    label: (id) => hist.label(id),
    maxReceive: (queue) => run.snap?.queues.find((q) => q.name === queue)?.maxReceiveCount,
  };
  const queues = new QueueView($("rows"), $("tray"), $("tray-empty"));
  const workers = new WorkersView(queues);
  const announcer = new Announcer($("announcer"));
  // The full view's panels; a compact lab has none of them.
  const log = $("log") ? new EventLog($("log"), $("log-routine")) : null;
  const chart = $("chart") ? new Chart($("chart")) : null;
  const manual = $("manual") ? new Manual($("manual"), { act: (op, body, caller) => act(op, body, caller) }) : null;
  const settings = $("settings")
    ? new Settings($("settings"), $("json-editor"), {
        current: () => run.scenario,
        apply: (s) => applyScenario(s),
        reset: () => applyScenario(run.fileText, { fromFile: true }),
        error: (m) => showError(m),
      })
    : null;
  const peek = new Peek($("peek"), { playground: () => run.pg, history: hist, ctx, act: (op, body) => act(op, body, manual?.callerName() ?? "you") });

  // ---- errors -----------------------------------------------------------

  function showError(message) {
    $("error-text").textContent = message;
    $("error").hidden = false;
  }

  function clearError() {
    $("error-text").textContent = "";
    $("error").hidden = true;
  }

  $("error-close").addEventListener("click", clearError);

  // ---- starting a run -----------------------------------------------------

  const duration = () => run.scenario?.durationMs ?? 0;

  /** Starts `text` at time 0; false (and the engine's message shown) when it cannot run. */
  function start(text, { fromFile = false, keepPlaying = false, label = "The scenario" } = {}) {
    let pg;
    try {
      pg = Playground.fromScenario(text, undefined);
    } catch (e) {
      showError(`${fromFile ? `${label} cannot run` : "That change cannot run"}: ${e.message ?? e}`);
      return false;
    }
    clearError();
    replacePlayground(pg);
    run.text = text;
    run.scenario = JSON.parse(text);
    run.journal = [];
    if (fromFile) settings?.load(run.scenario, text);
    else settings?.showText(text);
    setText($("title"), run.scenario.title || "Untitled scenario");
    setText($("summary"), run.scenario.summary || "");
    if ($("seed")) $("seed").value = String(run.scenario.seed ?? 0);
    fresh();
    run.playing = keepPlaying && run.playing;
    run.lastTs = performance.now();
    draw({ animate: false, silent: true });
    return true;
  }

  /** Frees the old engine; requests still waiting on it can never be answered, so they fail now. */
  function replacePlayground(pg) {
    run.pg?.free();
    run.pg = pg;
    for (const reject of run.waiting) reject(new Error("The run restarted (a replay, a setting or Restart) while this request was waiting; send it again."));
    run.waiting.clear();
  }

  /** Forgets everything drawn and reads the new playground from its start. */
  function fresh() {
    run.seq = 0;
    run.snap = null;
    run.batch = [];
    run.ended = false;
    run.vt = run.pg.now();
    hist.reset();
    queues.reset();
    workers.reset(run.scenario);
    log?.reset();
    chart?.reset(duration());
    announcer.clear();
    noteJournal();
    collect();
    chart?.add(metrics(run.snap, run.pg.now()));
    onRun();
  }

  function applyScenario(s, opts) {
    const text = typeof s === "string" ? s : JSON.stringify(s, null, 2);
    const ok = start(text, { keepPlaying: true, ...opts });
    if (ok) {
      if (typeof s === "string" && !opts?.fromFile) settings?.load(run.scenario, text);
      loop();
    }
    return ok;
  }

  // ---- virtual time --------------------------------------------------------

  /** Reads new events (and a snapshot when anything happened). */
  function collect() {
    const evs = run.pg.events(run.seq);
    if (evs.length) {
      run.seq = evs[evs.length - 1].seq;
      for (const e of evs) {
        run.batch.push(e);
        onEvent(e, { replay: run.replaying });
      }
    }
    if (evs.length || !run.snap) run.snap = run.pg.snapshot();
    return evs.length;
  }

  /**
   * Advances to `target`, sampling the chart at its fixed steps and making
   * recorded actions at their moments (during a replay). Stops early at
   * `deadline` (performance.now()) if `yieldAt` is set, or jumps straight
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
      pg.advance(Math.min(target, chart?.nextAt(now) ?? Infinity, todo[0]?.t ?? Infinity) - now);
      collect();
      if (chart && pg.now() % chart.step === 0) chart.add(metrics(run.snap, pg.now()));
      due();
      if (performance.now() > deadline) {
        if (yieldAt) return;
        pg.advance(target - pg.now());
        collect();
        break;
      }
    }
    if (replay || pg.now() >= duration()) chart?.add(metrics(run.snap, pg.now()));
  }

  /** Stops at the scenario's end, once per arrival. */
  function checkEnd() {
    if (run.pg.now() < duration() || run.ended) return;
    run.ended = true;
    run.playing = false;
    if (!run.replaying) {
      announcer.say(`Run finished at ${(duration() / 1000).toFixed(1)} seconds.`);
      onEnd();
    }
    // Time stops at the end, so a long poll still waiting can never be
    // answered. Let answers due at this very moment settle first.
    const pg = run.pg;
    setTimeout(() => {
      if (run.pg !== pg || run.waiting.size === 0) return;
      for (const reject of run.waiting) reject(new Error(`The run ended at ${(duration() / 1000).toFixed(1)} s while this request was waiting; press Restart and send it again.`));
      run.waiting.clear();
    });
  }

  function frame(ts) {
    run.raf = 0;
    if (run.dead) return;
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
      checkEnd();
    }
    draw({ animate: run.speed !== "max" && !reducedMotion.matches, silent: run.speed === "max" });
    if (run.playing) run.raf = requestAnimationFrame(frame);
  }

  function loop() {
    if (!run.raf && !run.dead) run.raf = requestAnimationFrame(frame);
  }

  // ---- drawing -------------------------------------------------------------

  let ledgerKey = "";
  let lastSnap = null;

  function draw({ animate, silent }) {
    const pg = run.pg;
    if (!pg || !run.snap) return;
    const now = pg.now();
    const snap = run.snap;
    const batch = run.batch;
    run.batch = [];
    const leftNow = hist.ingest(batch);
    if (batch.length || snap !== lastSnap) {
      lastSnap = snap;
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
      manual?.render(snap);
      const narration = snap.simulation.narration ?? "";
      const nar = $("narration");
      if (nar.textContent !== narration) {
        nar.textContent = narration || "—";
        if (animate) nar.parentElement.animate([{ transform: "scale(1.015)" }, { transform: "none" }], { duration: 400, easing: "ease-out" });
      }
      const lines = log?.append(batch, ctx) ?? [];
      if (!silent) for (const l of lines) if (isKey(l.e) || (l.e.type === "received" && l.kind === "warn")) announcer.say(l.kind === "narration" ? l.text : `${l.who} ${l.text}.`);
      peek.refresh(batch);
    } else {
      queues.tick(now);
      workers.tick(now);
    }
    chart?.draw(now, metrics(snap, now));
    queues.flip();
    syncControls({ playing: run.playing, now, duration: duration(), finished: now >= duration() }, app.dragging, $, host);
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

  // ---- the controls' actions -------------------------------------------------

  function replayTo(t) {
    const target = Math.max(0, Math.min(duration(), Math.round(t)));
    let pg;
    try {
      pg = Playground.fromScenario(run.text, undefined);
    } catch (e) {
      showError(`Replay failed: ${e.message}`);
      return;
    }
    replacePlayground(pg);
    run.replaying = true;
    try {
      fresh();
      advanceTo(target, { replay: true });
      if (run.pg.now() >= duration()) run.ended = true;
    } finally {
      run.replaying = false;
    }
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
      checkEnd();
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
    /** Sets the speed; an unknown one runs at 1× and says why. */
    setSpeed(v) {
      const ok = SPEEDS.includes(String(v));
      if (!ok) showError(`speed="${v}" is not a speed: use one of ${SPEEDS.join(", ")}. Running at 1×.`);
      run.speed = ok ? String(v) : "1";
      if ($("speed")) $("speed").value = run.speed;
      run.vt = run.pg?.now() ?? 0;
      return ok;
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
      const seed = parseSeed(value);
      if (seed == null) {
        showError(`The seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; “${value}” is not.`);
        $("seed")?.setAttribute("aria-invalid", "true");
        return false;
      }
      $("seed")?.removeAttribute("aria-invalid");
      if (!run.scenario) return false;
      return applyScenario({ ...run.scenario, seed });
    },
    closePeek() {
      peek.close();
    },
  };

  /** Records a successful request at virtual time `t`, keeping the journal in time order. */
  function record(t, op, body, caller) {
    let i = run.journal.length;
    while (i > 0 && run.journal[i - 1].t > t) i--;
    run.journal.splice(i, 0, { t, op, body, caller });
  }

  /**
   * Sends a request into the engine as `caller` and records it, so replays
   * make it again at this moment. Resolves to the engine's raw response
   * { status, headers, body (JSON text) }; rejects if the run is replaced
   * while a long poll waits.
   */
  function dispatch(target, bodyText, { caller = "you" } = {}) {
    if (!run.pg) return Promise.reject(new Error("The playground has no scenario loaded yet."));
    const now = run.pg.now();
    // A new action after scrubbing back replaces what you did later.
    run.journal = run.journal.filter((a) => a.t <= now);
    let body;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = null; // the engine answers SerializationException; nothing to record
    }
    const answer = new Promise((resolve, reject) => {
      run.waiting.add(reject);
      run.pg.dispatch(target, bodyText, { caller }).then(
        (res) => {
          run.waiting.delete(reject);
          resolve(res);
        },
        (e) => {
          run.waiting.delete(reject);
          reject(e);
        },
      );
    });
    collect();
    draw({ animate: !reducedMotion.matches, silent: false });
    return answer.then((res) => {
      if (res.status < 400 && body !== null) record(now, target.replace(/^AmazonSQS\./, ""), body, caller);
      noteJournal();
      return res;
    });
  }

  /** A manual SQS call from the page's forms: errors shown in the lab's box. */
  async function act(op, body, caller) {
    let res;
    try {
      res = await dispatch(`AmazonSQS.${op}`, JSON.stringify(body), { caller });
    } catch (e) {
      showError(`${op} could not be sent: ${e.message}`);
      return { status: 0, body: { message: e.message } };
    }
    const parsed = JSON.parse(res.body);
    if (res.status >= 400) showError(`${op} failed (${res.status}): ${parsed.message ?? res.body}`);
    else clearError();
    collect();
    draw({ animate: !reducedMotion.matches, silent: false });
    return { status: res.status, body: parsed };
  }

  function noteJournal() {
    const note = $("replay-note");
    if (!note) return;
    const n = run.journal.length;
    note.hidden = n === 0;
    if (n) note.textContent = `This run includes ${n} action${n === 1 ? "" : "s"} of yours. The timeline replays ${n === 1 ? "it" : "them"} at the moment${n === 1 ? "" : "s"} you made ${n === 1 ? "it" : "them"}; Restart clears ${n === 1 ? "it" : "them"}.`;
  }

  // ---- wiring ------------------------------------------------------------------

  wireControls(app, $, keys);
  root.addEventListener("click", (e) => {
    const tok = e.target.closest?.(".token, .held");
    if (tok) peek.open(tok.dataset.messageId, tok);
  });

  // ---- what hosts see ----------------------------------------------------------

  return {
    ...bindAll(app),
    /** The engine running now (a new one after every replay). */
    get playground() {
      return run.pg;
    },
    get scenario() {
      return run.scenario;
    },
    get playing() {
      return run.playing;
    },
    get speed() {
      return run.speed;
    },
    /** Loads scenario text as a file (its settings become the reset point); false if it cannot run. */
    load(text, { label } = {}) {
      run.fileText = text;
      return start(text, { fromFile: true, label });
    },
    /** Runs a changed scenario (object or text) from time 0 with the same playing state. */
    apply: (s) => applyScenario(s),
    dispatch,
    /** The run as a host can share it: what is running, your actions, and the moment. */
    state() {
      return { fileText: run.fileText, text: run.text, scenario: run.scenario, journal: run.journal.map((a) => ({ ...a })), now: run.pg?.now() ?? 0, speed: run.speed };
    },
    /** Replays `journal` into the current run up to `t` (a shared link's moment). */
    restore({ journal = [], t = 0 }) {
      run.journal = [...journal].sort((a, b) => a.t - b.t);
      replayTo(t);
      noteJournal();
    },
    play() {
      if (!run.playing) app.togglePlay();
    },
    pause() {
      if (run.playing) app.togglePlay();
    },
    showError,
    clearError,
    /** Stops the loop and frees the engine; the lab is unusable afterwards. */
    destroy() {
      run.dead = true;
      if (run.raf) cancelAnimationFrame(run.raf);
      run.raf = 0;
      run.playing = false;
      replacePlayground(null);
      announcer.clear();
    },
  };
}

/** The app's methods bound to it, so hosts can pass them around. */
function bindAll(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) if (typeof v === "function") out[k] = v.bind(obj);
  return out;
}
