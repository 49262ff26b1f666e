// Producers (left of their queue) and consumers (right of it). Consumers
// are the scenario's simulated workers from the snapshot, plus anyone who
// received a message by hand. Each consumer shows what it holds, its
// processing progress, the receive requests the engine billed it (what
// short and long polling are compared by), its empty receives and its
// side-effect count (red once a message it touched had its side effect more
// than once).

import { h, setText } from "../../ui/dom.js";
import { counted, cut, secs, shortId } from "../../text/format.js";
import { consumerTraits, defaults } from "../../engine/engine.js";
import { linkMark, paintLink } from "../../ui/token.js";

const WORKER_STATE = {
  idle: ["○", "idle"],
  polling: ["⟳", "polling"],
  processing: ["⚙", "processing"],
  crashed: ["✖", "crashed"],
  stopped: ["■", "stopped"],
};

/** The card's line: what the worker does, in the engine's words (each behaviour says itself); a hand's receiver has none (a live run's hands are the server's callers; a scenario's responder answers requests). */
function traits(c, live, responder = false) {
  if (responder) return "answers each request to the queue its ReplyTo names";
  if (!c) return live ? "calls the server (its access key names it)" : "receives by hand (you)";
  return consumerTraits(c).join(" · ");
}

class ConsumerCard {
  constructor(name, spec, manual, live, responder = false) {
    this.name = name;
    this.effect = spec?.sideEffect ?? defaults().consumer.sideEffect;
    this.longPoll = (spec?.waitTimeSeconds ?? defaults().consumer.waitTimeSeconds) > 0;
    this.held = new Map();
    this.ic = h("span", { class: "c-ic", "aria-hidden": "true" });
    this.state = h("span", { class: "c-state" });
    this.list = h("ul", { class: "held-list", "aria-label": `Messages ${name} holds` });
    this.idle = h("p", { class: "c-idle", text: "holds nothing" });
    this.fx = h("span", { class: "c-fx-n", text: "0" });
    this.fxLabel = h("span", { class: "c-fx-l", text: `${this.effect}: ` });
    this.fxBox = h("p", { class: "c-fx", hidden: manual && live }, this.fxLabel, this.fx);
    this.requests = h("p", { class: "c-requests", hidden: true });
    this.empty = h("p", { class: "c-empty", hidden: true });
    this.el = h(
      "article",
      { class: `consumer${manual ? " manual" : ""}`, "data-consumer": name, "data-side-effects": "0", "aria-label": `Consumer ${name}` },
      h("header", { class: "c-head" }, h("h3", { class: "c-name" }, this.ic, name), this.state),
      h("p", { class: "c-traits", text: traits(spec, live, responder) }),
      this.list,
      this.idle,
      this.requests,
      this.empty,
      this.fxBox,
    );
    this.cache = {};
  }

  set(key, value, fn) {
    if (this.cache[key] === value) return;
    this.cache[key] = value;
    fn(value);
  }
}

function makeHeld(id, label) {
  const p = {
    rc: h("span", { class: "hd-rc" }),
    st: h("span", { class: "hd-st" }),
    dup: h("span", { class: "hd-dup" }),
    bar: h("span", { class: "hd-bar" }),
    fx: h("span", { class: "hd-fx" }),
    link: h("span", { class: "tk-link" }),
  };
  const btn = h(
    "button",
    { type: "button", class: "held", "data-message-id": id, "data-side-effect-count": "0" },
    h("span", { class: "hd-top" }, h("span", { class: "tk-id", text: shortId(id) }), p.rc),
    h("span", { class: "tk-label", text: label }),
    p.link,
    p.st,
    p.dup,
    p.fx,
    h("span", { class: "hd-prog", "aria-hidden": "true" }, p.bar),
  );
  return { el: h("li", null, btn), btn, p, cache: {} };
}

function put(c, key, value, fn) {
  if (c[key] === value) return;
  c[key] = value;
  fn(value);
}

export class WorkersView {
  /** `rows`: the stage's rows (lab/stage-rows.js), which hold the producers and consumers. */
  constructor(rows) {
    this.qv = rows;
    this.reset();
  }

  reset() {
    this.cards = new Map();
    this.producers = new Map();
  }

  /**
   * The card of the sender `name`, in the row of the queue it sent to last:
   * moved there when that queue changed (a responder replies to one reply
   * queue after another) or when the row it sat in went with its queue.
   */
  producer(name, queue, spec) {
    let p = this.producers.get(name);
    if (p) {
      if (p.queue !== queue || !p.el.isConnected) {
        this.qv.srow(queue).prod.append(p.el);
        p.queue = queue;
      }
      return p;
    }
    // A responder is the scenario's too, but its replies have no count set ahead.
    const total = spec && (spec.sends || spec.rate) ? (spec.sends?.length ?? 0) + (spec.rate?.count ?? 0) : null;
    p = {
      total,
      scenarios: !!spec,
      count: h("p", { class: "p-count" }),
      last: h("p", { class: "p-last" }),
      seen: null,
    };
    p.el = h(
      "article",
      { class: `producer${spec ? "" : " manual"}`, "data-producer": name, "aria-label": `Producer ${name}` },
      h("h3", { class: "p-name" }, h("span", { class: "p-ic", "aria-hidden": "true", text: spec ? "✉" : "✎" }), name),
      p.count,
      p.last,
      h("span", { class: "p-arrow", "aria-hidden": "true", text: "→" }),
    );
    p.queue = queue;
    this.qv.srow(queue).prod.append(p.el);
    this.producers.set(name, p);
    return p;
  }

