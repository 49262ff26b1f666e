// The code cell: the learner edits JavaScript written against the AWS SDK
// v3's command style (or the built-in `sqs` client), presses Run, and
// watches its messages move. The code talks to the same engine as the
// scenario, through the JSON protocol, under the caller name "your code"
// (or as another account, by its SQSClient's access key or principal),
// and its requests are recorded like any action so replays repeat them.
//
// `lambda.attach(name, handler)` makes a handler the code of one of the
// scenario's Lambda functions: the cell keeps answering that function's
// invocations after the code's last line (client/lambda-runtime.js) until
// Stop, which detaches it. Its answers are recorded like its requests, so
// replays and share links give them again without running the handler.
//
// Code only ever runs on a click of Run. Code that arrives in a link or
// an attribute is put in the editor and shown, never executed. Code from
// a share link also says where it came from, and its first run needs a
// second, explicit "Run it": a link is anyone's to write.

import { h } from "../../ui/dom.js";
import { secs } from "../../text/format.js";
import { codeScope, compileCode, describeError as describe, showValue as show } from "../../client/code-scope.js";
import { LambdaRuntime } from "../../client/lambda-runtime.js";
import { deadLetterSources } from "../../run/derive.js";

/** Starter code for a scenario's first queue. */
export function starterCode(queueName = "my-queue") {
  const fifo = queueName.endsWith(".fifo");
  return `// This runs against the playground's engine. Against AWS, the same code
// needs only: import { SQSClient, ... } from "@aws-sdk/client-sqs";
const client = new SQSClient({ region: "us-east-1" });
const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: ${JSON.stringify(queueName)} }));

await client.send(new SendMessageCommand({
  QueueUrl,
  MessageBody: "hello from my code",${fifo ? `\n  MessageGroupId: "my-group",\n  MessageDeduplicationId: "my-first-message",` : ""}
}));

// A long poll: waits up to 5 s of virtual time for messages.
const { Messages = [] } = await client.send(new ReceiveMessageCommand({
  QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5,
}));
for (const m of Messages) {
  console.log("received", m.Body);
  await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
}
console.log(\`deleted \${Messages.length} message(s)\`);
`;
}

/** The queue a scenario's work goes through: the first (in the scenario's order) that is not a dead-letter queue in the running engine. */
function workQueue(scenario, snap) {
  const dlqs = new Set(snap ? [...deadLetterSources(snap).keys()] : []);
  const arn = new Map((snap?.queues ?? []).map((q) => [q.name, q.arn]));
  const queues = scenario.queues ?? [];
  return (queues.find((q) => !dlqs.has(arn.get(q.name))) ?? queues[0])?.name;
}

