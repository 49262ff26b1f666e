// The queues in the middle of the stage: one card per queue with three
// lanes (delayed, visible, in flight), one row per message group on FIFO
// queues, the dead-letter queue under its source with a redrive arrow,
// and the tray of messages that left. Elements are kept in a Map by
// message id and reused; tokens glide between places (FLIP with the Web
// Animations API), or just change place under prefers-reduced-motion.
// Each card sits in its queue's stage row, which the lab owns and lays
// out (lab/stage-rows.js); the producers and consumers beside it are
// render-workers.js's.

import { h, lockIcon, setText } from "../../ui/dom.js";
import { counted, span } from "../../text/format.js";
import { encryptionBadge, kmsLine } from "../../text/encryption.js";
import { makeToken, paintLeft, paintStored, tickToken } from "../../ui/token.js";
import { flipPlan, measureFirst, playFlip } from "../../ui/flip.js";
import { STAGE_WINDOW } from "../../run/derive.js";

export const LANES = [
  ["delayed", "Delayed", "◔"],
  ["visible", "Visible", "●"],
  ["in-flight", "In flight", "◷"],
];
const TRAY_MAX = 20;
/**
 * A lane (a cell: a queue's, or a FIFO group's, lane) draws at most this
 * many cards, the first in the queue's order; the rest collapse into one
 * counted stack under them ("+ 4,870 more · oldest 3 min"), which opens
 * the oldest of them in the peek. A lane never grows past its cards, and
 * a busy queue costs a frame what eight cards do.
 */
export const CELL_CARDS = 8;
const WHOLE = new Intl.NumberFormat("en-US"); // made once: toLocaleString builds a formatter per call

/** One queue's card: header, lane heads, and its rows (one, or one per group). */
class QueueBox {
  constructor(q) {
    this.name = q.name;
    this.fifo = q.fifo;
    this.rows = new Map();
    this.head = {
      kind: h("span", { class: "q-kind" }),
      sse: h("span", { class: "q-sse" }),
      settings: h("p", { class: "q-settings" }),
      kms: h("p", { class: "q-kms", hidden: true }),
      counts: h("p", { class: "q-counts" }),
      alarm: h("p", { class: "q-alarm", hidden: true }),
    };
    const laneHead = h("div", { class: "lanes-head", "aria-hidden": "true" });
    if (q.fifo) laneHead.append(h("span", { class: "lh-group", text: "Message group" }));
    for (const [key, label, icon] of LANES) laneHead.append(h("span", { class: `lh lh-${key}` }, h("span", { class: "lh-ic", text: icon }), ` ${label}`));
    this.rowsEl = h("div", { class: "q-rows" });
    this.el = h(
      "article",
      { class: `queue${q.fifo ? " fifo" : ""}`, "data-queue": q.name, "aria-label": `Queue ${q.name}` },
      h("header", { class: "q-head" },
        h("h3", { class: "q-name" }, h("span", { class: "q-ic", "aria-hidden": "true", text: q.fifo ? "⇶" : "☰" }), q.name, " ", this.head.kind, " ", this.head.sse),
        this.head.settings, this.head.counts, this.head.kms, this.head.alarm),
      laneHead,
      this.rowsEl,
    );
    this.emptyNote = h("p", { class: "q-empty", text: "Empty: no messages stored." });
    // Past the stage's window (derive.js STAGE_WINDOW): how many messages
    // each lane holds beyond those drawn, under the lanes.
    this.more = h("div", { class: "q-more", role: "note", hidden: true });
    if (q.fifo) this.more.append(h("span", { class: "m-label", text: "not drawn" }));
    this.moreLanes = {};
    for (const [lane, label] of LANES) this.more.append((this.moreLanes[lane] = h("span", { class: `m-lane m-${lane}`, "data-lane": lane, "data-label": label })));
    this.el.append(this.more, this.emptyNote);
  }

