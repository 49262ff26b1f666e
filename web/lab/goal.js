// A lab's goal, on the lab's side: the file as the page runs it, and the
// runs that Check my fix makes. The goal panel (views/panels/goal-panel.js)
// draws and asks; the lab starts the check (a view starts no engine run):
// - asLabFile(text): a lab's file with every field its settings set
//   (labs.scenario), so the "you changed" line compares like with like;
// - checkFix(file, settings, { id, onProgress }): the engine's check over
//   every seed (labs.startCheck), run in slices (check-run.js); a met goal
//   is kept as solved in this browser (progress.js) before the promise
//   settles; throws the engine's refusal at once;
// - isSolved(id): whether lab `id` was solved in this browser.

import { labs } from "../engine/engine.js";
import { runCheck } from "./check-run.js";
import { markSolved, solvedLabs } from "./progress.js";

/** A lab's file as the page runs it: every field it sets (labs.scenario), so the "you changed" line compares like with like. */
export function asLabFile(text) {
  if (!/"goal"\s*:/.test(text)) return text;
  try {
    return labs.view(text) ? labs.scenario(text) : text;
  } catch (e) {
    if (e?.name === "EngineTrap") throw e;
    return text; // not a valid lab: the run's own start says why
  }
}

/**
 * Check my fix for lab file `file` with `settings`: `{ done, cancel() }`
 * as runCheck's (done resolves to the CheckReport). `id` is the lab's id
 * for its progress. Throws the engine's refusal (past its budget, a
 * refused setting) before anything runs.
 */
export function checkFix(file, settings, { id = null, onProgress = () => {} } = {}) {
  const job = runCheck(labs.startCheck(file, settings), { onProgress });
  const done = job.done.then((report) => {
    if (report.met) markSolved(id, settings);
    return report;
  });
  return { done, cancel: () => job.cancel() };
}

/** Whether lab `id` was solved in this browser. */
export const isSolved = (id) => !!(id && solvedLabs()[id]);
