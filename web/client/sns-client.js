// A small SNS client with the AWS SDK v3's command names and shapes, for
// the code cell and pages that do not load the SDK: topics, subscriptions
// of queues, and publishes, against the run's engine.
//
//   const sns = new SnsClient(playground);
//   const { TopicArn } = await sns.createTopic({ Name: "orders" });
//   await sns.subscribe({ TopicArn, Protocol: "sqs", Endpoint: queueArn });
//   await sns.send(new PublishCommand({ TopicArn, Message: "order 1" }));
//
// It only carries requests (as JSON, target `AmazonSNS.<Action>`): every
// rule is the engine's topics', which answer with SNS's own error codes.
// The real @aws-sdk/client-sns speaks SNS's query protocol to the same
// engine through sdk.js. Plain ES module, no dependencies.

import { commands } from "./sns-commands.js";
import { AwsError, ServiceClient, addMethods } from "./service-client.js";

export * from "./sns-commands.js";

/** Error codes and the names @aws-sdk/client-sns gives their exceptions. */
const EXCEPTIONS = {
  AuthorizationError: "AuthorizationErrorException",
  BatchEntryIdsNotDistinct: "BatchEntryIdsNotDistinctException",
  BatchRequestTooLong: "BatchRequestTooLongException",
  EmptyBatchRequest: "EmptyBatchRequestException",
  InvalidBatchEntryId: "InvalidBatchEntryIdException",
  InvalidParameter: "InvalidParameterException",
  NotFound: "NotFoundException",
  ParameterValueInvalid: "InvalidParameterValueException",
  SubscriptionLimitExceeded: "SubscriptionLimitExceededException",
  TooManyEntriesInBatchRequest: "TooManyEntriesInBatchRequestException",
  TopicLimitExceeded: "TopicLimitExceededException",
};

/** An SNS error answer, named as @aws-sdk/client-sns names it (NotFoundException, Code "NotFound"). */
export class SnsError extends AwsError {
  static fromResponse(res, data, $metadata) {
    return new SnsError(AwsError.fields(res, data, $metadata, (shape, code) => EXCEPTIONS[code] ?? ""));
  }
}

const SNS = {
  name: "SnsClient",
  module: "sns-client.js",
  sdk: "@aws-sdk/client-sns",
  sdkClient: "SNSClient",
  example: "new PublishCommand({ TopicArn, Message })",
  prefix: "AmazonSNS.",
  commands,
  error: SnsError.fromResponse,
};

export class SnsClient extends ServiceClient {
  /**
   * @param {object | (() => object)} target a Playground, any object with
   *   `dispatch(target, body, options)`, or a function returning one.
   * @param {{ caller?: string, principal?: string }} [options] `caller`:
   *   who the event log names; `principal`: who calls (the topics take
   *   calls from their own account only).
   */
  constructor(target, options = {}) {
    super(target, options, SNS);
  }
}

addMethods(SnsClient, commands);