  /** The "+ N more" marks, from derive's notDrawn (null: everything is drawn). */
  showMore(counts) {
    this.more.hidden = !counts;
    // Every frame of a busy queue comes here: write only when a count moved.
    const key = counts ? LANES.map(([lane]) => counts[lane]).join() : "";
    if (!counts || key === this.moreKey) return;
    this.moreKey = key;
    const fmt = (n) => WHOLE.format(n);
    for (const [lane] of LANES) setText(this.moreLanes[lane], counts[lane] > 0 ? `+ ${fmt(counts[lane])} more` : "");
    const parts = LANES.filter(([lane]) => counts[lane] > 0).map(([lane, label]) => `${fmt(counts[lane])} ${label.toLowerCase()}`);
    this.more.setAttribute("aria-label", `Not drawn: ${parts.join(", ")}. The stage draws at most the first ${STAGE_WINDOW} messages of each queue (fewer when their bodies are big); the counts above cover them all.`);
  }

  row(key) {
    let r = this.rows.get(key);
    if (r) return r;
    const cells = {};
    const el = h("div", { class: "q-row" });
    if (this.fifo) {
      r = { el, cells, locked: null, lockText: h("span", { class: "g-state", "data-term": "locked" }) };
      el.dataset.group = key;
      el.append(h("div", { class: "g-label" }, h("span", { class: "g-ic", "aria-hidden": "true" }), h("span", { class: "g-name", text: key }), r.lockText));
    } else r = { el, cells };
    for (const [lane, label] of LANES) {
      cells[lane] = h("div", {
        class: `cell c-${lane}`,
        "data-lane": lane,
        "data-label": label,
        role: "group",
        "aria-label": `${this.name}${this.fifo ? `, group ${key}` : ""}: ${label.toLowerCase()}`,
      });
      cells[lane].cur = [];
      cells[lane].key = `${this.name}\n${key}\n${lane}`;
      el.append(cells[lane]);
    }
    this.rows.set(key, r);
    return r;
  }
}

/**
 * The queue cards and the tray. Each frame with new data goes through
 * named steps: lay out the stage rows, plan where every stored message
 * belongs, find who leaves for the tray, measure for FLIP, then write.
 */
export class QueueView {
  /** `rows`: the stage's rows (lab/stage-rows.js, laid out by the lab), where each queue's card goes. */
  constructor(rows, trayEl, trayEmpty) {
    this.rows = rows;
    this.trayEl = trayEl;
    this.trayEmpty = trayEmpty;
    this.reset();
  }

  reset() {
    this.tokens = new Map();
    this.boxes = new Map();
    this.pending = null;
    this.trayEl.replaceChildren();
    this.trayEmpty.hidden = false;
  }

  /** The stage row of a queue (the lab's StageRows). */
  srow(name) {
    return this.rows.srow(name);
  }

  /** Forgets the cards of queues that are gone (the lab dropped their rows). */
  dropGoneQueues(names) {
    for (const name of this.boxes.keys()) if (!names.includes(name)) this.boxes.delete(name);
  }

  /** Draws a new derived record (derive.js) and prepares the FLIP that flip() plays. */
  render(d) {
    this.dropGoneQueues(d.order);
    const { plan, seen, fresh, drawn } = this.plan(d);
    this.dropStacked(seen, drawn);
    const { leaving, toTray } = this.leavers(d, seen);
    const moving = d.animate ? this.movers(plan, toTray) : [];
    const first = d.animate ? measureFirst(moving, this.shiftingCells(plan, toTray, moving), this.tokens.size) : new Map();
    // Moving a focused token would drop its focus: put it back after.
    // In a <queue-lab> the focus lives in the shadow root, not on document.
    const root = this.rows.el.getRootNode();
    const focused = root.activeElement?.tok ? root.activeElement : null;
    this.place(plan, d);
    this.dropGoneRows();
    this.fillTray(toTray, leaving, d);
    if (focused?.isConnected && root.activeElement !== focused) focused.focus({ preventScroll: true });
    this.pending = flipPlan(first, fresh, d.animate, d.animMs);
    this.tick(d.now);
  }

  /** Plays the moves measured by render(); call after all DOM writes of the frame. */
  flip() {
    playFlip(this.pending);
    this.pending = null;
  }

