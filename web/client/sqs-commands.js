// Generated from the engine's Action list by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

/** Base of the command classes (service-client.js): `input` is kept as given, as the SDK does. */
import { Command } from "./service-client.js";

export { Command };

// One class per operation, named as in @aws-sdk/client-sqs so that swapping
// the import is all it takes to move to the SDK.
export class AddPermissionCommand extends Command { static operation = "AddPermission"; }
export class CancelMessageMoveTaskCommand extends Command { static operation = "CancelMessageMoveTask"; }
export class ChangeMessageVisibilityCommand extends Command { static operation = "ChangeMessageVisibility"; }
export class ChangeMessageVisibilityBatchCommand extends Command { static operation = "ChangeMessageVisibilityBatch"; }
export class CreateQueueCommand extends Command { static operation = "CreateQueue"; }
export class DeleteMessageCommand extends Command { static operation = "DeleteMessage"; }
export class DeleteMessageBatchCommand extends Command { static operation = "DeleteMessageBatch"; }
export class DeleteQueueCommand extends Command { static operation = "DeleteQueue"; }
export class GetQueueAttributesCommand extends Command { static operation = "GetQueueAttributes"; }
export class GetQueueUrlCommand extends Command { static operation = "GetQueueUrl"; }
export class ListDeadLetterSourceQueuesCommand extends Command { static operation = "ListDeadLetterSourceQueues"; }
export class ListMessageMoveTasksCommand extends Command { static operation = "ListMessageMoveTasks"; }
export class ListQueueTagsCommand extends Command { static operation = "ListQueueTags"; }
export class ListQueuesCommand extends Command { static operation = "ListQueues"; }
export class PurgeQueueCommand extends Command { static operation = "PurgeQueue"; }
export class ReceiveMessageCommand extends Command { static operation = "ReceiveMessage"; }
export class RemovePermissionCommand extends Command { static operation = "RemovePermission"; }
export class SendMessageCommand extends Command { static operation = "SendMessage"; }
export class SendMessageBatchCommand extends Command { static operation = "SendMessageBatch"; }
export class SetQueueAttributesCommand extends Command { static operation = "SetQueueAttributes"; }
export class StartMessageMoveTaskCommand extends Command { static operation = "StartMessageMoveTask"; }
export class TagQueueCommand extends Command { static operation = "TagQueue"; }
export class UntagQueueCommand extends Command { static operation = "UntagQueue"; }

/** Operation name ("SendMessage") -> command class (SendMessageCommand). */
export const commands = Object.freeze({
  AddPermission: AddPermissionCommand,
  CancelMessageMoveTask: CancelMessageMoveTaskCommand,
  ChangeMessageVisibility: ChangeMessageVisibilityCommand,
  ChangeMessageVisibilityBatch: ChangeMessageVisibilityBatchCommand,
  CreateQueue: CreateQueueCommand,
  DeleteMessage: DeleteMessageCommand,
  DeleteMessageBatch: DeleteMessageBatchCommand,
  DeleteQueue: DeleteQueueCommand,
  GetQueueAttributes: GetQueueAttributesCommand,
  GetQueueUrl: GetQueueUrlCommand,
  ListDeadLetterSourceQueues: ListDeadLetterSourceQueuesCommand,
  ListMessageMoveTasks: ListMessageMoveTasksCommand,
  ListQueueTags: ListQueueTagsCommand,
  ListQueues: ListQueuesCommand,
  PurgeQueue: PurgeQueueCommand,
  ReceiveMessage: ReceiveMessageCommand,
  RemovePermission: RemovePermissionCommand,
  SendMessage: SendMessageCommand,
  SendMessageBatch: SendMessageBatchCommand,
  SetQueueAttributes: SetQueueAttributesCommand,
  StartMessageMoveTask: StartMessageMoveTaskCommand,
  TagQueue: TagQueueCommand,
  UntagQueue: UntagQueueCommand,
});

/** The 23 SQS operations the engine answers, in alphabetical order. */
export const OPERATIONS = Object.freeze(Object.keys(commands));
