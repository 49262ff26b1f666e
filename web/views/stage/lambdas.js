// The scenario's Lambda functions under the stage's rows: a card per
// function with the queue its event source mapping polls, the mapping's
// settings, its pollers and concurrency against MaximumConcurrency (a
// bar, and over time the function's ConcurrentExecutions as CloudWatch
// keeps it), each running invocation as a box holding its batch (each message
// named as the queue's tokens name it, drawn in the in-flight colours the
// queue lane gives it meanwhile) with its elapsed time, and the latest
// ends with their result marks (the messages going back marked). A refused
// mapping shows Lambda's error. Everything comes from derive's `lambdas`;
// the words are text/lambdas.js's. A scenario without functions costs one
// length check a frame.

import { h, setText } from "../../ui/dom.js";
import { svg, stepLine } from "../../ui/svg.js";
import { shortId } from "../../text/format.js";
import { MetricSeries, average } from "../../run/metric-series.js";
import { concurrencyWords, endMark, invocationTime, lambdaConcurrency, lambdaCounts, lambdaPointer, lambdaSettings, lambdaState, messageMark } from "../../text/lambdas.js";

/** Messages drawn per batch; the rest are counted ("+ 12 more"): a batch of 10,000 is a count, not a wall. */
const DRAWN_PER_BATCH = 10;

/** One message of a batch, as a token names it (its id's start and its label); a click opens the peek like any token. */
function chip(m, mark) {
  return h(
    "li",
    null,
    h(
      "button",
      { type: "button", class: "held l-msg", "data-message-id": m.id, "data-back": m.back ? "true" : null },
      h("span", { class: "hd-top" }, h("span", { class: "tk-id", text: shortId(m.id) }), mark ? h("span", { class: "l-mark", text: mark }) : null),
      h("span", { class: "tk-label", text: m.label }),
    ),
  );
}

/** A batch's messages, the first DRAWN_PER_BATCH of them, and how many more it holds. */
function batch(messages, size, mark) {
  const more = size - Math.min(messages.length, DRAWN_PER_BATCH);
  return h(
    "ul",
    { class: "l-batch" },
    ...messages.slice(0, DRAWN_PER_BATCH).map((m) => chip(m, mark?.(m))),
    more > 0 ? h("li", { class: "l-more", text: `+ ${more} more` }) : null,
  );
}

/** A running invocation: its number, its time (ticked every frame) and its batch. */
function runningBox(r, ticks) {
  const time = h("span", { class: "l-time" });
  const fill = h("span", { class: "l-fill" });
  ticks.push({ r, time, fill, last: "" });
  return h(
    "li",
    { class: `l-inv${r.awaiting ? " awaiting" : ""}`, "data-invocation": r.invocation, "data-size": r.size, "data-awaiting": r.awaiting ? "true" : null },
    h("p", { class: "l-inv-head" }, h("span", { class: "l-ic", "aria-hidden": "true", text: r.awaiting ? "⌛" : "⚙" }), ` invocation ${r.invocation} · ${r.size} in batch · `, time),
    h("span", { class: "l-prog", "aria-hidden": "true" }, fill),
    batch(r.messages, r.size),
  );
}

/** An end (or a throttled hand-over): its mark and its batch, the messages going back marked. */
function endedBox(e) {
  const mark = endMark(e);
  const what = e.invocation == null ? "" : `invocation ${e.invocation} `;
  return h(
    "li",
    { class: "l-inv ended", "data-result": e.kind, "data-invocation": e.invocation ?? null, "data-size": e.size },
    h("p", { class: "l-inv-head" }, h("span", { class: "l-ic", "aria-hidden": "true", text: mark.icon }), ` ${what}`, h("span", { class: "l-result", text: mark.words }), h("span", { class: "l-at", text: ` · ${e.times > 1 ? "latest " : ""}t=${(e.at / 1000).toFixed(1)} s` })),
    batch(e.messages, e.size, (m) => messageMark(e, m)),
  );
}

