// Peek at one message without changing it (pg.peek is not an SQS call):
// body, attributes, receive count, every receipt handle issued, and its
// history of transitions from the event log. A non-modal panel, so the
// run can go on (or be paused) while it is open; Esc closes it. Its
// actions go out under the lab's caller name (set by Act yourself's field).

import { h } from "../../ui/dom.js";
import { secs } from "../../text/format.js";
import { sentences } from "../../text/log-sentences.js";
import { item } from "../../ui/log-item.js";

export class Peek {
  constructor(panel, { playground, act }) {
    this.panel = panel;
    this.pg = playground; // () => the current Playground
    this.d = null; // the latest derived record (derive.js)
    this.act = act; // (op, body) => Promise
    this.id = null;
    panel.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.stopPropagation();
        this.close();
      }
    });
  }

  open(id, from) {
    this.id = id;
    this.from = from;
    this.render();
    this.panel.hidden = false;
    this.panel.querySelector("h2").focus();
  }

  close() {
    if (this.id == null) return;
    this.id = null;
    this.panel.hidden = true;
    const root = this.panel.getRootNode(); // the document, or a <queue-lab>'s shadow root
    const back = this.from?.isConnected ? this.from : root.querySelector(`[data-message-id="${CSS.escape(this.from?.dataset.messageId ?? "")}"]`);
    (back ?? root.getElementById("stage")).focus();
  }

  /** Redraws if any of these events concern the message being peeked at. */
  refresh(events) {
    if (this.id == null) return;
    if (events === null || events.some((e) => e.messageId === this.id || e.newMessageId === this.id)) this.render();
  }

  render() {
    const id = this.id;
    const pg = this.pg();
    const p = pg.peek(id);
    const d = this.d;
    const left = d.facts.left.get(id);
    const label = d.label(id);
    const m = p?.message;
    const rows = [];
    const fact = (k, v) => v != null && v !== "" && rows.push(h("dt", { text: k }), h("dd", { text: String(v) }));

    let where;
    if (m) {
      where = `${m.state === "in-flight" ? "In flight" : m.state === "delayed" ? "Delayed" : "Visible"} in ${p.queue}`;
      if (m.holder) where += `, held by ${m.holder}`;
      const also = [...new Set(d.othersHolding(id, m.holder))];
      if (also.length) where += ` (and still by ${also.join(", ")}: a duplicate delivery)`;
      if (m.visibleAt != null) where += `; ${m.state === "delayed" ? "becomes visible" : "visible again"} at t=${secs(m.visibleAt)} s`;
    } else if (left) where = `No queue stores it any more: ${left.why} at t=${secs(left.at)} s.`;
    else where = "No queue stores this message.";

    fact("Message id", id);
    if (m) {
      fact("Queue", p.queue);
      fact("Message group", m.group);
      fact("Receive count", m.receiveCount);
      fact("Sent at", `t=${secs(m.sentAt)} s`);
      fact("Sequence number", m.sequenceNumber);
      fact("Deduplication id", p.dedupId);
      fact("Dead-letter source", m.deadLetterSourceArn);
    } else fact("Receive count", d.facts.receives.get(id) ?? 0);
    const fx = d.fx.get(id);
    if (fx) fact("Side effects", `${fx.effect} ×${fx.count}${fx.by.length ? ` (by ${fx.by.join(", ")})` : ""}${fx.count > 1 ? " ⚠ more than once" : ""}`);

    const kids = [
      h("div", { class: "peek-head" },
        h("h2", { id: "peek-title", tabindex: "-1", text: `Peek at message ${id.slice(0, 8)}` }),
        h("button", { type: "button", class: "quiet close", "aria-label": "Close the peek", text: "✕", onclick: () => this.close() })),
      h("p", { class: "peek-note", text: "Peeking is not an SQS call: it does not receive the message or change it." }),
      h("p", { class: `peek-where${m ? "" : " gone"}`, text: where }),
      h("h3", { text: m ? "Body" : "Body (first 80 characters, from the send)" }),
      h("pre", { class: "peek-body", text: m ? m.body : label ?? "(unknown)" }),
      h("dl", { class: "facts" }, ...rows),
    ];
    if (p?.attributes.length) {
      kids.push(h("h3", { text: "Message attributes" }), h("table", { class: "attrs" },
        h("thead", null, h("tr", null, h("th", { text: "Name" }), h("th", { text: "Type" }), h("th", { text: "Value" }))),
        h("tbody", null, ...p.attributes.map((a) => h("tr", null, h("td", { text: a.name }), h("td", { text: a.dataType }), h("td", { text: a.value }))))));
    }
    if (p) {
      kids.push(h("h3", { text: `Receipt handles issued (${p.receiptHandles.length})` }));
      if (p.receiptHandles.length) {
        kids.push(h("ol", { class: "handles" }, ...p.receiptHandles.map((r, i) => h("li", null, h("code", { text: r }), i === p.receiptHandles.length - 1 ? " (latest)" : ""))));
      } else kids.push(h("p", { class: "muted", text: "None yet: it has not been received." }));
      kids.push(this.actions(p));
    }
    const evs = pg.events(0).filter((e) => e.messageId === id || e.newMessageId === id);
    kids.push(h("h3", { text: "History" }), h("ol", { class: "log peek-log" }, ...sentences(evs, d).map(item)));
    this.panel.replaceChildren(...kids);
  }

  actions(p) {
    const url = this.d.snap.queues.find((q) => q.name === p.queue)?.url;
    const handle = p.receiptHandles[p.receiptHandles.length - 1];
    const secsIn = h("input", { type: "number", id: "peek-vis", value: "0", min: "0", step: "1", inputmode: "numeric" });
    const box = h("div", { class: "peek-actions" });
    if (!handle || !url) return box;
    box.append(
      h("p", { class: "muted", text: "Act with its latest receipt handle (as the caller named under “Act yourself”):" }),
      h("button", { type: "button", text: "Delete message", onclick: () => this.act("DeleteMessage", { QueueUrl: url, ReceiptHandle: handle }) }),
      h("span", { class: "inline" },
        h("label", { for: "peek-vis", text: "Visibility timeout (s)" }), secsIn,
        h("button", { type: "button", text: "Change visibility", onclick: () => this.act("ChangeMessageVisibility", { QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: Number(secsIn.value) }) })),
    );
    return box;
  }
}

/** The peek panel as a view: a click on any token, held message or a lane's stack (its oldest) opens it; Escape (controls.js) closes it. */
export const peek = {
  mount(root, lab) {
    const view = new Peek(root.getElementById("peek"), { playground: () => lab.playground(), act: (op, body) => lab.act(op, body, lab.callerName()) });
    const onClick = (e) => {
      const tok = e.target.closest?.(".token, .held, .stack[data-message-id]");
      if (tok) view.open(tok.dataset.messageId, tok);
    };
    root.addEventListener("click", onClick);
    return {
      update(d) {
        view.d = d;
        if (d.rebuild) view.refresh(null);
        else if (d.changed) view.refresh(d.events);
      },
      escape: () => view.close(),
      destroy: () => root.removeEventListener("click", onClick),
    };
  },
};
