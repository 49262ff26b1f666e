// Generated from the simulation's S3 operations (s3/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

import type {
  MetadataBearer,
  CreateBucketInput,
  CreateBucketOutput,
  DeleteObjectInput,
  DeleteObjectOutput,
  GetObjectInput,
  GetObjectOutput,
  ListObjectsV2Input,
  ListObjectsV2Output,
  PutBucketNotificationConfigurationInput,
  PutBucketNotificationConfigurationOutput,
  PutObjectInput,
  PutObjectOutput,
} from "./s3-client.js";

export type OperationName =
  | "CreateBucket"
  | "DeleteObject"
  | "GetObject"
  | "ListObjectsV2"
  | "PutBucketNotificationConfiguration"
  | "PutObject"
;

/** The 6 operations, in alphabetical order. */
export declare const OPERATIONS: readonly OperationName[];

import type { Command, InputArgs } from "./service-client.js";
export type { Command, InputArgs } from "./service-client.js";

export declare class CreateBucketCommand extends Command<CreateBucketInput, CreateBucketOutput> { static readonly operation: "CreateBucket" }
export declare class DeleteObjectCommand extends Command<DeleteObjectInput, DeleteObjectOutput> { static readonly operation: "DeleteObject" }
export declare class GetObjectCommand extends Command<GetObjectInput, GetObjectOutput> { static readonly operation: "GetObject" }
export declare class ListObjectsV2Command extends Command<ListObjectsV2Input, ListObjectsV2Output> { static readonly operation: "ListObjectsV2" }
export declare class PutBucketNotificationConfigurationCommand extends Command<PutBucketNotificationConfigurationInput, PutBucketNotificationConfigurationOutput> { static readonly operation: "PutBucketNotificationConfiguration" }
export declare class PutObjectCommand extends Command<PutObjectInput, PutObjectOutput> { static readonly operation: "PutObject" }

/** Operation name -> command class: `new commands.PutObject(input)`. */
export declare const commands: {
  readonly CreateBucket: typeof CreateBucketCommand;
  readonly DeleteObject: typeof DeleteObjectCommand;
  readonly GetObject: typeof GetObjectCommand;
  readonly ListObjectsV2: typeof ListObjectsV2Command;
  readonly PutBucketNotificationConfiguration: typeof PutBucketNotificationConfigurationCommand;
  readonly PutObject: typeof PutObjectCommand;
};

/** One camelCase method per operation: `client.putObject(input)` is `client.send(new PutObjectCommand(input))`. */
export interface S3ClientMethods {
  createBucket(...[input]: InputArgs<CreateBucketInput>): Promise<CreateBucketOutput & MetadataBearer>;
  deleteObject(...[input]: InputArgs<DeleteObjectInput>): Promise<DeleteObjectOutput & MetadataBearer>;
  getObject(...[input]: InputArgs<GetObjectInput>): Promise<GetObjectOutput & MetadataBearer>;
  listObjectsV2(...[input]: InputArgs<ListObjectsV2Input>): Promise<ListObjectsV2Output & MetadataBearer>;
  putBucketNotificationConfiguration(...[input]: InputArgs<PutBucketNotificationConfigurationInput>): Promise<PutBucketNotificationConfigurationOutput & MetadataBearer>;
  putObject(...[input]: InputArgs<PutObjectInput>): Promise<PutObjectOutput & MetadataBearer>;
}