export class CodeCell {
  /**
   * `lab` is the lab the code talks to; `code` the text to show (never
   * run); `examples` code a host offers in a picker: its choices ({ value,
   * label }) and `load(value)`, which readies the run for that code and
   * answers its text (null: it could not, and said why).
   */
  constructor(host, { lab, code = null, caller = "your code", examples = null }) {
    this.lab = lab;
    this.caller = caller;
    this.edited = code != null;
    this.running = null; // { stop() } while code runs
    this.text = h("textarea", { id: "code-text", class: "code-text", rows: "14", spellcheck: "false", autocomplete: "off", autocapitalize: "off", "aria-describedby": "code-note code-keys" });
    this.text.value = code ?? starterCode();
    this.text.addEventListener("input", () => (this.edited = true));
    this.text.addEventListener("keydown", (e) => this.key(e));
    // Off by default, so Tab leaves the editor as it leaves any other field (keyboard users are never trapped).
    this.tabIndents = h("input", { type: "checkbox", id: "code-tab-indents", "aria-describedby": "code-keys" });
    this.runBtn = h("button", { type: "button", id: "code-run", class: "primary", onclick: () => this.run() }, h("span", { "aria-hidden": "true", text: "▶ " }), "Run");
    this.stopBtn = h("button", { type: "button", id: "code-stop", disabled: true, text: "Stop", onclick: () => this.running?.stop() });
    this.status = h("span", { id: "code-status", class: "muted", role: "status" });
    this.origin = h("p", { id: "code-origin", class: "code-origin", hidden: true, text: "This code came from the link you opened; read it before you run it." });
    this.confirmBox = h(
      "div",
      { id: "code-confirm", class: "code-confirm", role: "group", "aria-labelledby": "code-confirm-text", hidden: true },
      h("p", { id: "code-confirm-text", text: "Run the code from the link? It runs in this page and can do anything the page can." }),
      h("button", { type: "button", id: "code-confirm-run", class: "primary", text: "Run it", onclick: () => this.confirmed() }),
      h("button", { type: "button", id: "code-confirm-cancel", text: "Not now", onclick: () => this.unconfirmed() }),
    );
    this.out = h("ol", { id: "code-out", class: "code-out", "aria-label": "Output of your code" });
    host.append(
      examples ? this.picker(examples) : "",
      this.origin,
      h("label", { for: "code-text", class: "vh", text: "Your JavaScript" }),
      this.text,
      h("div", { class: "row" }, this.runBtn, this.stopBtn, h("label", { class: "check code-tab" }, this.tabIndents, " Tab indents"), this.status),
      this.confirmBox,
      h("p", { id: "code-note", class: "muted code-note", text: "In scope: lambda.attach(\"function-name\", handler) (your handler answers that Lambda function's invocations until Stop), SQSClient, SNSClient, S3Client and CloudWatchClient with every …Command of @aws-sdk/client-sqs, client-sns, client-s3 and client-cloudwatch that the run answers (S3: CreateBucket, PutBucketNotificationConfiguration, PutObject, GetObject, DeleteObject, ListObjectsV2, an object's Body is text; CloudWatch: PutMetricData, PutMetricAlarm, DescribeAlarms, DeleteAlarms, ListMetrics), sqs, sns, s3 and cloudwatch (the same calls as methods: sqs.sendMessage({…}), sns.publish({…}), s3.putObject({…}), cloudwatch.putMetricData({…})), console, and sleep(ms) and Date.now() in virtual time. Code runs only when you press Run; Ctrl+Enter runs too." }),
      h("p", { id: "code-account", class: "muted code-note", text: "To act as another AWS account: new SQSClient({ credentials: { accessKeyId: \"AKIA111111111111\", secretAccessKey: \"x\" } }) calls as account 111111111111 (an access key's twelve digits after AKIA name its account), or new SQSClient({ principal: \"arn:aws:iam::111111111111:user/alice\" }). The queue's policy decides what it may do." }),
      h("p", { id: "code-keys", class: "muted code-note", text: "Keys: Tab moves to the next control. Ctrl+] indents the selected lines and Ctrl+[ unindents them; tick “Tab indents” to indent with Tab (Esc, then Tab, still leaves the editor)." }),
      this.out,
    );
  }

  /**
   * The examples' picker: a choice puts its code in the editor (never runs
   * it), in place of what is there, after `load` readied the run for it.
   */
  picker({ choices, load }) {
    const select = h(
      "select",
      { id: "code-example", "aria-describedby": "code-status" },
      h("option", { value: "", text: "Choose code to put in the editor…" }),
      ...choices.map((c) => h("option", { value: c.value, text: c.label })),
    );
    select.addEventListener("change", async () => {
      const choice = choices.find((c) => c.value === select.value);
      select.value = "";
      if (!choice || this.running) return;
      const code = await load(choice.value);
      if (code == null) return;
      this.show(code);
      this.out.replaceChildren();
      this.status.textContent = `“${choice.label}” is in the editor, with its scenario: press Run.`;
    });
    return h("div", { class: "row code-examples" }, h("label", { for: "code-example", text: "The patterns guide's code" }), select);
  }

