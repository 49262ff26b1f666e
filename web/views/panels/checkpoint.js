// "Predict, then see": a scenario's checkpoints (docs/scenario-format.md).
// The simulation asks a checkpoint's question (a `checkpointAsked` event)
// and later decides its answer from the run (`checkpointAnswered`); the
// page never decides it. While playing, the run halts where a question is
// asked (run.js `haltsAt`); this view shows the question with its choices,
// takes the learner's prediction (lab.answerCheckpoint, which plays on)
// and, once the run has answered, says whether the prediction was right,
// the run waiting there until the learner continues.
// Predictions are kept for the run (a scrub back replays without asking
// again) and forgotten when a new run starts (a changed setting may
// change the answer: predict again).

import { h } from "../../ui/dom.js";

export const checkpoint = {
  mount(root, lab) {
    const box = root.getElementById("checkpoint");
    if (!box || !lab.asksCheckpoints) return null;
    let asked = new Map(); // id -> the checkpointAsked event
    let answered = new Map(); // id -> the checkpointAnswered event
    let current = null; // the id of the checkpoint asked last
    let drawn = "";
    let dismissed = null; // the id whose verdict the learner closed

    function read(events) {
      for (const e of events) {
        if (e.type === "checkpointAsked") {
          asked.set(e.id, e);
          current = e.id;
        } else if (e.type === "checkpointAnswered") answered.set(e.id, e);
      }
    }

    function render(id, pick, truth, waiting) {
      const q = asked.get(id);
      const state = pick === undefined ? "open" : truth ? "answered" : "predicted";
      box.hidden = false;
      box.dataset.state = state;
      // The hook tests and hosts look for: present only while the question is open.
      if (state === "open") box.dataset.checkpoint = id;
      else delete box.dataset.checkpoint;
      if (state === "answered") box.dataset.checkpointResult = pick === null ? "skipped" : pick === truth.choice ? "right" : "wrong";
      else delete box.dataset.checkpointResult;
      const qid = `checkpoint-q-${id}`;
      const kicker = state === "open" ? "Predict, then see: the run is paused here (Play skips the question)." : pick === null ? "Skipped" : "Your prediction";
      const head = h("p", { class: "cp-kicker", text: kicker });
      const question = h("p", { class: "cp-question", id: qid, text: q.question });
      if (state === "open") {
        const choices = q.choices.map((text, i) => h("button", { type: "button", class: "cp-choice", "data-choice": i, text, onclick: () => lab.commands.answerCheckpoint(id, i) }));
        const skip = h("button", { type: "button", class: "quiet cp-skip", text: "Skip this question", onclick: () => lab.commands.answerCheckpoint(id, null) });
        box.replaceChildren(head, question, h("div", { class: "cp-choices", role: "group", "aria-labelledby": qid }, ...choices), skip);
        return;
      }
      const said = pick === null ? null : q.choices[pick];
      if (state === "predicted") {
        const text = said == null ? "The run will answer it: play on to see what happens." : `You predicted: ${said}. Play on to see what happens.`;
        box.replaceChildren(head, question, h("p", { class: "cp-verdict", text }));
        return;
      }
      const result = box.dataset.checkpointResult;
      const verdict =
        result === "right"
          ? `✔ You were right: ${truth.answer}`
          : result === "wrong"
            ? `✘ Not this time. You predicted: ${said}. What happened: ${truth.answer}`
            : `What happened: ${truth.answer}`;
      box.replaceChildren(
        h("p", { class: "cp-kicker", text: `Checkpoint, answered by the run at t = ${(truth.timeMs / 1000).toFixed(1)} s` }),
        question,
        h("p", { class: "cp-verdict", text: verdict }),
        truth.because ? h("p", { class: "cp-because", text: truth.because }) : null,
        waiting
          ? h("button", { type: "button", class: "primary cp-continue", text: "Continue ▶", onclick: () => lab.commands.togglePlay() })
          : h("button", { type: "button", class: "quiet cp-close", text: "Close", onclick: () => ((dismissed = id), (box.hidden = true)) }),
      );
    }

    return {
      update(d) {
        if (d.started) dismissed = null; // a new run asks its questions again
        if (d.fresh) {
          asked = new Map();
          answered = new Map();
          current = null;
          drawn = "";
        }
        read(d.events);
        if (current == null || dismissed === current) {
          box.hidden = true;
          delete box.dataset.checkpoint;
          return;
        }
        const pick = d.checkpointAnswers.get(current);
        const truth = answered.get(current);
        // The run waits here to show its answer (lab.js halts there).
        const waiting = d.halted?.type === "checkpointAnswered" && d.halted.id === current;
        // (undefined, "not answered", would stringify like null, "skipped")
        const key = JSON.stringify([current, pick === undefined ? "open" : pick, truth?.seq, waiting]);
        if (key === drawn) return;
        drawn = key;
        const wasOpen = box.dataset.state === "open";
        render(current, pick, truth, waiting);
        if (box.dataset.state === "open" && !wasOpen) lab.say(`Checkpoint: ${asked.get(current).question} Choose an answer, then the run goes on.`);
        if (box.dataset.state === "answered") lab.say(box.querySelector(".cp-verdict").textContent);
      },
      destroy() {},
    };
  },
};
