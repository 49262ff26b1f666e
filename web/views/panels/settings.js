// The settings form (each queue's timeouts and redrive, each consumer's
// processing time and behaviour) and the scenario JSON editor. A change
// rebuilds the scenario text and hands it to `apply`, which restarts the
// run from time 0 with the same seed, or shows the engine's error.

import { h } from "../../ui/dom.js";
import { defaults } from "../../engine/engine.js";

// A field a scenario leaves out shows the engine's default.
const QUEUE_FIELDS = [
  ["visibilityTimeoutSeconds", "Visibility timeout (s)"],
  ["delaySeconds", "Delay (s)"],
  ["messageRetentionPeriodSeconds", "Retention (s)"],
];

export class Settings {
  /** apply(scenario object or JSON text) -> false when the engine refused it (error shown). */
  constructor(form, jsonHost, { current, apply, reset, error, lastError = () => null }) {
    this.form = form;
    this.current = current; // () => the scenario running now (seed included)
    this.apply = apply;
    this.reset = reset;
    this.error = error;
    this.lastError = lastError; // () => the error of the last refused run (its message, path, rule, line)
    this.text = h("textarea", { id: "json-text", rows: "16", spellcheck: "false", autocomplete: "off" });
    jsonHost.append(
      h("label", { for: "json-text", text: "Scenario JSON (the format of web/scenarios/*.json)" }),
      this.text,
      h("div", { class: "row" },
        h("button", { type: "button", text: "Run this scenario", onclick: () => this.runText() }),
        h("span", { class: "muted", text: "Errors name the field and the line." })),
      (this.textError = h("p", { class: "field-error", id: "json-error", "data-json-error": "", role: "alert", hidden: true })),
    );
    form.addEventListener("change", (e) => this.changed(e.target));
    form.addEventListener("submit", (e) => e.preventDefault());
  }

  /** Shows a scenario: the form and the JSON text. */
  load(scenario, text) {
    this.showText(text);
    const f = this.form;
    const parts = [];
    const d = defaults();
    scenario.queues.forEach((q, i) => {
      const fields = [];
      for (const [key, label] of QUEUE_FIELDS) fields.push(num(`q${i}-${key}`, label, q[key] ?? d.queue[key], { "data-setting": key, "data-queue-index": i, "data-path": `queues[${i}].${key}` }));
      if (q.redrive) fields.push(num(`q${i}-mrc`, `maxReceiveCount (then to ${q.redrive.deadLetterQueue})`, q.redrive.maxReceiveCount, { "data-setting": "maxReceiveCount", "data-queue-index": i, "data-path": `queues[${i}].redrive.maxReceiveCount` }));
      parts.push(h("fieldset", null, h("legend", { text: `Queue ${q.name}` }), ...fields));
    });
    (scenario.consumers ?? []).forEach((c, i) => parts.push(consumerFieldset(c, i, d)));
    if (!parts.length) parts.push(h("p", { class: "muted", text: "This scenario has no queues or consumers to tune." }));
    f.replaceChildren(
      h("div", { class: "fieldsets" }, ...parts),
      h("div", { class: "row" },
        h("button", { type: "button", text: "Back to the file's settings", onclick: () => this.reset() }),
        h("span", { class: "muted", text: "Each change restarts the run at t = 0 with the same seed." })),
    );
    for (const el of f.querySelectorAll("[data-setting]")) el.dataset.applied = appliedOf(el);
    this.syncHeartbeat();
  }

  /** Runs the editor's text; a refusal shows under the editor, and the caret goes to its line. */
  runText() {
    const ok = this.apply(this.text.value);
    this.textError.hidden = ok;
    if (ok) {
      this.text.removeAttribute("aria-invalid");
      this.text.removeAttribute("aria-describedby");
      return;
    }
    const e = this.lastError();
    const text = String(e?.message ?? e).replace(/^invalid scenario: /, "");
    this.textError.textContent = `This file cannot run: ${text}`;
    if (e?.line != null) this.textError.dataset.line = String(e.line);
    else delete this.textError.dataset.line;
    this.text.setAttribute("aria-invalid", "true");
    this.text.setAttribute("aria-describedby", "json-error");
    if (e?.line != null) caretTo(this.text, e.line, e.column ?? 1);
  }

  showText(text) {
    if (document.activeElement !== this.text) this.text.value = text;
  }

  syncHeartbeat() {
    for (const box of this.form.querySelectorAll("[data-setting='heartbeat']")) {
      const every = this.form.querySelector(`[data-setting='heartbeatEveryMs'][data-consumer-index='${box.dataset.consumerIndex}']`);
      every.disabled = !box.checked;
    }
  }

