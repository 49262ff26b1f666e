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
// Every checkpoint the run answers is seen on the page: besides the
// question asked last, a card stays for each checkpoint answered since that
// question was asked (two answered in one frame, or one answered while
// another's question is open), each with its own verdict, until closed.
// At the run's end nothing is left to continue: the verdict's button is
// Close, and the recap stays. Focus inside the box stays there when it is
// redrawn (on the verdict), never dropping to the page's body.

import { h } from "../../ui/dom.js";

export const checkpoint = {
  mount(root, lab) {
    const box = root.getElementById("checkpoint");
    if (!box || !lab.asksCheckpoints) return null;
    let asked = new Map(); // id -> the checkpointAsked event, in the order asked
    let answered = new Map(); // id -> the checkpointAnswered event
    let current = null; // the id of the checkpoint asked last
    let drawn = "";
    let dismissed = new Set(); // the ids whose verdict the learner closed
    let last = null; // the frame drawn last (a Close redraws it)

    function read(events) {
      for (const e of events) {
        if (e.type === "checkpointAsked") {
          asked.set(e.id, e);
          current = e.id;
        } else if (e.type === "checkpointAnswered") answered.set(e.id, e);
      }
    }

    /** The cards to show: those answered since the current question was asked, then the current one. */
    function cards(d) {
      if (current == null) return [];
      const since = asked.get(current).timeMs;
      const earlier = [...asked.keys()].filter((id) => id !== current && (answered.get(id)?.timeMs ?? -1) >= since);
      const ended = d.now >= d.duration;
      return [...earlier, current]
        .filter((id) => !dismissed.has(id))
        .map((id) => {
          const pick = d.checkpointAnswers.get(id);
          const truth = answered.get(id);
          const state = pick === undefined ? "open" : truth ? "answered" : "predicted";
          const result = state !== "answered" ? null : pick === null ? "skipped" : pick === truth.choice ? "right" : "wrong";
          // The run waits here to show its answer (lab.js halts there); at the end there is nothing to continue.
          const waiting = d.halted?.type === "checkpointAnswered" && d.halted.id === id && !ended;
          return { id, pick, truth, state, result, waiting };
        });
    }

    function close(id) {
      dismissed.add(id);
      drawn = "";
      const hadFocus = box.contains(root.activeElement);
      draw(last);
      if (hadFocus && !box.contains(root.activeElement)) (box.hidden ? root.getElementById("play") : box.querySelector(".cp-verdict"))?.focus();
    }

    function render({ id, pick, truth, state, result, waiting }) {
      const q = asked.get(id);
      const card = h("div", { class: "cp-card", "data-checkpoint-id": id, "data-state": state, "data-checkpoint-result": result });
      const qid = `checkpoint-q-${id}`;
      const kicker = state === "open" ? "Predict, then see: the run is paused here (Play skips the question)." : pick === null ? "Skipped" : "Your prediction";
      const head = h("p", { class: "cp-kicker", text: kicker });
      const question = h("p", { class: "cp-question", id: qid, text: q.question });
      if (state === "open") {
        const choices = q.choices.map((text, i) => h("button", { type: "button", class: "cp-choice", "data-choice": i, text, onclick: () => lab.commands.answerCheckpoint(id, i) }));
        const skip = h("button", { type: "button", class: "quiet cp-skip", text: "Skip this question", onclick: () => lab.commands.answerCheckpoint(id, null) });
        card.append(head, question, h("div", { class: "cp-choices", role: "group", "aria-labelledby": qid }, ...choices), skip);
        return card;
      }
      const said = pick === null ? null : q.choices[pick];
      if (state === "predicted") {
        const text = said == null ? "The run will answer it: play on to see what happens." : `You predicted: ${said}. Play on to see what happens.`;
        card.append(head, question, h("p", { class: "cp-verdict", tabindex: "-1", text }));
        return card;
      }
      const verdict =
        result === "right"
          ? `✔ You were right: ${truth.answer}`
          : result === "wrong"
            ? `✘ Not this time. You predicted: ${said}. What happened: ${truth.answer}`
            : `What happened: ${truth.answer}`;
      card.append(
        h("p", { class: "cp-kicker", text: `Checkpoint, answered by the run at t = ${(truth.timeMs / 1000).toFixed(1)} s` }),
        question,
        h("p", { class: "cp-verdict", tabindex: "-1", text: verdict }),
        truth.because ? h("p", { class: "cp-because", text: truth.because }) : null,
        waiting
          ? h("button", { type: "button", class: "primary cp-continue", text: "Continue ▶", onclick: () => lab.commands.togglePlay() })
          : h("button", { type: "button", class: "quiet cp-close", text: "Close", onclick: () => close(id) }),
      );
      return card;
    }

    /** The box's own marks, for hooks and tests: the current checkpoint's (present only while its question is open). */
    function mark(main) {
      box.dataset.state = main.state;
      if (main.state === "open") box.dataset.checkpoint = main.id;
      else delete box.dataset.checkpoint;
      if (main.result) box.dataset.checkpointResult = main.result;
      else delete box.dataset.checkpointResult;
    }

    function draw(d) {
      const shown = cards(d);
      if (shown.length === 0) {
        drawn = "";
        box.hidden = true;
        delete box.dataset.checkpoint;
        return;
      }
      // (undefined, "not answered", would stringify like null, "skipped")
      const key = JSON.stringify(shown.map((c) => [c.id, c.pick === undefined ? "open" : c.pick, c.truth?.seq, c.waiting]));
      if (key === drawn) return;
      drawn = key;
      const before = new Map([...box.children].map((el) => [/** @type {HTMLElement} */ (el).dataset.checkpointId, /** @type {HTMLElement} */ (el).dataset.state]));
      const hadFocus = box.contains(root.activeElement);
      box.hidden = false;
      box.replaceChildren(...shown.map(render));
      mark(shown[shown.length - 1]);
      // The focus was on a control just replaced (a choice, Continue): on to the current checkpoint's choices or verdict.
      const card = box.lastElementChild;
      if (hadFocus) (card?.querySelector(".cp-choice") ?? card?.querySelector(".cp-verdict"))?.focus();
      for (const c of shown) {
        if (before.get(c.id) === c.state) continue;
        if (c.state === "open") lab.say(`Checkpoint: ${asked.get(c.id).question} Choose an answer, then the run goes on.`);
        if (c.state === "answered") lab.say(box.querySelector(`[data-checkpoint-id="${CSS.escape(c.id)}"] .cp-verdict`).textContent);
      }
    }

    return {
      update(d) {
        if (d.started) dismissed = new Set(); // a new run asks its questions again
        if (d.fresh) {
          asked = new Map();
          answered = new Map();
          current = null;
          drawn = "";
        }
        read(d.events);
        last = d;
        draw(d);
      },
      destroy() {},
    };
  },
};
