// The scenario's SNS topics under the stage's rows: each topic a card
// with an arrow to each subscribed queue, the arrow's counts (delivered,
// filtered out, dead-lettered, dropped), and a broken arrow with SQS's
// reason when deliveries were refused. The words are text/topics.js's.

import { h } from "../../ui/dom.js";
import { subscriptionArrow, topicHeading } from "../../text/topics.js";

export const topics = {
  mount(root) {
    const box = root.getElementById("topics");
    const cards = root.getElementById("topic-cards");
    if (!box || !cards) return null;
    let drawn = "";
    return {
      update(d) {
        if (!d.changed) return;
        const all = d.snap.simulation.topics ?? [];
        if (box.hidden !== (all.length === 0)) box.hidden = all.length === 0;
        // Redrawn only when a count changed: the snapshot is a new object every frame.
        const key = JSON.stringify(all);
        if (key === drawn) return;
        drawn = key;
        cards.replaceChildren(
          ...all.map((t) =>
            h("div", { class: "topic-card" },
              h("p", { class: "topic-name", text: topicHeading(t) }),
              h("ul", { class: "topic-arrows" },
                ...t.subscriptions.map((s) => {
                  const a = subscriptionArrow(s);
                  return h("li", { class: a.broken ? "topic-arrow broken" : "topic-arrow" },
                    h("span", { class: "arrow", "aria-hidden": "true", text: a.broken ? "⇢✕" : "→" }),
                    " ",
                    h("span", { class: "topic-queue", text: a.queue }),
                    h("span", { class: "topic-counts", text: ` ${a.counts}` }),
                    a.reason ? h("span", { class: "topic-reason", text: a.reason }) : null);
                })))),
        );
      },
      destroy() {},
    };
  },
};
