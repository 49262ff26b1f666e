// The scenario's S3 buckets, above the queues: a card per bucket (the
// objects put and deleted, the latest keys) with an arrow per queue
// configuration to its queue, counting the notifications the queue took.
// An arrow is drawn broken, with the reason in words, when S3 refused the
// bucket's configuration or the queue refused a notification (derive.js's
// `buckets` decides which).

import { h, setText } from "../../ui/dom.js";
import { counted } from "../../text/format.js";

/** One arrow: bucket → queue, whole or broken. */
function arrow(a) {
  const head = h("span", { class: "b-arrow-line", "aria-hidden": "true", text: a.broken ? "─ ✕ ─▶" : "──────▶" });
  const took = counted(a.sent, "notification", "notifications");
  const lost = a.lost ? ` · ${counted(a.lost, "lost", "lost")}` : "";
  const what = h("span", { class: "b-arrow-what", text: `${a.events}${a.filter ? ` (${a.filter})` : ""}` });
  return h(
    "li",
    { class: `b-arrow${a.broken ? " broken" : ""}`, "data-queue": a.queue },
    head,
    h("span", { class: "b-arrow-queue", text: a.queue }),
    h("span", { class: "b-arrow-count", text: `${took}${lost}` }),
    what,
    a.broken ? h("span", { class: "b-arrow-why", text: a.broken }) : null,
  );
}

/** One bucket's card. */
function card(b) {
  // A bucket with no notification configuration (a store of payloads) notifies nobody.
  const valid = b.arrows.length ? "notifications on" : "no notifications";
  const state = { pending: "configuration not saved yet", valid, failed: "configuration refused by S3" }[b.configuration];
  const keys = b.recentKeys.length ? `latest: ${b.recentKeys.slice(-3).join(", ")}` : "no object put yet";
  return h(
    "article",
    { class: `bucket${b.configuration === "failed" ? " refused" : ""}`, "data-bucket": b.name, "aria-label": `S3 bucket ${b.name}` },
    h("header", { class: "b-head" }, h("h3", { class: "b-name" }, h("span", { class: "b-ic", "aria-hidden": "true", text: "S3" }), b.name), h("span", { class: "b-state", text: state })),
    h("p", { class: "b-objects", text: `${counted(b.objects, "object", "objects")} · ${counted(b.puts, "put", "puts")} · ${counted(b.deletes, "delete", "deletes")}` }),
    h("p", { class: "b-keys", text: keys }),
    h("ul", { class: "b-arrows", "aria-label": `Queues ${b.name} notifies` }, ...b.arrows.map(arrow)),
  );
}

export const buckets = {
  mount(root) {
    const el = root.getElementById("buckets");
    if (!el) return null;
    let drawn = "";
    return {
      update(d) {
        if (!d.changed && !d.rebuild) return;
        // Redrawn only when what it shows changed: a bucket's numbers move only with its events.
        const key = JSON.stringify(d.buckets);
        if (key === drawn) return;
        drawn = key;
        el.hidden = d.buckets.length === 0;
        el.replaceChildren(...d.buckets.map(card));
        if (!d.buckets.length) setText(el, "");
      },
      destroy() {
        el.replaceChildren();
      },
    };
  },
};
