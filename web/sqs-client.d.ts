// Types for sqs-client.js: a small SQS client with the AWS SDK v3's command
// names and shapes. Member names and optionality follow @aws-sdk/client-sqs.

export type OperationName =
  | "AddPermission" | "CancelMessageMoveTask" | "ChangeMessageVisibility" | "ChangeMessageVisibilityBatch"
  | "CreateQueue" | "DeleteMessage" | "DeleteMessageBatch" | "DeleteQueue"
  | "GetQueueAttributes" | "GetQueueUrl" | "ListDeadLetterSourceQueues"
  | "ListMessageMoveTasks" | "ListQueueTags" | "ListQueues" | "PurgeQueue"
  | "ReceiveMessage" | "RemovePermission" | "SendMessage" | "SendMessageBatch" | "SetQueueAttributes"
  | "StartMessageMoveTask" | "TagQueue" | "UntagQueue";

/** The 23 operations, in alphabetical order. */
export declare const OPERATIONS: readonly OperationName[];

/** What the client needs from an engine; a Playground has it. */
export interface SqsEndpoint {
  dispatch(
    target: string,
    body: string,
    options?: { caller?: string },
  ): Promise<{ status: number; headers: Record<string, string>; body: string }>;
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

// ---- commands ---------------------------------------------------------------

/** Optional input when every member is optional, as in the SDK. */
type InputArgs<Input> = {} extends Input ? [input?: Input] : [input: Input];

declare abstract class Command<Input, Output> {
  constructor(...[input]: InputArgs<Input>);
  /** The input as given. */
  readonly input: Input;
  /** Type-level only, never set at run time: lets `send` infer the output type. */
  readonly $output?: Output;
}

export declare class AddPermissionCommand extends Command<AddPermissionInput, EmptyOutput> { static readonly operation: "AddPermission" }
export declare class CancelMessageMoveTaskCommand extends Command<CancelMessageMoveTaskInput, CancelMessageMoveTaskOutput> { static readonly operation: "CancelMessageMoveTask" }
export declare class ChangeMessageVisibilityCommand extends Command<ChangeMessageVisibilityInput, EmptyOutput> { static readonly operation: "ChangeMessageVisibility" }
export declare class ChangeMessageVisibilityBatchCommand extends Command<ChangeMessageVisibilityBatchInput, ChangeMessageVisibilityBatchOutput> { static readonly operation: "ChangeMessageVisibilityBatch" }
export declare class CreateQueueCommand extends Command<CreateQueueInput, CreateQueueOutput> { static readonly operation: "CreateQueue" }
export declare class DeleteMessageCommand extends Command<DeleteMessageInput, EmptyOutput> { static readonly operation: "DeleteMessage" }
export declare class DeleteMessageBatchCommand extends Command<DeleteMessageBatchInput, DeleteMessageBatchOutput> { static readonly operation: "DeleteMessageBatch" }
export declare class DeleteQueueCommand extends Command<DeleteQueueInput, EmptyOutput> { static readonly operation: "DeleteQueue" }
export declare class GetQueueAttributesCommand extends Command<GetQueueAttributesInput, GetQueueAttributesOutput> { static readonly operation: "GetQueueAttributes" }
export declare class GetQueueUrlCommand extends Command<GetQueueUrlInput, GetQueueUrlOutput> { static readonly operation: "GetQueueUrl" }
export declare class ListDeadLetterSourceQueuesCommand extends Command<ListDeadLetterSourceQueuesInput, ListDeadLetterSourceQueuesOutput> { static readonly operation: "ListDeadLetterSourceQueues" }
export declare class ListMessageMoveTasksCommand extends Command<ListMessageMoveTasksInput, ListMessageMoveTasksOutput> { static readonly operation: "ListMessageMoveTasks" }
export declare class ListQueueTagsCommand extends Command<ListQueueTagsInput, ListQueueTagsOutput> { static readonly operation: "ListQueueTags" }
export declare class ListQueuesCommand extends Command<ListQueuesInput, ListQueuesOutput> { static readonly operation: "ListQueues" }
export declare class PurgeQueueCommand extends Command<PurgeQueueInput, EmptyOutput> { static readonly operation: "PurgeQueue" }
export declare class ReceiveMessageCommand extends Command<ReceiveMessageInput, ReceiveMessageOutput> { static readonly operation: "ReceiveMessage" }
export declare class RemovePermissionCommand extends Command<RemovePermissionInput, EmptyOutput> { static readonly operation: "RemovePermission" }
export declare class SendMessageCommand extends Command<SendMessageInput, SendMessageOutput> { static readonly operation: "SendMessage" }
export declare class SendMessageBatchCommand extends Command<SendMessageBatchInput, SendMessageBatchOutput> { static readonly operation: "SendMessageBatch" }
export declare class SetQueueAttributesCommand extends Command<SetQueueAttributesInput, EmptyOutput> { static readonly operation: "SetQueueAttributes" }
export declare class StartMessageMoveTaskCommand extends Command<StartMessageMoveTaskInput, StartMessageMoveTaskOutput> { static readonly operation: "StartMessageMoveTask" }
export declare class TagQueueCommand extends Command<TagQueueInput, EmptyOutput> { static readonly operation: "TagQueue" }
export declare class UntagQueueCommand extends Command<UntagQueueInput, EmptyOutput> { static readonly operation: "UntagQueue" }

/** Operation name -> command class: `new commands.SendMessage(input)`. */
export declare const commands: {
  readonly AddPermission: typeof AddPermissionCommand;
  readonly CancelMessageMoveTask: typeof CancelMessageMoveTaskCommand;
  readonly ChangeMessageVisibility: typeof ChangeMessageVisibilityCommand;
  readonly ChangeMessageVisibilityBatch: typeof ChangeMessageVisibilityBatchCommand;
  readonly CreateQueue: typeof CreateQueueCommand;
  readonly DeleteMessage: typeof DeleteMessageCommand;
  readonly DeleteMessageBatch: typeof DeleteMessageBatchCommand;
  readonly DeleteQueue: typeof DeleteQueueCommand;
  readonly GetQueueAttributes: typeof GetQueueAttributesCommand;
  readonly GetQueueUrl: typeof GetQueueUrlCommand;
  readonly ListDeadLetterSourceQueues: typeof ListDeadLetterSourceQueuesCommand;
  readonly ListMessageMoveTasks: typeof ListMessageMoveTasksCommand;
  readonly ListQueueTags: typeof ListQueueTagsCommand;
  readonly ListQueues: typeof ListQueuesCommand;
  readonly PurgeQueue: typeof PurgeQueueCommand;
  readonly ReceiveMessage: typeof ReceiveMessageCommand;
  readonly RemovePermission: typeof RemovePermissionCommand;
  readonly SendMessage: typeof SendMessageCommand;
  readonly SendMessageBatch: typeof SendMessageBatchCommand;
  readonly SetQueueAttributes: typeof SetQueueAttributesCommand;
  readonly StartMessageMoveTask: typeof StartMessageMoveTaskCommand;
  readonly TagQueue: typeof TagQueueCommand;
  readonly UntagQueue: typeof UntagQueueCommand;
};

// ---- errors and the client --------------------------------------------------

/**
 * An SQS error answer, with the fields an SDK v3 exception carries, so
 * `e.name === "QueueDoesNotExist"` reads the same with either client.
 */
export declare class SqsError extends Error {
  constructor(fields: { name: string; message: string; Code: string; $fault: "client" | "server"; $metadata: ResponseMetadata });
  /**
   * The SDK's name for it: the modelled exception ("QueueDoesNotExist",
   * "QueueNameExists", "ReceiptHandleIsInvalid"), else the query code
   * ("InvalidParameterValue", "MissingParameter").
   */
  name: string;
  /** The awsQuery code ("AWS.SimpleQueueService.NonExistentQueue"), as boto3 and SDK v2 report it. */
  Code: string;
  $fault: "client" | "server";
  $metadata: ResponseMetadata;
  /** Reads an engine error answer; `data` is its parsed body. */
  static fromResponse(
    response: { status: number; headers: Record<string, string> },
    data: { __type?: string; message?: string },
    $metadata: ResponseMetadata,
  ): SqsError;
}

export interface SqsClientOptions {
  /** Who the event log names as making the calls ("worker-1"). */
  caller?: string;
}

export declare class SqsClient {
  /**
   * @param target an engine, or a function returning the engine to use (called on every request).
   * @throws TypeError when `target` is neither.
   */
  constructor(target: SqsEndpoint | (() => SqsEndpoint), options?: SqsClientOptions);