  changed(input) {
    const key = input.dataset.setting;
    if (!key) return;
    // The value the run already uses (a field left after a change already
    // applied): nothing to restart, and the learner's run goes on.
    if (input.dataset.applied === appliedOf(input)) return;
    clearFieldError(input);
    const next = structuredClone(this.current());
    const value = readValue(input);
    if (input.type === "number" && !Number.isFinite(value) && !(OPTIONAL.has(key) && input.value.trim() === "")) {
      this.refused(input, { message: "enter a number" });
      return;
    }
    if (input.dataset.queueIndex != null) {
      const q = next.queues[input.dataset.queueIndex];
      if (key === "maxReceiveCount") q.redrive.maxReceiveCount = value;
      else q[key] = value;
    } else setConsumerField(next.consumers[input.dataset.consumerIndex], key, value, this.form, input.dataset.consumerIndex);
    if (this.apply(next)) {
      for (const el of this.form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
      for (const el of this.form.querySelectorAll("[data-setting]")) el.dataset.applied = appliedOf(el);
    } else this.refused(input, this.lastError());
    this.syncHeartbeat();
  }

  /**
   * The run refused a change (or it was not a number): the message goes
   * under the field the error names (its path), else under the one just
   * changed, and that field gets back the value the run is using.
   */
  refused(input, error) {
    const target = (error?.path && this.form.querySelector(`[data-path="${CSS.escape(error.path)}"]`)) || input;
    const label = (target.labels?.[0]?.textContent ?? target.dataset.setting).replace(/\s*\(.*\)$/, "");
    // A number field holding something that is not a number reads as "".
    const entered = input.type === "checkbox" ? (input.checked ? "on" : "off") : input.value === "" ? "no number" : `“${input.value}”`;
    restore(input);
    const back = input.type === "checkbox" ? "" : ` Back to ${input.value === "" ? "none" : input.value}, the value running now.`;
    const reason = plainReason(error?.message).replace(/([^.!?])$/, "$1.");
    const why = error?.rule ? `${label} must be ${error.rule}.` : `${label}: ${reason}`;
    showFieldError(target, `${why} You entered ${entered}.${back}`);
  }
}

/** Puts the editor's caret at 1-based `line` and `column` (serde counts bytes; close enough for a caret). */
function caretTo(area, line, column) {
  const lines = area.value.split("\n");
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  at = Math.min(area.value.length, at + Math.max(0, column - 1));
  area.focus();
  area.setSelectionRange(at, at);
}

/** Settings a learner may leave empty ("never", "none"). */
const OPTIONAL = new Set(["failsEveryNth"]);

function readValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.dataset.list != null) return input.value.split(",").map((s) => s.trim()).filter(Boolean);
  return input.value.trim() === "" ? NaN : Number(input.value);
}

/** What a field shows for the run now, kept to restore it after a refusal. */
function appliedOf(el) {
  return el.type === "checkbox" ? String(el.checked) : el.value;
}

function restore(input) {
  if (input.dataset.applied == null) return;
  if (input.type === "checkbox") input.checked = input.dataset.applied === "true";
  else input.value = input.dataset.applied;
}

/** The engine's reason without the scenario prefix ("invalid scenario: line 3: …" → "…"). */
function plainReason(message = "") {
  return String(message).replace(/^(invalid scenario|scenario)( [^:]*)?: (line \d+( column \d+)?: )?/, "");
}

function showFieldError(input, text) {
  const id = `${input.id}-error`;
  const box = input.closest(".set");
  let note = box.querySelector(".field-error");
  if (!note) box.append((note = h("p", { class: "field-error", id, "data-field-error": input.dataset.setting, role: "alert" })));
  note.textContent = text;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
}

function clearFieldError(input) {
  for (const note of input.form?.querySelectorAll(".field-error") ?? []) note.remove();
  for (const el of input.form?.querySelectorAll("[aria-describedby$='-error']") ?? []) el.removeAttribute("aria-describedby");
}

