// The settings form (each queue's timeouts and redrive, each consumer's
// processing time and behaviour) and the scenario JSON editor. A change
// rebuilds the scenario text and hands it to `apply`, which restarts the
// run from time 0 with the same seed, or shows the engine's error.

import { h } from "./dom.js";
import { defaults } from "./engine.js";

// A field a scenario leaves out shows the engine's default.
const QUEUE_FIELDS = [
  ["visibilityTimeoutSeconds", "Visibility timeout (s)"],
  ["delaySeconds", "Delay (s)"],
  ["messageRetentionPeriodSeconds", "Retention (s)"],
];

export class Settings {
  /** apply(scenario object or JSON text) -> false when the engine refused it (error shown). */
  constructor(form, jsonHost, { current, apply, reset, error }) {
    this.form = form;
    this.current = current; // () => the scenario running now (seed included)
    this.apply = apply;
    this.reset = reset;
    this.error = error;
    this.text = h("textarea", { id: "json-text", rows: "16", spellcheck: "false", autocomplete: "off" });
    jsonHost.append(
      h("label", { for: "json-text", text: "Scenario JSON (the format of web/scenarios/*.json)" }),
      this.text,
      h("div", { class: "row" },
        h("button", { type: "button", text: "Run this scenario", onclick: () => this.apply(this.text.value) }),
        h("span", { class: "muted", text: "Errors name the field and the line." })),
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
      for (const [key, label] of QUEUE_FIELDS) fields.push(num(`q${i}-${key}`, label, q[key] ?? d.queue[key], { "data-setting": key, "data-queue-index": i }));
      if (q.redrive) fields.push(num(`q${i}-mrc`, `maxReceiveCount (then to ${q.redrive.deadLetterQueue})`, q.redrive.maxReceiveCount, { "data-setting": "maxReceiveCount", "data-queue-index": i }));
      parts.push(h("fieldset", null, h("legend", { text: `Queue ${q.name}` }), ...fields));
    });
    (scenario.consumers ?? []).forEach((c, i) => {
      const at = (key) => ({ "data-setting": key, "data-consumer-index": i });
      const p = c.processing ?? {};
      const b = c.behaviour ?? {};
      const fields = [];
      if (p.fixedMs != null) fields.push(num(`c${i}-fixed`, "Processing time (ms)", p.fixedMs, at("processingMs")));
      if (p.uniformMs) fields.push(num(`c${i}-min`, "Processing min (ms)", p.uniformMs.min, at("processingMinMs")), num(`c${i}-max`, "Processing max (ms)", p.uniformMs.max, at("processingMaxMs")));
      if (p.exponentialMs) fields.push(num(`c${i}-mean`, "Processing mean (ms)", p.exponentialMs.mean, at("processingMeanMs")));
      fields.push(
        num(`c${i}-batch`, "Batch size (1–10)", c.batchSize ?? d.consumer.batchSize, at("batchSize")),
        num(`c${i}-wait`, "Wait time (s, 0 = short poll)", c.waitTimeSeconds ?? d.consumer.waitTimeSeconds, at("waitTimeSeconds")),
        check(`c${i}-idem`, "Idempotent (skips ids already processed)", !!b.idempotent, at("idempotent")),
        check(`c${i}-hb`, "Heartbeat (extends visibility while working)", !!b.heartbeatEveryMs, at("heartbeat")),
        num(`c${i}-hbe`, "Heartbeat every (ms)", b.heartbeatEveryMs ?? 1000, at("heartbeatEveryMs")),
      );
      parts.push(h("fieldset", null, h("legend", { text: `Consumer ${c.name}` }), ...fields));
    });
    if (!parts.length) parts.push(h("p", { class: "muted", text: "This scenario has no queues or consumers to tune." }));
    f.replaceChildren(
      h("div", { class: "fieldsets" }, ...parts),
      h("div", { class: "row" },
        h("button", { type: "button", text: "Back to the file's settings", onclick: () => this.reset() }),
        h("span", { class: "muted", text: "Each change restarts the run at t = 0 with the same seed." })),
    );
    this.syncHeartbeat();
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
    const next = structuredClone(this.current());
    const value = input.type === "checkbox" ? input.checked : input.value.trim() === "" ? NaN : Number(input.value);
    const label = input.labels?.[0]?.textContent ?? key;
    if (input.type !== "checkbox" && !Number.isFinite(value)) {
      input.setAttribute("aria-invalid", "true");
      this.error(`${label}: enter a number.`);
      return;
    }
    if (input.dataset.queueIndex != null) {
      const q = next.queues[input.dataset.queueIndex];
      if (key === "maxReceiveCount") q.redrive.maxReceiveCount = value;
      else q[key] = value;
    } else {
      const c = next.consumers[input.dataset.consumerIndex];
      const b = (c.behaviour ??= {});
      switch (key) {
        case "processingMs": c.processing = { fixedMs: value }; break;
        case "processingMinMs": c.processing.uniformMs.min = value; break;
        case "processingMaxMs": c.processing.uniformMs.max = value; break;
        case "processingMeanMs": c.processing.exponentialMs.mean = value; break;
        case "batchSize": c.batchSize = value; break;
        case "waitTimeSeconds": c.waitTimeSeconds = value; break;
        case "idempotent": b.idempotent = value; break;
        case "heartbeat":
          if (value) b.heartbeatEveryMs = Number(this.form.querySelector(`[data-setting='heartbeatEveryMs'][data-consumer-index='${input.dataset.consumerIndex}']`).value) || 1000;
          else {
            delete b.heartbeatEveryMs;
            delete b.heartbeatVisibilitySeconds;
          }
          break;
        case "heartbeatEveryMs": b.heartbeatEveryMs = value; break;
      }
    }
    if (this.apply(next)) {
      for (const el of this.form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    } else input.setAttribute("aria-invalid", "true");
    this.syncHeartbeat();
  }
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
