// One step from the engine's data to what the views draw: a snapshot, the
// events read since the last one and the facts remembered from earlier
// events (history.js) become one `derived` record. Every fact the page
// infers from the engine is inferred here, once: who holds a message (and
// so whether two consumers hold it at once), which queue is a dead-letter
// queue and of whom, the order of the stage rows and the chart's metrics.
// Views read this record and never look into the snapshot for such facts.
// No DOM here: tests/node/derive.test.mjs runs it on a real engine run.

/**
 * The stage draws at most this many messages of each queue: its first ones,
 * in queue order (a cell of more than about 40 already shows only ids, and
 * a lane of hundreds is a wall). run.js asks the engine for exactly this
 * window (`snapshot({ messagesPerQueue })`), so a queue of a million
 * messages costs a frame what a queue of 200 does. The engine also holds a
 * window to a byte budget (`limits().snapshotWindowBytes`, 1 MiB, the rest
 * counted in `messagesOmitted`) and a listed message's `body` to its first
 * KiB (`bodyBytes`, `bodyTruncated`): the peek asks `peek()` for the whole.
 */
export const STAGE_WINDOW = 200;

/**
 * A queue's messages that its snapshot left out of the window, per lane
 * (the lane's count minus the messages listed in it), or null when the
 * snapshot lists them all: the stage's "+ N more" marks.
 */
export function notDrawn(q) {
  if (!q.messagesOmitted) return null;
  const out = { delayed: q.delayed, visible: q.visible, "in-flight": q.inFlight };
  for (const m of q.messages) out[m.state]--;
  return out;
}

/**
 * Each dead-letter queue and its source, as the engine's snapshot says it
 * (`deadLetterSources`: the queues whose redrive policy names it).
 * Returns DLQ ARN -> source queue (the last source listed, if several).
 */
export function deadLetterSources(snap) {
  const byName = new Map(snap.queues.map((q) => [q.name, q]));
  const sources = new Map();
  for (const q of snap.queues) {
    const source = byName.get(q.deadLetterSources.at(-1));
    if (source) sources.set(q.arn, source);
  }
  return sources;
}

/**
 * Who holds each message now: message id -> consumer names, one entry per
 * copy a consumer still works on (a copy it is done with is not held).
 * The page's duplicate rule, in this one place: the engine's fact is wider
 * (a message's `holders` in the snapshot: every consumer that received it,
 * even one long done with it), and the banner's "held by both at the same
 * time" narrows it to the simulated workers still processing it.
 */
export function holdersOf(snap) {
  const holders = new Map();
  for (const w of snap.simulation.workers) {
    for (const x of w.holding) {
      if (x.done) continue;
      const list = holders.get(x.messageId);
      if (list) list.push(w.name);
      else holders.set(x.messageId, [w.name]);
    }
  }
  return holders;
}

/**
 * The one duplicate-holder rule: the consumers other than `name` that hold
 * message `id` at this moment. Any at all means a duplicate delivery.
 */
export function othersHolding(holders, id, name) {
  return (holders.get(id) ?? []).filter((n) => n !== name);
}

/**
 * Consumers holding messages by hand (not simulated workers: you, your
 * code, a page script, an SDK's callers): name -> { queue, holding } in the
 * shape of a worker's `holding`, from each stored message's holders (the
 * engine's: every caller that received it, the current one last). An
 * earlier holder received it before its visibility timeout ran out and has
 * not deleted it: it may still be working on it (a duplicate delivery), so
 * it holds the message too, with no receive count of its own (`null`: the
 * engine keeps the current one's) and no visibility window.
 */
export function handHolders(snap) {
  // A Lambda function's pollers hold its batches: drawn with the function (lambdasOf), not as a hand.
  const workers = new Set([...snap.simulation.workers, ...(snap.simulation.lambdas ?? [])].map((w) => w.name));
  const hands = new Map();
  for (const q of snap.queues) {
    for (const m of q.messages) {
      for (const name of m.holders ?? (m.holder ? [m.holder] : [])) {
        if (workers.has(name)) continue;
        const current = name === m.holder;
        if (!hands.has(name)) hands.set(name, { queue: q.name, holding: [] });
        hands.get(name).holding.push({ messageId: m.messageId, body: m.body, receiveCount: current ? m.receiveCount : null, current: false, done: false, failed: false, visibleAt: current ? m.visibleAt : null });
      }
    }
  }
  return hands;
}

/** `holders` (holdersOf's) with each hand's messages added: a message two hands hold is a duplicate delivery too. */
function withHands(holders, hands) {
  for (const [name, { holding }] of hands) {
    for (const { messageId } of holding) {
      const list = holders.get(messageId);
      if (!list) holders.set(messageId, [name]);
      else if (!list.includes(name)) list.push(name);
    }
  }
  return holders;
}

