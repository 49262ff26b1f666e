// Runs one fuzz input (inputs.mjs) against the wasm contract and checks
// the invariants after every step. Shared by the test and scripts/fuzz.sh.
//
// Invariants:
// - no call ever traps (a WebAssembly.RuntimeError);
// - every dispatch answers { status, headers, body } with a JSON body, and
//   an error answer (status >= 400) names an SQS `__type`, or one of AWS's
//   request framework (`com.amazon.coral.service#…`: an unknown operation,
//   generic validation errors); one whose caller is longer than
//   limits().maxCallerChars throws that RangeError instead;
// - a misuse (wrong argument types) throws an Error or TypeError, or works,
//   and the Playground still works afterwards;
// - time never goes backwards;
// - nextEventTime() is null or a moment at or after now that advance reaches;
// - the snapshot's counts agree with counts() and with its messages, and
//   every message is in exactly one place (one queue, one state);
// - a received message's SentTimestamp is at or after the epoch start;
// - the same input gives the same bytes (checked by the callers, which run
//   a sample twice and compare `digest`s).

import { createHash } from "node:crypto";
import { SPECIAL } from "./inputs.mjs";

/** An error answer's `__type`: a shape of SQS's model or of AWS's request framework. */
function isErrorShape(type) {
  return typeof type === "string" && /^com\.amazon(aws\.sqs|\.coral\.service)#[A-Za-z.]+$/.test(type);
}

/** An invariant broke (kind "invariant"), the engine trapped ("trap"), or an input hung ("hang"). */
export class FuzzFailure extends Error {
  constructor(kind, message, step) {
    super(message);
    this.kind = kind;
    this.step = step;
  }
}

const DEFAULT_EPOCH_MS = Date.UTC(2024, 0, 1);

/** Turns { $special: name } markers in a step's arguments into the JS values they name. */
function revive(v) {
  if (Array.isArray(v)) return v.map(revive);
  if (v && typeof v === "object") {
    if (typeof v.$special === "string") return SPECIAL[v.$special]();
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]));
  }
  return v;
}

/** Expands { repeat, steps } (see inputs.mjs) into plain steps. */
export function* expand(steps) {
  for (const step of steps) {
    if (step.repeat == null) {
      yield step;
      continue;
    }
    for (let i = 0; i < step.repeat; i++) {
      const text = JSON.stringify(step.steps).replace(/\{i\+1\}/g, String(i + 1)).replace(/\{i\}/g, String(i));
      yield* expand(JSON.parse(text));
    }
  }
}

const isTrap = (e) => e instanceof WebAssembly.RuntimeError || e?.constructor?.name === "RuntimeError";

/**
 * Runs `input` with `glue` (the wasm-bindgen module: { Playground }).
 * Resolves to { digest, steps } (digest: SHA-256 of everything the engine
 * answered); rejects with a FuzzFailure.
 */
export async function execute(input, glue) {
  const s = new Session(input, glue);
  try {
    await s.run();
  } catch (e) {
    if (e instanceof FuzzFailure) throw e;
    if (isTrap(e)) throw new FuzzFailure("trap", `the engine trapped at step ${s.at} (${describe(s.current)}): ${e.message}`, s.at);
    throw new FuzzFailure("invariant", `step ${s.at} (${describe(s.current)}) threw ${e?.name ?? typeof e}: ${e?.message ?? String(e)}`, s.at);
  } finally {
    s.close();
  }
  return { digest: s.hash.digest("hex"), steps: s.at };
}

const describe = (step) => (step ? JSON.stringify(step).slice(0, 300) : "making the Playground");

class Session {
  constructor(input, glue) {
    this.input = input;
    this.glue = glue;
    this.hash = createHash("sha256");
    this.at = -1;
    this.current = null;
    this.seen = { url: [], arn: [], handle: [], id: [] };
    this.answers = []; // checks of dispatch answers still to come (long polls)
    this.lastNow = 0;
    this.epoch = DEFAULT_EPOCH_MS;
    this.pg = null;
  }

  fail(message) {
    throw new FuzzFailure("invariant", `step ${this.at} (${describe(this.current)}): ${message}`, this.at);
  }

  record(text) {
    this.hash.update(text);
    this.hash.update("\n");
  }

  async run() {
    const { input, glue } = this;
    const options = revive(input.options);
    if (options && typeof options === "object" && Number.isFinite(options.startEpochMs)) this.epoch = options.startEpochMs;
    if (!(await this.make(glue, input, options))) return;
    for (const step of expand(input.steps)) {
      this.at++;
      this.current = step;
      await this.step(step);
      this.checkTime();
    }
    this.at++;
    this.current = { call: "final checks" };
    await flush();
    this.checkSnapshot();
    for (const check of this.answers) check();
  }

