// The first-visit tour of the full page: six short steps that point at the
// stage, one token, the controls, the narration, the settings and the code
// cell. It opens by itself once (localStorage remembers that it was seen,
// finished or skipped), and the "?" button in the header opens it again.
// Only main.js starts it, and only for the full page: a <queue-lab> on a
// course page, or the embed view, never shows it.
//
// The card is a non-modal dialog: the page stays usable behind it, nothing
// is covered by a backdrop, and Escape or "Skip the tour" closes it.

import { h } from "../ui/dom.js";

/** The localStorage key that remembers the tour was seen. */
export const TOUR_SEEN = "queuelab.tourSeen";

/** Each step: what it points at (the first selector that finds something), its title and text. */
export const STEPS = [
  { at: ["#stage"], title: "The stage", text: "Each row is a queue. Producers on the left send messages into it; consumers on the right receive, process and delete them. Hover or focus a word in the key above the queue to learn what it means." },
  { at: ["#rows .token", "#rows"], title: "One message", text: "A token is one message: its state (delayed, visible, in flight…), its receive # and a bar counting down its timer. Press it, or Enter on it, to peek inside." },
  { at: ["#lab .transport"], title: "The controls", text: "Play, Step to the next event, Restart, the speed, and the timeline: drag it to replay any moment. Space plays, N steps." },
  { at: ["#lab .narration", "[data-narration]", "#narration"], title: "The narration", text: "This line says what is happening and why, as the run goes." },
  { at: ["#settings-panel", "#settings"], title: "Settings", text: "Change the visibility timeout, the dead-letter queue or a worker's behaviour: the run restarts with your change so you can compare." },
  { at: ["#lab .code-panel"], title: "Your code", text: "Call this same queue yourself, with the AWS SDK's commands, and watch your calls on the stage." },
];

function seen() {
  try {
    return localStorage.getItem(TOUR_SEEN) === "1";
  } catch {
    return false; // storage refused (a sandbox): show the tour, and it cannot be remembered
  }
}

function remember() {
  try {
    localStorage.setItem(TOUR_SEEN, "1");
  } catch {
    // Nothing to do: the "?" button still works.
  }
}

/**
 * Adds the "?" button to `buttonHost` and opens the tour now if this
 * browser has not seen it. Returns { open(), close() }.
 */
export function setUpTour(doc, buttonHost) {
  const tour = new Tour(doc);
  const ask = h("button", { type: "button", id: "tour-open", class: "tour-open", "aria-label": "Take the tour of this page", title: "Take the tour of this page", text: "?", onclick: () => tour.open() });
  buttonHost.append(ask);
  tour.returnTo = ask;
  if (!seen()) tour.open();
  return { open: () => tour.open(), close: () => tour.close() };
}

class Tour {
  constructor(doc) {
    this.doc = doc;
    this.i = 0;
    this.count = h("p", { class: "tour-count" });
    this.title = h("h2", { id: "tour-title", tabindex: "-1" });
    this.text = h("p", { id: "tour-text" });
    this.back = h("button", { type: "button", id: "tour-back", text: "Back", onclick: () => this.go(this.i - 1) });
    this.next = h("button", { type: "button", id: "tour-next", class: "primary", onclick: () => (this.i === STEPS.length - 1 ? this.close() : this.go(this.i + 1)) });
    this.skip = h("button", { type: "button", id: "tour-skip", class: "quiet", text: "Skip the tour", onclick: () => this.close() });
    this.el = h(
      "div",
      { id: "tour", class: "tour", role: "dialog", "aria-modal": "false", "aria-labelledby": "tour-title", "aria-describedby": "tour-text", hidden: true },
      this.count, this.title, this.text,
      h("div", { class: "tour-buttons" }, this.skip, this.back, this.next),
    );
    this.el.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.stopPropagation(); // the page's Escape closes a peek; here it closes only the tour
        this.close();
      }
    });
    doc.body.append(this.el);
    this.onResize = () => this.place();
  }

  open() {
    this.el.hidden = false;
    addEventListener("resize", this.onResize);
    this.go(0);
  }

  /** Closes the tour and remembers it was seen, so it does not open by itself again. */
  close() {
    if (this.el.hidden) return;
    remember();
    this.el.hidden = true;
    this.target?.removeAttribute("data-tour-target");
    removeEventListener("resize", this.onResize);
    this.returnTo?.focus();
  }

  go(i) {
    this.i = Math.max(0, Math.min(STEPS.length - 1, i));
    const step = STEPS[this.i];
    this.target?.removeAttribute("data-tour-target");
    this.target = step.at.map((sel) => this.doc.querySelector(sel)).find(Boolean) ?? null;
    this.target?.setAttribute("data-tour-target", "");
    this.el.dataset.step = String(this.i + 1);
    this.count.textContent = `Step ${this.i + 1} of ${STEPS.length}`;
    this.title.textContent = step.title;
    this.text.textContent = step.text;
    this.back.disabled = this.i === 0;
    this.next.textContent = this.i === STEPS.length - 1 ? "Done" : "Next →";
    this.target?.scrollIntoView({ block: "nearest" });
    this.place();
    this.title.focus({ preventScroll: true });
  }

  /** Puts the card beside its target: below it if there is room, else above, else at the bottom of the window. */
  place() {
    const card = this.el.getBoundingClientRect();
    const r = this.target?.getBoundingClientRect();
    let top = innerHeight - card.height - 12;
    if (r && r.bottom + 10 + card.height <= innerHeight) top = Math.max(8, r.bottom + 10);
    else if (r && r.top - 10 - card.height >= 0) top = r.top - 10 - card.height;
    const left = r ? Math.min(Math.max(8, r.left), innerWidth - card.width - 8) : 8;
    this.el.style.top = `${Math.max(8, top)}px`;
    this.el.style.left = `${Math.max(8, left)}px`;
  }
}
