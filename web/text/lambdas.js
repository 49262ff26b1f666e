// The words of the stage's Lambda functions (views/stage/lambdas.js): a
// mapping's settings as the scenario wrote them, its pollers and
// concurrency, an invocation's time, and the result mark of each end, all
// from derive's `lambdas` record (what the snapshot and the events say).
// No DOM here.

import { unreachable } from "../engine/unreachable.js";
import { counted, secs } from "./format.js";

const STATE = {
  creating: "starting",
  enabled: "polling",
  disabled: "mapping disabled: nothing polls",
  refused: "mapping refused: nothing polls",
};

/** The mapping's state in a few words. */
export const lambdaState = (l) => STATE[l.state] ?? l.state;

/** The mapping's settings, each as the scenario gave it; one it left out is Lambda's default, said so (the page keeps no copy of Lambda's numbers). */
export function lambdaSettings(l) {
  const given = (v, words) => (v == null ? `${words} default` : `${words} ${v}`);
  return [
    given(l.batchSize, "BatchSize"),
    l.windowSeconds == null ? "batching window default" : `batching window ${l.windowSeconds} s`,
    `ReportBatchItemFailures ${l.reportsItemFailures ? "on" : "off"}`,
  ].join(" · ");
}

/**
 * Pollers and concurrency now, against the cap the bar is drawn to: the
 * scenario's MaximumConcurrency, or without one the pollers now (the most
 * batches the mapping hands over at once). `fill` is 0 to 1.
 */
export function lambdaConcurrency(l) {
  const cap = l.maximumConcurrency ?? l.pollers;
  const of = l.maximumConcurrency != null ? ` of MaximumConcurrency ${l.maximumConcurrency}` : " (no MaximumConcurrency set)";
  const reserved = l.reservedConcurrency != null ? ` · reserved concurrency ${l.reservedConcurrency}` : "";
  return {
    text: `${counted(l.pollers, "poller", "pollers")} · ${l.concurrency} running${of}${reserved}`,
    fill: cap > 0 ? Math.min(1, l.concurrency / cap) : 0,
  };
}

/** The function's counts so far. */
export const lambdaCounts = (l) => `${counted(l.invocations, "invocation", "invocations")} · ${counted(l.errors, "error or timeout", "errors or timeouts")} · ${counted(l.throttles, "throttle", "throttles")}`;

/**
 * A running invocation's time: elapsed of its duration, and the bar's fill
 * (0 to 1). While it waits for the learner's code (the code cell's
 * `lambda.attach`), its end is only the function's timeout, the latest it
 * can end: said so.
 */
export function invocationTime(r, now) {
  const total = Math.max(0, r.endsAt - r.startedAt);
  const elapsed = Math.max(0, Math.min(total, now - r.startedAt));
  const text = r.awaiting
    ? `${(elapsed / 1000).toFixed(1)} s · waiting for your code's answer (it times out at ${secs(total)} s)`
    : `${(elapsed / 1000).toFixed(1)} s of ${secs(total)} s`;
  return { text, fill: total > 0 ? elapsed / total : 1 };
}

/**
 * An end's mark ({ icon, words }) for its heading: what the function
 * returned (lambdaReturned's result) or that Lambda throttled the batch,
 * and what Lambda did with the batch.
 * @param {{ kind: "success" | "error" | "timeout" | "partial" | "invalidResponse" | "throttled", failedCount: number, durationMs: number, size: number, why?: string | null, times: number }} e
 * @returns {{ icon: string, words: string }}
 */
export function endMark(e) {
  const back = `${counted(e.failedCount, "message", "messages")} back to the queue`;
  const took = `after ${secs(e.durationMs)} s`;
  switch (e.kind) {
    case "success":
      return { icon: "✓", words: `success ${took}: batch deleted` };
    case "partial":
      return { icon: "◐", words: `partial ${took}: ${back}, the others deleted` };
    case "error":
      return { icon: "✗", words: `error ${took}: ${back}` };
    case "timeout":
      return { icon: "◷", words: `timed out ${took}: ${back}` };
    case "invalidResponse":
      return { icon: "✗", words: `invalid batch response${e.why ? ` (${e.why})` : ""}: ${back}` };
    case "throttled":
      return { icon: "⚠", words: `throttled${e.times > 1 ? ` ${e.times} times` : ""}: no concurrency free; ${counted(e.size, "message stays", "messages stay")} in flight while Lambda retries` };
    default:
      return unreachable(e.kind);
  }
}

/** The line a function leaves in its queue's consumers: who polls the queue, and how many batches it runs now. */
export function lambdaPointer(l) {
  if (l.state !== "enabled") return lambdaState(l);
  return `Lambda polls this queue · ${l.concurrency} running`;
}

/** A message's mark in an ended batch: going back to the queue, waiting in flight (throttled), or deleted. */
export function messageMark(e, m) {
  if (e.kind === "throttled") return "in flight";
  return m.back ? "↩ back" : "✓ deleted";
}

/**
 * The caption of a function's concurrency line: what it plots (Lambda's
 * ConcurrentExecutions per metrics step of `resolutionMs`), its peak
 * against MaximumConcurrency, or why there is no datapoint yet.
 */
export function concurrencyWords({ points, peak, cap, resolutionMs, duration }) {
  const step = `${resolutionMs / 1000} s`;
  if (points > 0) return `Concurrency over time (ConcurrentExecutions, the most running at once in each ${step} step, as CloudWatch keeps it): peak ${peak}${cap != null ? ` of MaximumConcurrency ${cap}` : ""}; no datapoint where nothing ran.`;
  const short = duration < resolutionMs ? `, and this ${secs(duration)} s run is shorter than a step` : "";
  return `Concurrency over time (ConcurrentExecutions): no datapoint yet; CloudWatch keeps one for each ${step} step in which the function ran${short}.`;
}