/** One consumer's fields: processing, receiving, and every behaviour a scenario can switch on. */
function consumerFieldset(c, i, d) {
  const at = (key, path) => ({ "data-setting": key, "data-consumer-index": i, "data-path": `consumers[${i}].${path ?? key}` });
  const p = c.processing ?? {};
  const b = c.behaviour ?? {};
  const fields = [];
  if (p.fixedMs != null) fields.push(num(`c${i}-fixed`, "Processing time (ms)", p.fixedMs, at("processingMs", "processing.fixedMs")));
  if (p.uniformMs) fields.push(num(`c${i}-min`, "Processing min (ms)", p.uniformMs.min, at("processingMinMs", "processing.uniformMs.min")), num(`c${i}-max`, "Processing max (ms)", p.uniformMs.max, at("processingMaxMs", "processing.uniformMs.max")));
  if (p.exponentialMs) fields.push(num(`c${i}-mean`, "Processing mean (ms)", p.exponentialMs.mean, at("processingMeanMs", "processing.exponentialMs.mean")));
  fields.push(
    num(`c${i}-batch`, "Batch size (1–10)", c.batchSize ?? d.consumer.batchSize, at("batchSize")),
    num(`c${i}-wait`, "Wait time (s, 0 = short poll)", c.waitTimeSeconds ?? d.consumer.waitTimeSeconds, at("waitTimeSeconds")),
    check(`c${i}-idem`, "Idempotent (skips ids already processed)", !!b.idempotent, at("idempotent", "behaviour.idempotent")),
    check(`c${i}-hb`, "Heartbeat (extends visibility while working)", !!b.heartbeatEveryMs, at("heartbeat", "behaviour.heartbeat")),
    num(`c${i}-hbe`, "Heartbeat every (ms)", b.heartbeatEveryMs ?? 1000, at("heartbeatEveryMs", "behaviour.heartbeatEveryMs")),
    check(`c${i}-dbp`, "Deletes before processing (at-most-once)", !!b.deletesBeforeProcessing, at("deletesBeforeProcessing", "behaviour.deletesBeforeProcessing")),
    num(`c${i}-nth`, "Fails every Nth receive (empty = never)", b.failsEveryNth ?? "", at("failsEveryNth", "behaviour.failsEveryNth")),
    list(`c${i}-fails`, "Fails on bodies containing (comma-separated)", b.failsOn, at("failsOn", "behaviour.failsOn")),
    list(`c${i}-cbse`, "Crashes before the side effect on", b.crashesBeforeSideEffectOn, at("crashesBeforeSideEffectOn", "behaviour.crashesBeforeSideEffectOn")),
    list(`c${i}-case`, "Crashes after the side effect on", b.crashesAfterSideEffectOn, at("crashesAfterSideEffectOn", "behaviour.crashesAfterSideEffectOn")),
  );
  return h("fieldset", null, h("legend", { text: `Consumer ${c.name}` }), ...fields);
}

/** Writes one consumer setting into the scenario object `c` (a copy of the running one). */
function setConsumerField(c, key, value, form, index) {
  const b = (c.behaviour ??= {});
  switch (key) {
    case "processingMs": c.processing = { fixedMs: value }; break;
    case "processingMinMs": c.processing.uniformMs.min = value; break;
    case "processingMaxMs": c.processing.uniformMs.max = value; break;
    case "processingMeanMs": c.processing.exponentialMs.mean = value; break;
    case "batchSize": c.batchSize = value; break;
    case "waitTimeSeconds": c.waitTimeSeconds = value; break;
    case "heartbeat":
      if (value) b.heartbeatEveryMs = Number(form.querySelector(`[data-setting='heartbeatEveryMs'][data-consumer-index='${index}']`).value) || 1000;
      else {
        delete b.heartbeatEveryMs;
        delete b.heartbeatVisibilitySeconds;
      }
      break;
    case "failsEveryNth":
      if (Number.isFinite(value)) b.failsEveryNth = value;
      else delete b.failsEveryNth;
      break;
    default: b[key] = value; // idempotent, heartbeatEveryMs, deletesBeforeProcessing and the body lists
  }
}

function list(id, label, values, attrs) {
  return h("div", { class: "set" }, h("label", { for: id, text: label }), h("input", { id, type: "text", value: (values ?? []).join(", "), "data-list": "", placeholder: "none", spellcheck: "false", autocomplete: "off", ...attrs }));
}

function num(id, label, value, attrs) {
  return h("div", { class: "set" }, h("label", { for: id, text: label }), h("input", { id, type: "number", value, step: "any", inputmode: "decimal", ...attrs }));
}

function check(id, label, checked, attrs) {
  return h("div", { class: "set chk" }, h("input", { id, type: "checkbox", checked, ...attrs }), h("label", { for: id, text: label }));
}

/**
 * Settings and the JSON editor as a view (full view only). When a run
 * starts, the form is rebuilt from the scenario if it came as text (a
 * file, the editor); a change made in the form only refreshes the text.
 */
export const settings = {
  mount(root, lab) {
    const form = root.getElementById("settings");
    if (!form) return null;
    const view = new Settings(form, root.getElementById("json-editor"), {
      current: () => lab.scenario(),
      apply: (s) => lab.apply(s),
      reset: () => lab.resetToFile(),
      error: (m) => lab.showError(m),
      lastError: () => lab.lastError(),
    });
    return {
      update(d) {
        if (!d.started) return;
        if (d.started.reload) view.load(d.scenario, d.started.text);
        else view.showText(d.started.text);
      },
      destroy() {},
    };
  },
};
