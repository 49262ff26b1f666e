// A lab's panel: the goal in words, the knobs the learner may change,
// "Check my fix" with its verdict, and the hints, cause and fix revealed
// one at a time. Everything it says comes from the engine: the goal's
// sentences, each knob's kind and range (labs.view), the scenario a
// setting makes (labs.scenario) and the verdict over every check seed,
// which the lab runs (lab.checkFix: lab/goal.js). The panel never decides
// whether a goal holds, and starts no run itself.
//
// A change of knob runs the lab with the new settings (the run restarts,
// as for any setting). Check my fix checks the lab's file with the knob
// values of the run on screen: edits made elsewhere (the JSON editor) are
// not part of the check, which the panel says when they exist. The check
// runs in slices (lab/check-run.js): the panel shows which seed it is on, and
// Cancel (or a new setting, or another file) stops it and puts the panel
// back as it was. A check past the engine's budget is refused at once,
// in the verdict's place.
//
// Hooks: the panel's [data-goal-state="unmet|checking|met"] and [data-lab]
// (mirrored on the host: the <queue-lab> element or the page's <body>);
// events `goal-met` { lab, settings } and `goal-failed` { lab, settings,
// seed, condition, atMs, message, failures } on the host. The host reads
// the panel's API (LabGoal in queue-lab.d.ts) as `lab.goal`.

import { h } from "../../ui/dom.js";
import { secs } from "../../text/format.js";
import { labs } from "../../engine/engine.js";
import { knobField, readKnob, showKnobError, clearKnobErrors, writeKnob } from "../../ui/knob-fields.js";

/** "with seed 7, …" → "With seed 7, …". */
const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A value's JSON with object keys sorted and nulls left out: equal for the same settings or scenario, however written. */
const canonical = (v) => JSON.stringify(v, (key, value) => (value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([, x]) => x !== null).sort(([x], [y]) => (x < y ? -1 : 1))) : value));

const same = (a, b) => canonical(a) === canonical(b);

export const goalPanel = {
  mount(root, lab) {
    const box = root.getElementById("goal");
    if (!box) return null;
    const panel = new GoalPanel(root, box, lab);
    return { goal: panel.api, update: (d) => panel.update(d), destroy: () => {} };
  },
};

class GoalPanel {
  constructor(root, box, lab) {
    this.$ = (id) => root.getElementById(id);
    // Declared for the type check, which does not follow the Object.assign below.
    /** @type {HTMLElement} */ this.box;
    /** @type {any} the lab's context (web/lab/lab.js) */ this.lab;
    Object.assign(this, { box, lab, view: null, file: "", settings: null, report: null, checkedWith: null, refused: null, running: null, hintsShown: 0 });
    this.$("knobs").addEventListener("change", (e) => this.changed(e.target));
    // Enter in a field applies its value (its change event); only the button checks.
    this.$("knobs").addEventListener("submit", (e) => e.preventDefault());
    this.$("check-fix").addEventListener("click", () => this.check().catch(() => {})); // the panel shows the outcome
    this.$("check-cancel").addEventListener("click", () => this.running?.cancel());
    this.$("goal-hint").addEventListener("click", () => this.revealHint());
    this.api = this.makeApi();
  }

  /** The API hosts and tests use: `lab.goal` (LabGoal in queue-lab.d.ts). */
  makeApi() {
    const panel = this;
    return {
      /** Whether the scenario running is a lab (it has a goal). */
      get active() {
        return panel.view != null;
      },
      get id() {
        return panel.lab.fileId() ?? null;
      },
      get conditions() {
        return panel.view ? panel.view.conditions.map((c) => ({ ...c })) : [];
      },
      get knobs() {
        return panel.view ? structuredClone(panel.view.knobs) : [];
      },
      get settings() {
        return panel.settings ? { ...panel.settings } : null;
      },
      set settings(values) {
        panel.setSettings(values);
      },
      /** Check my fix, as the button does; rejects with an AbortError if the learner cancels it. */
      checkGoal: () => panel.check(),
    };
  }

  update(d) {
    if (!d.started) return;
    const fileText = this.lab.fileText();
    // A new file resets the panel; a run of the same file (a changed setting, a failing run opened) keeps its verdict while its settings are the ones checked.
    if (fileText !== this.file) this.loadFile(fileText);
    if (this.view) this.readRun(d.started.text);
  }