  /**
   * Sends a command from this module. Resolves with the output and
   * `$metadata`; rejects with SqsError on an SQS error, and with a TypeError
   * for anything that is not one of this module's commands.
   */
  send<Input, Output>(command: Command<Input, Output>): Promise<Output & MetadataBearer>;

  addPermission(input: AddPermissionInput): Promise<MetadataBearer>;
  cancelMessageMoveTask(input: CancelMessageMoveTaskInput): Promise<CancelMessageMoveTaskOutput & MetadataBearer>;
  changeMessageVisibility(input: ChangeMessageVisibilityInput): Promise<MetadataBearer>;
  changeMessageVisibilityBatch(input: ChangeMessageVisibilityBatchInput): Promise<ChangeMessageVisibilityBatchOutput & MetadataBearer>;
  createQueue(input: CreateQueueInput): Promise<CreateQueueOutput & MetadataBearer>;
  deleteMessage(input: DeleteMessageInput): Promise<MetadataBearer>;
  deleteMessageBatch(input: DeleteMessageBatchInput): Promise<DeleteMessageBatchOutput & MetadataBearer>;
  deleteQueue(input: DeleteQueueInput): Promise<MetadataBearer>;
  getQueueAttributes(input: GetQueueAttributesInput): Promise<GetQueueAttributesOutput & MetadataBearer>;
  getQueueUrl(input: GetQueueUrlInput): Promise<GetQueueUrlOutput & MetadataBearer>;
  listDeadLetterSourceQueues(input: ListDeadLetterSourceQueuesInput): Promise<ListDeadLetterSourceQueuesOutput & MetadataBearer>;
  listMessageMoveTasks(input: ListMessageMoveTasksInput): Promise<ListMessageMoveTasksOutput & MetadataBearer>;
  listQueueTags(input: ListQueueTagsInput): Promise<ListQueueTagsOutput & MetadataBearer>;
  listQueues(input?: ListQueuesInput): Promise<ListQueuesOutput & MetadataBearer>;
  purgeQueue(input: PurgeQueueInput): Promise<MetadataBearer>;
  receiveMessage(input: ReceiveMessageInput): Promise<ReceiveMessageOutput & MetadataBearer>;
  removePermission(input: RemovePermissionInput): Promise<MetadataBearer>;
  sendMessage(input: SendMessageInput): Promise<SendMessageOutput & MetadataBearer>;
  sendMessageBatch(input: SendMessageBatchInput): Promise<SendMessageBatchOutput & MetadataBearer>;
  setQueueAttributes(input: SetQueueAttributesInput): Promise<MetadataBearer>;
  startMessageMoveTask(input: StartMessageMoveTaskInput): Promise<StartMessageMoveTaskOutput & MetadataBearer>;
  tagQueue(input: TagQueueInput): Promise<MetadataBearer>;
  untagQueue(input: UntagQueueInput): Promise<MetadataBearer>;
}