  /** Where every stored message belongs: plan = [cell, tokens in order]; `fresh` are tokens made now; `drawn` the ids with a card. */
  plan(d) {
    const plan = [];
    const seen = new Set(); // every stored message
    const drawn = new Set(); // those drawn as cards
    const fresh = [];
    for (const q of d.snap.queues) {
      const box = this.box(q);
      const source = d.sourceOf.get(q.name);
      this.header(box, q, source, this.srow(q.name), d.snap.simulation.alarms);
      this.encryption(box, q, d.snap.simulation.outcome.bill.kmsPriceNanoUsd);
      const locked = q.fifo ? new Set(q.groups.filter((g) => g.locked).map((g) => g.group)) : null;
      const want = new Map(); // cell -> tokens
      const stacked = new Map(); // cell -> the messages past its cards
      const rowKeys = new Set(q.fifo ? q.groups.map((g) => g.group) : [""]);
      for (const m of q.messages) {
        const key = q.fifo ? m.group ?? "" : "";
        rowKeys.add(key);
        const cell = box.row(key).cells[m.state];
        seen.add(m.messageId);
        let list = want.get(cell);
        if (!list) want.set(cell, (list = []));
        if (list.length >= CELL_CARDS) {
          if (!stacked.has(cell)) stacked.set(cell, []);
          stacked.get(cell).push(m);
          continue;
        }
        let t = this.tokens.get(m.messageId);
        if (!t) {
          t = makeToken(m.messageId, m.body.length > 80 ? m.body.slice(0, 80) : m.body);
          this.tokens.set(m.messageId, t);
          fresh.push(t);
        }
        t.m = m;
        t.groupLocked = !!locked?.has(m.group);
        t.nextWhere = `${q.name}\n${key}\n${m.state}`;
        t.nextState = source ? "dlq" : m.state;
        drawn.add(m.messageId);
        list.push(t);
      }
      // A standard queue's one row holds every message: what the snapshot left out joins each lane's stack.
      const omitted = d.notDrawn.get(q.name);
      box.showMore(q.fifo ? omitted : null);
      for (const [key, r] of box.rows) {
        for (const lane in r.cells) {
          const cell = r.cells[lane];
          cell.stackWith = stackOf(stacked.get(cell) ?? [], q.fifo ? 0 : (omitted?.[lane] ?? 0));
          if (!want.has(cell) && (cell.cur.length || cell.stack?.isConnected || cell.stackWith.n)) want.set(cell, []);
        }
        r.gone = !rowKeys.has(key);
      }
      this.orderRows(box, q);
      box.emptyNote.hidden = q.messages.length > 0;
      for (const e of want) plan.push(e);
    }
    return { plan, seen, fresh, drawn };
  }

  /** A queue's card, made (and put in its stage row) the first time. */
  box(q) {
    let box = this.boxes.get(q.name);
    if (!box) {
      box = new QueueBox(q);
      this.boxes.set(q.name, box);
      this.srow(q.name).queue.append(box.el);
    }
    return box;
  }

  /** FIFO: one row per group in the order the snapshot lists groups, with its lock; standard: the one row. */
  orderRows(box, q) {
    if (!q.fifo) {
      const r = box.row("");
      if (!r.el.parentNode) box.rowsEl.append(r.el);
      return;
    }
    for (const g of q.groups) {
      const r = box.row(g.group);
      r.gone = false;
      if (r.locked !== g.locked) {
        r.locked = g.locked;
        r.el.dataset.locked = String(g.locked);
        r.el.querySelector(".g-ic").replaceChildren(lockIcon(g.locked));
        r.lockText.textContent = g.locked ? "locked: its head is in flight" : "open";
      }
    }
    const orderKey = q.groups.map((g) => g.group).join("\n");
    if (box.groupOrder !== orderKey) {
      box.groupOrder = orderKey;
      for (const g of q.groups) box.rowsEl.append(box.rows.get(g.group).el);
    }
  }

  /** Who leaves for the tray, in the order they left; only the last TRAY_MAX make it. */
  leavers(d, seen) {
    const leavingSet = new Set();
    for (const [id, t] of this.tokens) if (!seen.has(id) && !t.inTray) leavingSet.add(id);
    for (const id of d.leftNow) if (!this.tokens.has(id) && !seen.has(id)) leavingSet.add(id);
    const leaving = [...leavingSet];
    for (const id of leaving) {
      const t = this.tokens.get(id);
      if (t) t.nextWhere = "tray";
    }
    const pos = new Map();
    d.facts.leftOrder.forEach((id, i) => pos.set(id, i));
    leaving.sort((a, b) => (pos.get(a) ?? -1) - (pos.get(b) ?? -1));
    return { leaving, toTray: leaving.slice(-TRAY_MAX) };
  }

