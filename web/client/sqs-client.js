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
export class SqsError extends Error {
  /**
   * @param {{ name: string, message: string, Code: string, $fault: "client" | "server",
   *           $metadata: { httpStatusCode: number, requestId?: string } }} fields
   */
  constructor({ name, message, Code, $fault, $metadata }) {
    super(message);
    this.name = name;
    this.Code = Code;
    this.$fault = $fault;
    this.$metadata = $metadata;
  }

  /** Reads an error response: body {"__type": "ns#Shape", "message"}, header "<Code>;<Sender|Receiver>". */
  static fromResponse({ status, headers }, data, $metadata) {
    const shape = String(data.__type ?? "").split("#").pop();
    const [code, type] = (header(headers, "x-amzn-query-error") ?? "").split(";");
    const name = MODELLED_ERRORS.has(shape) ? shape : code || shape || "UnknownError";
    const $fault = type === "Sender" || status < 500 ? "client" : "server";
    return new SqsError({ name, message: data.message ?? data.Message ?? "", Code: code || name, $fault, $metadata });
  }
}

export class SqsClient {
  #endpoint;
  #who;

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
  constructor(target, { caller, principal, sourceArn, sourceAccount } = {}) {
    if (typeof target !== "function" && typeof target?.dispatch !== "function") {
      throw new TypeError("SqsClient needs a Playground, an object with dispatch(target, body, options), or a function returning one");
    }
    this.#endpoint = typeof target === "function" ? target : () => target;
    // Only the options given, so an endpoint that knows only `caller` sees what it always saw.
    this.#who = { caller };
    for (const [k, v] of Object.entries({ principal, sourceArn, sourceAccount })) if (v != null) this.#who[k] = v;
  }

  /** SDK style: `await client.send(new SendMessageCommand({ QueueUrl, MessageBody }))`. */
  async send(command) {
    const operation = command?.constructor?.operation;
    if (!commands[operation] || !(command instanceof commands[operation])) {
      // The SDK's commands carry a middleware stack; say where those belong.
      const origin = command?.middlewareStack ? " from @aws-sdk/client-sqs (send those with the SDK's SQSClient)" : "";
      throw new TypeError(
        `SqsClient.send takes a command from sqs-client.js, such as new SendMessageCommand({ QueueUrl, MessageBody }); got ${describe(command)}${origin}`,
      );
    }
    const endpoint = this.#endpoint();
    if (typeof endpoint?.dispatch !== "function") {
      throw new TypeError(`SqsClient: the target function returned ${describe(endpoint)}, not a Playground`);
    }
    const res = await endpoint.dispatch(`AmazonSQS.${operation}`, JSON.stringify(command.input, blobsToBase64), { ...this.#who });
    const data = res.body ? JSON.parse(res.body, base64ToBlobs) : {};
    const $metadata = { httpStatusCode: res.status, requestId: header(res.headers, "x-amzn-requestid") };
    if (res.status >= 300) throw SqsError.fromResponse(res, data, $metadata);
    return { ...data, $metadata };
  }
}

// One camelCase method per operation, as the SDK's aggregated SQS class has:
// client.sendMessage(input) is client.send(new SendMessageCommand(input)).
for (const [operation, CommandClass] of Object.entries(commands)) {
  const method = operation[0].toLowerCase() + operation.slice(1);
  Object.defineProperty(SqsClient.prototype, method, {
    value: { [method](input) { return this.send(new CommandClass(input)); } }[method],
    writable: true,
    configurable: true,
  });
}

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

function header(headers, name) {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return value.constructor?.name ? `a ${value.constructor.name}` : "an object";
  return `a ${typeof value}`;
}
