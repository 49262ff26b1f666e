// Every word the stage uses for a state, a badge or a chart line explains
// itself. One table (TERMS) gives each word its short meaning and the page
// of the SQS Developer Guide that says more; the view draws from it:
// - a key of the words above the stage: buttons whose tooltip opens on
//   hover, keyboard focus and tap, each described by its glossary entry;
// - the same tooltip on hover over the words drawn elsewhere (a token's
//   state and receive #, a consumer's state, a group's lock, the chart's
//   legend), which carry `data-term`;
// - a glossary panel listing every word with its AWS link.
// It works the same in the full page and inside a <queue-lab>'s shadow root.

import { h } from "./dom.js";

const DG = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/";
const API = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/";

/** key → the word as drawn, what it means, and where AWS explains it. Order: a message's life, then consumers, then groups and metrics. */
export const TERMS = [
  { key: "delayed", word: "delayed", text: "Sent, but hidden until its delay (DelaySeconds) ends: no receive can get it yet.", doc: "Delay queues", url: `${DG}sqs-delay-queues.html` },
  { key: "visible", word: "visible", text: "Waiting in the queue: the next receive can get it.", doc: "Basic Amazon SQS architecture: the message lifecycle", url: `${DG}sqs-basic-architecture.html` },
  { key: "in-flight", word: "in flight", text: "Received and hidden from other consumers until its visibility timeout ends. Deleted before then, it is gone; not deleted, it becomes visible again and is received again.", doc: "Visibility timeout", url: `${DG}sqs-visibility-timeout.html` },
  { key: "deleted", word: "deleted", text: "A consumer called DeleteMessage with its receipt handle: SQS will never deliver it again.", doc: "Basic Amazon SQS architecture: the message lifecycle", url: `${DG}sqs-basic-architecture.html` },
  { key: "dlq", word: "DLQ", text: "In a dead-letter queue: it was received more times than the source queue's maxReceiveCount without being deleted, so SQS moved it aside on the next receive.", doc: "Dead-letter queues", url: `${DG}sqs-dead-letter-queues.html` },
  { key: "expired", word: "expired", text: "Older than the queue's message retention period (MessageRetentionPeriod), so SQS dropped it, received or not.", doc: "Basic Amazon SQS architecture: retention", url: `${DG}sqs-basic-architecture.html` },
  { key: "lost", word: "lost", text: "Deleted before its work was done, and then the work failed: SQS has nothing left to deliver again, so the work never happens.", doc: "Visibility timeout: delete after processing", url: `${DG}sqs-visibility-timeout.html` },
  { key: "receive-count", word: "receive #", text: "How many times SQS has handed this message out (ApproximateReceiveCount). Above maxReceiveCount, the next receive moves it to the DLQ.", doc: "ReceiveMessage (API Reference)", url: `${API}API_ReceiveMessage.html` },
  { key: "long-polling", word: "long-polling", text: "The consumer's ReceiveMessage waits (WaitTimeSeconds, up to 20 s) for a message to arrive instead of answering empty at once.", doc: "Short and long polling", url: `${DG}sqs-short-and-long-polling.html` },
  { key: "polling", word: "polling", text: "The consumer's ReceiveMessage is a short poll: it answers at once, with messages or empty.", doc: "Short and long polling", url: `${DG}sqs-short-and-long-polling.html` },
  { key: "idle", word: "idle", text: "Not asking for messages right now: between two receives.", doc: "Short and long polling", url: `${DG}sqs-short-and-long-polling.html` },
  { key: "processing", word: "processing", text: "Working on a message it received. The message stays in flight meanwhile; the consumer must delete it before the visibility timeout ends, or it is delivered again.", doc: "Visibility timeout", url: `${DG}sqs-visibility-timeout.html` },
  { key: "crashed", word: "crashed", text: "The consumer stopped without deleting what it held. Each message it held becomes visible again when its visibility timeout ends.", doc: "Visibility timeout", url: `${DG}sqs-visibility-timeout.html` },
  { key: "stopped", word: "stopped", text: "The consumer has finished its work for this run and asks for nothing more.", doc: "Basic Amazon SQS architecture", url: `${DG}sqs-basic-architecture.html` },
  { key: "locked", word: "locked", text: "FIFO: a message group whose first message is in flight. Nobody receives more of that group until it is deleted or visible again, which keeps the group in order.", doc: "Using the message group ID", url: `${DG}using-messagegroupid-property.html` },
  { key: "age", word: "age of oldest message", text: "How long the oldest message in the queue has waited (CloudWatch's ApproximateAgeOfOldestMessage).", doc: "CloudWatch metrics for Amazon SQS", url: `${DG}sqs-available-cloudwatch-metrics.html` },
];
const BY_KEY = new Map(TERMS.map((t) => [t.key, t]));

/** The key strip shows these; the rest are explained where they are drawn and in the glossary. */
const KEY = ["delayed", "visible", "in-flight", "deleted", "dlq", "expired", "lost", "receive-count", "long-polling", "idle", "processing", "crashed", "locked"];