  /** Tokens about to change place (FLIP's movers). */
  movers(plan, toTray) {
    const moving = [];
    for (const [, list] of plan) for (const t of list) if (t.where && t.where !== t.nextWhere) moving.push(t);
    for (const id of toTray) {
      const t = this.tokens.get(id);
      if (t?.el.isConnected) moving.push(t);
    }
    return moving;
  }

  /** Containers whose children shift this frame: the movers' old cells, cells gaining one, the tray. */
  shiftingCells(plan, toTray, moving) {
    const cells = new Set();
    for (const t of moving) if (t.el.parentNode) cells.add(t.el.parentNode);
    for (const [cell, list] of plan) if (list.some((t) => t.where !== t.nextWhere)) cells.add(cell);
    if (toTray.length) cells.add(this.trayEl);
    return cells;
  }

  /** Writes each cell's tokens in order, moving only those out of place. */
  place(plan, d) {
    for (const [cell, list] of plan) {
      const key = cell.key;
      let cursor = cell.firstElementChild;
      for (const t of list) {
        // Skip tokens on their way elsewhere: they are moved by their own cell.
        while (cursor && cursor !== t.el && cursor.tok?.nextWhere !== key) cursor = cursor.nextElementSibling;
        if (t.el === cursor) cursor = cursor.nextElementSibling;
        else cell.insertBefore(t.el, cursor);
        t.where = t.nextWhere;
        t.inTray = false;
        paintStored(t, d);
      }
      cell.cur = list;
      paintStack(cell, d.now);
    }
  }

  /** Cards of messages still stored but now in a stack: gone from the stage until a lane has room for them again. */
  dropStacked(seen, drawn) {
    for (const [id, t] of this.tokens) {
      if (seen.has(id) && !drawn.has(id) && !t.inTray) {
        t.el.remove();
        this.tokens.delete(id);
      }
    }
  }

  /** Removes group rows whose group no longer has messages. */
  dropGoneRows() {
    for (const box of this.boxes.values()) {
      for (const [key, r] of box.rows) {
        if (r.gone) {
          r.el.remove();
          box.rows.delete(key);
          box.groupOrder = null;
        }
      }
    }
  }

  /** Puts the newest leavers on top of the tray (at most TRAY_MAX) and paints how each left. */
  fillTray(toTray, leaving, d) {
    for (const id of toTray) {
      let t = this.tokens.get(id);
      if (!t) {
        t = makeToken(id, d.facts.label(id));
        this.tokens.set(id, t);
      }
      t.inTray = true;
      t.where = "tray";
      t.timed = false;
      this.trayEl.prepend(t.el);
    }
    for (const id of leaving) {
      const t = this.tokens.get(id);
      if (t && !t.inTray) {
        // Left, but too long ago in this batch to make the tray.
        t.el.remove();
        this.tokens.delete(id);
      }
    }
    while (this.trayEl.childElementCount > TRAY_MAX) {
      const el = this.trayEl.lastElementChild;
      el.remove();
      this.tokens.delete(el.dataset.messageId);
    }
    for (const el of this.trayEl.children) paintLeft(this.tokens.get(el.dataset.messageId), d);
    this.trayEmpty.hidden = this.trayEl.childElementCount > 0;
  }

  /** Time moved: countdowns and their bars. */
  tick(now) {
    for (const box of this.boxes.values()) {
      for (const r of box.rows.values()) {
        for (const lane of ["delayed", "in-flight"]) {
          const cell = r.cells[lane];
          for (const t of cell.cur) tickToken(t, now);
        }
        for (const lane in r.cells) {
          const cell = r.cells[lane];
          if (cell.stack?.isConnected) paintStack(cell, now);
        }
      }
    }
  }

  /** The encryption badge, and an SSE-KMS queue's KMS requests with their cost. */
  encryption(box, q, kmsPrice) {
    const badge = encryptionBadge(q);
    setText(box.head.sse, badge.text);
    box.head.sse.title = badge.title;
    box.head.sse.dataset.sse = q.encryption;
    const line = kmsLine(q, kmsPrice);
    box.head.kms.hidden = line == null;
    if (line != null) setText(box.head.kms, line);
  }

