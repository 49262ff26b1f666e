// The lab's landmarks (its labelled sections and regions) named after the
// scenario it runs: "Playback controls: Slow consumer, duplicate delivery".
// A course page with four playgrounds otherwise has four "Playback
// controls" and four "Narration" regions, which a screen reader's landmark
// list cannot tell apart (axe: landmark-unique).

const LANDMARKS = "section[aria-label], section[aria-labelledby], [role='region']";

/** Names every landmark in `root` "<its own name>: <title>". */
export function nameLandmarks(root, title) {
  for (const el of root.querySelectorAll(LANDMARKS)) {
    if (el.getAttribute("aria-labelledby") === "title") continue; // the intro: named by the title itself
    // Its own name, read once: from aria-label, or from the element aria-labelledby points at.
    el.dataset.landmark ??= el.getAttribute("aria-label") ?? root.getElementById(el.getAttribute("aria-labelledby"))?.textContent.trim() ?? "";
    el.removeAttribute("aria-labelledby");
    el.setAttribute("aria-label", title ? `${el.dataset.landmark}: ${title}` : el.dataset.landmark);
  }
}
