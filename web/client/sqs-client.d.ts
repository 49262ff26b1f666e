// Types for sqs-client.js: a small SQS client with the AWS SDK v3's command
// names and shapes. Member names and optionality follow @aws-sdk/client-sqs.

// The command classes, `commands`, `OPERATIONS`, `OperationName` and the
// client's camelCase methods are generated from the engine's list of
// operations (sqs-commands.d.ts); each operation's Input and Output are here.
export * from "./sqs-commands.js";
import type { SqsClientMethods } from "./sqs-commands.js";
import type { AwsError, ServiceClient } from "./service-client.js";

/** What the client needs from an engine; a Playground has it. */
export interface SqsEndpoint {
  dispatch(
    target: string,
    body: string,
    options?: DispatchWho,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }>;
}

/** Who a call is made by: `dispatch`'s options (see the Playground's DispatchOptions). */
export interface DispatchWho {
  /** The name the event log shows ("worker-1"); without it, a principal's own words. */
  caller?: string;
  /** Who the call is made as: an account id ("111111111111"), an IAM ARN
   * (`arn:aws:iam::111111111111:root`, `…:user/name`, `…:role/name`) or a
   * service principal ("sns.amazonaws.com", "s3.amazonaws.com"). Default:
   * the queues' own account. */
  principal?: string;
  /** With a service principal only: `aws:SourceArn`. */
  sourceArn?: string;
  /** With a service principal only: `aws:SourceAccount` (12 digits). */
  sourceAccount?: string;
}

export interface ResponseMetadata {
  httpStatusCode: number;
  requestId?: string;
}

export interface MetadataBearer {
  $metadata: ResponseMetadata;
}

// ---- shared shapes ----------------------------------------------------------

export interface MessageAttributeValue {
  /** "String", "Number" or "Binary", optionally with a ".custom" suffix. */
  DataType: string;
  StringValue?: string;
  BinaryValue?: Uint8Array;
  StringListValues?: string[];
  BinaryListValues?: Uint8Array[];
}

export interface Message {
  MessageId?: string;
  ReceiptHandle?: string;
  MD5OfBody?: string;
  Body?: string;
  /** System attributes asked for: ApproximateReceiveCount, SentTimestamp, MessageGroupId, ... */
  Attributes?: Record<string, string>;
  MD5OfMessageAttributes?: string;
  MessageAttributes?: Record<string, MessageAttributeValue>;
}

/** A failed batch entry; the other entries of the batch still succeed. */
export interface BatchResultErrorEntry {
  Id: string;
  SenderFault: boolean;
  Code: string;
  Message?: string;
}

export interface BatchOutput<Success> {
  Successful?: Success[];
  Failed?: BatchResultErrorEntry[];
}

export interface MessageMoveTask {
  TaskHandle?: string;
  Status?: "RUNNING" | "COMPLETED" | "CANCELLING" | "CANCELLED" | "FAILED";
  SourceArn?: string;
  DestinationArn?: string;
  MaxNumberOfMessagesPerSecond?: number;
  ApproximateNumberOfMessagesMoved?: number;
  ApproximateNumberOfMessagesToMove?: number;
  FailureReason?: string;
  StartedTimestamp?: number;
}

// ---- inputs and outputs -----------------------------------------------------

export interface CreateQueueInput { QueueName: string; Attributes?: Record<string, string>; tags?: Record<string, string> }
export interface CreateQueueOutput { QueueUrl?: string }
export interface GetQueueUrlInput { QueueName: string; QueueOwnerAWSAccountId?: string }
export interface GetQueueUrlOutput { QueueUrl?: string }
export interface DeleteQueueInput { QueueUrl: string }
export interface PurgeQueueInput { QueueUrl: string }
export interface ListQueuesInput { QueueNamePrefix?: string; NextToken?: string; MaxResults?: number }
export interface ListQueuesOutput { QueueUrls?: string[]; NextToken?: string }
export interface GetQueueAttributesInput { QueueUrl: string; AttributeNames?: string[] }
export interface GetQueueAttributesOutput { Attributes?: Record<string, string> }
export interface SetQueueAttributesInput { QueueUrl: string; Attributes: Record<string, string> }
export interface ListDeadLetterSourceQueuesInput { QueueUrl: string; NextToken?: string; MaxResults?: number }
/** `queueUrls` is lower-case in SQS's model. */
export interface ListDeadLetterSourceQueuesOutput { queueUrls?: string[]; NextToken?: string }
export interface TagQueueInput { QueueUrl: string; Tags: Record<string, string> }
export interface UntagQueueInput { QueueUrl: string; TagKeys: string[] }
export interface ListQueueTagsInput { QueueUrl: string }
export interface ListQueueTagsOutput { Tags?: Record<string, string> }
export interface AddPermissionInput { QueueUrl: string; Label: string; AWSAccountIds: string[]; Actions: string[] }
export interface RemovePermissionInput { QueueUrl: string; Label: string }

