// The full page's place in the sequence of shipped scenarios: "Scenario 2
// of 10" beside the picker, and at the end of a run a "Next scenario →"
// button under the controls. The picker stays the one way a scenario is
// chosen: the button picks the next option and lets the picker's own change
// handler load it, so links, history and the lab see an ordinary choice.

import { h } from "./dom.js";

/**
 * `select`: the picker; `placeHost`: where "Scenario N of M" goes;
 * `after`: the element the end-of-run box follows. Returns
 * { update() (the picker's value changed), ended(), started() }.
 */
export function setUpSequence({ select, placeHost, after }) {
  const place = h("span", { id: "scenario-place", class: "scenario-place" });
  placeHost.append(place);
  const next = h("button", { type: "button", id: "next-scenario", class: "primary" });
  const box = h("div", { id: "next-up", class: "next-up", role: "group", "aria-label": "End of this scenario", hidden: true },
    h("p", { text: "End of this scenario." }), next);
  after.after(box);
  const at = () => [...select.options].findIndex((o) => o.value === select.value);
  next.addEventListener("click", () => {
    const options = select.options;
    if (!options.length) return;
    select.value = options[(at() + 1) % options.length].value;
    box.hidden = true;
    select.dispatchEvent(new Event("change"));
  });
  return {
    update() {
      const i = at();
      const n = select.options.length;
      place.textContent = i >= 0 && n ? `Scenario ${i + 1} of ${n}` : "";
      if (!n || i < 0) return;
      const last = i === n - 1;
      // Titles fill in after the first scenario loads; the button reads them when the run ends.
      next.dataset.last = String(last);
      next.textContent = last ? "Start again from scenario 1 →" : `Next scenario → ${select.options[i + 1].textContent}`;
    },
    ended() {
      this.update();
      if (at() >= 0) box.hidden = false;
    },
    started() {
      box.hidden = true;
    },
  };
}
