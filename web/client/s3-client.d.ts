// Types for s3-client.js: a small S3 client with the AWS SDK v3's command
// names. Member names follow @aws-sdk/client-s3; an object's Body is text.

// The command classes, `commands`, `OPERATIONS`, `OperationName` and the
// client's camelCase methods are generated from the simulation's list of
// S3 operations (s3-commands.d.ts); each operation's Input and Output are here.
export * from "./s3-commands.js";
import type { S3ClientMethods } from "./s3-commands.js";
import type { AwsError, ServiceClient } from "./service-client.js";
import type { SqsEndpoint, DispatchWho, ResponseMetadata, EmptyOutput } from "./sqs-client.js";
export type { MetadataBearer } from "./sqs-client.js";

export interface CreateBucketInput { Bucket: string; CreateBucketConfiguration?: { LocationConstraint?: string } }
export interface CreateBucketOutput { Location?: string }

export interface QueueConfiguration {
  Id?: string;
  /** The queue's ARN. */
  QueueArn: string;
  /** "s3:ObjectCreated:*", "s3:ObjectCreated:Put", "s3:ObjectRemoved:*", … */
  Events: string[];
  Filter?: { Key?: { FilterRules?: { Name: "prefix" | "suffix" | "Prefix" | "Suffix"; Value: string }[] } };
}
export interface PutBucketNotificationConfigurationInput {
  Bucket: string;
  NotificationConfiguration: { QueueConfigurations?: QueueConfiguration[] };
}
export type PutBucketNotificationConfigurationOutput = EmptyOutput;

export interface PutObjectInput { Bucket: string; Key: string; Body?: string | Uint8Array; ContentType?: string }
export interface PutObjectOutput { ETag?: string }
export interface GetObjectInput { Bucket: string; Key: string }
export interface GetObjectOutput { Body?: string; ContentLength?: number; ContentType?: string; ETag?: string; LastModified?: string }
export interface DeleteObjectInput { Bucket: string; Key: string }
export type DeleteObjectOutput = EmptyOutput;
export interface ListObjectsV2Input { Bucket: string; Prefix?: string; MaxKeys?: number; ContinuationToken?: string; StartAfter?: string }
export interface ListObjectsV2Output {
  Name?: string;
  Prefix?: string;
  MaxKeys?: number;
  KeyCount?: number;
  IsTruncated?: boolean;
  Contents?: { Key?: string; Size?: number; ETag?: string; LastModified?: string; StorageClass?: string }[];
  NextContinuationToken?: string;
}

/** An S3 error answer: `e.name` is S3's code ("NoSuchKey", "NoSuchBucket"). */
export declare class S3Error extends AwsError {
  static fromResponse(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string },
    $metadata: ResponseMetadata,
  ): S3Error;
}

export interface S3ClientOptions extends DispatchWho {}

export declare class S3Client extends ServiceClient {
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: S3ClientOptions);
}

/** The camelCase methods, one per operation (generated: s3-commands.d.ts). */
export interface S3Client extends S3ClientMethods {}
