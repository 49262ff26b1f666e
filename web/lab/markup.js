// The playground's markup, in one place for both hosts: the full page
// (index.html's <main>) and each <queue-lab> element's shadow root. IDs
// are the test hooks; inside a shadow root they are scoped to that
// element, so two playgrounds on one page never collide. Only static
// text goes through this HTML: everything from the engine or the user is
// added later as text nodes.

/** Every control a host can ask for, in the order they appear. */
export const CONTROLS = ["play", "step", "restart", "speed", "timeline", "seed"];

const SPEED_OPTIONS = [
  ["0.25", "¼×"], ["0.5", "½×"], ["1", "1×"], ["2", "2×"], ["4", "4×"], ["8", "8×"], ["16", "16×"], ["max", "Fastest"],
];

const PARTS = {
  play: `<button type="button" id="play" aria-pressed="false" aria-keyshortcuts="Space"><span class="ic" aria-hidden="true">▶</span> <span class="lbl">Play</span></button>`,
  step: `<button type="button" id="step" aria-keyshortcuts="N"><span class="ic" aria-hidden="true">⇥</span> Step<span class="hide-narrow"> to next event</span></button>`,
  restart: `<button type="button" id="restart" aria-keyshortcuts="R"><span class="ic" aria-hidden="true">↺</span> Restart</button>`,
  speed: `<label class="field" for="speed">Speed <select id="speed">${SPEED_OPTIONS.map(([v, t]) => `<option value="${v}"${v === "1" ? " selected" : ""}>${t}</option>`).join("")}</select></label>`,
  seed: `<label class="field seed" for="seed">Seed <input id="seed" type="number" min="0" step="1" inputmode="numeric"></label>`,
};

function transport(controls) {
  const buttons = ["play", "step", "restart", "speed"].filter((c) => controls.has(c)).map((c) => PARTS[c]).join("\n");
  // Without a timeline the clock still shows where the run is.
  const time = `<div class="time">${controls.has("timeline")
    ? `<label for="timeline" class="vh">Virtual time (drag to replay to any moment)</label><span class="tl-wrap"><input id="timeline" type="range" min="0" max="10000" step="1" value="0"><span id="timeline-marks" class="tl-marks" aria-hidden="true"></span></span>`
    : ""}<p class="clock"><output id="clock" data-time-ms="0">t = 0.0 s</output> <span class="of">of <span id="duration">–</span></span></p></div>`;
  return `<section class="transport" aria-label="Playback controls">
    ${buttons ? `<div class="buttons">${buttons}</div>` : ""}
    ${time}
    ${controls.has("timeline") ? `<label for="moments" class="vh">Go to a narration moment</label><select id="moments" class="moments" hidden></select>` : ""}
    ${controls.has("seed") ? PARTS.seed : ""}
    <p id="quiet-note" class="quiet-note" data-quiet-skip role="status" hidden></p>
  </section>
  <div id="replay-progress" class="replay-progress" role="group" aria-labelledby="replay-label" hidden>
    <label id="replay-label" for="replay-bar">Replaying…</label>
    <progress id="replay-bar" max="1" value="0"></progress>
    <button type="button" id="replay-cancel">Cancel</button>
  </div>
  <p id="replay-note" class="replay-note" hidden></p>`;
}

const STAGE = `<section id="stage" tabindex="-1" aria-labelledby="stage-title">
    <h2 id="stage-title" class="vh">The queues, their producers and consumers</h2>
    <p id="dup-banner" class="dup-banner" hidden></p>
    <div class="stage-head" aria-hidden="true"><span>Producers</span><span>Queue</span><span>Consumers</span></div>
    <div id="key" class="key" role="group" aria-label="What the words on the stage mean"></div>
    <div id="buckets" class="buckets" role="group" aria-label="S3 buckets and the queues they notify" hidden></div>
    <div id="rows"></div>
    <section id="lambdas" class="lambdas" aria-labelledby="lambdas-title" hidden>
      <h3 id="lambdas-title">Lambda functions <span class="sub">(each polls its queue through an event source mapping and runs your code on a batch)</span></h3>
      <div id="lambda-cards" class="lambda-cards"></div>
    </section>
    <section id="topics" class="topics" aria-labelledby="topics-title" hidden>
      <h3 id="topics-title">SNS topics <span class="sub">(each arrow: a queue subscribed to the topic)</span></h3>
      <div id="topic-cards" class="topic-cards"></div>
    </section>
    <div class="aftermath">
      <section class="tray-box" aria-labelledby="tray-title">
        <h3 id="tray-title">Left the queue <span class="sub">(last 20: deleted, expired, lost)</span></h3>
        <div id="tray" class="tray" role="group" aria-labelledby="tray-title"></div>
        <p class="empty-note" id="tray-empty">Nothing has left the queue yet.</p>
      </section>
      <section class="ledger-box" aria-labelledby="ledger-title">
        <h3 id="ledger-title">Side effects <span class="sub">(what the handlers did)</span></h3>
        <ul id="ledger" class="ledger"></ul>
        <p class="empty-note" id="ledger-empty">No side effects yet.</p>
        <p class="empty-note" id="ledger-omitted" hidden></p>
      </section>
    </div>
  </section>`;