  /** A new file: its lab view (or none), its knobs' fields, its hints hidden. */
  loadFile(fileText) {
    this.running?.cancel(); // a check of the last file says nothing about this one
    this.file = fileText;
    this.view = null;
    try {
      this.view = labs.view(fileText);
    } catch {
      // Not a runnable scenario: the lab's error box says why.
    }
    this.box.hidden = !this.view;
    this.setHook("lab", this.view ? (this.lab.fileId() ?? "") : null);
    this.setHook("goalState", this.view ? "unmet" : null);
    if (!this.view) return;
    Object.assign(this, { report: null, checkedWith: null, refused: null, hintsShown: 0 });
    this.$("goal-summary").textContent = this.view.summary;
    this.$("goal-summary").hidden = !this.view.summary;
    this.$("goal-seeds").textContent = `checked over ${this.view.seeds.length} seeds`;
    this.$("knob-fields").replaceChildren(...this.view.knobs.map((k) => knobField(k)));
    this.renderHints();
    this.renderResult();
  }

  /** The run on screen: its knob values fill the fields; a verdict for other settings is cleared. */
  readRun(text) {
    let now = null;
    try {
      now = labs.view(text)?.settings ?? null;
    } catch {
      // An edited scenario without a valid goal: keep the last settings.
    }
    this.settings = now ?? this.settings ?? { ...this.view.settings };
    for (const knob of this.view.knobs) writeKnob(this.$("knob-fields"), knob, this.settings[knob.id]);
    clearKnobErrors(this.$("knob-fields"));
    // Edits outside the knobs run but are not checked: say so.
    let mine = text;
    try {
      mine = labs.scenario(this.file, this.settings, JSON.parse(text).seed);
    } catch {
      // Settings the file's knobs refuse: the note below stays up.
    }
    this.$("goal-edited").hidden = !this.isJson(text) || same(JSON.parse(mine), JSON.parse(text));
    // A check of other settings than the run's is of no use now: it stops.
    if (this.running && !same(this.running.settings, this.settings)) this.running.cancel();
    if (this.checkedWith && !same(this.checkedWith, this.settings)) {
      this.report = null;
      this.checkedWith = null;
      this.refused = null;
    }
    this.renderResult();
  }

  isJson(text) {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }

  /** A knob's field changed: the lab runs with the new settings, or the field says why it cannot. */
  changed(input) {
    const knob = this.view?.knobs.find((k) => k.id === input.dataset.knob);
    if (!knob) return;
    const value = readKnob(this.$("knob-fields"), knob);
    try {
      this.setSettings({ [knob.id]: value });
    } catch (e) {
      showKnobError(this.$("knob-fields"), knob, e, this.settings[knob.id]);
    }
  }

  /** Runs the lab with `values` (a partial map by knob id); throws the engine's error for a refused value. */
  setSettings(values) {
    if (!this.view) throw new Error("This scenario is not a lab: it has no goal, so it has no settings to change.");
    const next = { ...this.settings, ...values };
    const text = labs.scenario(this.file, next, this.lab.scenario()?.seed);
    if (!this.lab.apply(text)) throw new Error(this.lab.lastError()?.message ?? "That change cannot run.");
  }

  /**
   * Check my fix: every check seed, in slices, with its progress shown and
   * Cancel offered; then the verdict shown, progress kept, an event fired.
   * A second call while one runs gets the same check. Rejects with the
   * engine's refusal (shown in the panel too), or an AbortError when cancelled.
   */
  check() {
    if (!this.view) return Promise.reject(new Error("This scenario is not a lab: it has no goal to check."));
    if (this.running) return this.running.done;
    const settings = { ...this.settings };
    let job;
    try {
      job = this.lab.checkFix(this.file, settings, (p) => this.showProgress(p));
    } catch (e) {
      if (e?.name !== "EngineTrap") this.refuse(e, settings);
      return Promise.reject(e);
    }
    this.running = { settings, cancel: () => job.cancel(), done: null };
    this.showChecking(true);
    this.lab.say(`Checking your fix over ${this.view.seeds.length} seeds.`);
    this.running.done = job.done.then(
      (report) => this.checked(report, settings),
      (e) => {
        this.endChecking();
        if (e?.name === "AbortError") this.lab.say("Check cancelled.");
        throw e;
      },
    );
    return this.running.done;
  }

