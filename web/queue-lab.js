// <queue-lab>: a Queuelab playground for any page.
//
//   <script type="module" src=".../web/queue-lab.js"></script>
//   <queue-lab scenario="slow-consumer" seed="7" speed="2" autoplay
//              controls="play step speed timeline" view="compact"></queue-lab>
//
// A thin shell around a lab (lab.js): it reads attributes, finds the
// scenario, and lives in a shadow root so the host page's CSS and its own
// cannot meet. The engine starts when the element first scrolls into view
// and is freed when the element leaves the page. All elements on a page
// share one wasm module (engine.js) and each has its own engine.

import { ready } from "./engine/engine.js";
import { createLab, parseSeed } from "./lab/lab.js";
import { labMarkup, parseControls } from "./lab/markup.js";
import { fetchScenario, fetchText, resolveLab, resolveScenario, shortName } from "./engine/scenarios.js";
import { styleText } from "./engine/files.js";
import { SqsClient } from "./client/sqs-client.js";
import { SnsClient } from "./client/sns-client.js";
import { S3Client } from "./client/s3-client.js";
import { CloudWatchClient } from "./client/cloudwatch-client.js";
import { CodeCell } from "./views/panels/code-cell.js";
import { h } from "./ui/dom.js";

const ELEMENT_CONTROLS = ["play", "step", "restart", "speed", "timeline"];
const VIEWS = ["compact", "full"];
const STYLE_FILES = ["styles.css", "queue-lab.css"];

// One parsed copy of the styles, adopted by every element's shadow root.
let sheets = null;
function styleSheets() {
  sheets ??= Promise.all(
    STYLE_FILES.map(async (f) => {
      const sheet = new CSSStyleSheet();
      await sheet.replace(await styleText(f));
      return sheet;
    }),
  ).catch((e) => {
    sheets = null;
    throw e;
  });
  return sheets;
}

// Enough style for the loading and error boxes before the sheets arrive.
const BOOT_CSS = `:host{display:block;box-sizing:border-box;font:15px/1.45 system-ui,sans-serif;color-scheme:inherit;color:light-dark(#172033,#e7ecf3)}
:host([theme="light"]){color-scheme:light}:host([theme="dark"]){color-scheme:dark}:host([theme="auto"]){color-scheme:light dark}
.fallback{display:block;margin-bottom:8px}
.boot{border:1px dashed #9aa6b8;border-radius:12px;padding:16px;background:light-dark(#f7f8fb,#1b222d);color:light-dark(#515d72,#a7b2c4);min-height:4em}
.boot.failed{border:2px solid light-dark(#b42323,#ff8a8a);background:light-dark(#ffe7e7,#3b1818);color:light-dark(#7a1212,#ffd0d0);font-weight:600;white-space:pre-wrap;overflow-wrap:anywhere}`;

/** Attributes that rebuild the playground when they change; others apply live. */
const REBUILD = new Set(["scenario", "lab", "src", "controls", "view", "editor", "checkpoints"]);

export class QueueLabElement extends HTMLElement {
  static observedAttributes = ["scenario", "lab", "src", "seed", "speed", "autoplay", "controls", "view", "editor", "code", "checkpoints"];

  #lab = null;
  #cell = null;
  #sqs = null;
  #sns = null;
  #s3 = null;
  #cloudwatch = null;
  #observer = null;
  #generation = 0; // bumps on every (re)build and removal; stale async work checks it
  #shown = false;
  #labId = null; // the shipped lab's id ("duplicate-orders") when lab= names one

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  /** The engine running now (the `Playground` contract), or null before it starts or after removal. */
  get playground() {
    return this.#lab?.playground ?? null;
  }

  /** A small client with the AWS SDK's command names: `await el.sqs.sendMessage({ QueueUrl, MessageBody })`. */
  get sqs() {
    this.#sqs ??= this.sqsClient();
    return this.#sqs;
  }

