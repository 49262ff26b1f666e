// One run of a scenario, without a page: the scenario text and seed, the
// engine running it, the learner's recorded actions (the journal), replay
// to any moment, and the facts remembered from its events. A run is fully
// determined by its text and journal, so "go back to t" is "start again
// and replay to t" (ARCHITECTURE.md: replay is the timeline). The lab
// (lab.js) adds a clock and views on top; tests/node/run.test.mjs drives a
// Run in Node.

import { Playground } from "../engine/engine.js";
import { History } from "./history.js";
import { metrics, STAGE_WINDOW } from "./derive.js";
import { ACTION_WORK, ACTIONS_PER_CHUNK, REPLAY_EVENTS_KEPT } from "./page-limits.js";

/**
 * The `dispatch` options of a recorded action (or a caller's): who made it.
 * Only the options it has, so an action recorded before principals (or
 * made as the queues' own account) is made exactly as before.
 */
function callOptions(a) {
  const options = { caller: a.caller };
  for (const k of ["principal", "sourceArn", "sourceAccount"]) if (a[k] != null) options[k] = a[k];
  return options;
}

/** How many of `journal`'s actions (in time order) are at or before `t`: the index of the first later one. */
function actionsUntil(journal, t) {
  let [lo, hi] = [0, journal.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (journal[mid].t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Units of work (Playground.workEstimate's) that making `journal`'s
 * actions up to moment `t` costs, from its `made`-th on: ACTION_WORK
 * each. The one place the journal joins the work estimate (the slicer's
 * chunks, and a link's "ask before running").
 */
export function journalWork(journal, t, made = 0) {
  return Math.max(0, actionsUntil(journal, t) - made) * ACTION_WORK;
}

/** The chart's samples: the metrics at fixed steps of virtual time (about 300 per run). */
export class Samples {
  constructor(durationMs = 10000) {
    this.version = 0; // bumps on every change (reset included), so a chart redraws only then
    this.reset(durationMs);
  }

  /**
   * A longer span (a live run's chart as its host goes on): the step grows
   * with it and the samples between the new steps go, so the chart keeps
   * about 300 samples whatever the run's length.
   */
  coarsen(durationMs) {
    this.duration = Math.max(this.duration, durationMs);
    this.step = Math.max(this.step, Math.round(this.duration / 300));
    this.list = this.list.filter((m) => m.t % this.step === 0);
    this.version++;
  }

  reset(durationMs) {
    this.duration = Math.max(1, durationMs);
    this.step = Math.max(10, Math.round(this.duration / 300));
    this.list = [];
    this.version++;
  }

  /** The next sampling moment after `t`. */
  nextAt(t) {
    return (Math.floor(t / this.step) + 1) * this.step;
  }

  /** Drops the last sample if it was taken between steps (where a replay stopped): a run going on from there would not have taken it. */
  dropBetweenSteps() {
    const last = this.list[this.list.length - 1];
    if (last && last.t % this.step !== 0) {
      this.list.pop();
      this.version++;
    }
  }

  /** Adds a sample; one at the same moment replaces the last, an older one is ignored. */
  add(m) {
    const last = this.list[this.list.length - 1];
    if (last && last.t >= m.t) {
      if (last.t === m.t) this.list[this.list.length - 1] = m;
      else return;
    } else this.list.push(m);
    this.version++;
  }
}

/** The chart's span for a live run that has reached `t`: a minute, doubled until it holds `t` (so its steps stay whole). */
export function liveSpan(t) {
  let span = 60000;
  while (span < t) span *= 2;
  return span;
}

export class Run {
  /**
   * `sample`: keep the chart's samples (stopping at each sampling moment);
   * `onEvent(event, { replay })`: each engine event as it is read;
   * `haltsAt(event)`: true for a checkpoint event (`checkpointAsked`,
   * `checkpointAnswered`) the run should stop at: playing, the run then
   * stops at the end of that moment (`halted`) until `resume()`. A replay
   * does not stop on the way, only when it lands on such a moment.
   * @param {{ sample?: boolean, onEvent?: (event: import("../pkg/queuelab.js").QueuelabEvent, how: { replay: boolean }) => void, haltsAt?: ((event: import("../pkg/queuelab.js").QueuelabEvent) => boolean) | null }} [options]
   */
  constructor({ sample = false, onEvent = () => {}, haltsAt = null } = {}) {
    this.onEvent = onEvent;
    this.haltsAt = haltsAt;
    this.halted = null; // the checkpoint event the run waits at, if any
    // The engine paused where it handed an invocation to your code (the code
    // cell's lambda.attach): the work of this frame ends there, so the
    // handler is called before virtual time moves on.
    this.yielded = false;
    this.fileText = ""; // the scenario as loaded (its settings are the reset point)
    this.text = ""; // the scenario running now (file + settings + seed)
    this.source = { text: "", options: undefined }; // what a new engine of this run is made from (open)
    this.scenario = null;
    // A run that follows another host's run (a `queuelab serve`): `until` is
    // the moment that host has reached, the run's length so far; it never ends.
    this.live = null;
    this.pg = null;
    this.journal = []; // your actions, in time order: { t, op, body, caller, principal?, sourceArn?, sourceAccount? }
    this.facts = new History();
    this.samples = sample ? new Samples() : null;
    this.waiting = new Set(); // rejecters of requests still waiting on this engine
    this.replaying = false;
    this.clear();
  }

  /** The scenario's length in virtual ms; a live run's, the moment its host has reached. */
  get duration() {
    return this.live ? this.live.until : (this.scenario?.durationMs ?? 0);
  }

  get now() {
    return this.pg?.now() ?? 0;
  }

  get seed() {
    return this.scenario?.seed ?? 0;
  }

  /** Starts `text` at time 0 with no actions; throws the engine's error (and changes nothing) when it cannot run. */
  start(text) {
    const source = { text, options: undefined };
    const pg = this.open(source);
    this.replace(pg);
    this.source = source;
    this.text = text;
    this.scenario = JSON.parse(text);
    this.live = null;
    this.journal = [];
    this.fresh();
  }

  /**
   * Starts a live run: the run another host makes (a `queuelab serve`), from
   * the head of its journal. `text` is its scenario's, or null for a
   * playground made from `options` alone (its queues come from the calls);
   * `seed` the seed in force; `title` names a run without a scenario. Its
   * calls come later (follow), and its length is the moment the host has
   * reached (reach). Throws the engine's error (and changes nothing) when
   * it cannot run.
   * @param {{ text: string | null, options: object, seed: number, title: string }} head
   */
  startLive({ text, options, seed, title }) {
    const source = { text, options: { ...options, seed } };
    const pg = this.open(source);
    this.replace(pg);
    this.source = source;
    this.text = text ?? "";
    this.scenario = text != null ? { ...JSON.parse(text), seed } : { title, seed, queues: [] };
    this.live = { until: 0 };
    this.journal = [];
    this.fresh();
  }

  /**
   * Appends a live run's calls (the host's journal from its `from`-th call,
   * in the order made); false, changing nothing, when they do not start
   * where the journal ends (a page read twice, or one missed).
   */
  follow(calls, from) {
    if (!this.live || from !== this.journal.length) return false;
    for (const c of calls) this.journal.push({ t: c.t, op: c.op, body: c.body, ...callOptions(c) });
    return true;
  }

  /** A live run's host has reached moment `t`: the run's length grows to it (never shrinks), the chart's span with it. */
  reach(t) {
    if (!this.live || !(t > this.live.until)) return;
    this.live.until = t;
    if (this.samples && t > this.samples.duration) this.samples.coarsen(liveSpan(t));
  }

  /** A moment of this run: `t` rounded and clamped to 0…duration (NaN gives 0). */
  clamp(t) {
    const n = Math.round(Number(t));
    return Number.isFinite(n) ? Math.max(0, Math.min(this.duration, n)) : n > 0 ? this.duration : 0;
  }

  /**
   * Rebuilds the moment `t` (clamped to the run) in one go: a new engine
   * from the same text, the journal's actions made at their moments. The
   * page replays in slices instead (beginReplay, advanceChunk, endReplay
   * from lab.js through slicer.js); this is the same work without pauses.
   */
  replayTo(t) {
    const target = this.clamp(t);
    this.beginReplay();
    try {
      this.advanceTo(target);
    } finally {
      this.endReplay();
    }
  }

  /** Starts a replay: a new engine from the same text at time 0, read afresh. */
  beginReplay() {
    this.replace(this.open(this.source));
    this.replaying = true;
    this.fresh();
  }

  /**
   * Starts a replay onward from this moment, to a later one: the engine is
   * deterministic, so that moment is the same reached from here as from
   * 0 s, and nothing read so far is read again (a drag of the timeline
   * forward). Like a replay, it does not stop where a checkpoint asks.
   */
  beginOnward() {
    this.halted = null;
    this.replaying = true;
    this.samples?.dropBetweenSteps();
  }

  /** Ends a replay where it got to (its target, or where it was stopped): the chart gets that moment's sample. */
  endReplay() {
    this.replaying = false;
    if (!this.pg) return;
    // Landing where a checkpoint was asked or answered (a timeline marker's
    // moment): the run waits there as if it had played to it.
    const last = this.lastCheckpoint;
    if (last && last.timeMs === this.now && this.haltsAt?.(last)) this.halted = last;
    this.sample();
    if (this.now >= this.duration && !this.ended && !this.live) {
      this.ended = true;
      this.failWaiting();
    }
  }

  /** A new engine for `source` (a scenario's text, or none: options only); with `haltsAt`, its advance stops where a checkpoint is asked or answered. */
  open({ text, options }) {
    const pg = text != null && text !== "" ? Playground.fromScenario(text, options) : new Playground(options);
    if (this.haltsAt) pg.pauseAtCheckpoints(true);
    pg.pauseAtInvocations(true);
    return pg;
  }

  /** Goes on from the checkpoint the run halted at. */
  resume() {
    this.halted = null;
  }

  /** Frees the old engine; requests still waiting on it can never be answered, so they fail now. */
  replace(pg) {
    this.pg?.free();
    this.pg = pg;
    this.journalRead = 0; // calls of this engine's journal read so far (lastCall)
    for (const reject of this.waiting) reject(new Error("The run restarted (a replay, a setting or Restart) while this request was waiting; send it again."));
    this.waiting.clear();
  }

  clear() {
    this.halted = null;
    this.lastCheckpoint = null; // the last checkpoint event read
    this.seq = 0;
    this.snapshot = null; // what `snap` last read
    this.sideEffects = new SideEffects();
    this.stale = true; // something happened since: the next read of `snap` asks the engine
    this.batch = []; // events read but not yet handed out by take()
    this.leftNow = []; // ids that left in those events
    this.ended = false;
  }

  /** Forgets what was read and reads the engine from its start. */
  fresh() {
    this.clear();
    this.made = 0; // journal actions made in this engine (a new engine has made none)
    this.facts.reset();
    this.samples?.reset(this.live ? liveSpan(this.live.until) : this.duration);
    this.collect();
    this.sample();
  }

  /** Reads new events (marking the snapshot stale when anything happened); returns how many. */
  collect() {
    const evs = this.pg.events(this.seq);
    if (evs.length) {
      this.seq = evs[evs.length - 1].seq;
      for (const e of evs) {
        this.batch.push(e);
        this.onEvent(e, { replay: this.replaying });
        if (e.type === "checkpointAsked" || e.type === "checkpointAnswered") {
          this.lastCheckpoint = e;
          if (!this.replaying && this.haltsAt?.(e)) this.halted = e;
        }
      }
      for (const id of this.facts.ingest(evs)) this.leftNow.push(id);
      if (this.replaying && this.batch.length > 2 * REPLAY_EVENTS_KEPT) this.trimBatch();
    }
    if (evs.length) this.stale = true;
    return evs.length;
  }

  /**
   * A replay's views draw once, at its end (lab/frames.js's drawProgress): of the
   * events read meanwhile the run keeps the newest REPLAY_EVENTS_KEPT
   * (more than the log shows) and every checkpoint event, and the newest
   * ids that left (the stage redraws the tray from `facts` at a replay's
   * end), so a replay of millions of events holds a bounded batch.
   */
  trimBatch() {
    const cut = this.batch.length - REPLAY_EVENTS_KEPT;
    const older = this.batch.slice(0, cut).filter((e) => e.type.startsWith("checkpoint"));
    this.batch = older.concat(this.batch.slice(cut));
    this.leftNow = this.leftNow.slice(-REPLAY_EVENTS_KEPT);
  }

  /**
   * The engine's snapshot for the views, read when first asked for after
   * anything happened: a frame or a replay that advances in many steps
   * reads it once, not once a step. Only the messages the stage draws: a
   * snapshot of every message of a huge queue would cost more than the
   * frame (and could not be handed over).
   */
  get snap() {
    if (this.stale && this.pg) {
      this.snapshot = this.sideEffects.merge(this.pg.snapshot({ messagesPerQueue: STAGE_WINDOW, sideEffectsSince: this.sideEffects.since }));
      this.stale = false;
    }
    return this.snapshot;
  }

  /**
   * The chart's sample of this moment: queue counts only, so no messages or
   * side effects are read for it. A sample at a sampling step is kept for
   * the next replay of the same run: a run is fixed by its text and journal,
   * so dragging the timeline back and forth reads each step from the engine
   * once (300 snapshots a replay cost more than the replay itself).
   */
  sample({ atStep = false } = {}) {
    if (!this.samples) return;
    const known = this.knownSamples();
    const t = this.now;
    let m = atStep ? known.get(t) : undefined;
    if (!m) {
      m = metrics(this.stale ? this.pg.snapshot({ messagesPerQueue: 0, sideEffectsSince: Number.MAX_SAFE_INTEGER }) : this.snapshot, t);
      if (atStep) known.set(t, m);
    }
    this.samples.add(m);
  }

  /** Samples taken at steps of this run (its text and journal); any change of either forgets them. */
  knownSamples() {
    const k = this.sampleKey;
    // The journal changes by a new array (a filter, a restore) or a longer one (record's splice).
    if (!k || k.text !== this.text || k.journal !== this.journal || k.actions !== this.journal.length) {
      this.sampleKey = { text: this.text, journal: this.journal, actions: this.journal.length, byTime: new Map() };
    }
    return this.sampleKey.byTime;
  }

  /** The events read since the last take() and the ids that left in them. */
  take() {
    const out = { events: this.batch, leftNow: this.leftNow };
    this.batch = [];
    this.leftNow = [];
    return out;
  }

  /** Advances to `target` in one go (see advanceChunk), making every action due there. */
  advanceTo(target) {
    this.yielded = false;
    while ((this.now < target || this.pending > 0) && !this.halted && !this.yielded) this.advanceChunk(target);
    return this.now;
  }

  /** Journal actions due by now and not yet made: a chunk makes at most ACTIONS_PER_CHUNK, and leaves the rest for the next. */
  get pending() {
    return this.pg ? actionsUntil(this.journal, this.now) - this.made : 0;
  }

  /** Estimated units of work from now to `to`: the engine's, and the journal's actions not yet made (journalWork). */
  workEstimate(to) {
    return this.pg.workEstimate(to) + journalWork(this.journal, to, this.made);
  }

  /**
   * Advances toward `to`, stopping at the chart's sampling moments and at
   * the moments of journal actions not yet made in this engine (so a
   * replay, or playing on after a scrub back, makes them again), and at a
   * checkpoint it halts at (`halted`). A sampling moment whose sample this
   * run already holds (a replay of moments it has shown) is not stopped
   * at: its sample is added from what is known, so a replay moves the
   * engine in a few long steps instead of 300 short ones (each a call
   * into the engine and a read of its events: ten times the engine's own
   * work). Returns the moment reached; throws if the engine's clock does
   * not move, rather than spinning. The slicer calls it with chunks of
   * virtual time. It makes at most ACTIONS_PER_CHUNK journal actions and
   * stops where that runs out (`pending` says how many are left there):
   * a link's 40,002 actions at one moment take many chunks, and the
   * browser gets its turn between slices of them.
   */
  advanceChunk(to) {
    const pg = this.pg;
    let left = ACTIONS_PER_CHUNK;
    left -= this.makeDue(left);
    while (pg.now() < to && !this.halted && !this.yielded && this.pending === 0) {
      const now = pg.now();
      const until = Math.min(to, this.nextUnknownStep(now, to), this.journal[this.made]?.t ?? Infinity);
      pg.advance(until - now);
      if (pg.now() <= now) throw new Error(`The simulation's clock cannot move past ${now} ms.`);
      // Short of `until` and not at a checkpoint: the engine paused where it handed an
      // invocation to your code. Playing (not replaying), this frame's work ends here.
      if (pg.now() < until && !this.replaying) this.yielded = true;
      this.collect();
      this.sampleStepsPassed(now);
      left -= this.makeDue(left);
    }
    if (pg.now() >= this.duration && this.pending === 0) this.sample();
    return pg.now();
  }

  /** The first sampling moment after `now` whose sample is not known yet (or `to`, if all before it are). */
  nextUnknownStep(now, to) {
    if (!this.samples) return Infinity;
    const known = this.knownSamples();
    let at = this.samples.nextAt(now);
    while (at < to && known.has(at)) at += this.samples.step;
    return at;
  }

  /** Adds the samples of the sampling moments in (from, now]: the known ones as known, now's taken if new. */
  sampleStepsPassed(from) {
    if (!this.samples) return;
    const known = this.knownSamples();
    const now = this.now;
    for (let at = this.samples.nextAt(from); at < now; at += this.samples.step) {
      const m = known.get(at); // always known: nextUnknownStep stopped the engine at the first that was not
      if (m) this.samples.add(m);
    }
    if (now % this.samples.step === 0) this.sample({ atStep: true });
  }

  /** Makes up to `most` of the journal's actions that are due now and not yet made in this engine; returns how many it made. */
  makeDue(most = Infinity) {
    const pg = this.pg;
    let made = 0;
    while (made < most && this.made < this.journal.length && this.journal[this.made].t <= pg.now()) {
      const a = this.journal[this.made++];
      try {
        pg.dispatch(...request(a), callOptions(a));
      } catch {
        // Refused before the engine acted (a link's principal that is no
        // principal): the run recorded never made it either.
      }
      this.collect();
      made++;
    }
    return made;
  }

  /** Advances to the next moment anything is due (or 1 ms, or the end). */
  step() {
    const now = this.now;
    let next = this.pg.nextEventTime();
    if (next == null || next > this.duration) next = this.duration;
    if (next <= now) next = Math.min(this.duration, now + 1);
    this.advanceTo(next);
  }

  /**
   * True once, when the run has reached its end. Time stops there, so a
   * long poll still waiting can never be answered: after answers due at
   * this very moment settle, waiting requests fail.
   */
  markEnded() {
    if (this.now < this.duration || this.ended || this.live) return false;
    this.ended = true;
    this.failWaiting();
    return true;
  }

  /** The run is at its end: requests still waiting fail, once answers due at this very moment have settled. */
  failWaiting() {
    const pg = this.pg;
    setTimeout(() => {
      if (this.pg !== pg || this.waiting.size === 0) return;
      for (const reject of this.waiting) reject(new Error(`The run ended at ${(this.duration / 1000).toFixed(1)} s while this request was waiting; press Restart and send it again.`));
      this.waiting.clear();
    });
  }

  /**
   * Sends a request into the engine as `caller` (made as `principal`, with
   * `sourceArn` and `sourceAccount`, when given). Once it succeeds it is
   * recorded, so replays make it again at this moment; a new action after
   * scrubbing back replaces what you did later. What is recorded is the
   * engine's own record of the call (its journal: `{ t, op, body, caller }`
   * and who it was made as, the shape a share link carries). Resolves to
   * the engine's raw response { status, headers, body (JSON text) };
   * rejects if the run is replaced while a long poll waits.
   * @param {string} target @param {string} bodyText
   * @param {{ caller?: string | null, principal?: string, sourceArn?: string, sourceAccount?: string }} [options]
   */
  dispatch(target, bodyText, { caller, ...who } = {}) {
    // Unnamed, your call is "you"'s; a call made as another principal is named by it.
    caller ??= who.principal == null ? "you" : undefined;
    if (!this.pg) return Promise.reject(new Error("The playground has no scenario loaded yet."));
    // Actions due now that a replay stopped short of (a cancel between its chunks) come first, as they did in the run recorded.
    this.makeDue();
    const now = this.pg.now();
    this.journal = this.journal.filter((a) => a.t <= now);
    this.made = Math.min(this.made, this.journal.length);
    const answer = new Promise((resolve, reject) => {
      this.waiting.add(reject);
      this.pg.dispatch(target, bodyText, callOptions({ caller, ...who })).then(
        (res) => {
          this.waiting.delete(reject);
          resolve(res);
        },
        (e) => {
          this.waiting.delete(reject);
          reject(e);
        },
      );
    });
    const call = this.lastCall();
    return answer.then((res) => {
      // A refused call (bad JSON, an SQS error) is in the engine's journal, but not among your actions to replay.
      if (res.status < 400 && call) this.record(call);
      return res;
    });
  }

  /**
   * The engine's record of the call just dispatched: the last of its
   * journal's calls, read from where this run last read (`journalRead`,
   * so each call is read once); undefined once the journal is past its
   * budget (limits().maxJournalCalls), since every later call then goes
   * unrecorded.
   */
  lastCall() {
    const j = this.pg.journal(this.journalRead);
    this.journalRead = j.recorded;
    return j.unrecorded > 0 ? undefined : j.calls[j.calls.length - 1];
  }

  /**
   * Records a successful request (the engine's journal call: `{ t, op, body,
   * caller }` and, made as another principal, `principal`, `sourceArn`,
   * `sourceAccount`), keeping the journal in time order.
   */
  record(call) {
    const { t, op, body } = call;
    let i = this.journal.length;
    while (i > 0 && this.journal[i - 1].t > t) i--;
    this.journal.splice(i, 0, { t, op, body, ...callOptions(call) });
    this.made = this.journal.length; // every action up to now happened in this engine, this one included
  }
}

/**
 * The target and body text of a journal's call, as it was dispatched: an
 * SQS operation's name is its target's end (`SendMessage`); an SNS, S3 or
 * CloudWatch call's `op` is its whole target (`AmazonSNS.Publish`,
 * `AmazonS3.PutObject`, `GraniteServiceVersion20100801.PutMetricData`, your
 * code's answer to a Lambda invocation `Lambda.InvocationResponse`, or
 * `AmazonSNS` with the query protocol's form body, kept as the text it was).
 */
function request({ op, body }) {
  if (op === "AmazonSNS") return [op, String(body)];
  const neighbour = /^(AmazonSNS|AmazonS3|GraniteServiceVersion20100801|Lambda)\./.test(op);
  return [neighbour ? op : `AmazonSQS.${op}`, JSON.stringify(body)];
}

/**
 * The run's side-effect ledger, kept across snapshots: each snapshot lists
 * only the entries changed since the previous one (`sideEffectsSince`), so
 * a long run does not hand its whole ledger over every frame. The merged
 * list is the engine's, in its order (new entries arrive in the order they
 * first happened; a Map keeps a known entry where it was), and stays the
 * same array while nothing changed, so views can skip their work.
 */
class SideEffects {
  constructor() {
    this.byId = new Map();
    this.list = [];
    this.since = 0; // the event number the next snapshot asks from
  }

  /** Puts the snapshot's changed entries in, and the whole list in their place; returns the snapshot. */
  merge(snap) {
    const changed = snap.simulation.sideEffects;
    if (changed.length) {
      for (const s of changed) this.byId.set(s.messageId, s);
      this.list = [...this.byId.values()];
    }
    this.since = snap.nextEventSeq;
    snap.simulation.sideEffects = this.list;
    return snap;
  }
}
