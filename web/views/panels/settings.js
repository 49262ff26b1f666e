// The settings form (each queue's timeouts and redrive, each consumer's
// processing time and behaviours: every field the engine's vocabulary
// offers as a setting, in its words, setting-fields.js) and the scenario
// JSON editor. A change rebuilds the scenario text and hands it to
// `apply`, which restarts the run from time 0 with the same seed, or
// shows the engine's error.

import { h } from "../../ui/dom.js";
import { defaults } from "../../engine/engine.js";
import { fieldAt } from "../../text/field-words.js";
import { fieldset, readInto, syncSwitches } from "../../ui/setting-fields.js";

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
    const d = defaults();
    const parts = [
      ...scenario.queues.map((q, i) => fieldset("queues", i, q, d.queue, `Queue ${q.name}`)),
      ...(scenario.consumers ?? []).map((c, i) => fieldset("consumers", i, c, d.consumer, `Consumer ${c.name}`)),
    ];
    if (!parts.length) parts.push(h("p", { class: "muted", text: "This scenario has no queues or consumers to tune." }));
    f.replaceChildren(
      h("div", { class: "fieldsets" }, ...parts),
      h("div", { class: "row" },
        h("button", { type: "button", text: "Back to the file's settings", onclick: () => this.reset() }),
        h("span", { class: "muted", text: "Each change restarts the run at t = 0 with the same seed." })),
    );
    for (const el of f.querySelectorAll("[data-setting]")) el.dataset.applied = appliedOf(el);
    syncSwitches(f);
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

  changed(input) {
    const key = input.dataset.setting;
    if (!key) return;
    // The value the run already uses (a field left after a change already
    // applied): nothing to restart, and the learner's run goes on.
    if (input.dataset.applied === appliedOf(input)) return;
    clearFieldError(input);
    const next = structuredClone(this.current());
    if (!readInto(next, input, this.form)) {
      this.refused(input, { message: "enter a number" });
      return;
    }
    if (this.apply(next)) {
      for (const el of this.form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
      for (const el of this.form.querySelectorAll("[data-setting]")) el.dataset.applied = appliedOf(el);
    } else this.refused(input, this.lastError());
    syncSwitches(this.form);
  }

  /**
   * The run refused a change (or it was not a number): the message goes
   * under the field the error names (its path), else under the one just
   * changed, and that field gets back the value the run is using.
   */
  refused(input, error) {
    const target = (error?.path && this.form.querySelector(`[data-path="${CSS.escape(error.path)}"]`)) || input;
    const label = fieldAt(target.dataset.path)?.label ?? target.dataset.setting;
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