  /**
   * A client like `el.sqs` with options of its own: `el.sqsClient({ principal: "111111111111" })`
   * makes every call as another account (or an IAM ARN, or a service with
   * `sourceArn` and `sourceAccount`), named by it in the log unless `caller`
   * names it. Its requests are recorded like `el.sqs`'s.
   * @param {import("./client/sqs-client.js").SqsClientOptions} [options]
   */
  sqsClient(options = {}) {
    return new SqsClient(this.#endpoint(), this.#who(options));
  }

  /** A small SNS client (topics, subscriptions, publishes) on the run's engine: `await el.sns.publish({ TopicArn, Message })`. */
  get sns() {
    this.#sns ??= this.snsClient();
    return this.#sns;
  }

  /**
   * A client like `el.sns` with options of its own (`caller`, `principal`).
   * @param {import("./client/sns-client.js").SnsClientOptions} [options]
   */
  snsClient(options = {}) {
    return new SnsClient(this.#endpoint(), this.#who(options));
  }

  /** A small S3 client (buckets, notification configurations, objects) on the run's engine: `await el.s3.putObject({ Bucket, Key, Body })`. */
  get s3() {
    this.#s3 ??= this.s3Client();
    return this.#s3;
  }

  /**
   * A client like `el.s3` with options of its own (`caller`, `principal`).
   * @param {import("./client/s3-client.js").S3ClientOptions} [options]
   */
  s3Client(options = {}) {
    return new S3Client(this.#endpoint(), this.#who(options));
  }

  /** A small CloudWatch client (custom metrics, alarms) on the run's CloudWatch: `await el.cloudwatch.putMetricData({ Namespace, MetricData })`. */
  get cloudwatch() {
    this.#cloudwatch ??= this.cloudwatchClient();
    return this.#cloudwatch;
  }

  /**
   * A client like `el.cloudwatch` with options of its own (`caller`, `principal`).
   * @param {import("./client/cloudwatch-client.js").CloudWatchClientOptions} [options]
   */
  cloudwatchClient(options = {}) {
    return new CloudWatchClient(this.#endpoint(), this.#who(options));
  }

  /** What the clients dispatch to: this element's lab, once it has started. Their requests are recorded like any action. */
  #endpoint() {
    return {
      dispatch: (target, body, opts) => (this.#lab ? this.#lab.dispatch(target, body, opts) : Promise.reject(new Error("This <queue-lab> has not started yet; wait for its queuelab-ready event."))),
    };
  }

  /** A client's options: unnamed and the queues' own account, its calls are the "page script"'s. */
  #who(options) {
    return options.principal == null ? { caller: "page script", ...options } : options;
  }

  /**
   * A lab's goal, knobs and Check my fix (LabGoal in queue-lab.d.ts):
   * `el.lab.settings`, `await el.lab.checkGoal()`, `el.lab.conditions`;
   * null before the element starts or when its scenario has no goal.
   */
  get lab() {
    const goal = this.#lab?.goal;
    return goal?.active ? goal : null;
  }

  /** Playback for page scripts (see LabControls in queue-lab.d.ts); null before the element starts. */
  get controls() {
    const lab = this.#lab;
    if (!lab) return null;
    const { togglePlay, play, pause, step, restart, scrub, setSpeed, setSeed } = lab;
    return {
      togglePlay, play, pause, step, restart, scrub, setSpeed, setSeed,
      get playground() { return lab.playground; },
      get scenario() { return lab.scenario; },
      get playing() { return lab.playing; },
      get speed() { return lab.speed; },
    };
  }

  connectedCallback() {
    this.#showBoot("Loading Queuelab…");
    this.#shown = false;
    // Start only when scrolled into view (or near it): a long course page
    // with many playgrounds starts the ones a reader reaches.
    this.#observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || this.#shown) return;
        this.#shown = true;
        this.#observer.disconnect();
        this.#build();
      },
      { rootMargin: "200px" },
    );
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#generation++;
    this.#teardown();
  }

  attributeChangedCallback(name, old, value) {
    if (old === value || !this.#shown) return; // not started yet: the first build reads every attribute
    // Still loading, or it failed: any change is a new try, so a corrected
    // attribute (or a scenario picker's first choice) recovers the element.
    if (!this.#lab?.playground) return this.#scheduleRebuild();
    if (REBUILD.has(name)) return this.#scheduleRebuild();
    if (name === "speed") this.#applySpeed();
    else if (name === "seed") this.#applySeed();
    else if (name === "autoplay") value == null ? this.#lab.pause() : this.#lab.play();
    else if (name === "code") this.#cell?.show(value ?? "");
  }

  /**
   * Builds the playground again from its attributes and source, now: after
   * an error (a scenario file that could not be fetched, say), or to start
   * a running one over. The engine on screen is freed first.
   */
  reload() {
    if (!this.isConnected) return;
    this.#shown = true; // asked for: no need to wait until it scrolls into view
    this.#observer?.disconnect();
    this.#build();
  }

  #scheduleRebuild() {
    if (this.#rebuildQueued) return;
    this.#rebuildQueued = true;
    // Several attributes set in one script turn become one rebuild.
    queueMicrotask(() => {
      this.#rebuildQueued = false;
      if (this.isConnected && this.#shown) this.#build();
    });
  }
  #rebuildQueued = false;

  #teardown() {
    this.#lab?.destroy();
    this.#lab = null;
    this.#cell = null;
  }

  /**
   * The box shown before the playground starts, or instead of it when it
   * cannot: "Loading…" or the error, in words. The author's fallback
   * content (whatever is inside <queue-lab>…</queue-lab> besides an inline
   * scenario) shows above it through a slot, so a screenshot or a sentence
   * stands in until the element starts, and stays if it cannot.
   */
  #showBoot(text, failed = false) {
    const style = h("style", { text: BOOT_CSS });
    const box = h("div", { class: failed ? "boot failed" : "boot", role: failed ? "alert" : "status", text });
    this.shadowRoot.adoptedStyleSheets = [];
    this.shadowRoot.replaceChildren(style, ...(this.#hasFallback() ? [h("slot", { class: "fallback" })] : []), box);
  }

  /** Whether the author put fallback content inside the element (an inline scenario's <script> is not). */
  #hasFallback() {
    return [...this.childNodes].some((n) => (n.nodeType === Node.ELEMENT_NODE ? /** @type {Element} */ (n).localName !== "script" : n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== ""));
  }

  #fail(message) {
    this.#teardown();
    this.#showBoot(`Queuelab: ${message}`, true);
    this.dispatchEvent(new CustomEvent("queuelab-error", { detail: { message }, bubbles: true }));
  }

  async #build() {
    const generation = ++this.#generation;
    this.#teardown();
    delete this.dataset.ready;
    let config;
    let text;
    try {
      config = this.#readLayout();
      const [, css] = await Promise.all([ready(), styleSheets()]);
      config.css = css;
      text = await this.#scenarioText();
    } catch (e) {
      if (generation === this.#generation) this.#fail(e.message ?? String(e));
      return;
    }
    if (generation !== this.#generation) return; // removed or rebuilt meanwhile

    const root = this.shadowRoot;
    root.adoptedStyleSheets = config.css;
    root.innerHTML = labMarkup(config);
    const lab = createLab(root, {
      host: this,
      keys: root,
      checkpoints: config.checkpoints,
      onEvent: (event, { replay }) => this.dispatchEvent(new CustomEvent("queuelab-event", { detail: { event, replay }, bubbles: true })),
      onEnd: () => this.dispatchEvent(new CustomEvent("queuelab-end", { detail: { time: lab.playground?.now() ?? 0 }, bubbles: true })),
      onRun: () => this.#cell?.suggestFor(lab.scenario),
      // The engine broke under this element (its message is in the box already).
      onError: (message, detail) => this.dispatchEvent(new CustomEvent("queuelab-error", { detail: { message, ...detail }, bubbles: true })),
    });
    this.#lab = lab;
    const cellHost = root.getElementById("code-cell");
    if (cellHost) this.#cell = new CodeCell(cellHost, { lab, code: this.#code() });

    if (!lab.load(withSeed(text, this.getAttribute("seed")), { label: this.#source(), id: this.#labId })) {
      // The engine's message is already in the element's box.
      const message = root.getElementById("error-text").textContent;
      this.dispatchEvent(new CustomEvent("queuelab-error", { detail: { message }, bubbles: true }));
      return;
    }
    this.#checkSeed();
    this.#applySpeed();
    this.#cell?.suggestFor(lab.scenario);
    this.dataset.ready = "true";
    this.dispatchEvent(new CustomEvent("queuelab-ready", { detail: { playground: lab.playground, scenario: lab.scenario }, bubbles: true }));
    if (this.hasAttribute("autoplay")) lab.play();
  }

  /** Controls, view and editor from the attributes; throws a readable error. */
  #readLayout() {
    const controls = parseControls(this.getAttribute("controls"), ELEMENT_CONTROLS);
    const view = this.getAttribute("view") ?? "compact";
    if (!VIEWS.includes(view)) throw new Error(`view="${view}" is not a view. Use "compact" (the queues only) or "full" (with the log, chart and settings).`);
    const checkpoints = this.getAttribute("checkpoints") ?? "on";
    if (!["on", "off"].includes(checkpoints)) throw new Error(`checkpoints="${checkpoints}" is not a choice. Use "on" (the run stops to ask the scenario's questions, the default) or "off" (it plays without asking).`);
    return { controls, view, editor: this.hasAttribute("editor"), checkpoints: checkpoints === "on" };
  }

  /** Where the scenario comes from, for error messages. */
  #source() {
    if (this.#inlineScript()) return "The inline scenario";
    if (this.hasAttribute("src")) return `The scenario at src="${this.getAttribute("src")}"`;
    if (this.hasAttribute("lab")) return `The lab “${this.getAttribute("lab")}”`;
    return `The scenario “${this.getAttribute("scenario")}”`;
  }

  #inlineScript() {
    return this.querySelector(':scope > script[type="application/json"]');
  }

  /** The scenario's JSON text: an inline script child, then src, then a shipped lab's name, then a shipped scenario's. */
  async #scenarioText() {
    this.#labId = null;
    const inline = this.#inlineScript();
    if (inline) return inline.textContent;
    const src = this.getAttribute("src");
    if (src != null) return fetchText(new URL(src, document.baseURI), `src="${src}"`);
    const labName = this.getAttribute("lab");
    if (labName != null) {
      const stem = await resolveLab(labName);
      this.#labId = shortName(stem); // its progress and its goal events name it
      return fetchScenario(stem);
    }
    const name = this.getAttribute("scenario");
    if (name == null || name.trim() === "") throw new Error('no scenario. Give it one: scenario="slow-consumer" (a shipped scenario), lab="duplicate-orders" (a shipped lab), src="my-scenario.json", or a <script type="application/json"> child with the scenario.');
    return fetchScenario(await resolveScenario(name));
  }

  /** The code cell's text: a `code` attribute, or a <script type="text/plain"> child. Shown, never run. */
  #code() {
    return this.getAttribute("code") ?? this.querySelector(':scope > script[type="text/plain"]')?.textContent.replace(/^\n/, "") ?? null;
  }

  #checkSeed() {
    const seed = this.getAttribute("seed");
    if (seed != null && parseSeed(seed) == null) this.#lab.showError(`seed="${seed}" is not a seed: use a whole number from 0 to ${Number.MAX_SAFE_INTEGER}. Running with the scenario's own seed.`);
  }

  #applySeed() {
    const seed = this.getAttribute("seed");
    if (seed == null) return;
    if (parseSeed(seed) == null) this.#checkSeed();
    else this.#lab.setSeed(seed);
  }

  #applySpeed() {
    this.#lab.setSpeed(this.getAttribute("speed") ?? "1");
  }
}

/** The scenario text with the seed attribute applied; unparsable text goes to the engine as is, for its error. */
function withSeed(text, seedAttr) {
  const seed = seedAttr == null ? null : parseSeed(seedAttr);
  if (seed == null) return text;
  try {
    return JSON.stringify({ ...JSON.parse(text), seed }, null, 2);
  } catch {
    return text;
  }
}

if (!customElements.get("queue-lab")) customElements.define("queue-lab", QueueLabElement);