/**
 * The producers to draw, each { name, queue, spec (null when sending by
 * hand), sent, dropped (by FIFO deduplication), refused (sends SQS
 * refused: throttled, too large; the log says why), last ({ at, id, dropped? }) }:
 * the scenario's producers and schedules, then anyone else who sent (a
 * requester or responder keeps its spec: it is no sender by hand), on
 * queues that exist. The scenario's senders are counted by the engine (the
 * snapshot's `producers`); one sending by hand, which the simulation does
 * not know, by the run's events (history.js). A scenario's bucket or topic
 * is no producer: each is drawn apart (bucketsOf, views/stage/topics.js).
 */
export function producersOf(snap, scenario, facts) {
  const exists = (queue) => snap.queues.some((q) => q.name === queue);
  const senders = [scenario.producers, scenario.schedule, scenario.requesters, scenario.responders];
  const specs = new Map(senders.flatMap((list) => list ?? []).map((s) => [s.name, s]));
  const counted = new Map(snap.simulation.producers.map((p) => [p.name, p]));
  const out = [...counted.values()].filter((p) => exists(p.queue)).map((p) => ({ name: p.name, queue: p.queue, spec: specs.get(p.name) ?? null, sent: p.sent, dropped: p.deduplicated, refused: p.failed, last: facts.lastSend.get(p.name) }));
  // A bucket's notifications and a topic's deliveries are drawn with the
  // bucket (bucketsOf) and the topic (views/stage/topics.js), not as sends by hand.
  const neighbours = new Set([...(snap.simulation.buckets ?? []), ...(snap.simulation.topics ?? [])].map((b) => b.name));
  for (const [name, last] of facts.lastSend) {
    const queue = facts.queueOf.get(last.id);
    if (!counted.has(name) && !neighbours.has(name) && queue && exists(queue)) out.push({ name, queue, spec: specs.get(name) ?? null, sent: facts.sentBy.get(name) ?? 0, dropped: facts.dropped.get(name) ?? 0, refused: 0, last });
  }
  return out;
}

/**
 * The scenario's S3 buckets as the stage draws them: each with one arrow
 * per queue configuration (its queue, its filter in words, the
 * notifications the queue took and lost), broken with the reason when S3
 * refused the bucket's configuration (its words, the queue's answer) or
 * the queue refused a notification (SQS's code and words, the latest).
 */
export function bucketsOf(snap) {
  return (snap.simulation.buckets ?? []).map((b) => ({
    name: b.name,
    configuration: b.configuration,
    objects: b.objects,
    puts: b.puts,
    deletes: b.deletes,
    recentKeys: b.recentKeys,
    arrows: b.notifications.map((n) => ({
      queue: n.queue,
      events: n.events.join(", "),
      filter: [n.prefix == null ? null : `prefix ${n.prefix}`, n.suffix == null ? null : `suffix ${n.suffix}`].filter(Boolean).join(", "),
      sent: n.sent,
      lost: n.failed,
      broken: b.configuration === "failed" ? b.configurationError ?? "S3 refused the configuration" : n.failed > 0 ? n.lastError ?? "refused" : null,
    })),
  }));
}

const NO_LAMBDAS = Object.freeze([]);

/**
 * The scenario's Lambda functions as the stage draws them, each with its
 * mapping's settings as the scenario wrote them (null where it left one to
 * Lambda's default: the page holds no copy of those), the snapshot's
 * state, pollers, concurrency and counts, its running invocations (each
 * batch's messages with their labels), its latest ends and throttles from
 * the events (newest first, each message marked `back` when it returns to
 * the queue) and Lambda's refusal of its mapping. No lambdas: the same
 * empty list every time, so a view can skip its work.
 */
export function lambdasOf(snap, scenario, facts) {
  const all = snap.simulation.lambdas ?? [];
  if (all.length === 0) return NO_LAMBDAS;
  const specs = new Map((scenario.lambdas ?? []).map((l) => [l.name, l]));
  const message = (id) => ({ id, label: facts.label(id) ?? "" });
  return all.map((l) => {
    const spec = specs.get(l.name) ?? {};
    return {
      name: l.name,
      queue: l.queue,
      state: l.state,
      batchSize: spec.batchSize ?? null,
      windowSeconds: spec.maximumBatchingWindowInSeconds ?? null,
      reportsItemFailures: (spec.functionResponseTypes ?? []).includes("ReportBatchItemFailures"),
      maximumConcurrency: spec.maximumConcurrency ?? null,
      reservedConcurrency: spec.reservedConcurrency ?? null,
      pollers: l.pollers,
      concurrency: l.concurrency,
      invocations: l.invocations,
      errors: l.errors,
      throttles: l.throttles,
      running: l.running.map((r) => ({ invocation: r.invocation, size: r.size, startedAt: r.startedAt, endsAt: r.endsAt, awaiting: r.awaiting, messages: r.messages.map(message) })),
      /** Invocations running past the snapshot's list (it lists the first 100). */
      runningNotListed: Math.max(0, l.concurrency - l.running.length),
      ended: (facts.lambdaEnds.get(l.name) ?? []).map((e) => {
        const back = new Set(e.failed);
        return { ...e, messages: e.ids.map((id) => ({ ...message(id), back: back.has(id) })) };
      }).reverse(),
      refused: facts.mappingRefused.get(l.name) ?? null,
    };
  });
}

