// Types for queue-lab.js: the <queue-lab> element. Importing the module
// defines the element; these declarations make `document.querySelector("queue-lab")`
// and its events typed.

import type { CheckFailure, ConditionText, KnobValue, KnobView, Playground, QueuelabEvent } from "./pkg/queuelab.js";
import type { SqsClient, SqsClientOptions } from "./client/sqs-client.js";
import type { SnsClient, SnsClientOptions } from "./client/sns-client.js";
import type { S3Client, S3ClientOptions } from "./client/s3-client.js";
import type { CloudWatchClient, CloudWatchClientOptions } from "./client/cloudwatch-client.js";

/** One engine event as the page's log shows it: { seq, timeMs, type, ... } (generated from the Rust types). */
export type EngineEvent = QueuelabEvent;

/** The playback controls of a started element. */
export interface LabControls {
  togglePlay(): void;
  play(): void;
  pause(): void;
  /** Runs to the next moment anything happens. */
  step(): void;
  /** Starts the scenario again at time 0, without your actions. */
  restart(): void;
  /** Replays to virtual time `t` (ms); `live` is true while a slider drags. */
  scrub(t: number, live?: boolean): void;
  setSpeed(speed: "0.25" | "0.5" | "1" | "2" | "4" | "8" | "16" | "max"): void;
  /** Restarts with another seed; false (and a message in the box) when it is not a whole number. */
  setSeed(seed: number | string): boolean;
  readonly playground: Playground | null;
  readonly scenario: Record<string, unknown> | null;
  readonly playing: boolean;
  readonly speed: string;
}

/** A lab's knob values by knob id: a number, true/false, a choice ("fifo"), or "off". */
export type LabSettings = Record<string, KnobValue>;

/** What Check my fix found: met on every seed, or each failing seed's first breach. */
export interface GoalCheck {
  met: boolean;
  /** One sentence: what held, or how many seeds failed and the first failure. */
  summary: string;
  seeds: number[];
  /** `{ seed, condition, atMs, message, messageId? }`, in seed order. */
  failures: CheckFailure[];
}

/** A lab's goal and settings (`el.lab`, or the full page's `document.getElementById("lab").lab`). */
export interface LabGoal {
  /** The shipped lab's id ("duplicate-orders"), or null for a lab from src= or inline JSON. */
  readonly id: string | null;
  /** The goal's conditions in words, `{ id, text }`. */
  readonly conditions: ConditionText[];
  /** The knobs: kind, range, choices. */
  readonly knobs: KnobView[];
  /**
   * The knob values of the run on screen. Assigning a partial map runs the lab with
   * those values (the others kept); a value outside its knob throws an Error with
   * `path` ("settings.visibility") and `rule` ("a whole number of seconds from 1 to 180").
   */
  settings: LabSettings;
  /**
   * Check my fix over every check seed, in slices (the page keeps answering, with
   * its progress and Cancel shown); fires goal-met or goal-failed. Rejects with an
   * AbortError (a DOMException) when the learner cancels it, and with the engine's
   * Error (`path` "check") for a check past its work budget.
   */
  checkGoal(): Promise<GoalCheck>;
}

export interface QueueLabEventMap {
  /** Check my fix met the lab's goal on every seed: the lab and the settings that solved it. */
  "goal-met": CustomEvent<{ lab: string | null; settings: LabSettings }>;
  /** Check my fix failed: the first failing seed and condition, and every seed's failure. */
  "goal-failed": CustomEvent<{ lab: string | null; settings: LabSettings; seed: number; condition: string; atMs: number; message: string; failures: CheckFailure[] }>;
  /** The engine started and the scenario loaded. */
  "queuelab-ready": CustomEvent<{ playground: Playground; scenario: Record<string, unknown> }>;
  /** One engine event. `replay` is true while the timeline rebuilds a moment (scrub, restart). */
  "queuelab-event": CustomEvent<{ event: EngineEvent; replay: boolean }>;
  /** The run reached the scenario's end (virtual ms). */
  "queuelab-end": CustomEvent<{ time: number }>;
  /**
   * The element could not start (a bad attribute, or a scenario that cannot load or run),
   * or its engine broke while running: then `trap` is true and `during` names the call
   * ("advance", "dispatch", ...). Other elements on the page carry on after a replay.
   */
  "queuelab-error": CustomEvent<{ message: string; trap?: boolean; during?: string }>;
}

export declare class QueueLabElement extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The engine running now (a new one after every replay); null before the element starts and after removal. */
  readonly playground: Playground | null;
  /** A client with the AWS SDK's command names; its requests are recorded so replays repeat them. */
  readonly sqs: SqsClient;
  /**
   * A client like `sqs` with its own options: `el.sqsClient({ principal: "111111111111" })`
   * makes every call as another account (an account id, an IAM ARN, or a
   * service principal with `sourceArn` and `sourceAccount`), named by it in
   * the log unless `caller` names it; without a principal, the queues' own
   * account under `caller` (default "page script"). Recorded like `sqs`'s requests.
   */
  sqsClient(options?: SqsClientOptions): SqsClient;
  /** An SNS client on the run's topics (CreateTopic, Subscribe, Publish, …); recorded like `sqs`'s requests. */
  readonly sns: SnsClient;
  /** A client like `sns` with its own options (`caller`; `principal`: the topics take their own account's calls only). */
  snsClient(options?: SnsClientOptions): SnsClient;
  /** An S3 client on the run's buckets (CreateBucket, PutBucketNotificationConfiguration, PutObject, GetObject, DeleteObject, ListObjectsV2); recorded like `sqs`'s requests. */
  readonly s3: S3Client;
  /** A client like `s3` with its own options (`caller`; `principal`: the buckets take their own account's calls only). */
  s3Client(options?: S3ClientOptions): S3Client;
  /** A CloudWatch client on the run's metrics and alarms (PutMetricData, PutMetricAlarm, DescribeAlarms, DeleteAlarms, ListMetrics); recorded like `sqs`'s requests. */
  readonly cloudwatch: CloudWatchClient;
  /** A client like `cloudwatch` with its own options (`caller`; `principal`: the run's CloudWatch takes its own account's calls only). */
  cloudwatchClient(options?: CloudWatchClientOptions): CloudWatchClient;
  /** The playback controls; null before the element starts. */
  readonly controls: LabControls | null;
  /** A lab's goal, knobs and Check my fix; null before the element starts or when its scenario has no goal. */
  readonly lab: LabGoal | null;
  /**
   * Builds the playground again from its attributes and source: retries after an error
   * (a scenario file that could not be fetched, say), or starts a running one over with a
   * new engine (the old one is freed). Any attribute change after an error also retries.
   */
  reload(): void;
  addEventListener<K extends keyof QueueLabEventMap>(type: K, listener: (this: QueueLabElement, ev: QueueLabEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof QueueLabEventMap>(type: K, listener: (this: QueueLabElement, ev: QueueLabEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "queue-lab": QueueLabElement;
  }
}
