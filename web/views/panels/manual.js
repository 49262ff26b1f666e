// "Act yourself": real SQS requests from the page, under a caller name,
// through pg.dispatch. They become part of the run: the page records them
// and a replay (the timeline) makes them again at the same moments.

import { h } from "../../ui/dom.js";
import { limits } from "../../engine/engine.js";

export class Manual {
  /** act(op, body, caller) -> Promise<{status, body}> (parsed body). */
  /** @param {HTMLElement} host @param {{ act: (op: string, body: object, caller: string) => Promise<{ status: number, body: any }>, explain?: (queueUrl: string, caller: string) => string }} options */
  constructor(host, { act, explain = () => "" }) {
    this.act = act;
    this.explain = explain; // (queueUrl, caller) -> why a receive there came back empty
    this.queues = "";
    const id = (s) => `m-${s}`;
    const field = (key, label, input) => h("div", { class: "set" }, h("label", { for: id(key), text: label }), input);
    this.caller = h("input", { id: id("caller"), value: "you", autocomplete: "off" });
    this.queue = h("select", { id: id("queue"), onchange: () => this.snap && this.render(this.snap) });
    this.body = h("textarea", { id: id("body"), rows: "2", spellcheck: "false" });
    this.body.value = "order Z-9001: charge $5";
    this.group = h("input", { id: id("group"), value: "customer-Z", autocomplete: "off" });
    this.dedup = h("input", { id: id("dedup"), placeholder: "content-based if empty", autocomplete: "off" });
    this.delay = h("input", { id: id("delay"), type: "number", value: "0", min: "0", step: "1" });
    this.max = h("input", { id: id("max"), type: "number", value: "1", min: "1", max: "10", step: "1" });
    this.vt = h("input", { id: id("vt"), type: "number", placeholder: "queue default", min: "0", step: "1" });
    this.handle = h("input", { id: id("handle"), placeholder: "receive first, or copy one from a peek", autocomplete: "off", spellcheck: "false", oninput: () => this.syncHandle() });
    this.secs = h("input", { id: id("secs"), type: "number", value: "0", min: "0", step: "1" });
    this.out = h("pre", { class: "m-out", id: id("out"), "aria-live": "polite", text: "Responses appear here." });
    this.why = h("p", { class: "m-why", id: id("why"), "data-empty-why": "", hidden: true });
    this.fifoOnly = [field("group", "MessageGroupId (FIFO)", this.group), field("dedup", "MessageDeduplicationId (FIFO)", this.dedup)];
    const btn = (text, fn) => h("button", { type: "button", text, onclick: fn });
    host.append(
      h("p", { class: "muted", text: "Your requests are real SQS calls to the same engine. They become part of this run: the timeline replays them at the moment you made them; a new action after scrubbing back drops your later ones; Restart, the seed or a setting starts a clean run." }),
      h("div", { class: "m-grid" },
        field("caller", "Your name in the log", this.caller),
        field("queue", "Queue", this.queue)),
      h("div", { class: "m-forms" },
      h("fieldset", null, h("legend", { text: "SendMessage" }),
        field("body", "Message body", this.body), ...this.fifoOnly, field("delay", "DelaySeconds", this.delay),
        btn("SendMessage", () => this.send())),
      h("fieldset", null, h("legend", { text: "ReceiveMessage (short poll)" }),
        field("max", "MaxNumberOfMessages", this.max), field("vt", "VisibilityTimeout (s)", this.vt),
        btn("ReceiveMessage", () => this.receive())),
      h("fieldset", null, h("legend", { text: "DeleteMessage / ChangeMessageVisibility" }),
        field("handle", "ReceiptHandle", this.handle), field("secs", "New visibility timeout (s)", this.secs),
        h("div", { class: "row" }, (this.del = btn("DeleteMessage", () => this.withHandle("DeleteMessage"))), (this.chg = btn("ChangeMessageVisibility", () => this.withHandle("ChangeMessageVisibility")))),
        h("p", { class: "muted m-hint", id: id("handle-hint"), text: "Delete and change visibility need a receipt handle: receive a message first." }))),
      this.why,
      this.out,
    );
    this.syncHandle();
  }