/** One function's card, drawn whole (it changes only with an event); `ticks` collects what time moves; `spark` is its concurrency line. */
function card(l, ticks, spark) {
  const conc = lambdaConcurrency(l);
  return h(
    "article",
    { class: `lambda${l.refused ? " refused" : ""}`, "data-function": l.name, "data-state": l.state, "data-concurrency": l.concurrency, "data-pollers": l.pollers, "aria-label": `Lambda function ${l.name}` },
    h("header", { class: "l-head" },
      h("h4", { class: "l-name" }, h("span", { class: "l-lambda", "aria-hidden": "true", text: "λ" }), l.name),
      h("span", { class: "l-state", text: lambdaState(l) })),
    h("p", { class: "l-source" }, h("span", { "aria-hidden": "true", text: "← " }), "polls ", h("strong", { text: l.queue })),
    h("p", { class: "l-settings", text: lambdaSettings(l) }),
    l.refused ? h("p", { class: "l-refusal", role: "note", text: `${l.refused.code}: ${l.refused.error}` }) : null,
    h("div", { class: "l-conc" },
      h("span", { class: "l-conc-text", text: conc.text }),
      h("span", { class: "l-conc-bar", "aria-hidden": "true" }, fill(h("span", { class: "l-conc-fill" }), conc.fill))),
    spark,
    h("p", { class: "l-counts", text: lambdaCounts(l) }),
    l.running.length || l.runningNotListed
      ? h("div", { class: "l-part" },
        h("p", { class: "l-part-title", text: "Running now" }),
        h("ul", { class: "l-running", "aria-label": `Invocations of ${l.name} running now` }, ...l.running.map((r) => runningBox(r, ticks))),
        l.runningNotListed ? h("p", { class: "l-more", text: `+ ${l.runningNotListed} more running` }) : null)
      : h("p", { class: "l-idle", text: l.state === "enabled" ? "no invocation running" : "" }),
    l.ended.length
      ? h("div", { class: "l-part" },
        h("p", { class: "l-part-title", text: "Latest results" }),
        h("ul", { class: "l-ended", "aria-label": `Latest results of ${l.name}` }, ...l.ended.map(endedBox)))
      : null,
  );
}

/** `el` drawn `f` (0 to 1) full: a bar's fill (scaled, as the tokens' bars are, so a frame's tick costs no layout). */
function fill(el, f) {
  el.style.transform = `scaleX(${f})`;
  return el;
}

/** The concurrency line's picture, in its own units (CSS stretches it to the card). */
const SPARK = { W: 240, H: 44, PAD: 3 };

/**
 * A function's concurrency over time: its ConcurrentExecutions as
 * CloudWatch keeps it (the most invocations running at once in each
 * metrics step: run/metric-series.js), a step line over the run, with the
 * mapping's MaximumConcurrency as a dashed cap. Lambda publishes no
 * datapoint for a step in which nothing ran: the line breaks there.
 */
function concurrencyLine(l, metrics, duration) {
  const series = metrics.named("AWS/Lambda", "ConcurrentExecutions").find((s) => s.metric.dimensions.FunctionName === l.name);
  const res = metrics.resolution;
  const points = (series?.points ?? []).map(([t, v]) => [t + res, average(v)]);
  const peak = points.reduce((m, [, v]) => Math.max(m, v), 0);
  const cap = l.maximumConcurrency;
  const figure = h("figure", { class: "l-spark", "data-points": String(points.length), "data-peak": String(peak) });
  figure.append(h("figcaption", { text: concurrencyWords({ points: points.length, peak, cap, resolutionMs: res, duration }) }));
  // Nothing ran yet: the words alone, not an empty picture.
  if (!points.length) return figure;
  const { W, H, PAD } = SPARK;
  const top = Math.max(1, peak, cap ?? 0);
  const span = Math.max(1, duration);
  const x = (t) => PAD + (Math.min(t, span) / span) * (W - 2 * PAD);
  const y = (v) => H - PAD - (v / top) * (H - 2 * PAD);
  const pic = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "l-spark-pic", "aria-hidden": "true", preserveAspectRatio: "none" });
  pic.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "axis" }));
  if (cap != null) pic.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(cap).toFixed(1), y2: y(cap).toFixed(1), class: "l-spark-cap" }));
  pic.append(stepLine(points, res, x, y, "ln cw-line l-spark-line"));
  figure.prepend(pic);
  return figure;
}