  /** Makes the Playground; false when the input's scenario or options are refused (with an Error, as they must be). */
  async make(glue, input, options) {
    try {
      this.pg = input.kind === "scenario" ? glue.Playground.fromScenario(input.scenario, options) : new glue.Playground(options);
    } catch (e) {
      if (isTrap(e)) throw e;
      if (!(e instanceof Error)) this.fail(`making the Playground threw a non-Error: ${String(e)}`);
      this.record(`refused: ${e.message}`);
      return false;
    }
    this.lastNow = this.pg.now();
    return true;
  }

  close() {
    try {
      this.pg?.free();
    } catch {
      // a trapped instance cannot free; the worker replaces it
    }
  }

  checkTime() {
    const now = this.pg.now();
    if (!(now >= this.lastNow)) this.fail(`time went backwards: ${this.lastNow} -> ${now}`);
    if (!Number.isSafeInteger(now)) this.fail(`now() is ${now}, not a safe integer`);
    this.lastNow = now;
  }

  async step(step) {
    const pg = this.pg;
    switch (step.call) {
      case "dispatch":
        return this.dispatch(step);
      case "advance":
        return this.advance(step.ms);
      case "toNext": {
        const next = this.nextEventTime();
        if (next != null && next - pg.now() <= 1e12) {
          this.advance(next - pg.now());
          if (pg.now() !== next) this.fail(`nextEventTime() said ${next}, advancing to it reached ${pg.now()}`);
        }
        return;
      }
      case "nextEventTime":
        return this.record(`next ${this.nextEventTime()}`);
      case "snapshot":
        return this.checkSnapshot();
      case "counts":
        return this.record(JSON.stringify(pg.counts()));
      case "peek":
        return this.record(JSON.stringify(pg.peek(this.resolve(step.id)) ?? null));
      case "events":
        return this.record(JSON.stringify(pg.events(step.since)));
      case "misuse":
        return this.misuse(step);
      default:
        throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }

  advance(ms) {
    const before = this.pg.now();
    try {
      const now = this.pg.advance(ms);
      this.record(`advance ${ms} -> ${now}`);
    } catch (e) {
      if (isTrap(e) || !(e instanceof Error)) throw e;
      this.record(`advance ${ms} refused: ${e.message}`);
      if (this.pg.now() !== before) this.fail(`a refused advance(${ms}) still moved time from ${before} to ${this.pg.now()}`);
    }
  }

  nextEventTime() {
    const next = this.pg.nextEventTime() ?? null;
    if (next === null) return null;
    const now = this.pg.now();
    if (!Number.isSafeInteger(next) || next < now) this.fail(`nextEventTime() is ${next} at now=${now}: not a moment advance can reach`);
    return next;
  }

  /** "$url:k" and friends inside a body or id: what the session has seen. */
  resolve(text) {
    if (typeof text !== "string" || !text.includes("$")) return text;
    return text.replace(/\$(url|arn|handle|id):(\d+)/g, (whole, kind, k) => {
      if (kind === "arn" && !this.seen.arn.length) this.learnArns();
      const list = this.seen[kind];
      return list.length ? list[Number(k) % list.length] : whole;
    });
  }

  learnArns() {
    for (const q of this.pg.snapshot().queues) this.seen.arn.push(q.arn);
  }

  dispatch(step) {
    const body = this.resolve(step.body);
    if (step.caller != null && [...step.caller].length > this.glue.limits().maxCallerChars) return this.refusedCaller(step, body);
    const promise = this.pg.dispatch(step.target, body, step.caller == null ? undefined : { caller: step.caller });
    if (!(promise instanceof Promise)) this.fail(`dispatch returned ${typeof promise}, not a Promise`);
    const index = this.at;
    let settled = null;
    promise.then(
      (res) => (settled = () => this.answer(index, step, res)),
      (e) => (settled = () => this.fail(`dispatch of step ${index} rejected: ${e?.message ?? e}`)),
    );
    // Answers arrive now or when a later advance ends a long poll; each is checked once it does.
    this.answers.push(() => settled?.());
    return ticks().then(() => {
      if (settled) {
        this.answers.pop();
        settled();
      }
    });
  }

  /** A caller name over the limit is refused before anything is done: every event of the call would record it. */
  refusedCaller(step, body) {
    try {
      this.pg.dispatch(step.target, body, { caller: step.caller });
    } catch (e) {
      if (e instanceof RangeError && /caller must be at most \d+ characters/.test(e.message)) return ticks();
      throw e;
    }
    this.fail(`a caller of ${[...step.caller].length} characters was accepted`);
  }

  answer(index, step, res) {
    if (!res || typeof res !== "object" || typeof res.status !== "number" || typeof res.body !== "string" || !res.headers || typeof res.headers !== "object") this.fail(`dispatch of step ${index} answered ${JSON.stringify(res)?.slice(0, 200)}, not { status, headers, body }`);
    let parsed;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      this.fail(`dispatch of step ${index} answered a body that is not JSON: ${res.body.slice(0, 200)}`);
    }
    if (res.status >= 400 && !isErrorShape(parsed?.__type)) this.fail(`error answer (${res.status}) of step ${index} without an SQS __type: ${res.body.slice(0, 200)}`);
    this.record(`${index} ${res.status} ${res.body}`);
    if (res.status >= 400) return;
    if (parsed.QueueUrl) this.seen.url.push(parsed.QueueUrl);
    if (parsed.QueueUrls) this.seen.url.push(...parsed.QueueUrls);
    if (parsed.MessageId) this.seen.id.push(parsed.MessageId);
    if (parsed.TaskHandle) this.seen.handle.push(parsed.TaskHandle);
    for (const m of parsed.Messages ?? []) {
      this.seen.handle.push(m.ReceiptHandle);
      this.seen.id.push(m.MessageId);
      const sent = m.Attributes?.SentTimestamp;
      if (sent != null && Number(sent) < this.epoch) this.fail(`message ${m.MessageId} has SentTimestamp ${sent}, before the epoch start ${this.epoch}`);
    }
    if (/CreateQueue|DeleteQueue/.test(step.target)) this.seen.arn = []; // learnt again when next needed
  }

