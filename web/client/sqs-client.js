// A small SQS client with the AWS SDK v3's command names and shapes, for
// pages that do not load the SDK. Learner code written against it reads
// like SDK code and moves to @aws-sdk/client-sqs unchanged:
//
//   const sqs = new SqsClient(playground, { caller: "worker-1" });   // add principal: "111111111111" to act as another account
//   const { Messages = [] } = await sqs.receiveMessage({ QueueUrl, WaitTimeSeconds: 20 });
//   await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle }));
//
// It only carries requests: every rule (required members, ranges, names)
// is the engine's, which answers with SQS's own error codes. Plain ES module,
// no dependencies: it runs in browsers and in Node.

// The command classes (one per operation, named as in @aws-sdk/client-sqs),
// `commands` and `OPERATIONS` are generated from the engine's list of
// operations into sqs-commands.js, and exported from here.
import { commands } from "./sqs-commands.js";
import { AwsError, ServiceClient, addMethods } from "./service-client.js";

export * from "./sqs-commands.js";

// SQS's modelled error shapes: the SDK raises one of these classes when the
// query code maps to it, and otherwise names the error by its query code
// (so InvalidParameterValueException on the wire is "InvalidParameterValue"
// to SDK users). SqsError follows the same rule so `e.name` is the same.
const MODELLED_ERRORS = new Set([
  "BatchEntryIdsNotDistinct", "BatchRequestTooLong", "EmptyBatchRequest", "InvalidAddress",
  "InvalidAttributeName", "InvalidAttributeValue", "InvalidBatchEntryId", "InvalidIdFormat",
  "InvalidMessageContents", "InvalidSecurity", "KmsAccessDenied", "KmsDisabled",
  "KmsInvalidKeyUsage", "KmsInvalidState", "KmsNotFound", "KmsOptInRequired", "KmsThrottled",
  "MessageNotInflight", "OverLimit", "PurgeQueueInProgress", "QueueDeletedRecently",
  "QueueDoesNotExist", "QueueNameExists", "ReceiptHandleIsInvalid", "RequestThrottled",
  "ResourceNotFoundException", "TooManyEntriesInBatchRequest", "UnsupportedOperation",
]);

/** An SQS error answer, with the fields SDK v3 exceptions carry. */
export class SqsError extends AwsError {
  /** Reads an error response: body {"__type": "ns#Shape", "message"}, header "<Code>;<Sender|Receiver>". */
  static fromResponse(res, data, $metadata) {
    return new SqsError(AwsError.fields(res, data, $metadata, (shape) => (MODELLED_ERRORS.has(shape) ? shape : "")));
  }
}

const SQS = {
  name: "SqsClient",
  module: "sqs-client.js",
  sdk: "@aws-sdk/client-sqs",
  sdkClient: "SQSClient",
  example: "new SendMessageCommand({ QueueUrl, MessageBody })",
  prefix: "AmazonSQS.",
  commands,
  error: SqsError.fromResponse,
  replacer: blobsToBase64,
  reviver: base64ToBlobs,
};

export class SqsClient extends ServiceClient {
  /**
   * @param {object | (() => object)} target a Playground, any object with
   *   `dispatch(target, body, { caller })`, or a function returning one
   *   (called on every request, so a page can swap engines underneath).
   * @param {{ caller?: string, principal?: string, sourceArn?: string, sourceAccount?: string }} [options]
   *   `caller`: who the event log names as acting. `principal`: who every
   *   call is made as (an account id such as "111111111111", an IAM ARN, or
   *   "sns.amazonaws.com" / "s3.amazonaws.com" with `sourceArn` and
   *   `sourceAccount`); default the queues' own account. The engine checks
   *   them on each call and refuses a bad one with a RangeError naming it.
   */
  constructor(target, options = {}) {
    super(target, options, SQS);
  }
}

addMethods(SqsClient, commands);

// Binary message attributes are Uint8Array in the SDK's shapes and base64 in
// JSON; these convert both ways (BinaryValue, BinaryListValues are SQS's only blobs).
function blobsToBase64(_key, value) {
  if (!(value instanceof Uint8Array)) return value;
  let binary = "";
  for (const byte of value) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64ToBlobs(key, value) {
  if (key === "BinaryValue" && typeof value === "string") return fromBase64(value);
  if (key === "BinaryListValues" && Array.isArray(value)) return value.map((v) => (typeof v === "string" ? fromBase64(v) : v));
  return value;
}

function fromBase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
