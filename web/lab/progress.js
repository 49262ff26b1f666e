// The labs a learner has solved, kept in this browser (localStorage): the
// picker marks them and a lab says it was solved before. Storage may be
// refused (a sandboxed iframe, some file:// pages, private modes): then
// nothing is kept and nothing breaks.

const KEY = "queuelab.labs.solved";

/** { labId: { settings, at } } for every lab solved in this browser. */
export function solvedLabs() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

/** Records that `settings` solved lab `id` (the latest solution is kept). */
export function markSolved(id, settings) {
  if (!id) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...solvedLabs(), [id]: { settings, at: new Date().toISOString() } }));
  } catch {
    // Not kept: storage is refused here.
  }
  dispatchEvent(new CustomEvent("queuelab-progress", { detail: { lab: id } }));
}