  /** Worker -> the highest count of a side effect it performed, when above 1; worked out once per list (run.js keeps the same array while nothing changes). */
  duplicatedEffects(list) {
    if (list === this.fxList) return this.dupFx;
    const dupFx = new Map();
    for (const s of list) if (s.count > 1) for (const b of s.by) dupFx.set(b, Math.max(dupFx.get(b) ?? 0, s.count));
    this.fxList = list;
    return (this.dupFx = dupFx);
  }

  /** Draws a derived record (derive.js). */
  render(v) {
    const { snap } = v;
    const senders = new Set();
    for (const p of v.producers) {
      senders.add(p.name);
      this.paintProducer(this.producer(p.name, p.queue, p.spec), p, v);
    }
    // A sender no longer drawn (its latest send's queue was deleted since) loses its card.
    for (const [name, p] of this.producers) {
      if (senders.has(name)) continue;
      p.el.remove();
      this.producers.delete(name);
    }

    // Consumers: simulated workers, then whoever holds a message by hand.
    const present = new Set();
    const consumerSpecs = new Map((v.scenario?.consumers ?? []).map((c) => [c.name, c]));
    const dupFx = this.duplicatedEffects(snap.simulation.sideEffects);
    for (const w of snap.simulation.workers) {
      present.add(w.name);
      const card = this.card(w.name, w.queue, consumerSpecs.get(w.name), false);
      this.paintWorker(card, w, v, dupFx.get(w.name) ?? 0);
    }
    for (const [name, info] of v.handHolders) {
      present.add(name);
      const responder = (v.scenario?.responders ?? []).some((r) => r.name === name);
      const card = this.card(name, info.queue, null, true, v.live, responder);
      // A live run's callers work outside the page: what they do between calls (and their side effects) is not seen here.
      // A scenario's responder long-polls its queue until it holds a request, then works on it until its reply is sent and the request deleted.
      const state = responder ? (info.holding.length ? "processing" : "polling") : v.live ? "caller" : "idle";
      this.paintWorker(card, { name, state, holding: info.holding, sideEffects: 0 }, v, 0);
    }
    for (const [name, card] of this.cards) {
      if (!present.has(name)) {
        card.el.remove();
        this.cards.delete(name);
      }
    }
  }

  card(name, queue, spec, manual, live = false, responder = false) {
    let c = this.cards.get(name);
    if (!c) {
      c = new ConsumerCard(name, spec, manual, live, responder);
      this.cards.set(name, c);
    }
    const cell = this.qv.srow(queue).cons;
    if (c.el.parentNode !== cell) cell.append(c.el);
    return c;
  }

  /** `info` is one of derive's producers: { sent, dropped, refused, last }. */
  paintProducer(p, info, v) {
    const { sent, dropped, refused, last } = info;
    const more = `${dropped ? ` (${dropped} more deduplicated)` : ""}${refused ? ` · ${refused} refused by SQS` : ""}`;
    const how = v.live ? " to the server" : p.scenarios ? "" : " by hand";
    setText(p.count, `${p.total != null ? `sent ${sent} of ${p.total}` : `sent ${sent}${how}`}${more}`);
    if (refused) p.el.dataset.refused = String(refused);
    else delete p.el.dataset.refused;
    if (last && p.seen !== last) {
      const lbl = v.label(last.id) ?? "";
      setText(p.last, `${last.dropped ? "retry dropped: " : "last: "}“${cut(lbl, 26)}” at t=${secs(last.at)} s`);
      if (p.seen && v.animate) p.el.animate([{ transform: "scale(1.06)" }, { transform: "none" }], { duration: 360, easing: "ease-out" });
      p.seen = last;
    } else if (!last) setText(p.last, "nothing sent yet");
  }

