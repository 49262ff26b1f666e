// The queues in the middle of the stage: one card per queue with three
// lanes (delayed, visible, in flight), one row per message group on FIFO
// queues, the dead-letter queue under its source with a redrive arrow,
// and the tray of messages that left. Elements are kept in a Map by
// message id and reused; tokens glide between places (FLIP with the Web
// Animations API), or just change place under prefers-reduced-motion.

import { h, lockIcon, secs, setText, shortId, span } from "./dom.js";

export const LANES = [
  ["delayed", "Delayed", "◔"],
  ["visible", "Visible", "●"],
  ["in-flight", "In flight", "◷"],
];
const STATE_WORD = { delayed: "delayed", visible: "visible", "in-flight": "in flight", dlq: "in DLQ", deleted: "deleted", expired: "expired" };
const STATE_ICON = { delayed: "◔", visible: "●", "in-flight": "◷", dlq: "☠", deleted: "✓", expired: "◌" };
const TRAY_MAX = 20;
const DENSE = 40; // a cell with more tokens shows their ids only
const FLIP_MAX = 120; // tokens measured for one frame's animation
// Beyond this many tokens a forced layout costs more than a frame can
// spare: tokens then change place without gliding (new ones still slide in).
const FLIP_CROWD = 300;

function makeToken(id, label) {
  const p = {
    ic: h("span", { class: "tk-ic", "aria-hidden": "true" }),
    st: h("span", { class: "tk-st" }),
    id: h("span", { class: "tk-id", text: shortId(id) }),
    grp: h("span", { class: "tk-grp" }),
    rc: h("span", { class: "tk-rc" }),
    label: h("span", { class: "tk-label", text: label ?? "" }),
    meta: h("span", { class: "tk-meta" }),
    dup: h("span", { class: "tk-dup" }),
    fx: h("span", { class: "tk-fx" }),
    bar: h("span", { class: "tk-bar", "aria-hidden": "true" }),
  };
  const el = h(
    "button",
    { type: "button", class: "token", "data-message-id": id, "data-side-effect-count": "0" },
    h("span", { class: "tk-top" }, p.ic, p.st, p.id, p.grp, p.rc),
    p.label, p.meta, p.dup, p.fx, p.bar,
  );
  // Cached values: the DOM is only touched when one changes.
  return el.tok = { id, el, p, where: "", state: "", rc: -1, fxc: -1, dupText: null, metaText: "", bar: -1, timed: false, anim: null, label: label ?? "" };
}

function setState(t, state) {
  if (t.state === state) return;
  t.state = state;
  t.el.dataset.state = state;
  t.p.ic.textContent = STATE_ICON[state];
  t.p.st.textContent = STATE_WORD[state];
}

function setRc(t, rc) {
  if (t.rc === rc) return;
  t.rc = rc;
  t.el.dataset.receiveCount = String(rc);
  t.p.rc.textContent = rc ? `recv ${rc}` : "";
}

function setFx(t, fx) {
  const c = fx ? fx.count : 0;
  if (t.fxc === c) return;
  t.fxc = c;
  t.el.dataset.sideEffectCount = String(c);
  t.p.fx.textContent = c ? `${c > 1 ? "⚠ " : ""}${fx.effect} ×${c}` : "";
  if (c > 1) t.el.dataset.fxDup = "true";
  else delete t.el.dataset.fxDup;
}

function setDup(t, text) {
  if (t.dupText === text) return;
  t.dupText = text;
  t.p.dup.textContent = text ?? "";
  if (text) t.el.dataset.duplicate = "true";
  else delete t.el.dataset.duplicate;
}