// A lab's goal, knobs, Check my fix and hints (goal-panel.js); hidden for a scenario without a goal.
const GOAL = `<section id="goal" class="goal-panel" aria-labelledby="goal-title" hidden>
    <div class="goal-cols">
      <div class="goal-aims">
        <h3 id="goal-title">Goal <span class="sub" id="goal-seeds"></span> <span id="goal-solved" class="solved-badge" hidden>✓ Solved</span></h3>
        <p id="goal-summary"></p>
        <ul id="goal-conditions" class="goal-conditions"></ul>
      </div>
      <form id="knobs" class="knobs" novalidate aria-labelledby="knobs-title">
        <h3 id="knobs-title">Your settings <span class="sub">a change restarts the run</span></h3>
        <div id="knob-fields" class="knob-fields"></div>
        <p id="goal-edited" class="goal-edited" hidden>Your other edits run here, but Check my fix checks the lab with these settings only.</p>
        <button type="button" id="check-fix" class="primary">Check my fix</button>
        <div id="check-progress" class="check-progress" hidden>
          <p id="check-status" class="check-status"></p>
          <progress id="check-bar" max="1" value="0" aria-labelledby="check-status"></progress>
          <button type="button" id="check-cancel">Cancel</button>
        </div>
      </form>
    </div>
    <div id="goal-result" class="goal-result" hidden></div>
    <details id="goal-help" class="goal-help">
      <summary>Stuck? Hints, then the cause and the fix</summary>
      <ol id="goal-hints" class="goal-hints"></ol>
      <div id="goal-explain" class="goal-explain" hidden></div>
      <button type="button" id="goal-hint">Show a hint</button>
    </details>
  </section>`;

const GLOSSARY = `<details id="glossary" class="panel glossary">
    <summary><span class="sum-title">Glossary</span><span class="sub">every word on the stage, with the AWS documentation</span></summary>
    <div class="gl-body"></div>
  </details>`;

const PANELS = `<div class="panels">
    <section class="log-panel" aria-labelledby="log-title">
      <div class="panel-head">
        <h2 id="log-title">What happened</h2>
        <label class="check"><input type="checkbox" id="log-routine"> Hide routine events</label>
      </div>
      <div class="log-scroll" id="log-scroll" tabindex="0" role="region" aria-label="Event log, oldest first">
        <ol id="log" class="log"></ol>
      </div>
    </section>
    <section class="chart-panel" aria-labelledby="chart-title">
      <div class="panel-head"><h2 id="chart-title">Metrics</h2><span class="sub">what the queues hold, over virtual time; below, CloudWatch as it would see it</span></div>
      <div id="chart"></div>
      <h3 class="cw-title">CloudWatch</h3>
      <div id="cloudwatch"></div>
    </section>
  </div>`;

const TINKER = `<div class="tinker">
    <details id="settings-panel" class="panel" open>
      <summary><span class="sum-title">Settings</span><span class="sub">queues and consumers; a change restarts the run</span></summary>
      <form id="settings" novalidate></form>
    </details>
    <details id="manual-panel" class="panel">
      <summary><span class="sum-title">Act yourself</span><span class="sub">send, receive, delete, change visibility</span></summary>
      <div id="manual"></div>
    </details>
    <details id="json-panel" class="panel">
      <summary><span class="sum-title">Scenario file</span><span class="sub">edit the JSON and run it</span></summary>
      <div id="json-editor"></div>
    </details>
  </div>`;

const CODE = `<section class="panel code-panel" aria-labelledby="code-title">
    <div class="panel-head"><h2 id="code-title">Your code</h2><span class="sub">JavaScript against this engine: the SDK's command style or <code>sqs.sendMessage(…)</code></span></div>
    <div id="code-cell"></div>
  </section>`;

/**
 * The playground's markup.
 * - `controls`: a Set of CONTROLS names to show.
 * - `view`: "full" (log, chart, settings, manual actions, JSON editor) or
 *   "compact" (the stage only).
 * - `editor`: include the code cell.
 */
export function labMarkup({ controls, view, editor }) {
  const full = view === "full";
  return `<div class="lab" data-view="${full ? "full" : "compact"}">
  <section class="intro" aria-labelledby="title">
    <h2 id="title">Loading the simulator…</h2>
    <p id="summary"></p>
    <p id="changed" class="changed" data-changed hidden></p>
  </section>
  ${GOAL}
  <div id="error" role="alert" hidden><p id="error-text"></p><button type="button" id="error-close" class="quiet">Dismiss</button></div>
  ${transport(controls)}
  <section class="narration" aria-label="Narration">
    <svg class="nar-ic" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>
    <div class="nar-text">
      <p id="narration" data-narration>…</p>
      <p id="explanation" class="explanation" data-explanation hidden></p>
    </div>
  </section>
  <section id="checkpoint" class="checkpoint" aria-label="Checkpoint: predict, then see" hidden></section>
  <section id="outcome" class="outcome" data-outcome aria-label="Outcome of this run" hidden></section>
  ${STAGE}
  ${full ? PANELS : ""}
  ${editor ? CODE : ""}
  ${GLOSSARY}
  ${full ? TINKER : ""}
  <div id="peek" class="peek" role="dialog" aria-modal="false" aria-labelledby="peek-title" hidden tabindex="-1"></div>
  <div id="announcer" class="vh" aria-live="polite" aria-atomic="true"></div>
</div>`;
}

/**
 * Reads a `controls` attribute: absent gives `fallback`, "none" or empty
 * gives nothing, otherwise a space- or comma-separated list of CONTROLS.
 * Throws with a readable message on a name it does not know.
 */
export function parseControls(value, fallback = CONTROLS) {
  if (value == null) return new Set(fallback);
  const names = value.split(/[\s,]+/).filter(Boolean);
  if (names.length === 1 && names[0] === "none") return new Set();
  const unknown = names.filter((n) => !CONTROLS.includes(n));
  if (unknown.length) throw new Error(`controls="${value}": “${unknown.join("”, “")}” is not a control. Use any of: ${CONTROLS.join(", ")} (or "none").`);
  return new Set(names);
}
