// A small S3 client with the AWS SDK v3's command names, for the code cell
// and pages that do not load the SDK: buckets, their notification
// configuration, and objects, against the run's engine.
//
//   const s3 = new S3Client(playground);
//   await s3.createBucket({ Bucket: "photos" });
//   await s3.putBucketNotificationConfiguration({ Bucket: "photos", NotificationConfiguration: {
//     QueueConfigurations: [{ QueueArn, Events: ["s3:ObjectCreated:*"] }] } });
//   await s3.send(new PutObjectCommand({ Bucket: "photos", Key: "cat.jpg", Body: "meow" }));
//
// It only carries requests (as JSON, target `AmazonS3.<Operation>`): every
// rule is the engine's buckets', which answer with S3's own error codes.
// Unlike the SDK's, an object's Body is text both ways (a Uint8Array put is
// read as UTF-8), and GetObject's Body is that text, not a stream.
// Plain ES module, no dependencies.

import { commands } from "./s3-commands.js";
import { AwsError, ServiceClient, addMethods } from "./service-client.js";

export * from "./s3-commands.js";

/** An S3 error answer: its name is S3's code (NoSuchKey, NoSuchBucket), as @aws-sdk/client-s3 names it. */
export class S3Error extends AwsError {
  static fromResponse(res, data, $metadata) {
    return new S3Error(AwsError.fields(res, data, $metadata, (shape) => shape));
  }
}

const S3 = {
  name: "S3Client",
  module: "s3-client.js",
  sdk: "@aws-sdk/client-s3",
  sdkClient: "S3Client",
  example: "new PutObjectCommand({ Bucket, Key, Body })",
  prefix: "AmazonS3.",
  commands,
  error: S3Error.fromResponse,
  replacer: (key, value) => (key === "Body" && value instanceof Uint8Array ? new TextDecoder().decode(value) : value),
};

export class S3Client extends ServiceClient {
  /**
   * @param {object | (() => object)} target a Playground, any object with
   *   `dispatch(target, body, options)`, or a function returning one.
   * @param {{ caller?: string, principal?: string }} [options] `caller`:
   *   who the event log names; `principal`: who calls (the buckets take
   *   calls from their own account only).
   */
  constructor(target, options = {}) {
    super(target, options, S3);
  }
}

addMethods(S3Client, commands);