  header(box, q, source, s, alarms) {
    const kind = source ? `dead-letter queue of ${source.name}` : q.fifo ? "FIFO queue" : "standard queue";
    setText(box.head.kind, kind);
    box.el.classList.toggle("dlq", !!source);
    const parts = [`visibility timeout ${span(q.visibilityTimeoutSeconds * 1000)}`];
    if (q.delaySeconds) parts.push(`delay ${span(q.delaySeconds * 1000)}`);
    parts.push(`retention ${span(q.messageRetentionPeriodSeconds * 1000)}`);
    if (q.maxReceiveCount) parts.push(`maxReceiveCount ${q.maxReceiveCount}`);
    setText(box.head.settings, parts.join(" · "));
    setText(box.head.counts, `${q.visible} visible · ${q.inFlight} in flight · ${q.delayed} delayed`);
    s.redrive.hidden = !source;
    if (source) {
      setText(s.redrive, `redrive: after ${source.maxReceiveCount} receive${source.maxReceiveCount === 1 ? "" : "s"} (maxReceiveCount ${source.maxReceiveCount}), the next receive of ${source.name} moves the message here`);
    }
    const mine = alarms.filter((a) => a.queue === q.name);
    box.head.alarm.hidden = mine.length === 0;
    if (mine.length) {
      // The alarm's own state and the engine's reason for it: the queue's
      // count now may differ from the datapoint the alarm last judged.
      const mark = { ALARM: "⚠", OK: "✓", INSUFFICIENT_DATA: "…" };
      const text = mine.map((a) => `${mark[a.state]} ${a.name}: ${a.state} (${a.reason})`).join(" · ");
      setText(box.head.alarm, text);
      box.head.alarm.classList.toggle("in-alarm", mine.some((a) => a.inAlarm));
    }
  }
}

/** The stage as a view: queue cards in the lab's stage rows (lab.rows), and the tray (#tray). Consumers and producers are render-workers.js's. */
export const stage = {
  mount(root, lab) {
    const view = new QueueView(lab.rows, root.getElementById("tray"), root.getElementById("tray-empty"));
    return {
      update(d) {
        if (d.fresh) view.reset();
        if (d.changed) view.render(d);
        else view.tick(d.now);
      },
      settle: () => view.flip(),
      destroy() {},
    };
  },
};

/**
 * What a cell's stack stands for, found once per snapshot (the clock's
 * ticks only age it): how many messages (those past its cards, and
 * `beyond` the snapshot's window) and the oldest one it lists.
 */
function stackOf(messages, beyond) {
  const oldest = messages.reduce((o, m) => (o && o.sentAt <= m.sentAt ? o : m), null);
  return { n: messages.length + beyond, oldest };
}

/**
 * A cell's counted stack, last in the cell: how many messages it holds
 * past its cards (and, in a standard queue, past the snapshot's window),
 * and the age of the oldest one it knows, which a click opens in the peek.
 */
function paintStack(cell, now) {
  const { n = 0, oldest = null } = cell.stackWith ?? {};
  if (!n) {
    cell.stack?.remove();
    return;
  }
  if (!cell.stack) {
    cell.stack = h("button", { type: "button", class: "stack" }, h("span", { class: "st-n" }), h("span", { class: "st-age" }));
  }
  const stack = cell.stack;
  // Whole seconds: the words change once a second, not every frame.
  const ageMs = oldest ? Math.floor(Math.max(0, now - oldest.sentAt) / 1000) * 1000 : 0;
  const age = !oldest ? "" : ageMs < 1000 ? "oldest < 1 s" : `oldest ${span(ageMs)}`;
  const key = `${n}|${age}|${oldest?.messageId ?? ""}`;
  if (stack.key !== key) {
    stack.key = key;
    setText(stack.firstChild, `+ ${WHOLE.format(n)} more`);
    setText(stack.lastChild, age);
    // Beyond the window nothing is listed to open: then it is a count, not a button.
    stack.disabled = !oldest;
    if (oldest) stack.dataset.messageId = oldest.messageId;
    else delete stack.dataset.messageId;
    stack.dataset.count = String(n);
    const lane = cell.dataset.label.toLowerCase();
    stack.setAttribute("aria-label", `${counted(n, `more ${lane} message`, `more ${lane} messages`)} not drawn${oldest ? `; the oldest was sent ${ageMs < 1000 ? "under a second" : span(ageMs)} ago: open it` : ""}`);
  }
  if (cell.lastElementChild !== stack) cell.append(stack);
}
