// Why a receive of yours came back empty, in a sentence, from what the run
// knows: the queue's snapshot (what it holds, in flight until when,
// delayed until when) and the events (who received last, and whether that
// consumer long-polls, from the scenario). Nothing here decides what SQS
// does: it reads what the engine already did.

import { nameOf, secs } from "./dom.js";

/**
 * `queue`: the queue's snapshot; `last`: its latest receive { by, id, at }
 * (History.lastReceived), `label(id)`: a message's label; `scenario`: the
 * scenario running; `caller`: your name. Returns one or more sentences.
 */
export function whyEmpty({ queue, last, label = () => undefined, scenario, caller }) {
  if (!queue) return "The queue no longer exists.";
  const said = [];
  const byName = (id) => nameOf(label(id), id);
  if (last && last.by && last.by !== caller) {
    const poller = (scenario?.consumers ?? []).find((c) => c.name === last.by);
    const how = poller && poller.waitTimeSeconds > 0 ? `${last.by}'s long poll` : last.by;
    said.push(`${how} took ${byName(last.id)} first, at t = ${secs(last.at)} s.`);
  }
  const msgs = queue.messages ?? [];
  const inFlight = msgs.filter((m) => m.state === "in-flight").sort((a, b) => (a.visibleAt ?? 0) - (b.visibleAt ?? 0));
  if (queue.inFlight > 0) {
    const first = inFlight[0];
    const when = first?.visibleAt != null ? `; the first comes back at t = ${secs(first.visibleAt)} s unless ${first.holder ?? "its holder"} deletes it` : "";
    said.push(`${queue.inFlight} message${queue.inFlight === 1 ? " is" : "s are"} in flight (invisible to every receive)${when}.`);
  }
  if (queue.delayed > 0) {
    const first = msgs.filter((m) => m.state === "delayed").sort((a, b) => (a.visibleAt ?? 0) - (b.visibleAt ?? 0))[0];
    said.push(`${queue.delayed} message${queue.delayed === 1 ? " is" : "s are"} delayed${first?.visibleAt != null ? ` until t = ${secs(first.visibleAt)} s` : ""}.`);
  }
  if (queue.visible > 0 && queue.fifo) said.push("Its visible messages wait behind a locked group: a FIFO group gives out its next message only after the one in flight is deleted.");
  if (queue.visible + queue.inFlight + queue.delayed === 0) said.push("The queue holds no messages.");
  return `Nothing received. ${said.join(" ")}`;
}
