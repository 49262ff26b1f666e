// Types for sdk.js: a request handler that sends @aws-sdk/client-sqs (v3)
// commands into a Queuelab engine. Declared structurally, so they need
// neither the SDK's types nor the wasm build to resolve.

import type { SqsEndpoint } from "./sqs-client.js";

/** What the handler needs from an engine (the same as the built-in client's); a Playground has it. */
export type QueuelabEndpoint = SqsEndpoint;

/** An engine, or a function returning the engine to use for each request. */
export type QueuelabTarget = QueuelabEndpoint | (() => QueuelabEndpoint);

export interface QueuelabHandlerOptions {
  /** Who the event log names as making the calls ("worker-1"); without it, the principal's own words. */
  caller?: string;
  /**
   * Who every call is made as: an account id ("111111111111"), an IAM ARN
   * or a service principal. Without it, the account the client's access
   * key names (`accountOfAccessKey`), else the queues' own account.
   */
  principal?: string;
}

/**
 * The account an access key id stands for: twelve digits at its start or
 * right after `AKIA` / `ASIA` ("AKIA111111111111" → "111111111111"); null
 * for any other key (the queues' own account).
 */
export function accountOfAccessKey(accessKeyId: unknown): string | null;

/** The parts of the SDK's HttpRequest the handler reads. */
export interface QueuelabHttpRequest {
  /** `x-amz-target` (any case) names the operation. */
  headers: Record<string, string>;
  /** The JSON request text, as a string or UTF-8 bytes. */
  body?: string | Uint8Array | ArrayBuffer | ArrayBufferView | null;
}

/** Matches the SDK's HttpResponse (checked by shape, not class). */
export interface QueuelabHttpResponse {
  statusCode: number;
  reason?: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** UTF-8 JSON, already collected. */
  body: Uint8Array;
}

/** A DOM AbortSignal, or the SDK's own minimal one (`aborted` + `onabort`). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  // `Function` because the SDK types its deprecated signal's handler so.
  onabort?: Function | ((this: any, ev: any) => any) | null;
  addEventListener?(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener?(type: "abort", listener: () => void): void;
}

/** The request handler interface of @smithy's HTTP handlers. */
export interface QueuelabRequestHandler {
  readonly metadata: { handlerProtocol: string };
  /**
   * Dispatches the request to the engine. Resolves when the engine answers
   * (a long poll: when virtual time reaches a message or its wait ends).
   * Rejects with an Error named "AbortError" if `abortSignal` is aborted
   * before or while waiting; the engine still answers a long poll that was
   * already waiting.
   */
  handle(
    request: QueuelabHttpRequest,
    options?: { abortSignal?: AbortSignalLike },
  ): Promise<{ response: QueuelabHttpResponse }>;
  /** Kept for httpHandlerConfigs; nothing to configure (no requestTimeout: time is virtual). */
  updateHttpClientConfig(key: string | symbol, value: unknown): void;
  httpHandlerConfigs(): Record<string | symbol, unknown>;
  destroy(): void;
}

/**
 * A `requestHandler` for `new SQSClient({ region, credentials, requestHandler })`.
 * Throws a TypeError when `target` is neither an engine nor a function.
 */
export function queuelabHandler(target: QueuelabTarget, options?: QueuelabHandlerOptions): QueuelabRequestHandler;