  /** Shows starter code for a scenario, unless the learner has written their own. */
  suggestFor(scenario) {
    if (!this.edited && !this.running && scenario) this.text.value = starterCode(workQueue(scenario, this.lab.playground?.snapshot({ messagesPerQueue: 0 })));
  }

  get code() {
    return this.text.value;
  }

  /**
   * Puts `code` in the editor without running it. `fromLink`: it came in a
   * share link, so the cell says so and its first run asks first.
   */
  show(code, { fromLink = false } = {}) {
    this.text.value = code;
    this.edited = true;
    this.fromLink = fromLink;
    this.origin.hidden = !fromLink;
  }

  /** Asks before the first run of code from a link. */
  askFirst() {
    this.confirmBox.hidden = false;
    this.confirmBox.querySelector("#code-confirm-run").focus();
  }

  confirmed() {
    this.fromLink = false; // asked once; from now on it is the learner's to run
    this.confirmBox.hidden = true;
    this.run();
  }

  unconfirmed() {
    this.confirmBox.hidden = true;
    this.runBtn.focus();
  }

  key(e) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      this.run();
    } else if ((e.key === "]" || e.key === "[") && (e.ctrlKey || e.metaKey) && !e.altKey) {
      // Ctrl+] indents the selected lines, Ctrl+[ unindents them: always, whatever Tab does.
      e.preventDefault();
      this.indent(e.key === "]" ? 1 : -1);
    } else if (e.key === "Tab" && this.tabIndents.checked && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // Tab moves focus like everywhere else unless the learner ticked "Tab indents"; Esc then Tab still leaves.
      if (this.escaped) return;
      e.preventDefault();
      this.text.setRangeText("  ", this.text.selectionStart, this.text.selectionEnd, "end");
    }
    this.escaped = e.key === "Escape";
  }

  /** Adds (`dir` 1) or removes (-1) two spaces at the start of every line the selection touches. */
  indent(dir) {
    const t = this.text;
    const v = t.value;
    const from = t.selectionStart === 0 ? 0 : v.lastIndexOf("\n", t.selectionStart - 1) + 1;
    const to = t.selectionEnd;
    const lines = v.slice(from, to).split("\n");
    const changed = lines.map((l) => (dir > 0 ? `  ${l}` : l.replace(/^ {1,2}/, ""))).join("\n");
    const caretOnly = t.selectionStart === to;
    // A selection stays selected (now indented); a bare caret stays on its line, after the new indent.
    t.setRangeText(changed, from, to, caretOnly ? "end" : "select");
    this.edited = true;
  }

  /** Runs the editor's code once. Resolves when it finishes, fails or is stopped. */
  async run() {
    if (this.running) return;
    if (this.fromLink) return this.askFirst();
    this.out.replaceChildren();
    const lab = this.lab;
    if (!lab.playground) return this.line("error", "The playground has not loaded a scenario yet.");

    let stopped = null;
    let stopRun;
    const stopping = new Promise((_, reject) => (stopRun = reject));
    stopping.catch(() => {});
    this.running = {
      stop: () => {
        stopped = new Error("Stopped.");
        stopRun(stopped);
      },
    };
    // Every request checks for Stop first; the lab's dispatch records it.
    const target = {
      dispatch: (t, body, opts) => (stopped ? Promise.reject(stopped) : lab.dispatch(t, body, opts)),
    };
    const runtime = this.lambdaRuntime(lab);
    // Date.now() tells virtual time: the wall clock's moment when the code starts, moving as the run does.
    let epoch = Date.now();
    const scope = codeScope({
      target,
      caller: this.caller,
      console: this.console(),
      sleep: (ms) => this.sleep(ms, () => stopped),
      now: () => epoch + (lab.playground?.now() ?? 0),
      lambda: {
        attach: (name, handler) => (stopped ? Promise.reject(stopped) : runtime.attach(name, handler)),
        detach: (name) => runtime.detach(name),
      },
    });

    let fn;
    try {
      fn = compileCode(this.code, scope);
    } catch (e) {
      this.running = null;
      return this.line("error", `${e.name}: ${e.message}`);
    }
    // Messages move while the code runs: start the clock (from the top if the run had ended).
    if (lab.playground.now() >= (lab.scenario?.durationMs ?? 0)) lab.restart();
    lab.play();
    const began = lab.playground.now();
    epoch -= began;
    this.runBtn.disabled = true;
    this.stopBtn.disabled = false;
    this.status.textContent = "Running…";
    // Each frame, the invocations of the functions attached go to their
    // handlers; across replays too (a new engine makes the recorded attach again).
    let serving = true;
    const serve = () => {
      if (!serving) return;
      runtime.poll();
      requestAnimationFrame(serve);
    };
    requestAnimationFrame(serve);
    try {
      await Promise.race([fn(...Object.values(scope)), stopping]);
      this.status.textContent = `Finished: ${secs(lab.playground.now() - began)} s of virtual time.`;
      if (runtime.attached) {
        this.status.textContent = `Your code answers ${[...runtime.handlers.keys()].join(", ")}: press Stop to detach it.`;
        await stopping;
      }
    } catch (e) {
      if (e === stopped) this.status.textContent = "Stopped.";
      else {
        this.status.textContent = "Failed.";
        this.line("error", describe(e));
      }
    } finally {
      serving = false;
      // The scenario's handler answers again (recorded, like the attach).
      await runtime.detachAll();
      this.running = null;
      this.runBtn.disabled = false;
      this.stopBtn.disabled = true;
    }
  }

  /**
   * The runtime that hands a function's invocations to your handler: its
   * answers go through the lab's dispatch (recorded), and an invocation
   * whose answer the run already holds (a replay will give it) is not
   * handed over again.
   */
  lambdaRuntime(lab) {
    return new LambdaRuntime(lab, {
      caller: this.caller,
      pending: () => lab.playground?.pendingInvocations() ?? [],
      now: () => lab.playground?.now() ?? 0,
      answered: (fn, n) => lab.state().journal.some((a) => /^Lambda\.Invocation/.test(a.op) && a.body?.FunctionName === fn && a.body?.Invocation === n),
      onAnswer: ({ function: fn, invocation, error, refused }) => {
        if (error !== undefined) this.line("error", `${fn}, invocation ${invocation}: your handler threw ${describe(error)}`);
        if (refused) this.line("error", `${fn}, invocation ${invocation}: ${refused}`);
      },
    });
  }

  /** A console whose output goes under the cell. */
  console() {
    const say = (kind) => (...args) => this.line(kind, args.map(show).join(" "));
    return { log: say("log"), info: say("log"), debug: say("log"), warn: say("warn"), error: say("error"), table: say("log"), dir: say("log") };
  }

  line(kind, text) {
    const pg = this.lab.playground;
    this.out.append(h("li", { class: `out-${kind}` }, h("span", { class: "out-t", text: pg ? `${secs(pg.now())} s` : "" }), h("span", { class: "out-text", text })));
    this.out.scrollTop = this.out.scrollHeight;
  }

  /**
   * Waits `ms` of virtual time (the clock runs while the lab plays). Play
   * holds at the moment it ends until the code has woken, so the code goes
   * on at that moment at any speed.
   */
  sleep(ms, stopped) {
    const lab = this.lab;
    const from = lab.playground;
    const until = from.now() + Math.max(0, Number(ms) || 0);
    const release = lab.holdAt(until);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (stopped()) return reject(stopped());
        if (lab.playground !== from) return reject(new Error("The run restarted while your code was sleeping; run it again."));
        if (from.now() >= until) return resolve();
        if (from.now() >= (lab.scenario?.durationMs ?? 0)) return reject(new Error(`The run ended at ${secs(from.now())} s, before sleep(${ms}) was over.`));
        requestAnimationFrame(check);
      };
      check();
    }).finally(release);
  }
}