  paintWorker(card, w, v, fxDup) {
    const [ic, word0] = WORKER_STATE[w.state] ?? ["•", w.state];
    const word = w.state === "polling" && card.longPoll ? "long-polling" : word0;
    card.set("state", w.state, (s) => {
      card.el.dataset.state = s;
      card.ic.textContent = ic;
      card.state.textContent = word;
      card.state.dataset.term = word; // glossary.js explains it on hover
    });
    card.set("fx", `${w.sideEffects}|${fxDup}`, () => {
      card.el.dataset.sideEffects = String(w.sideEffects);
      if (fxDup) card.el.dataset.fxDup = "true";
      else delete card.el.dataset.fxDup;
      card.fx.textContent = fxDup ? `${w.sideEffects} ⚠ one of its messages was ${card.effect} ×${fxDup} in all` : String(w.sideEffects);
    });
    const keep = new Set();
    let anyDup = false;
    let i = 0;
    for (const hold of w.holding) {
      keep.add(hold.messageId);
      let it = card.held.get(hold.messageId);
      if (!it) {
        it = makeHeld(hold.messageId, hold.body.length > 80 ? hold.body.slice(0, 80) : hold.body);
        card.held.set(hold.messageId, it);
        card.list.insertBefore(it.el, card.list.children[i] ?? null);
        if (v.animate) it.el.animate([{ transform: "translateX(-36px)" }, { transform: "none" }], { duration: v.animMs, easing: "cubic-bezier(.2,.8,.2,1)" });
      } else if (card.list.children[i] !== it.el) card.list.insertBefore(it.el, card.list.children[i] ?? null);
      i++;
      const c = it.cache;
      // A hand that received it before the current holder has no count of its own (derive's handHolders).
      put(c, "rc", hold.receiveCount, (n) => {
        if (n == null) delete it.btn.dataset.receiveCount;
        else it.btn.dataset.receiveCount = String(n);
        it.p.rc.textContent = n == null ? "received earlier" : `receive #${n}`;
      });
      const fx = v.fx.get(hold.messageId);
      const fxc = fx ? fx.count : 0;
      put(c, "fxc", fxc, (n) => {
        it.btn.dataset.sideEffectCount = String(n);
        it.p.fx.textContent = n ? `${n > 1 ? "⚠ " : ""}${fx.effect} ×${n}` : "";
        if (n > 1) it.btn.dataset.fxDup = "true";
        else delete it.btn.dataset.fxDup;
      });
      const mark = linkMark(v.facts.links.get(hold.messageId));
      put(c, "link", mark?.text ?? "", () => paintLink(it.btn, it.p.link, mark));
      const others = v.othersHolding(hold.messageId, w.name);
      const dup = others.length > 0 || !!v.facts.dup.get(hold.messageId)?.has(w.name);
      if (dup) anyDup = true;
      const dupText = dup ? (others.length ? `⚠ duplicate delivery: ${others.join(", ")} holds it too` : "⚠ duplicate delivery: another consumer had it at once") : "";
      put(c, "dup", dupText, (t) => {
        it.p.dup.textContent = t;
        if (t) it.btn.dataset.duplicate = "true";
        else delete it.btn.dataset.duplicate;
      });
      it.hold = hold;
    }
    for (const [id, it] of card.held) {
      if (!keep.has(id)) {
        it.el.remove();
        card.held.delete(id);
      }
    }
    card.set("dup", anyDup, (d) => {
      if (d) card.el.dataset.duplicate = "true";
      else delete card.el.dataset.duplicate;
    });
    card.set("empty", w.holding.length === 0, (e) => (card.idle.hidden = !e));
    // A receiver by hand has no count of its own: its requests are yours.
    card.set("requests", w.receiveRequests ?? 0, (n) => {
      card.requests.hidden = n === 0;
      card.requests.textContent = `${counted(n, "receive request", "receive requests")} (each billed)`;
    });
    card.set("emptyReceives", v.facts.empty.get(w.name) ?? 0, (n) => {
      card.empty.hidden = n === 0;
      card.empty.textContent = `${n} empty receive${n === 1 ? "" : "s"} (billed, returned nothing)`;
    });
    card.w = w;
    this.tickCard(card, v.now);
  }

  tick(now) {
    for (const card of this.cards.values()) this.tickCard(card, now);
  }

  tickCard(card, now) {
    const w = card.w;
    if (!w) return;
    for (const it of card.held.values()) {
      const hold = it.hold;
      let text;
      let f = 0;
      if (hold.done) text = "done ✓";
      else if (hold.failed) text = "failed ✗";
      else if (hold.current && w.startedAt != null && w.doneAt != null && w.doneAt > w.startedAt) {
        f = Math.min(1, Math.max(0, (now - w.startedAt) / (w.doneAt - w.startedAt)));
        text = w.state === "crashed" ? "crashed ✖" : `processing ${Math.floor(f * 100)}%`;
      } else if (hold.visibleAt != null) text = `in flight, ${Math.max(0, (hold.visibleAt - now) / 1000).toFixed(1)} s left`;
      else if (hold.receiveCount === null) text = "its visibility timeout ran out; not deleted yet";
      else text = "waiting its turn";
      put(it.cache, "st", text, (t) => (it.p.st.textContent = t));
      const fr = Math.round(f * 100) / 100;
      put(it.cache, "bar", fr, (x) => (it.p.bar.style.transform = `scaleX(${x})`));
    }
  }
}

/** Producers and consumers as a view, drawn into the stage's rows (the lab's, laid out before views draw). */
export const workers = {
  mount(root, lab) {
    const view = new WorkersView(lab.rows);
    return {
      update(d) {
        if (d.fresh) view.reset();
        if (d.changed) view.render(d);
        else view.tick(d.now);
      },
      destroy() {},
    };
  },
};