  /** The check ended with its verdict. */
  checked(report, settings) {
    this.endChecking();
    Object.assign(this, { report, checkedWith: settings, refused: null });
    this.renderResult();
    // The verdict box appears with its text, which a live region may not read: the lab's announcer does.
    this.lab.say(report.met ? `Goal met. ${report.summary}` : `Goal not met. ${sentence(report.failures[0].message)}.`);
    this.tell(report, settings);
    return { met: report.met, summary: report.summary, seeds: [...report.seeds], failures: report.failures.map((f) => ({ ...f })) };
  }

  /** The engine would not start the check (past its budget, a refused setting): said in the verdict's place. */
  refuse(error, settings) {
    Object.assign(this, { report: null, checkedWith: settings, refused: error.message ?? String(error) });
    this.renderResult();
    this.lab.say(`Cannot check: ${this.refused}`);
  }

  /** While a check runs (`on`) its progress line and Cancel stand in the button's place; then the panel as it was. */
  showChecking(on) {
    const [button, cancel] = [this.$("check-fix"), this.$("check-cancel")];
    const focused = (on ? button : cancel).matches(":focus");
    button.hidden = on;
    this.$("check-progress").hidden = !on;
    // Focus follows the control that replaced the one it was on.
    if (focused) (on ? cancel : button).focus();
    this.setHook("goalState", this.goalState());
  }

  endChecking() {
    this.running = null;
    this.showChecking(false);
  }

  /** "Checking seed 4 of 12…", and the bar: seeds done plus the running one's share of its run. */
  showProgress(p) {
    const n = Math.min(p.seedsDone + 1, p.seeds);
    this.$("check-status").textContent = `Checking seed ${n} of ${p.seeds}…`;
    const share = p.durationMs > 0 ? Math.min(1, p.atMs / p.durationMs) : 0;
    this.$("check-bar").value = p.done ? 1 : (p.seedsDone + share) / p.seeds;
  }

  tell(report, settings) {
    const id = this.lab.fileId() ?? null;
    if (report.met) {
      this.revealAll();
      this.lab.host?.dispatchEvent(new CustomEvent("goal-met", { detail: { lab: id, settings }, bubbles: true, composed: true }));
      return;
    }
    const first = report.failures[0];
    const detail = { lab: id, settings, seed: first.seed, condition: first.condition, atMs: first.atMs, message: first.message, failures: report.failures };
    this.lab.host?.dispatchEvent(new CustomEvent("goal-failed", { detail, bubbles: true, composed: true }));
  }

  /** The panel's state: checking, met, or unmet (no verdict yet, or not met); none when the scenario is no lab. */
  goalState() {
    if (!this.view) return null;
    return this.running ? "checking" : this.report?.met ? "met" : "unmet";
  }

  /** The verdict, the conditions marked held or broken, and the way to the failing run. */
  renderResult() {
    const r = this.report;
    this.setHook("goalState", this.goalState());
    const broken = new Set(r?.failures.map((f) => f.condition) ?? []);
    const items = this.view?.conditions.map((c) => {
      const held = !r ? null : !broken.has(c.id);
      const mark = held == null ? "" : held ? "✓" : "✗";
      const said = held == null ? "" : held ? " (held on every seed)" : " (broken)";
      return h("li", { "data-condition": c.id, "data-held": held == null ? null : String(held) }, h("span", { class: "mark", "aria-hidden": "true", text: mark }), c.text, h("span", { class: "vh", text: said }));
    });
    this.$("goal-conditions").replaceChildren(...(items ?? []));
    this.$("goal-help").querySelector("summary").textContent = this.helpTitle();
    const solved = this.view && this.lab.solved();
    this.$("goal-solved").hidden = !solved;
    const out = this.$("goal-result");
    out.hidden = !r && !this.refused;
    if (!r && this.refused) {
      out.dataset.verdict = "refused";
      return out.replaceChildren(h("p", { class: "verdict", text: "✗ Cannot check these settings." }), h("p", { class: "first-failure", text: this.refused }));
    }
    if (!r) return out.replaceChildren();
    out.dataset.verdict = r.met ? "met" : "failed";
    out.replaceChildren(...(r.met ? this.metResult(r) : this.failedResult(r)));
  }

  metResult(r) {
    return [h("p", { class: "verdict", text: "✓ Goal met: fixed, on every seed." }), h("p", { text: r.summary })];
  }

