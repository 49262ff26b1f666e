// What the full page draws, read back from the DOM, next to what the engine
// running in that same page says should be drawn (its snapshot and event
// log). Expectations are derived here from the engine's data, not by
// calling the page's drawing code, so a drawing bug shows as a difference.
import assert from "node:assert/strict";
import { CELL_CARDS } from "../../web/views/stage/render-queue.js";
import { STAGE_WINDOW } from "../../web/run/derive.js";

/**
 * Reads the engine (snapshot and every event) and the drawing in one
 * page task, so nothing can move between the two readings.
 */
export function capture(page) {
  return page.evaluate((window) => {
    const pg = document.getElementById("lab").playground;
    if (!pg) throw new Error(`the page has no engine running; it says: “${document.getElementById("error-text")?.textContent}”`);
    const all = (sel, from = document) => [...from.querySelectorAll(sel)];
    const text = (el) => el?.textContent ?? null;
    // Seen by a person: laid out, not hidden, not transparent.
    const shown = (el) => !!el && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && el.getClientRects().length > 0;
    const token = (t) => ({
      id: t.dataset.messageId,
      state: t.dataset.state,
      rc: t.dataset.receiveCount,
      dup: t.dataset.duplicate === "true",
      lost: t.dataset.lost === "true",
      link: text(t.querySelector(".tk-link")) || null,
      shown: shown(t),
    });
    const place = (t) => {
      const lane = t.closest("[data-lane]");
      return `${t.closest("[data-queue]")?.dataset.queue}|${t.closest("[data-group]")?.dataset.group ?? ""}|${lane?.dataset.lane}`;
    };
    return {
      // The window the stage asks for (derive.js): what it may draw.
      snap: pg.snapshot({ messagesPerQueue: window }),
      events: pg.events(),
      // The scenario's responders (request-response): the snapshot names them only as holders.
      responders: (document.getElementById("lab").scenario?.responders ?? []).map((r) => r.name),
      drawn: {
        time: Number(document.getElementById("clock").dataset.timeMs),
        tokens: all("#rows .token").map((t) => ({ ...token(t), where: place(t) })),
        stacks: Object.fromEntries(all("#rows .stack").map((st) => [place(st), Number(st.dataset.count)]).sort()),
        // A FIFO queue's "not drawn" marks, past the window: queue|lane -> the number said.
        notDrawn: Object.fromEntries(all("[data-queue] .q-more:not([hidden]) .m-lane").filter((m) => m.textContent).map((m) => [`${m.closest("[data-queue]").dataset.queue}|${m.dataset.lane}`, Number(m.textContent.replace(/[^\d]/g, ""))]).sort()),
        tray: all("#tray .token").map(token),
        consumers: all("#rows [data-consumer]").map((c) => ({
          name: c.dataset.consumer,
          state: c.dataset.state,
          sideEffects: c.dataset.sideEffects,
          emptyReceives: shown(c.querySelector(".c-empty")) ? Number(/\d+/.exec(text(c.querySelector(".c-empty")))) : 0,
          receiveRequests: shown(c.querySelector(".c-requests")) ? Number(/[\d,]+/.exec(text(c.querySelector(".c-requests")))[0].replaceAll(",", "")) : 0,
          held: all(".held", c).map((b) => ({ id: b.dataset.messageId, rc: b.dataset.receiveCount, dup: b.dataset.duplicate === "true", link: text(b.querySelector(".tk-link")) || null })),
        })),
        producers: Object.fromEntries(all("#rows [data-producer]").map((p) => [p.dataset.producer, `${text(p.querySelector(".p-count"))} ${text(p.querySelector(".p-last"))}`])),
        queues: all("#rows [data-queue]").map((b) => ({
          name: b.dataset.queue,
          dlqClass: b.classList.contains("dlq"),
          kind: text(b.querySelector(".q-kind")),
          counts: text(b.querySelector(".q-counts")),
          alarm: { shown: shown(b.querySelector(".q-alarm")), inAlarm: b.querySelector(".q-alarm").classList.contains("in-alarm"), text: text(b.querySelector(".q-alarm")) },
          groups: all("[data-group]", b).map((g) => ({ group: g.dataset.group, locked: g.dataset.locked, says: text(g.querySelector(".g-state")), shown: shown(g) })),
        })),
        rows: all("#rows [data-row-queue]").map((r) => ({ queue: r.dataset.rowQueue, redrive: { shown: shown(r.querySelector(".redrive")), text: text(r.querySelector(".redrive")) } })),
        banner: { shown: shown(document.getElementById("dup-banner")), text: text(document.getElementById("dup-banner")) },
        narration: { text: text(document.getElementById("narration")), shown: shown(document.getElementById("narration")) },
        billCallers: text(document.querySelector("#outcome:not([hidden]) .bill-callers")),
        ledger: all("#ledger li").map((li) => ({ n: text(li.querySelector(".fx-n")), by: text(li.querySelector(".fx-by")), warn: li.classList.contains("fx-dup") })),
        chart: readChart(),
        view: document.querySelector(".lab[data-view]")?.dataset.view ?? null,
      },
    };

    /** The chart as drawn: legend values, and each count line's last point read against the drawn axis. */
    function readChart() {
      const svg = document.querySelector("#chart svg.chart");
      if (!svg) return null;
      const legend = Object.fromEntries(all("#chart .legend li").map((li) => {
        const [label, value] = li.textContent.trim().split(/:\s*/);
        return [label, value];
      }));
      // The left axis: its grid lines (bottom to top) and their labels.
      const grid = all(".grid line", svg);
      const lines = grid.map((l) => Number(l.getAttribute("y1"))).sort((a, b) => b - a);
      const left = Math.min(...grid.map((l) => Number(l.getAttribute("x1"))));
      const labels = all(".grid text", svg)
        .filter((t) => Number(t.getAttribute("x")) < left)
        .map((t) => [Number(t.getAttribute("y")), Number(t.textContent)])
        .sort((a, b) => b[0] - a[0])
        .map(([, v]) => v);
      const value = (y) => labels[0] + ((y - lines[0]) / (lines.at(-1) - lines[0])) * (labels.at(-1) - labels[0]);
      const last = {};
      for (const key of ["visible", "inFlight", "delayed", "dlq"]) {
        const pts = svg.querySelector(`polyline.ln-${key}`).getAttribute("points").trim().split(/\s+/).filter(Boolean);
        const [x, y] = (pts.at(-1) ?? "NaN,NaN").split(",").map(Number);
        last[key] = { x, value: Math.round(value(y) * 100) / 100 };
      }
      return { legend, last, nowX: Number(svg.querySelector("line.now").getAttribute("x1")) };
    }
  }, STAGE_WINDOW);
}

