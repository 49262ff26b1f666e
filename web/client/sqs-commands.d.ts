// Generated from the engine's Action list by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

import type {
  MetadataBearer,
  AddPermissionInput,
  AddPermissionOutput,
  CancelMessageMoveTaskInput,
  CancelMessageMoveTaskOutput,
  ChangeMessageVisibilityInput,
  ChangeMessageVisibilityOutput,
  ChangeMessageVisibilityBatchInput,
  ChangeMessageVisibilityBatchOutput,
  CreateQueueInput,
  CreateQueueOutput,
  DeleteMessageInput,
  DeleteMessageOutput,
  DeleteMessageBatchInput,
  DeleteMessageBatchOutput,
  DeleteQueueInput,
  DeleteQueueOutput,
  GetQueueAttributesInput,
  GetQueueAttributesOutput,
  GetQueueUrlInput,
  GetQueueUrlOutput,
  ListDeadLetterSourceQueuesInput,
  ListDeadLetterSourceQueuesOutput,
  ListMessageMoveTasksInput,
  ListMessageMoveTasksOutput,
  ListQueueTagsInput,
  ListQueueTagsOutput,
  ListQueuesInput,
  ListQueuesOutput,
  PurgeQueueInput,
  PurgeQueueOutput,
  ReceiveMessageInput,
  ReceiveMessageOutput,
  RemovePermissionInput,
  RemovePermissionOutput,
  SendMessageInput,
  SendMessageOutput,
  SendMessageBatchInput,
  SendMessageBatchOutput,
  SetQueueAttributesInput,
  SetQueueAttributesOutput,
  StartMessageMoveTaskInput,
  StartMessageMoveTaskOutput,
  TagQueueInput,
  TagQueueOutput,
  UntagQueueInput,
  UntagQueueOutput,
} from "./sqs-client.js";

export type OperationName =
  | "AddPermission"
  | "CancelMessageMoveTask"
  | "ChangeMessageVisibility"
  | "ChangeMessageVisibilityBatch"
  | "CreateQueue"
  | "DeleteMessage"
  | "DeleteMessageBatch"
  | "DeleteQueue"
  | "GetQueueAttributes"
  | "GetQueueUrl"
  | "ListDeadLetterSourceQueues"
  | "ListMessageMoveTasks"
  | "ListQueueTags"
  | "ListQueues"
  | "PurgeQueue"
  | "ReceiveMessage"
  | "RemovePermission"
  | "SendMessage"
  | "SendMessageBatch"
  | "SetQueueAttributes"
  | "StartMessageMoveTask"
  | "TagQueue"
  | "UntagQueue"
;

/** The 23 operations, in alphabetical order. */
export declare const OPERATIONS: readonly OperationName[];

import type { Command, InputArgs } from "./service-client.js";
export type { Command, InputArgs } from "./service-client.js";

export declare class AddPermissionCommand extends Command<AddPermissionInput, AddPermissionOutput> { static readonly operation: "AddPermission" }
export declare class CancelMessageMoveTaskCommand extends Command<CancelMessageMoveTaskInput, CancelMessageMoveTaskOutput> { static readonly operation: "CancelMessageMoveTask" }
export declare class ChangeMessageVisibilityCommand extends Command<ChangeMessageVisibilityInput, ChangeMessageVisibilityOutput> { static readonly operation: "ChangeMessageVisibility" }
export declare class ChangeMessageVisibilityBatchCommand extends Command<ChangeMessageVisibilityBatchInput, ChangeMessageVisibilityBatchOutput> { static readonly operation: "ChangeMessageVisibilityBatch" }
export declare class CreateQueueCommand extends Command<CreateQueueInput, CreateQueueOutput> { static readonly operation: "CreateQueue" }
export declare class DeleteMessageCommand extends Command<DeleteMessageInput, DeleteMessageOutput> { static readonly operation: "DeleteMessage" }
export declare class DeleteMessageBatchCommand extends Command<DeleteMessageBatchInput, DeleteMessageBatchOutput> { static readonly operation: "DeleteMessageBatch" }
export declare class DeleteQueueCommand extends Command<DeleteQueueInput, DeleteQueueOutput> { static readonly operation: "DeleteQueue" }
export declare class GetQueueAttributesCommand extends Command<GetQueueAttributesInput, GetQueueAttributesOutput> { static readonly operation: "GetQueueAttributes" }
export declare class GetQueueUrlCommand extends Command<GetQueueUrlInput, GetQueueUrlOutput> { static readonly operation: "GetQueueUrl" }
export declare class ListDeadLetterSourceQueuesCommand extends Command<ListDeadLetterSourceQueuesInput, ListDeadLetterSourceQueuesOutput> { static readonly operation: "ListDeadLetterSourceQueues" }
export declare class ListMessageMoveTasksCommand extends Command<ListMessageMoveTasksInput, ListMessageMoveTasksOutput> { static readonly operation: "ListMessageMoveTasks" }
export declare class ListQueueTagsCommand extends Command<ListQueueTagsInput, ListQueueTagsOutput> { static readonly operation: "ListQueueTags" }
export declare class ListQueuesCommand extends Command<ListQueuesInput, ListQueuesOutput> { static readonly operation: "ListQueues" }
export declare class PurgeQueueCommand extends Command<PurgeQueueInput, PurgeQueueOutput> { static readonly operation: "PurgeQueue" }
export declare class ReceiveMessageCommand extends Command<ReceiveMessageInput, ReceiveMessageOutput> { static readonly operation: "ReceiveMessage" }
export declare class RemovePermissionCommand extends Command<RemovePermissionInput, RemovePermissionOutput> { static readonly operation: "RemovePermission" }
export declare class SendMessageCommand extends Command<SendMessageInput, SendMessageOutput> { static readonly operation: "SendMessage" }
export declare class SendMessageBatchCommand extends Command<SendMessageBatchInput, SendMessageBatchOutput> { static readonly operation: "SendMessageBatch" }
export declare class SetQueueAttributesCommand extends Command<SetQueueAttributesInput, SetQueueAttributesOutput> { static readonly operation: "SetQueueAttributes" }
export declare class StartMessageMoveTaskCommand extends Command<StartMessageMoveTaskInput, StartMessageMoveTaskOutput> { static readonly operation: "StartMessageMoveTask" }
export declare class TagQueueCommand extends Command<TagQueueInput, TagQueueOutput> { static readonly operation: "TagQueue" }
export declare class UntagQueueCommand extends Command<UntagQueueInput, UntagQueueOutput> { static readonly operation: "UntagQueue" }

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