export const glossary = {
  mount(root, ctx) {
    const keyHost = root.getElementById("key");
    const panel = root.getElementById("glossary");
    if (!keyHost || !panel) return null;
    return new Glossary(root, ctx, keyHost, panel);
  },
};

class Glossary {
  constructor(root, ctx, keyHost, panel) {
    this.root = root;
    this.panel = panel;
    this.pinned = false; // opened by a tap or a click: stays until a tap elsewhere or Escape
    this.list = h("dl", { class: "gl-list" });
    for (const t of TERMS) {
      this.list.append(
        h("dt", { id: `gl-${t.key}`, tabindex: "-1", "data-term": t.key, text: t.word }),
        h("dd", { id: `gl-${t.key}-d` }, `${t.text} `, h("a", { href: t.url, target: "_blank", rel: "noopener", text: `AWS: ${t.doc} ↗` })),
      );
    }
    panel.querySelector(".gl-body").replaceChildren(this.list);
    keyHost.replaceChildren(
      h("span", { class: "key-lead", text: "Words on the stage:" }),
      ...KEY.map((k) => h("button", { type: "button", class: "term", "data-term": k, "aria-describedby": `gl-${k}-d`, text: BY_KEY.get(k).word })),
    );
    this.tipText = h("span", { class: "tip-text" });
    this.tipLink = h("a", { href: "#glossary", class: "tip-link", onclick: (e) => this.openEntry(e) });
    this.tip = h("div", { class: "term-tip", role: "tooltip", hidden: true }, this.tipText, " ", this.tipLink);
    root.querySelector(".lab").append(this.tip);
    this.listen(keyHost);
  }

  listen(keyHost) {
    const term = (e) => e.target.closest?.("[data-term]");
    const inKey = (el) => el && keyHost.contains(el);
    this.on = [
      // Hover: any word with data-term. Leaving it (not into the tip) hides an unpinned tip.
      [this.root, "pointerover", (e) => { const el = term(e); if (el && !this.tip.contains(el) && !this.panel.contains(el) && !this.pinned) this.show(el, { hover: true }); }],
      [this.root, "pointerout", (e) => { if (!this.pinned && term(e) && !this.tip.contains(e.relatedTarget)) this.hide(); }],
      // Keyboard: focus on a key button shows it; leaving for anything but the tip hides it.
      [keyHost, "focusin", (e) => inKey(term(e)) && this.show(term(e))],
      [keyHost, "focusout", (e) => { if (!this.tip.contains(e.relatedTarget) && !keyHost.contains(e.relatedTarget)) this.hide(); }],
      [this.tip, "pointerout", (e) => { if (!this.pinned && !this.tip.contains(e.relatedTarget) && !e.relatedTarget?.closest?.("[data-term]")) this.hide(); }],
      // Touch (and click): a key button pins its tip open; a tap elsewhere closes it.
      [keyHost, "click", (e) => { const el = term(e); if (el) { this.show(el); this.pinned = true; } }],
      [this.root, "pointerdown", (e) => { if (this.pinned && !this.tip.contains(e.target) && !inKey(term(e))) this.hide(); }],
      [this.root, "keydown", (e) => { if (e.key === "Escape" && !this.tip.hidden) this.hide(); }],
    ];
    for (const [el, type, fn] of this.on) el.addEventListener(type, fn);
  }

  /** Shows `el`'s term under (or above) it. `hover`: a word drawn on the stage, which must not catch clicks meant for what is under the tip. */
  show(el, { hover = false } = {}) {
    const t = BY_KEY.get(el.dataset.term);
    if (!t) return;
    this.pinned = false;
    this.tip.dataset.term = t.key;
    this.tipText.textContent = `${t.word}: ${t.text}`;
    this.tipLink.textContent = "More in the glossary";
    this.tipLink.dataset.term = t.key;
    this.tip.classList.toggle("passive", hover && !el.classList.contains("term"));
    this.tip.hidden = false;
    const r = el.getBoundingClientRect();
    const tr = this.tip.getBoundingClientRect();
    const below = r.bottom + 8 + tr.height <= innerHeight;
    this.tip.style.top = `${Math.max(4, below ? r.bottom + 8 : r.top - 8 - tr.height)}px`;
    this.tip.style.left = `${Math.max(4, Math.min(r.left, innerWidth - tr.width - 8))}px`;
  }

  hide() {
    this.pinned = false;
    this.tip.hidden = true;
  }

  /** The tip's link: opens the glossary at its entry and moves focus there. */
  openEntry(e) {
    e.preventDefault();
    const dt = this.root.getElementById(`gl-${this.tipLink.dataset.term}`);
    this.hide();
    this.panel.open = true;
    dt?.scrollIntoView({ block: "center" });
    dt?.focus({ preventScroll: true });
  }

  update() {}

  escape() {
    this.hide();
  }

  destroy() {
    for (const [el, type, fn] of this.on) el.removeEventListener(type, fn);
    this.tip.remove();
  }
}
