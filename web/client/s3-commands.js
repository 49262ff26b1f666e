// Generated from the simulation's S3 operations (s3/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

/** Base of the command classes (service-client.js): `input` is kept as given, as the SDK does. */
import { Command } from "./service-client.js";

export { Command };

// One class per operation, named as in @aws-sdk/client-s3 so that swapping
// the import is all it takes to move to the SDK.
export class CreateBucketCommand extends Command { static operation = "CreateBucket"; }
export class DeleteObjectCommand extends Command { static operation = "DeleteObject"; }
export class GetObjectCommand extends Command { static operation = "GetObject"; }
export class ListObjectsV2Command extends Command { static operation = "ListObjectsV2"; }
export class PutBucketNotificationConfigurationCommand extends Command { static operation = "PutBucketNotificationConfiguration"; }
export class PutObjectCommand extends Command { static operation = "PutObject"; }

/** Operation name ("PutObject") -> command class (PutObjectCommand). */
export const commands = Object.freeze({
  CreateBucket: CreateBucketCommand,
  DeleteObject: DeleteObjectCommand,
  GetObject: GetObjectCommand,
  ListObjectsV2: ListObjectsV2Command,
  PutBucketNotificationConfiguration: PutBucketNotificationConfigurationCommand,
  PutObject: PutObjectCommand,
});

/** The 6 S3 operations the engine answers, in alphabetical order. */
export const OPERATIONS = Object.freeze(Object.keys(commands));