/** Running invocations' time moved: their elapsed time and bars. */
function tick(ticks, now) {
  for (const t of ticks) {
    const { text, fill: f } = invocationTime(t.r, now);
    if (t.last === text) continue;
    t.last = text;
    setText(t.time, text);
    fill(t.fill, f);
  }
}

/**
 * Each function's mark among its queue's consumers in the stage's rows (a
 * part the lab owns, laid out before the views draw): the queue's messages
 * go to the function, whose card is below; a click brings the card into view.
 */
class Pointers {
  constructor(rows, cards) {
    this.rows = rows;
    this.cards = cards;
    this.marks = new Map(); // function -> { el, text }
  }

  draw(all, order) {
    for (const [name, m] of this.marks) {
      if (all.some((l) => l.name === name)) continue;
      m.el.remove();
      this.marks.delete(name);
    }
    for (const l of all) {
      let m = this.marks.get(l.name);
      if (!m) {
        const text = h("span", { class: "l-pointer-text" });
        const show = () => this.cards.querySelector(`[data-function="${CSS.escape(l.name)}"]`)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
        const el = h("button", { type: "button", class: "l-pointer", "data-lambda-pointer": l.name, onclick: show },
          h("span", { class: "l-pointer-name" }, h("span", { class: "l-lambda", "aria-hidden": "true", text: "λ" }), l.name),
          text, h("span", { class: "l-pointer-see", text: "its invocations below ↓" }));
        this.marks.set(l.name, (m = { el, text }));
      }
      setText(m.text, lambdaPointer(l));
      m.el.dataset.state = l.state;
      // Rows are rebuilt on a new run (the old cell is gone): put the mark back; never make a row for a queue not on the stage.
      if (!order.includes(l.queue)) m.el.remove();
      else if (m.el.parentNode !== this.rows.srow(l.queue).cons) this.rows.srow(l.queue).cons.append(m.el);
    }
  }

  clear() {
    for (const m of this.marks.values()) m.el.remove();
    this.marks.clear();
  }
}

export const lambdas = {
  mount(root, lab) {
    const box = root.getElementById("lambdas");
    const cards = root.getElementById("lambda-cards");
    if (!box || !cards) return null;
    const pointers = lab.rows ? new Pointers(lab.rows, cards) : null;
    const metrics = new MetricSeries(() => lab.playground());
    let drawn = ""; // what the cards show, as JSON: redrawn only when it changed (the snapshot is a new object every frame)
    let ticks = [];
    let sparks = new Map(); // function → its concurrency line, drawn again when a datapoint comes
    let version = -1;
    return {
      update(d) {
        const all = d.lambdas;
        if (!all?.length) {
          if (drawn) {
            drawn = "";
            ticks = [];
            box.hidden = true;
            cards.replaceChildren();
            pointers?.clear();
          }
          return;
        }
        metrics.update(d);
        if (metrics.version !== version || d.rebuild || d.fresh || d.started) {
          version = metrics.version;
          const before = sparks;
          // A refused mapping never runs the function: no line to draw.
          sparks = new Map(all.filter((l) => !l.refused).map((l) => [l.name, concurrencyLine(l, metrics, d.duration)]));
          for (const [name, el] of before) before.get(name)?.replaceWith(sparks.get(name) ?? el);
        }
        if (d.changed || d.rebuild) {
          const key = JSON.stringify(all);
          if (key !== drawn) {
            drawn = key;
            ticks = [];
            box.hidden = false;
            cards.replaceChildren(...all.map((l) => card(l, ticks, sparks.get(l.name))));
          }
          pointers?.draw(all, d.order);
        }
        tick(ticks, d.now);
      },
      destroy() {
        cards.replaceChildren();
        pointers?.clear();
      },
    };
  },
};
