// What the run is about and what it says now: the scenario's title and
// summary (set when a run starts) and the narration line (the scenario's
// current narration, with a small pulse when it changes), and under it the
// simulation's own explanation of the latest key moment when no authored
// line covers that moment (snapshot().simulation.explanation).

import { setText } from "./dom.js";
import { nameLandmarks } from "./landmarks.js";

export const heading = {
  mount(root) {
    const title = root.getElementById("title");
    const summary = root.getElementById("summary");
    const narration = root.getElementById("narration");
    const explanation = root.getElementById("explanation");
    return {
      update(d) {
        if (d.started) {
          setText(title, d.scenario.title || "Untitled scenario");
          setText(summary, d.scenario.summary || "");
          nameLandmarks(root, d.scenario.title || "Untitled scenario");
        }
        if (!d.changed) return;
        if (explanation) {
          const why = d.snap.simulation.explanation ?? "";
          setText(explanation, why);
          explanation.hidden = !why;
        }
        const text = d.snap.simulation.narration ?? "";
        if (narration.textContent !== text) {
          narration.textContent = text || "—";
          if (d.animate) narration.closest("section").animate([{ transform: "scale(1.015)" }, { transform: "none" }], { duration: 400, easing: "ease-out" });
        }
      },
      destroy() {},
    };
  },
};
