// The lab's views, in drawing order. Each is { mount(root, lab) } and
// mount returns null (its part is not in this markup, e.g. the log in a
// compact <queue-lab>) or { update(derived), destroy(), settle?(), escape?() }:
// - update(d) runs every frame with derive.js's record plus the frame's
//   flags (lab.js's draw: changed, fresh, started, rebuild, animate, silent…);
// - settle() runs after every view's update, for reads after all writes (FLIP);
// - escape() closes what the view has open (the Escape shortcut);
// - duringReplay: true if it also draws while a replay runs in slices
//   (lab.js's drawProgress hands it only the clock's and the replay's
//   fields); the others draw the moment the replay reached, at its end.
// Adding a view: one file exporting such an object, its import here and
// its name in VIEWS.

import { stage } from "./render-queue.js";
import { workers } from "./render-workers.js";
import { dupBanner } from "./dup-banner.js";
import { ledger } from "./ledger.js";
import { manual } from "./manual.js";
import { heading } from "./heading.js";
import { log } from "./event-log.js";
import { peek } from "./peek.js";
import { chart } from "./chart.js";
import { settings } from "./settings.js";
import { controls } from "./controls.js";
import { glossary } from "./glossary.js";
import { quietTime } from "./quiet-time.js";
import { outcome } from "./outcome.js";
import { checkpoint } from "./checkpoint.js";
import { goalPanel } from "./goal-panel.js";

// The stage first: workers draw into its rows.
export const VIEWS = [stage, workers, dupBanner, ledger, manual, heading, goalPanel, checkpoint, outcome, log, peek, chart, settings, controls, glossary, quietTime];
