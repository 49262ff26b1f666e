// The full page's place in the sequence of shipped scenarios or labs:
// "Scenario 2 of 10" ("Lab 3 of 8") beside the picker, and at the end of a
// run a "Next scenario →" button under the controls. The sequence is the
// picked option's group (an <optgroup data-word="Scenario">). The picker stays the one way a scenario is
// chosen: the button picks the next option and lets the picker's own change
// handler load it, so links, history and the lab see an ordinary choice.

import { h } from "../ui/dom.js";

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
  // The picked option's group: its options and its word ("Scenario", "Lab").
  const group = () => {
    const g = select.selectedOptions[0]?.closest("optgroup");
    return { options: [...(g ?? select).querySelectorAll("option:not([disabled])")], word: g?.dataset.word ?? "Scenario" };
  };
  const at = () => group().options.findIndex((o) => o.value === select.value);
  next.addEventListener("click", () => {
    const { options } = group();
    if (!options.length) return;
    select.value = options[(at() + 1) % options.length].value;
    box.hidden = true;
    select.dispatchEvent(new Event("change"));
  });
  return {
    update() {
      const { options, word } = group();
      const i = at();
      const n = options.length;
      place.textContent = i >= 0 && n ? `${word} ${i + 1} of ${n}` : "";
      if (!n || i < 0) return;
      const last = i === n - 1;
      // Titles fill in after the first scenario loads; the button reads them when the run ends.
      next.dataset.last = String(last);
      const lower = word.toLowerCase();
      next.textContent = last ? `Start again from ${lower} 1 →` : `Next ${lower} → ${options[i + 1].textContent}`;
    },
    ended() {
      this.update();
      if (at() >= 0) box.hidden = false;
      box.querySelector("p").textContent = `End of this ${group().word.toLowerCase()}.`;
    },
    started() {
      box.hidden = true;
    },
  };
}