// ---- what the engine says should be drawn ---------------------------------------

const LEAVES = { deleted: "deleted", purged: "deleted", redriven: "deleted", expired: "expired" };
const TRAY_MAX = 20; // the page's stated limit: "Left the queue (last 20 …)"
const LEDGER_MAX = 12; // side effects listed, most recent last

/** Worker name lists per message id, for messages still being worked on (not done). */
export function holders(snap) {
  const by = new Map();
  for (const w of snap.simulation.workers) {
    for (const x of w.holding) if (!x.done) by.set(x.messageId, [...(by.get(x.messageId) ?? []), w.name]);
  }
  return by;
}

/** Messages two or more consumers hold at this moment: id -> names. */
export function duplicates(snap) {
  return new Map([...holders(snap)].filter(([, names]) => names.length > 1));
}

const dlqSources = (snap) => new Map(snap.queues.filter((q) => q.deadLetterTargetArn).map((q) => [q.deadLetterTargetArn, q]));

/** Who was ever delivered a message at the same time as someone else, from duplicateDelivery events. */
function dupEvents(events) {
  const by = new Map();
  for (const e of events) if (e.type === "duplicateDelivery") by.set(e.messageId, new Set([...(by.get(e.messageId) ?? []), e.consumer, e.alsoHeldBy]));
  return by;
}