/** One camelCase method per operation: `client.sendMessage(input)` is `client.send(new SendMessageCommand(input))`. */
export interface SqsClientMethods {
  addPermission(...[input]: InputArgs<AddPermissionInput>): Promise<AddPermissionOutput & MetadataBearer>;
  cancelMessageMoveTask(...[input]: InputArgs<CancelMessageMoveTaskInput>): Promise<CancelMessageMoveTaskOutput & MetadataBearer>;
  changeMessageVisibility(...[input]: InputArgs<ChangeMessageVisibilityInput>): Promise<ChangeMessageVisibilityOutput & MetadataBearer>;
  changeMessageVisibilityBatch(...[input]: InputArgs<ChangeMessageVisibilityBatchInput>): Promise<ChangeMessageVisibilityBatchOutput & MetadataBearer>;
  createQueue(...[input]: InputArgs<CreateQueueInput>): Promise<CreateQueueOutput & MetadataBearer>;
  deleteMessage(...[input]: InputArgs<DeleteMessageInput>): Promise<DeleteMessageOutput & MetadataBearer>;
  deleteMessageBatch(...[input]: InputArgs<DeleteMessageBatchInput>): Promise<DeleteMessageBatchOutput & MetadataBearer>;
  deleteQueue(...[input]: InputArgs<DeleteQueueInput>): Promise<DeleteQueueOutput & MetadataBearer>;
  getQueueAttributes(...[input]: InputArgs<GetQueueAttributesInput>): Promise<GetQueueAttributesOutput & MetadataBearer>;
  getQueueUrl(...[input]: InputArgs<GetQueueUrlInput>): Promise<GetQueueUrlOutput & MetadataBearer>;
  listDeadLetterSourceQueues(...[input]: InputArgs<ListDeadLetterSourceQueuesInput>): Promise<ListDeadLetterSourceQueuesOutput & MetadataBearer>;
  listMessageMoveTasks(...[input]: InputArgs<ListMessageMoveTasksInput>): Promise<ListMessageMoveTasksOutput & MetadataBearer>;
  listQueueTags(...[input]: InputArgs<ListQueueTagsInput>): Promise<ListQueueTagsOutput & MetadataBearer>;
  listQueues(...[input]: InputArgs<ListQueuesInput>): Promise<ListQueuesOutput & MetadataBearer>;
  purgeQueue(...[input]: InputArgs<PurgeQueueInput>): Promise<PurgeQueueOutput & MetadataBearer>;
  receiveMessage(...[input]: InputArgs<ReceiveMessageInput>): Promise<ReceiveMessageOutput & MetadataBearer>;
  removePermission(...[input]: InputArgs<RemovePermissionInput>): Promise<RemovePermissionOutput & MetadataBearer>;
  sendMessage(...[input]: InputArgs<SendMessageInput>): Promise<SendMessageOutput & MetadataBearer>;
  sendMessageBatch(...[input]: InputArgs<SendMessageBatchInput>): Promise<SendMessageBatchOutput & MetadataBearer>;
  setQueueAttributes(...[input]: InputArgs<SetQueueAttributesInput>): Promise<SetQueueAttributesOutput & MetadataBearer>;
  startMessageMoveTask(...[input]: InputArgs<StartMessageMoveTaskInput>): Promise<StartMessageMoveTaskOutput & MetadataBearer>;
  tagQueue(...[input]: InputArgs<TagQueueInput>): Promise<TagQueueOutput & MetadataBearer>;
  untagQueue(...[input]: InputArgs<UntagQueueInput>): Promise<UntagQueueOutput & MetadataBearer>;
}
