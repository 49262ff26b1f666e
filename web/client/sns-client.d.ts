// Types for sns-client.js: a small SNS client with the AWS SDK v3's command
// names and shapes. Member names and optionality follow @aws-sdk/client-sns.

// The command classes, `commands`, `OPERATIONS`, `OperationName` and the
// client's camelCase methods are generated from the simulation's list of
// SNS operations (sns-commands.d.ts); each operation's Input and Output are here.
export * from "./sns-commands.js";
import type { SnsClientMethods } from "./sns-commands.js";
import type { AwsError, ServiceClient } from "./service-client.js";
import type { SqsEndpoint, DispatchWho, ResponseMetadata, EmptyOutput } from "./sqs-client.js";
export type { MetadataBearer } from "./sqs-client.js";

export interface SnsMessageAttributeValue {
  /** "String", "Number" or "String.Array" (Binary is not carried: docs/fidelity.md). */
  DataType: string;
  StringValue?: string;
}

export interface CreateTopicInput {
  Name: string;
  /** FifoTopic, ContentBasedDeduplication, DisplayName, Policy, DeliveryPolicy. */
  Attributes?: Record<string, string>;
  Tags?: { Key: string; Value: string }[];
}
export interface CreateTopicOutput { TopicArn?: string }
export interface DeleteTopicInput { TopicArn: string }
export type DeleteTopicOutput = EmptyOutput;
export interface ListTopicsInput { NextToken?: string }
export interface ListTopicsOutput { Topics?: { TopicArn?: string }[]; NextToken?: string }
export interface GetTopicAttributesInput { TopicArn: string }
export interface GetTopicAttributesOutput { Attributes?: Record<string, string> }
export interface SetTopicAttributesInput { TopicArn: string; AttributeName: string; AttributeValue?: string }
export type SetTopicAttributesOutput = EmptyOutput;

export interface SubscribeInput {
  TopicArn: string;
  /** "sqs": the run's topics deliver to SQS queues. */
  Protocol: string;
  /** The queue's ARN. */
  Endpoint?: string;
  /** RawMessageDelivery, FilterPolicy, FilterPolicyScope, RedrivePolicy. */
  Attributes?: Record<string, string>;
  ReturnSubscriptionArn?: boolean;
}
export interface SubscribeOutput { SubscriptionArn?: string }
export interface UnsubscribeInput { SubscriptionArn: string }
export type UnsubscribeOutput = EmptyOutput;
export interface GetSubscriptionAttributesInput { SubscriptionArn: string }
export interface GetSubscriptionAttributesOutput { Attributes?: Record<string, string> }
export interface SetSubscriptionAttributesInput { SubscriptionArn: string; AttributeName: string; AttributeValue?: string }
export type SetSubscriptionAttributesOutput = EmptyOutput;
export interface Subscription { SubscriptionArn?: string; Owner?: string; Protocol?: string; Endpoint?: string; TopicArn?: string }
export interface ListSubscriptionsByTopicInput { TopicArn: string; NextToken?: string }
export interface ListSubscriptionsByTopicOutput { Subscriptions?: Subscription[]; NextToken?: string }

export interface PublishInput {
  TopicArn?: string;
  TargetArn?: string;
  Message: string;
  Subject?: string;
  /** "json": Message is a JSON object whose "sqs" (else "default") entry is sent. */
  MessageStructure?: string;
  MessageAttributes?: Record<string, SnsMessageAttributeValue>;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}
export interface PublishOutput { MessageId?: string; SequenceNumber?: string }
export interface PublishBatchInput {
  TopicArn: string;
  PublishBatchRequestEntries: (Omit<PublishInput, "TopicArn" | "TargetArn"> & { Id: string })[];
}
export interface PublishBatchOutput {
  Successful?: { Id?: string; MessageId?: string; SequenceNumber?: string }[];
  Failed?: { Id: string; Code: string; Message?: string; SenderFault: boolean }[];
}

/** An SNS error answer, named as @aws-sdk/client-sns names it: `e.name === "NotFoundException"`, `e.Code === "NotFound"`. */
export declare class SnsError extends AwsError {
  static fromResponse(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string },
    $metadata: ResponseMetadata,
  ): SnsError;
}

export interface SnsClientOptions extends DispatchWho {}

export declare class SnsClient extends ServiceClient {
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: SnsClientOptions);
}

/** The camelCase methods, one per operation (generated: sns-commands.d.ts). */
export interface SnsClient extends SnsClientMethods {}