/**
 * Each request's and reply's mark, by message id, from the log's
 * requestSent and replySent events: "⇄ request <correlation id>" on the
 * request, "⇄ reply to <correlation id>" on its reply.
 */
function linkMarks(events) {
  const marks = new Map();
  for (const e of events) {
    if (e.type === "requestSent") marks.set(e.messageId, `⇄ request ${e.correlationId}`);
    if (e.type === "replySent") marks.set(e.messageId, `⇄ reply to ${e.correlationId}`);
  }
  return marks;
}

function expectedTokens(snap, events) {
  const sources = dlqSources(snap);
  const held = holders(snap);
  const marks = linkMarks(events);
  return snap.queues.flatMap((q) =>
    drawnMessages(q).map((m) => ({
      id: m.messageId,
      state: sources.has(q.arn) ? "dlq" : m.state,
      rc: String(m.receiveCount),
      dup: m.state === "in-flight" && (held.get(m.messageId) ?? []).some((n) => n !== m.holder),
      lost: false,
      link: marks.get(m.messageId) ?? null,
      shown: true,
      where: `${q.name}|${q.fifo ? (m.group ?? "") : ""}|${m.state}`,
    })),
  );
}

/** Where a message is drawn: its queue, its group (FIFO) and its lane. */
const cellOf = (q, m) => `${q.name}|${q.fifo ? (m.group ?? "") : ""}|${m.state}`;

/** The messages a queue draws as cards: each lane's (each group's lane's) first CELL_CARDS, in the queue's order. */
function drawnMessages(q) {
  const seen = new Map();
  return q.messages.filter((m) => {
    const n = seen.get(cellOf(q, m)) ?? 0;
    seen.set(cellOf(q, m), n + 1);
    return n < CELL_CARDS;
  });
}

/** Each cell's stack: how many of its messages have no card (a standard queue's lanes also count what the snapshot left out). */
function expectedStacks(snap) {
  const out = {};
  for (const q of snap.queues) {
    for (const m of q.messages) out[cellOf(q, m)] = (out[cellOf(q, m)] ?? -CELL_CARDS) + 1;
    if (!q.fifo && q.messagesOmitted) {
      const listed = (lane) => q.messages.filter((m) => m.state === lane).length;
      const stored = { visible: q.visible, "in-flight": q.inFlight, delayed: q.delayed };
      for (const lane in stored) {
        const key = `${q.name}||${lane}`;
        out[key] = Math.max(0, listed(lane) - CELL_CARDS) + stored[lane] - listed(lane);
      }
    }
  }
  return Object.fromEntries(Object.entries(out).filter(([, n]) => n > 0).sort());
}

/** A FIFO queue's messages past the window, per lane: the lane's count minus those listed. */
function expectedNotDrawn(snap) {
  const out = {};
  for (const q of snap.queues.filter((q) => q.fifo && q.messagesOmitted)) {
    const stored = { visible: q.visible, "in-flight": q.inFlight, delayed: q.delayed };
    for (const lane in stored) {
      const n = stored[lane] - q.messages.filter((m) => m.state === lane).length;
      if (n > 0) out[`${q.name}|${lane}`] = n;
    }
  }
  return Object.fromEntries(Object.entries(out).sort());
}

/** The tray: messages that left, most recent first, with their last receive count. */
function expectedTray(events) {
  const order = [];
  const state = new Map();
  const lost = new Set();
  const rc = new Map();
  for (const e of events) {
    if (e.type === "received") rc.set(e.messageId, e.receiveCount);
    if (e.type === "messageLost") lost.add(e.messageId);
    if (e.type in LEAVES) {
      order.push(e.messageId);
      state.set(e.messageId, LEAVES[e.type]);
    }
  }
  const dup = dupEvents(events);
  const marks = linkMarks(events);
  return order.reverse().slice(0, TRAY_MAX).map((id) => ({
    id, state: state.get(id), rc: String(rc.get(id) ?? 0), dup: dup.has(id), lost: lost.has(id), link: marks.get(id) ?? null, shown: true,
  }));
}