/** One queue's card: header, lane heads, and its rows (one, or one per group). */
class QueueBox {
  constructor(q) {
    this.name = q.name;
    this.fifo = q.fifo;
    this.rows = new Map();
    this.head = {
      kind: h("span", { class: "q-kind" }),
      settings: h("p", { class: "q-settings" }),
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
        h("h3", { class: "q-name" }, h("span", { class: "q-ic", "aria-hidden": "true", text: q.fifo ? "⇶" : "☰" }), q.name, " ", this.head.kind),
        this.head.settings, this.head.counts, this.head.alarm),
      laneHead,
      this.rowsEl,
    );
    this.emptyNote = h("p", { class: "q-empty", text: "Empty: no messages stored." });
    this.el.append(this.emptyNote);
  }

  row(key) {
    let r = this.rows.get(key);
    if (r) return r;
    const cells = {};
    const el = h("div", { class: "q-row" });
    if (this.fifo) {
      r = { el, cells, locked: null, lockText: h("span", { class: "g-state" }) };
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

export class QueueView {
  constructor(rowsEl, trayEl, trayEmpty) {
    this.rowsEl = rowsEl;
    this.trayEl = trayEl;
    this.trayEmpty = trayEmpty;
    this.reset();
  }

  reset() {
    this.tokens = new Map();
    this.boxes = new Map();
    this.srows = new Map();
    this.order = "";
    this.rowsEl.replaceChildren();
    this.trayEl.replaceChildren();
    this.trayEmpty.hidden = false;
  }

  /** The stage row of a queue: { el, prod, queue, cons } cells. */
  srow(name) {
    let s = this.srows.get(name);
    if (!s) {
      s = { prod: h("div", { class: "prod" }), queue: h("div", { class: "qcell" }), cons: h("div", { class: "cons" }) };
      s.redrive = h("div", { class: "redrive", hidden: true });
      s.queue.append(s.redrive);
      s.el = h("section", { class: "srow", "data-row-queue": name, "aria-label": `Queue ${name} with its producers and consumers` }, s.prod, s.queue, s.cons);
      this.srows.set(name, s);
    }
    return s;
  }

  /** Orders stage rows: each source queue, then its dead-letter queue(s). */
  layout(snap, scenarioOrder) {
    const byArn = new Map(snap.queues.map((q) => [q.arn, q]));
    const dlqs = new Set(snap.queues.map((q) => q.deadLetterTargetArn).filter(Boolean));
    const rank = (q) => {
      const i = scenarioOrder.indexOf(q.name);
      return i < 0 ? 1e6 : i;
    };
    const sorted = [...snap.queues].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : 1));
    const names = [];
    const put = (q) => {
      if (names.includes(q.name)) return;
      names.push(q.name);
      const d = q.deadLetterTargetArn && byArn.get(q.deadLetterTargetArn);
      if (d) put(d);
    };
    for (const q of sorted) if (!dlqs.has(q.arn)) put(q);
    for (const q of sorted) put(q);
    const key = names.join("\n");
    if (key === this.order) return;
    this.order = key;
    for (const [name, s] of this.srows) if (!names.includes(name)) { s.el.remove(); this.srows.delete(name); this.boxes.delete(name); }
    this.rowsEl.append(...names.map((n) => this.srow(n).el));
  }

  /**
   * Draws a new snapshot. v = { snap, now, hist, heldBy, fx, animate, leftNow, scenarioOrder, durationMs }.
   */
  render(v) {
    const { snap, hist } = v;
    this.layout(snap, v.scenarioOrder);
    const dlqArns = new Map();
    for (const q of snap.queues) if (q.deadLetterTargetArn) dlqArns.set(q.deadLetterTargetArn, q);
    const alarms = v.alarms;

    // 1. Where every stored message belongs.
    const plan = []; // [cell, [tok...]]
    const seen = new Set();
    const fresh = [];
    for (const q of snap.queues) {
      let box = this.boxes.get(q.name);
      const s = this.srow(q.name);
      if (!box) {
        box = new QueueBox(q);
        this.boxes.set(q.name, box);
        s.queue.append(box.el);
      }
      const source = dlqArns.get(q.arn);
      if (q.fifo) q.lockedGroups = new Set(q.groups.filter((g) => g.locked).map((g) => g.group));
      this.header(box, q, source, s, alarms);
      const want = new Map(); // cell -> tokens
      const rowKeys = new Set(q.fifo ? q.groups.map((g) => g.group) : [""]);
      for (const m of q.messages) {
        const key = q.fifo ? m.group ?? "" : "";
        rowKeys.add(key);
        const cell = box.row(key).cells[m.state];
        let t = this.tokens.get(m.messageId);
        if (!t) {
          t = makeToken(m.messageId, m.body.length > 80 ? m.body.slice(0, 80) : m.body);
          this.tokens.set(m.messageId, t);
          fresh.push(t);
        }
        seen.add(m.messageId);
        t.m = m;
        t.q = q;
        t.nextWhere = `${q.name}\n${key}\n${m.state}`;
        t.nextState = source ? "dlq" : m.state;
        let list = want.get(cell);
        if (!list) want.set(cell, (list = []));
        list.push(t);
      }
      for (const [key, r] of box.rows) {
        for (const lane in r.cells) {
          const cell = r.cells[lane];
          if (!want.has(cell) && cell.cur.length) want.set(cell, []);
        }
        r.gone = !rowKeys.has(key);
      }
      // Group rows in the order the snapshot lists groups.
      if (q.fifo) {
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
      } else {
        const r = box.row("");
        if (!r.el.parentNode) box.rowsEl.append(r.el);
      }
      box.emptyNote.hidden = q.messages.length > 0;
      for (const e of want) plan.push(e);
    }

    // 2. Who leaves for the tray, in the order they left.
    const leavingSet = new Set();
    for (const [id, t] of this.tokens) if (!seen.has(id) && !t.inTray) leavingSet.add(id);
    for (const id of v.leftNow) if (!this.tokens.has(id) && !seen.has(id)) leavingSet.add(id);
    const leaving = [...leavingSet];
    for (const id of leaving) {
      const t = this.tokens.get(id);
      if (t) t.nextWhere = "tray";
    }
    const pos = new Map();
    hist.leftOrder.forEach((id, i) => pos.set(id, i));
    leaving.sort((a, b) => (pos.get(a) ?? -1) - (pos.get(b) ?? -1));
    const toTray = leaving.slice(-TRAY_MAX);

    // 3. FLIP, first: measure what is about to move (before any write).
    const moving = [];
    for (const [, list] of plan) for (const t of list) if (t.where && t.where !== t.nextWhere) moving.push(t);
    for (const id of toTray) {
      const t = this.tokens.get(id);
      if (t?.el.isConnected) moving.push(t);
    }
    const first = new Map();
    if (v.animate && moving.length && moving.length <= FLIP_MAX && this.tokens.size <= FLIP_CROWD) {
      const cells = new Set();
      for (const t of moving) if (t.el.parentNode) cells.add(t.el.parentNode);
      for (const [cell, list] of plan) if (list.some((t) => t.where !== t.nextWhere)) cells.add(cell);
      if (toTray.length) cells.add(this.trayEl);
      let n = 0;
      for (const c of cells) n += c.childElementCount;
      if (n <= FLIP_MAX) {
        for (const c of cells) for (const el of c.children) first.set(el, el.getBoundingClientRect());
      } else for (const t of moving) first.set(t.el, t.el.getBoundingClientRect());
    }

    // 4. Writes. Moving a focused token would drop its focus: put it back after.
    // In a <queue-lab> the focus lives in the shadow root, not on document.
    const root = this.rowsEl.getRootNode();
    const focused = root.activeElement?.tok ? root.activeElement : null;
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
        this.paint(t, v);
      }
      cell.cur = list;
      const dense = list.length > DENSE;
      if (cell.dense !== dense) {
        cell.dense = dense;
        cell.classList.toggle("dense", dense);
      }
    }
    for (const box of this.boxes.values()) {
      for (const [key, r] of box.rows) {
        if (r.gone) {
          r.el.remove();
          box.rows.delete(key);
          box.groupOrder = null;
        }
      }
    }
    for (const id of toTray) {
      let t = this.tokens.get(id);
      if (!t) {
        t = makeToken(id, hist.label(id));
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
    for (const el of this.trayEl.children) this.paintLeft(this.tokens.get(el.dataset.messageId), v);
    this.trayEmpty.hidden = this.trayEl.childElementCount > 0;
    if (focused?.isConnected && root.activeElement !== focused) focused.focus({ preventScroll: true });

    // 5. FLIP, last and play: after every view has written (see flip()).
    this.pending = first.size || (v.animate && fresh.length) ? { first, fresh: v.animate && fresh.length <= FLIP_MAX ? fresh : [], ms: v.animMs } : null;
    this.tick(v.now, hist);
  }

  /** Plays the moves measured by render(); main calls it after all DOM writes of the frame. */
  flip() {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const opts = { duration: p.ms, easing: "cubic-bezier(.2,.8,.2,1)" };
    for (const el of p.first.keys()) el.flip?.cancel();
    // All reads, then all writes: an animate() between two reads would force another style pass.
    const moves = [];
    for (const [el, a] of p.first) {
      if (!el.isConnected) continue;
      const b = el.getBoundingClientRect();
      const dx = a.left - b.left;
      const dy = a.top - b.top;
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) moves.push([el, dx, dy]);
    }
    for (const [el, dx, dy] of moves) el.flip = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], opts);
    for (const t of p.fresh) {
      if (t.el.isConnected && !p.first.has(t.el)) t.el.flip = t.el.animate([{ transform: "translateX(-28px) scale(.85)" }, { transform: "none" }], opts);
    }
  }

  /** A token in a queue: state, receive count, group, holders, side effects. */
  paint(t, v) {
    const m = t.m;
    if (t.lost) {
      t.lost = false;
      t.state = "";
      delete t.el.dataset.lost;
    }
    setState(t, t.nextState);
    setRc(t, m.receiveCount);
    const grp = m.group ? `group ${m.group}` : "";
    if (t.grp !== grp) setText(t.p.grp, (t.grp = grp));
    setFx(t, v.fx.get(m.messageId));
    const holders = v.heldBy.get(m.messageId);
    const others = holders ? holders.filter((n) => n !== m.holder) : [];
    // Two consumers holding one message at once: a duplicate delivery.
    const dup = m.state === "in-flight" && others.length > 0;
    setDup(t, dup ? `⚠ duplicate: ${others.join(", ")} still holds it too` : null);
    t.holder = m.holder ?? "";
    t.visibleAt = m.visibleAt;
    t.from = m.state === "in-flight" ? v.hist.windowFrom.get(m.messageId) ?? m.sentAt : m.sentAt;
    t.timed = m.state !== "visible";
    if (!t.timed) {
      const text = t.nextState === "dlq" ? "waiting in the dead-letter queue" : t.q.lockedGroups?.has(m.group) ? "waits: its group is locked" : "waiting to be received";
      if (t.metaText !== text) setText(t.p.meta, (t.metaText = text));
      if (t.bar !== -1) {
        t.bar = -1;
        t.p.bar.style.transform = "scaleX(0)";
      }
    }
  }

  /** A token in the tray: how and when it left. */
  paintLeft(t, v) {
    const left = v.hist.left.get(t.id);
    setState(t, left?.state ?? "deleted");
    if (!!left?.lost !== !!t.lost) {
      t.lost = !!left?.lost;
      t.p.st.textContent = t.lost ? "lost" : STATE_WORD[t.state];
      t.p.ic.textContent = t.lost ? "✗" : STATE_ICON[t.state];
      if (t.lost) t.el.dataset.lost = "true";
      else delete t.el.dataset.lost;
    }
    setRc(t, v.hist.receives.get(t.id) ?? (t.rc < 0 ? 0 : t.rc));
    setFx(t, v.fx.get(t.id));
    setDup(t, v.hist.dup.has(t.id) ? `⚠ was delivered to ${[...v.hist.dup.get(t.id)].join(" and ")} at once` : null);
    const text = left ? `${left.why} at t=${secs(left.at)} s` : "gone";
    if (t.metaText !== text) setText(t.p.meta, (t.metaText = text));
    if (t.bar !== -1) {
      t.bar = -1;
      t.p.bar.style.transform = "scaleX(0)";
    }
  }

  /** Time moved: countdowns and their bars. */
  tick(now) {
    for (const box of this.boxes.values()) {
      for (const r of box.rows.values()) {
        for (const lane of ["delayed", "in-flight"]) {
          const cell = r.cells[lane];
          if (cell.dense) continue;
          for (const t of cell.cur) {
            if (!t.timed || t.visibleAt == null) continue;
            const left = Math.max(0, t.visibleAt - now);
            const s = (left / 1000).toFixed(1);
            const text = t.state === "delayed" ? `visible in ${s} s` : `${s} s left${t.holder ? ` · ${t.holder}` : ""}`;
            if (t.metaText !== text) setText(t.p.meta, (t.metaText = text));
            const total = t.visibleAt - t.from;
            const f = total > 0 ? Math.round((left / total) * 100) / 100 : 0;
            if (t.bar !== f) {
              t.bar = f;
              t.p.bar.style.transform = `scaleX(${f})`;
            }
          }
        }
      }
    }
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
      const text = mine.map((a) => (a.inAlarm ? `⚠ ${a.name}: ALARM (${q.visible} visible ≥ ${a.threshold})` : `✓ ${a.name}: OK (alarms at ${a.threshold} visible)`)).join(" · ");
      setText(box.head.alarm, text);
      box.head.alarm.classList.toggle("in-alarm", mine.some((a) => a.inAlarm));
    }
  }
}