  /** Delete and ChangeMessageVisibility act on a handle: enabled only when there is one. */
  syncHandle() {
    const none = this.handle.value.trim() === "";
    this.del.disabled = none;
    this.chg.disabled = none;
    this.handle.closest("fieldset").querySelector(".m-hint").hidden = !none;
  }

  /** Keeps the queue list in step with the snapshot. */
  render(snap) {
    // The engine refuses a longer name (every event records it); the field stops there. Set here: a snapshot means the engine is loaded.
    this.caller.maxLength = limits().maxCallerChars;
    const key = snap.queues.map((q) => q.name).join("\n");
    if (key !== this.queues) {
      this.queues = key;
      const was = this.queue.value;
      this.queue.replaceChildren(...snap.queues.map((q) => h("option", { value: q.url, text: q.name })));
      if ([...this.queue.options].some((o) => o.value === was)) this.queue.value = was;
    }
    this.snap = snap;
    const fifo = snap.queues.find((q) => q.url === this.queue.value)?.fifo ?? false;
    for (const el of this.fifoOnly) el.hidden = !fifo;
  }

  callerName() {
    return this.caller.value.trim() || "you";
  }

  async run(op, body) {
    const res = await this.act(op, body, this.callerName());
    this.out.textContent = `${op} → ${res.status}\n${JSON.stringify(res.body, null, 2)}`;
    return res;
  }

  send() {
    const q = this.snap?.queues.find((x) => x.url === this.queue.value);
    const body = { QueueUrl: this.queue.value, MessageBody: this.body.value };
    if (q?.fifo) {
      body.MessageGroupId = this.group.value;
      if (this.dedup.value) body.MessageDeduplicationId = this.dedup.value;
    }
    // On any queue: a FIFO queue refuses a per-message delay above 0, and
    // the answer below says so in SQS's words (the page keeps no such rule).
    if (this.delay.value !== "") body.DelaySeconds = Number(this.delay.value);
    return this.run("SendMessage", body);
  }

  async receive() {
    const body = { QueueUrl: this.queue.value, MaxNumberOfMessages: Number(this.max.value), WaitTimeSeconds: 0, MessageSystemAttributeNames: ["All"] };
    if (this.vt.value !== "") body.VisibilityTimeout = Number(this.vt.value);
    const res = await this.run("ReceiveMessage", body);
    const got = res.body.Messages?.[0];
    if (got) this.handle.value = got.ReceiptHandle;
    this.syncHandle();
    const empty = res.status < 400 && !got;
    this.why.hidden = !empty;
    this.why.textContent = empty ? this.explain(body.QueueUrl, this.callerName()) : "";
  }

  withHandle(op) {
    const body = { QueueUrl: this.queue.value, ReceiptHandle: this.handle.value };
    if (op === "ChangeMessageVisibility") body.VisibilityTimeout = Number(this.secs.value);
    return this.run(op, body);
  }
}

/** "Act yourself" as a view (full view only); its caller field sets the lab's caller name, which the peek panel acts as too. */
export const manual = {
  mount(root, lab) {
    const host = root.getElementById("manual");
    if (!host) return null;
    // Why a receive of yours came back empty: the simulation's words, from the run it holds.
    const explain = (url, caller) => lab.playground().whyEmpty(url, caller);
    const view = new Manual(host, { act: (op, body, caller) => lab.act(op, body, caller), explain });
    // The peek acts as this caller too: the name is the lab's (lab.setCallerName), not this view's.
    view.caller.addEventListener("input", () => lab.setCallerName(view.callerName()));
    return {
      update(d) {
        if (d.changed) view.render(d.snap);
      },
      destroy() {},
    };
  },
};