/** Who sends: the simulation's producers, and anyone whose send the log holds, on queues that still exist. */
function expectedProducers(snap, events) {
  const exists = new Set(snap.queues.map((q) => q.name));
  const names = new Set(snap.simulation.producers.filter((p) => exists.has(p.queue)).map((p) => p.name));
  // Anyone else is drawn by its latest send, while that queue exists (a
  // responder's latest reply may have gone to a reply queue deleted since).
  const latest = new Map();
  for (const e of events) if ((e.type === "sent" || e.type === "duplicateDropped") && e.by) latest.set(e.by, e.queue);
  for (const [by, queue] of latest) if (exists.has(queue)) names.add(by);
  return [...names].sort();
}

function expectedConsumers(snap, events, responders) {
  const held = holders(snap);
  const dup = dupEvents(events);
  const marks = linkMarks(events);
  return [...snap.simulation.workers.map((w) => ({
    name: w.name,
    state: w.state,
    sideEffects: String(w.sideEffects),
    emptyReceives: events.filter((e) => e.type === "emptyReceive" && e.by === w.name).length,
    receiveRequests: w.receiveRequests,
    held: w.holding.map((x) => ({
      id: x.messageId,
      rc: String(x.receiveCount),
      dup: (held.get(x.messageId) ?? []).some((n) => n !== w.name) || !!dup.get(x.messageId)?.has(w.name),
      link: marks.get(x.messageId) ?? null,
    })),
  })), ...handCards(snap, events, responders)];
}

/**
 * Whoever else holds a message (a responder of the request-response
 * pattern, a caller by hand): one card each, holding the messages the
 * snapshot names it the current holder of: a responder processing the
 * request it holds, anyone else idle. (Only the current holder: these
 * scenarios' messages have one holder at a time.)
 */
function handCards(snap, events, responders) {
  const workers = new Set([...snap.simulation.workers, ...(snap.simulation.lambdas ?? [])].map((w) => w.name));
  const marks = linkMarks(events);
  const cards = new Map();
  for (const q of snap.queues) {
    for (const m of q.messages) {
      if (!m.holder || workers.has(m.holder)) continue;
      if (!cards.has(m.holder)) {
        const emptyReceives = events.filter((e) => e.type === "emptyReceive" && e.by === m.holder).length;
        const state = responders.includes(m.holder) ? "processing" : "idle";
        cards.set(m.holder, { name: m.holder, state, sideEffects: "0", emptyReceives, receiveRequests: 0, held: [] });
      }
      cards.get(m.holder).held.push({ id: m.messageId, rc: String(m.receiveCount), dup: false, link: marks.get(m.messageId) ?? null });
    }
  }
  return [...cards.values()];
}

/** The counts a CloudWatch-like chart shows now: DLQ depth apart from the work queues. */
export function counts(snap) {
  const dlqs = new Set(snap.queues.map((q) => q.deadLetterTargetArn).filter(Boolean));
  const c = { visible: 0, inFlight: 0, delayed: 0, dlq: 0 };
  for (const q of snap.queues) {
    if (dlqs.has(q.arn)) c.dlq += q.visible + q.inFlight + q.delayed;
    else {
      c.visible += q.visible;
      c.inFlight += q.inFlight;
      c.delayed += q.delayed;
    }
  }
  return c;
}

const byName = (list, key = "name") => Object.fromEntries(list.map((x) => [x[key], x]));
const sortById = (list) => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const number = (text) => Number(/-?[\d.]+/.exec(text ?? "")?.[0]);

/**
 * Asserts that everything the page draws agrees with the engine's snapshot
 * and events: tokens in their lanes with receive counts, the tray, the
 * consumers, the queue headers (counts, DLQ, alarm, group locks), the
 * redrive arrow, the duplicate banner, the ledger, the narration and the
 * chart. `atMoment`: the page was opened or scrubbed to this moment, so the
 * chart's last sample must be now. Returns the capture for story checks.
 */
