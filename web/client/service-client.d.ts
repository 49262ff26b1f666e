// Types for service-client.js: what the built-in SQS, SNS and S3 clients
// share (sqs-client.d.ts, sns-client.d.ts, s3-client.d.ts).

import type { DispatchWho, MetadataBearer, ResponseMetadata, SqsEndpoint } from "./sqs-client.js";

/** Optional input when every member is optional, as in the SDK. */
export type InputArgs<Input> = {} extends Input ? [input?: Input] : [input: Input];

export declare abstract class Command<Input, Output> {
  constructor(...[input]: InputArgs<Input>);
  /** The input as given. */
  readonly input: Input;
  /** Type-level only, never set at run time: lets `send` infer the output type. */
  readonly $output?: Output;
}

/** An AWS error answer, with the fields an SDK v3 exception carries. */
export declare class AwsError extends Error {
  constructor(fields: { name: string; message: string; Code: string; $fault: "client" | "server"; $metadata: ResponseMetadata });
  /** The SDK's name for it (its exception class's name, else the error's code). */
  name: string;
  /** The error's code on the wire. */
  Code: string;
  $fault: "client" | "server";
  $metadata: ResponseMetadata;
  /** An error response's fields; `nameOf(shape, code)` names it as the service's SDK does. */
  static fields(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string; Message?: string },
    $metadata: ResponseMetadata,
    nameOf: (shape: string, code: string) => string,
  ): { name: string; message: string; Code: string; $fault: "client" | "server"; $metadata: ResponseMetadata };
}

/** Which service a client speaks to, and how (sqs-client.js's SQS, …). */
export interface ServiceDescription {
  name: string;
  module: string;
  sdk: string;
  sdkClient: string;
  example: string;
  /** The target's prefix: "AmazonSQS.", "AmazonSNS.", "AmazonS3.". */
  prefix: string;
  commands: Record<string, abstract new (...args: any[]) => Command<any, any>>;
  error(response: { status: number; headers: Record<string, string> }, data: object, $metadata: ResponseMetadata): Error;
  replacer?: (key: string, value: unknown) => unknown;
  reviver?: (key: string, value: unknown) => unknown;
}

/** A built-in client: `send(new XCommand(input))`, and one camelCase method per operation. */
export declare class ServiceClient {
  /**
   * @param target an engine, or a function returning the engine to use (called on every request).
   * @throws TypeError when `target` is neither.
   */
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: DispatchWho, service?: ServiceDescription);
  /**
   * Sends a command of the client's own module. Resolves with the output
   * and `$metadata`; rejects with the service's error class on an error
   * answer, and with a TypeError for anything that is not one of its commands.
   */
  send<Input, Output>(command: Command<Input, Output>): Promise<Output & MetadataBearer>;
}

/** Adds one camelCase method per operation to a client class. */
export declare function addMethods(Client: { prototype: object }, commands: Record<string, abstract new (...args: any[]) => Command<any, any>>): void;

/** A header's value by its name, in any case. */
export declare function header(headers: Record<string, string> | undefined, name: string): string | undefined;
