// Types for queue-lab.js: the <queue-lab> element. Importing the module
// defines the element; these declarations make `document.querySelector("queue-lab")`
// and its events typed.

import type { Playground, QueuelabEvent } from "./pkg/queuelab.js";
import type { SqsClient } from "./sqs-client.js";

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

export interface QueueLabEventMap {
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
  /** The playback controls; null before the element starts. */
  readonly controls: LabControls | null;
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