export interface SendMessageInput {
  QueueUrl: string;
  MessageBody: string;
  DelaySeconds?: number;
  MessageAttributes?: Record<string, MessageAttributeValue>;
  MessageSystemAttributes?: Record<string, MessageAttributeValue>;
  MessageDeduplicationId?: string;
  MessageGroupId?: string;
}
export interface SendMessageOutput {
  MD5OfMessageBody?: string;
  MD5OfMessageAttributes?: string;
  MD5OfMessageSystemAttributes?: string;
  MessageId?: string;
  SequenceNumber?: string;
}
export interface SendMessageBatchInput { QueueUrl: string; Entries: (Omit<SendMessageInput, "QueueUrl"> & { Id: string })[] }
export type SendMessageBatchOutput = BatchOutput<Omit<SendMessageOutput, "MessageId" | "MD5OfMessageBody"> & { Id: string; MessageId: string; MD5OfMessageBody: string }>;

export interface ReceiveMessageInput {
  QueueUrl: string;
  /** @deprecated in SQS's model in favour of MessageSystemAttributeNames; both work. */
  AttributeNames?: string[];
  MessageSystemAttributeNames?: string[];
  MessageAttributeNames?: string[];
  MaxNumberOfMessages?: number;
  VisibilityTimeout?: number;
  WaitTimeSeconds?: number;
  ReceiveRequestAttemptId?: string;
}
/** No `Messages` member when nothing was received. */
export interface ReceiveMessageOutput { Messages?: Message[] }

export interface DeleteMessageInput { QueueUrl: string; ReceiptHandle: string }
export interface DeleteMessageBatchInput { QueueUrl: string; Entries: { Id: string; ReceiptHandle: string }[] }
export type DeleteMessageBatchOutput = BatchOutput<{ Id: string }>;
export interface ChangeMessageVisibilityInput { QueueUrl: string; ReceiptHandle: string; VisibilityTimeout: number }
export interface ChangeMessageVisibilityBatchInput {
  QueueUrl: string;
  Entries: { Id: string; ReceiptHandle: string; VisibilityTimeout?: number }[];
}
export type ChangeMessageVisibilityBatchOutput = BatchOutput<{ Id: string }>;

export interface StartMessageMoveTaskInput { SourceArn: string; DestinationArn?: string; MaxNumberOfMessagesPerSecond?: number }
export interface StartMessageMoveTaskOutput { TaskHandle?: string }
export interface CancelMessageMoveTaskInput { TaskHandle: string }
export interface CancelMessageMoveTaskOutput { ApproximateNumberOfMessagesMoved?: number }
export interface ListMessageMoveTasksInput { SourceArn: string; MaxResults?: number }
export interface ListMessageMoveTasksOutput { Results?: MessageMoveTask[] }

/** Operations that answer with no members. */
export type EmptyOutput = {};
export type AddPermissionOutput = EmptyOutput;
export type ChangeMessageVisibilityOutput = EmptyOutput;
export type DeleteMessageOutput = EmptyOutput;
export type DeleteQueueOutput = EmptyOutput;
export type PurgeQueueOutput = EmptyOutput;
export type RemovePermissionOutput = EmptyOutput;
export type SetQueueAttributesOutput = EmptyOutput;
export type TagQueueOutput = EmptyOutput;
export type UntagQueueOutput = EmptyOutput;

// ---- errors and the client --------------------------------------------------

/**
 * An SQS error answer, with the fields an SDK v3 exception carries, so
 * `e.name === "QueueDoesNotExist"` reads the same with either client.
 */
export declare class SqsError extends AwsError {
  /**
   * The SDK's name for it: the modelled exception ("QueueDoesNotExist",
   * "QueueNameExists", "ReceiptHandleIsInvalid"), else the query code
   * ("InvalidParameterValue", "MissingParameter"). `Code` is the awsQuery
   * code ("AWS.SimpleQueueService.NonExistentQueue"), as boto3 and SDK v2 report it.
   */
  static fromResponse(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string },
    $metadata: ResponseMetadata,
  ): SqsError;
}

/**
 * Who the client's calls are made by: `caller` names them in the event log
 * ("worker-1"); `principal` (with `sourceArn`, `sourceAccount` for a
 * service) makes every call another account's or a service's, so a queue
 * policy decides (default: the queues' own account). The engine checks
 * them on each call: a bad one rejects with a RangeError naming it.
 */
export interface SqsClientOptions extends DispatchWho {}

export declare class SqsClient extends ServiceClient {
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: SqsClientOptions);
}

/** The camelCase methods, one per operation (generated: sqs-commands.d.ts). */
export interface SqsClient extends SqsClientMethods {}

