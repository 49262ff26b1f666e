// The event log list (#log): one <li> per sentence, oldest first, the
// newest kept in view (the scroller is a column-reverse flex box, so it
// stays anchored at the bottom without reading layout); at most MAX items.

import { isKey, sentences } from "../../text/log-sentences.js";
import { item } from "../../ui/log-item.js";

const MAX = 400;

export class EventLog {
  constructor(list, routineToggle) {
    this.list = list;
    routineToggle.addEventListener("change", () => list.classList.toggle("hide-routine", routineToggle.checked));
  }

  /** The sentences of a batch: of a whole run handed over by a replay, only the tail can be shown. */
  sentences(events, ctx) {
    return sentences(events.length > MAX * 2 ? events.slice(-MAX * 2) : events, ctx);
  }

  /** Appends a batch; returns its sentences (for announcements). */
  append(events, ctx) {
    if (events.length === 0) return [];
    const lines = this.sentences(events, ctx);
    this.list.append(items(lines.length > MAX ? lines.slice(-MAX) : lines, epochOf(ctx)));
    let extra = this.list.childElementCount - MAX;
    while (extra-- > 0) this.list.firstElementChild.remove();
    return lines;
  }

  /**
   * Shows the log of a moment read from the run's start (a replay, a new
   * run): the items already shown that say what its lines say stay, and
   * only the rest is made. Dragging the timeline replays the same run, so
   * from one move to the next most of the log is the same; remaking 400
   * items each move was a third of the move's script time.
   */
  show(events, ctx) {
    const lines = this.sentences(events, ctx);
    const shown = lines.length > MAX ? lines.slice(-MAX) : lines;
    const keys = shown.map(keyOf);
    const old = this.list.children;
    const first = keys.length ? Array.prototype.findIndex.call(old, (li) => li.logKey === keys[0]) : -1;
    if (first < 0) this.list.replaceChildren();
    for (let i = 0; i < first; i++) this.list.firstElementChild.remove();
    let same = 0;
    while (same < old.length && same < keys.length && old[same].logKey === keys[same]) same++;
    while (old.length > same) this.list.lastElementChild.remove();
    this.list.append(items(shown.slice(same), epochOf(ctx)));
    return lines;
  }
}

/** What an item says, to tell whether one already shown can stay. */
const keyOf = (s) => `${s.e.seq}|${s.e.type}|${s.kind}|${s.who}|${s.text}`;

/** The wall clock's start of a frame's run: its scenario's startEpochMs, or null (times in seconds). */
const epochOf = (ctx) => ctx?.scenario?.startEpochMs ?? null;

/** Sentences as list items, in a fragment (`epochMs`: the run's wall clock, or null). */
function items(lines, epochMs) {
  const frag = document.createDocumentFragment();
  for (const s of lines) {
    const li = item(s, epochMs);
    li.logKey = keyOf(s);
    frag.append(li);
  }
  return frag;
}

/**
 * The log as a view (full view only). Key sentences are also said through
 * the lab's live region, unless the frame is silent (a replay, fastest speed).
 */
export const log = {
  mount(root, lab) {
    const list = root.getElementById("log");
    if (!list) return null;
    const view = new EventLog(list, root.getElementById("log-routine"));
    return {
      update(d) {
        if (!d.changed && !d.fresh) return;
        // Checkpoints played without asking (checkpoints=off) are not part of the story told.
        const batch = d.changed ? d.events : []; // unchanged: d.events are an earlier frame's
        const events = lab.asksCheckpoints ? batch : batch.filter((e) => !e.type.startsWith("checkpoint"));
        const lines = d.fresh ? view.show(events, d) : view.append(events, d);
        if (!d.silent) for (const l of lines) if (isKey(l.e) || (l.e.type === "received" && l.kind === "warn")) lab.say(l.kind === "narration" ? l.text : `${l.who} ${l.text}.`);
      },
      destroy() {},
    };
  },
};