  failedResult(r) {
    const first = r.failures[0];
    const head = h("p", { class: "verdict", text: `✗ Not met on ${r.failures.length} of ${r.seeds.length} seeds.` });
    const open = h("button", { type: "button", id: "open-failing-run", class: "primary", text: `Open that run (seed ${first.seed}, at t = ${secs(first.atMs)} s)`, onclick: () => this.openFailure(first) });
    const out = [head, h("p", { class: "first-failure", text: `${sentence(first.message)}.` }), open];
    if (r.movesTheProblem) out.push(h("p", { class: "moved" }, h("strong", { text: `${r.movesTheProblem.name} only moves the problem. ` }), r.movesTheProblem.why));
    if (r.failures.length > 1) {
      const list = h("ul", null, ...r.failures.map((f) => h("li", { text: `${sentence(f.message)}.` })));
      out.push(h("details", { class: "all-failures" }, h("summary", { text: `Every failing seed (${r.failures.length})` }), list));
    }
    return out;
  }

  /** Opens the failing seed's run, paused at the breach. */
  openFailure(failure) {
    const text = labs.scenario(this.file, this.checkedWith ?? this.settings, failure.seed);
    this.lab.commands.closePeek();
    if (!this.lab.apply(text)) return;
    if (this.lab.playing()) this.lab.commands.togglePlay();
    this.lab.commands.scrub(failure.atMs, false);
    // The verdict's sentence at the top, the run's controls, narration and stage under it.
    this.$("goal-result").scrollIntoView({ block: "start" });
    this.lab.say(`Opened seed ${failure.seed} at t = ${secs(failure.atMs)} s: ${failure.message}.`);
  }

  // ---- hints, cause and fix ------------------------------------------------

  renderHints() {
    const hints = this.view.explain?.hints ?? [];
    this.$("goal-help").hidden = !this.view.explain;
    this.$("goal-hints").replaceChildren(...hints.slice(0, this.hintsShown).map((text) => h("li", { text })));
    const left = hints.length - this.hintsShown;
    const button = this.$("goal-hint");
    button.hidden = left < 0;
    button.textContent = left > 0 ? `Show a hint (${this.hintsShown + 1} of ${hints.length})` : "Show the cause and the fix";
    this.$("goal-explain").hidden = left >= 0;
    if (left < 0) this.$("goal-explain").replaceChildren(...this.explanation());
  }

  revealHint() {
    this.hintsShown += 1;
    this.renderHints();
    const items = this.$("goal-hints").children;
    // Focus follows what appeared, so a screen reader reads it next.
    const shown = this.hintsShown <= items.length ? items[this.hintsShown - 1] : this.$("goal-explain");
    shown.setAttribute("tabindex", "-1");
    shown.focus();
  }

  /** Solved: the cause and the fix are the learner's to read now. */
  revealAll() {
    const explain = this.view.explain;
    if (!explain) return;
    this.hintsShown = explain.hints.length + 1;
    this.$("goal-help").open = true;
    this.renderHints();
  }

  /** The hints' heading: a way out while the lab is open, the reason once it is solved. */
  helpTitle() {
    return this.report?.met ? "Why it works: the cause and the fix" : "Stuck? Hints, then the cause and the fix";
  }

  explanation() {
    const e = this.view.explain;
    const out = [h("h4", { text: "The cause" }), h("p", { text: e.cause }), h("h4", { text: "The standard fix" }), h("p", { text: e.fix })];
    if (e.compare) out.push(h("h4", { text: "How the fixes compare" }), h("p", { text: e.compare }));
    if (e.nonFixes.length) {
      out.push(h("h4", { text: "Fixes that only move the problem" }), h("ul", null, ...e.nonFixes.map((n) => h("li", null, h("strong", { text: `${n.name}: ` }), n.why))));
    }
    out.push(h("p", { class: "doc" }, "AWS documentation: ", h("a", { href: e.doc.url, target: "_blank", rel: "noopener", text: e.doc.title })));
    return out;
  }

  /** Sets (or, with null, removes) a data- hook on the panel and on the host. */
  setHook(name, value) {
    for (const el of [this.box, this.lab.host]) {
      if (!el) continue;
      if (value == null) delete el.dataset[name];
      else el.dataset[name] = value;
    }
  }
}