  async misuse(step) {
    const args = revive(step.args);
    const pg = this.pg;
    try {
      let result;
      if (step.method === "fromScenario") result = this.glue.Playground.fromScenario(...args);
      else if (step.method === "construct") result = new this.glue.Playground(...args);
      else result = pg[step.method](...args);
      if (result instanceof Promise) result = await result.catch((e) => ({ rejected: e }));
      if (result?.rejected && !(result.rejected instanceof Error)) this.fail(`misuse ${step.method} rejected with a non-Error: ${String(result.rejected)}`);
      if (result instanceof this.glue.Playground) result.free();
      this.record(`misuse ${step.method} accepted`);
    } catch (e) {
      if (isTrap(e)) throw e;
      if (!(e instanceof Error)) this.fail(`misuse ${step.method} threw a non-Error: ${String(e)}`);
      this.record(`misuse ${step.method}: ${e.name}`);
    }
    // The Playground must still work.
    try {
      pg.now();
      pg.snapshot();
      const res = await pg.dispatch("AmazonSQS.ListQueues", "{}", undefined);
      if (res.status !== 200) this.fail(`after a misuse, ListQueues answered ${res.status}: ${res.body}`);
    } catch (e) {
      if (isTrap(e)) throw e;
      this.fail(`after misuse ${step.method}(${step.args.map((a) => JSON.stringify(a)).join(", ")}), the Playground no longer works: ${e.message}`);
    }
  }

  checkSnapshot() {
    const snap = this.pg.snapshot();
    const counts = this.pg.counts();
    if (snap.timeMs !== this.pg.now() || counts.timeMs !== snap.timeMs) this.fail(`snapshot at ${snap.timeMs}, counts at ${counts.timeMs}, now ${this.pg.now()}`);
    if (counts.queues.length !== snap.queues.length) this.fail(`counts() has ${counts.queues.length} queues, the snapshot ${snap.queues.length}`);
    const places = new Map();
    snap.queues.forEach((q, i) => {
      const c = counts.queues[i];
      const tally = { visible: 0, "in-flight": 0, delayed: 0 };
      for (const m of q.messages) {
        if (!(m.state in tally)) this.fail(`message ${m.messageId} in ${q.name} is in state ${m.state}`);
        tally[m.state]++;
        if (places.has(m.messageId)) this.fail(`message ${m.messageId} is in two places: ${places.get(m.messageId)} and ${q.name}`);
        places.set(m.messageId, q.name);
      }
      const mine = { name: q.name, visible: q.visible, inFlight: q.inFlight, delayed: q.delayed };
      if (JSON.stringify(mine) !== JSON.stringify(c)) this.fail(`snapshot counts ${JSON.stringify(mine)} disagree with counts() ${JSON.stringify(c)}`);
      if (tally.visible !== q.visible || tally["in-flight"] !== q.inFlight || tally.delayed !== q.delayed) this.fail(`${q.name}'s messages (${JSON.stringify(tally)}) disagree with its counts (${JSON.stringify(mine)})`);
    });
    this.record(JSON.stringify(snap));
  }
}

/** Lets settled promises run their callbacks (wasm-bindgen resolves answers through microtasks). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A few microtask turns: enough for an answer given at once (it settles in
 * one), much cheaper than `flush`. An answer still pending after them is a
 * waiting long poll, checked when it comes or at the end.
 */
async function ticks() {
  for (let i = 0; i < 4; i++) await null;
}
