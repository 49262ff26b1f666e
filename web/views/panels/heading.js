// What the run is about and what it says now: the scenario's title and
// summary (set when a run starts; the simulation fills the summary's
// {placeholders} from the run's settings: snapshot().simulation.summary)
// and the narration line (the scenario's current narration, with a small
// pulse when it changes), and under it the
// simulation's own explanation of the latest key moment when no authored
// line covers that moment (snapshot().simulation.explanation): "Why:"
// alone, "Since then:" under a line, whose moment it follows.

import { setText } from "../../ui/dom.js";
import { nameLandmarks } from "../../ui/landmarks.js";

export const heading = {
  mount(root) {
    const title = root.getElementById("title");
    const summary = root.getElementById("summary");
    const narration = root.getElementById("narration");
    const explanation = root.getElementById("explanation");
    let said = null; // the narration shown (the element shows "—" for none)
    return {
      update(d) {
        if (d.started) {
          setText(title, d.scenario.title || "Untitled scenario");
          setText(summary, d.snap.simulation.summary || "");
          nameLandmarks(root, d.scenario.title || "Untitled scenario");
        }
        if (!d.changed) return;
        const why = explanation ? (d.snap.simulation.explanation ?? "") : "";
        if (explanation) {
          setText(explanation, why);
          explanation.hidden = !why;
        }
        const text = d.snap.simulation.narration ?? "";
        // No line of the scenario's yet (a lab has none): the simulation's explanation speaks alone, else a dash holds the place.
        narration.hidden = !text && !!why;
        // Under a line, the explanation is of a key moment after it (the simulation gives none the line covers):
        // "Since then:", not "Why:", so it is not read as the line's cause.
        if (explanation) explanation.toggleAttribute("data-after-line", !!text);
        if (text !== said) {
          said = text;
          narration.textContent = text || "—";
          if (d.animate && text) narration.closest("section").animate([{ transform: "scale(1.015)" }, { transform: "none" }], { duration: 400, easing: "ease-out" });
        }
      },
      destroy() {},
    };
  },
};
