// The lab's views, in drawing order. Each is { mount(root, lab) }, where
// `lab` is what a view may use (context.js), and mount returns null (its
// part is not in this markup, e.g. the log in a compact <queue-lab>) or
// { update(derived), destroy(), settle?(), escape?() }:
// - update(d) runs every frame with derive.js's record plus the frame's
//   flags (frames.js's draw: changed, fresh, started, rebuild, animate, silent…);
// - settle() runs after every view's update, for reads after all writes (FLIP);
// - escape() closes what the view has open (the Escape shortcut);
// - duringReplay: true if it also draws while a replay runs in slices
//   (frames.js's drawProgress hands it only the clock's and the replay's
//   fields); the others draw the moment the replay reached, at its end.
// Adding a view: one file exporting such an object, its import here and
// its name in VIEWS. A view imports no other view and talks to none:
// what it needs from another comes from derive's record or a part the
// lab owns (tests/node/layers.test.mjs holds this). This file is the one
// place in lab/ that names views.

import { stage } from "../views/stage/render-queue.js";
import { workers } from "../views/stage/render-workers.js";
import { dupBanner } from "../views/stage/dup-banner.js";
import { buckets } from "../views/stage/buckets.js";
import { ledger } from "../views/stage/ledger.js";
import { topics } from "../views/stage/topics.js";
import { lambdas } from "../views/stage/lambdas.js";
import { manual } from "../views/panels/manual.js";
import { heading } from "../views/panels/heading.js";
import { log } from "../views/panels/event-log.js";
import { peek } from "../views/panels/peek.js";
import { chart } from "../views/stage/chart.js";
import { cloudwatch } from "../views/stage/cloudwatch.js";
import { settings } from "../views/panels/settings.js";
import { controls } from "../views/panels/controls.js";
import { glossary } from "../ui/glossary.js";
import { quietTime } from "../views/panels/quiet-time.js";
import { outcome } from "../views/panels/outcome.js";
import { checkpoint } from "../views/panels/checkpoint.js";
import { goalPanel } from "../views/panels/goal-panel.js";

// The stage's rows are the lab's (stage-rows.js), laid out before any view draws.
export const VIEWS = [stage, workers, lambdas, topics, dupBanner, buckets, ledger, manual, heading, goalPanel, checkpoint, outcome, log, peek, chart, cloudwatch, settings, controls, glossary, quietTime];