export async function assertDrawing(page, where, { atMoment = false } = {}) {
  const cap = await capture(page);
  const { snap, events, drawn, responders } = cap;
  const at = `${where} (t=${snap.timeMs} ms)`;
  assert.equal(drawn.time, snap.timeMs, `${at}: the clock shows the engine's time`);

  assert.deepEqual(sortById(drawn.tokens), sortById(expectedTokens(snap, events)), `${at}: every stored message is a token in its queue, group and lane, with its receive count`);
  for (const q of snap.queues) {
    for (const lane of ["delayed", "visible", "in-flight"]) {
      const place = (g) => `${q.name}|${g}|${lane}`;
      const groups = new Set(q.messages.map((m) => (q.fifo ? (m.group ?? "") : "")));
      for (const g of groups) {
        assert.deepEqual(
          drawn.tokens.filter((t) => t.where === place(g)).map((t) => t.id),
          q.messages.filter((m) => m.state === lane && (q.fifo ? (m.group ?? "") : "") === g).slice(0, CELL_CARDS).map((m) => m.messageId),
          `${at}: ${place(g)} lists its messages in the queue's order`,
        );
      }
    }
  }
  assert.deepEqual(drawn.stacks, expectedStacks(snap), `${at}: each lane's messages past its cards are one counted stack`);
  assert.deepEqual(drawn.tray, expectedTray(events), `${at}: the tray shows what left, most recent first`);
  assert.deepEqual(byName(drawn.consumers), byName(expectedConsumers(snap, events, responders)), `${at}: each consumer shows its state, side effects and what it holds`);

  assert.deepEqual(Object.keys(drawn.producers).sort(), expectedProducers(snap, events), `${at}: a card for each producer: the scenario's, and anyone else who sent to a queue that exists`);
  for (const [name, says] of Object.entries(drawn.producers)) {
    const by = (type) => events.filter((e) => e.type === type && e.by === name).length;
    assert.deepEqual(
      [number(/sent (\d+)/.exec(says)?.[1]), number(/\((\d+) more deduplicated\)/.exec(says)?.[1] ?? "0")],
      [by("sent"), by("duplicateDropped")],
      `${at}: producer ${name} counts its sends and deduplicated retries (“${says}”)`,
    );
    const refused = snap.simulation.producers.find((p) => p.name === name)?.failed ?? 0;
    assert.equal(number(/(\d+) refused by SQS/.exec(says)?.[1] ?? "0"), refused, `${at}: producer ${name} counts the sends SQS refused (“${says}”)`);
  }

  assert.deepEqual(drawn.notDrawn, expectedNotDrawn(snap), `${at}: a FIFO queue past the stage's window says how many messages of each lane are not drawn`);

  const sources = dlqSources(snap);
  const alarms = snap.simulation.alarms;
  assert.deepEqual(
    drawn.queues.map((b) => b.name).sort(),
    snap.queues.map((q) => q.name).sort(),
    `${at}: one card per queue`,
  );
  const cards = byName(drawn.queues);
  for (const q of snap.queues) {
    const card = cards[q.name];
    const source = sources.get(q.arn);
    assert.deepEqual(
      [number(card.counts), number(card.counts?.split("·")[1]), number(card.counts?.split("·")[2])],
      [q.visible, q.inFlight, q.delayed],
      `${at}: ${q.name}'s header counts visible, in flight, delayed (“${card.counts}”)`,
    );
    assert.equal(card.dlqClass, !!source, `${at}: ${q.name} is drawn as a DLQ exactly when it is one`);
    if (source) assert.match(card.kind, new RegExp(`dead-letter queue of ${source.name}`), `${at}: ${q.name} names its source`);
    const mine = alarms.filter((a) => a.queue === q.name);
    const inAlarm = mine.some((a) => a.inAlarm);
    assert.deepEqual(
      { shown: card.alarm.shown, inAlarm: card.alarm.inAlarm, says: mine.map((a) => card.alarm.text.includes(`${a.name}: ${a.state} (${a.reason})`)) },
      { shown: mine.length > 0, inAlarm, says: mine.map(() => true) },
      `${at}: ${q.name}'s alarm is shown in its state`,
    );
    assert.deepEqual(
      card.groups.map((g) => ({ group: g.group, locked: g.locked, says: /^locked/.test(g.says) ? "locked" : g.says, shown: g.shown })),
      q.fifo ? q.groups.map((g) => ({ group: g.group, locked: String(g.locked), says: g.locked ? "locked" : "open", shown: true })) : [],
      `${at}: ${q.name}'s group rows and locks, in the snapshot's order`,
    );
  }
  const rowIndex = new Map(drawn.rows.map((r, i) => [r.queue, i]));
  for (const r of drawn.rows) {
    const q = snap.queues.find((x) => x.name === r.queue);
    const source = sources.get(q.arn);
    assert.equal(r.redrive.shown, !!source, `${at}: a redrive arrow shows into ${r.queue} exactly when it is a DLQ`);
    if (source) {
      assert.equal(rowIndex.get(r.queue), rowIndex.get(source.name) + 1, `${at}: ${r.queue} is drawn right under its source ${source.name}`);
      assert.match(r.redrive.text, new RegExp(`maxReceiveCount ${source.maxReceiveCount}\\b.*${source.name}`), `${at}: the arrow says when ${source.name} moves a message`);
    }
  }

  const dups = duplicates(snap);
  assert.equal(drawn.banner.shown, dups.size > 0, `${at}: the duplicate banner is visible exactly while two consumers hold one message (${[...dups.values()].map((n) => n.join("+")).join(", ") || "none"})`);
  for (const [id, names] of dups) {
    assert.ok(drawn.banner.text.includes(id.slice(0, 8)) && names.every((n) => drawn.banner.text.includes(n)), `${at}: the banner names ${id.slice(0, 8)} and ${names.join(", ")}: “${drawn.banner.text}”`);
  }

  // With no line of the scenario's, the simulation's explanation speaks alone (a dash holds the place when there is none).
  const narrated = { text: snap.simulation.narration || "—", shown: !!snap.simulation.narration || !snap.simulation.explanation };
  assert.deepEqual(drawn.narration, narrated, `${at}: the narration shown is the engine's`);
  assert.deepEqual(
    drawn.ledger.map((l) => ({ effect: /(\S+) ×\d+$/.exec(l.n)?.[1], count: number(/×(\d+)$/.exec(l.n)?.[1]), by: l.by?.replace(/^\s*by\s+/, ""), warn: l.warn })),
    snap.simulation.sideEffects.slice(-LEDGER_MAX).map((s) => ({ effect: s.effect, count: s.count, by: s.by.join(", "), warn: s.count > 1 })),
    `${at}: the side-effect ledger`,
  );

  assert.equal(!!drawn.chart, drawn.view === "full", `${at}: the chart is drawn exactly in the full view (view: ${drawn.view})`);
  if (drawn.chart) assertChart(drawn.chart, snap, at, atMoment);
  return cap;
}

/** The chart's legend always shows the counts now; at a replayed moment its last points are now and show them too. */
function assertChart(chart, snap, at, atMoment) {
  const c = counts(snap);
  assert.deepEqual(
    [chart.legend.Visible, chart.legend["In flight"], chart.legend.Delayed, chart.legend["In dead-letter queues"]].map(Number),
    [c.visible, c.inFlight, c.delayed, c.dlq],
    `${at}: the chart's legend shows the counts`,
  );
  for (const [key, p] of Object.entries(chart.last)) {
    assert.ok(p.x <= chart.nowX + 0.05, `${at}: the ${key} line ends at or before the now line (${p.x} vs ${chart.nowX})`);
    if (atMoment) {
      assert.equal(p.x, chart.nowX, `${at}: the ${key} line ends at the now line`);
      // (read back from the drawing's coordinates: within their rounding at the chart's scale)
      assert.ok(Math.abs(p.value - c[key]) <= Math.max(0.05, c[key] * 0.002), `${at}: the ${key} line's last point is the snapshot's count (${p.value} vs ${c[key]})`);
    }
  }
}