/** The metrics of one moment (the chart's series): counts outside and inside dead-letter queues, and the oldest message's age. */
export function metrics(snap, now, sources = deadLetterSources(snap)) {
  const m = { t: now, visible: 0, inFlight: 0, delayed: 0, dlq: 0, age: 0 };
  for (const q of snap.queues) {
    if (sources.has(q.arn)) {
      m.dlq += q.visible + q.inFlight + q.delayed;
      continue;
    }
    m.visible += q.visible;
    m.inFlight += q.inFlight;
    m.delayed += q.delayed;
    if (q.oldestEnqueuedAt != null) m.age = Math.max(m.age, (now - q.oldestEnqueuedAt) / 1000);
  }
  return m;
}

/** The stage's rows, top to bottom: each queue in the scenario's order, each source queue followed by its dead-letter queue. */
export function stageOrder(snap, scenarioOrder, sources) {
  const byName = new Map(snap.queues.map((q) => [q.name, q]));
  const rank = (q) => {
    const i = scenarioOrder.indexOf(q.name);
    return i < 0 ? 1e6 : i;
  };
  const sorted = [...snap.queues].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : 1));
  const names = [];
  const put = (q) => {
    if (names.includes(q.name)) return;
    names.push(q.name);
    const d = q.deadLetterQueue && byName.get(q.deadLetterQueue);
    if (d) put(d);
  };
  for (const q of sorted) if (!sources.has(q.arn)) put(q);
  for (const q of sorted) put(q);
  return names;
}

/**
 * What the views draw after new events: `snap` and `now` from the engine,
 * `events` read since the last derive, `facts` (a History that has already
 * taken those events), `leftNow` (ids that left in them, oldest first) and
 * the scenario running.
 */
const byIdOf = new WeakMap(); // a side-effect list (the same array while nothing changed, run.js) -> its Map

/** Message id -> its side effect, made once per list. */
function sideEffectsById(list) {
  let byId = byIdOf.get(list);
  if (!byId) byIdOf.set(list, (byId = new Map(list.map((s) => [s.messageId, s]))));
  return byId;
}

export function derive({ snap, now, events, facts, leftNow, scenario }) {
  const sources = deadLetterSources(snap);
  const hands = handHolders(snap);
  const holders = withHands(holdersOf(snap), hands);
  const since = new Map(); // message id -> when its current invisibility began, as the snapshot says
  for (const q of snap.queues) for (const m of q.messages) if (m.inFlightSince != null) since.set(m.messageId, m.inFlightSince);
  const sourceOf = new Map(); // queue name -> the queue it is the dead-letter queue of
  for (const q of snap.queues) if (sources.has(q.arn)) sourceOf.set(q.name, sources.get(q.arn));
  return {
    snap,
    now,
    events,
    facts,
    leftNow,
    scenario,
    holders,
    /** Messages two or more consumers hold at once: [id, names]. */
    duplicates: [...holders].filter(([, names]) => names.length > 1),
    othersHolding: (id, name) => othersHolding(holders, id, name),
    sourceOf,
    handHolders: hands,
    producers: producersOf(snap, scenario, facts),
    buckets: bucketsOf(snap),
    lambdas: lambdasOf(snap, scenario, facts),
    /** When message `id`'s current invisibility began (a receive or a visibility change): the snapshot's `inFlightSince`. */
    inFlightSince: (id) => since.get(id),
    order: stageOrder(snap, scenario.queues.map((q) => q.name), sources),
    fx: sideEffectsById(snap.simulation.sideEffects),
    /** Queue name -> messages per lane the stage does not draw (notDrawn), for queues past the window. */
    notDrawn: new Map(snap.queues.map((q) => [q.name, notDrawn(q)]).filter(([, n]) => n)),
    metrics: metrics(snap, now, sources),
    sources,
    /** For log sentences: a message's label, a queue's maxReceiveCount. */
    label: (id) => facts.label(id),
    maxReceive: (queue) => snap.queues.find((q) => q.name === queue)?.maxReceiveCount,
  };
}

/** The same record at a later moment with no new events: only time-dependent facts change. */
export function retime(d, now) {
  return { ...d, now, events: [], leftNow: [], metrics: metrics(d.snap, now, d.sources) };
}
