// Generated from the simulation's SNS operations (sns/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

/** Base of the command classes (service-client.js): `input` is kept as given, as the SDK does. */
import { Command } from "./service-client.js";

export { Command };

// One class per operation, named as in @aws-sdk/client-sns so that swapping
// the import is all it takes to move to the SDK.
export class CreateTopicCommand extends Command { static operation = "CreateTopic"; }
export class DeleteTopicCommand extends Command { static operation = "DeleteTopic"; }
export class GetSubscriptionAttributesCommand extends Command { static operation = "GetSubscriptionAttributes"; }
export class GetTopicAttributesCommand extends Command { static operation = "GetTopicAttributes"; }
export class ListSubscriptionsByTopicCommand extends Command { static operation = "ListSubscriptionsByTopic"; }
export class ListTopicsCommand extends Command { static operation = "ListTopics"; }
export class PublishCommand extends Command { static operation = "Publish"; }
export class PublishBatchCommand extends Command { static operation = "PublishBatch"; }
export class SetSubscriptionAttributesCommand extends Command { static operation = "SetSubscriptionAttributes"; }
export class SetTopicAttributesCommand extends Command { static operation = "SetTopicAttributes"; }
export class SubscribeCommand extends Command { static operation = "Subscribe"; }
export class UnsubscribeCommand extends Command { static operation = "Unsubscribe"; }

/** Operation name ("Publish") -> command class (PublishCommand). */
export const commands = Object.freeze({
  CreateTopic: CreateTopicCommand,
  DeleteTopic: DeleteTopicCommand,
  GetSubscriptionAttributes: GetSubscriptionAttributesCommand,
  GetTopicAttributes: GetTopicAttributesCommand,
  ListSubscriptionsByTopic: ListSubscriptionsByTopicCommand,
  ListTopics: ListTopicsCommand,
  Publish: PublishCommand,
  PublishBatch: PublishBatchCommand,
  SetSubscriptionAttributes: SetSubscriptionAttributesCommand,
  SetTopicAttributes: SetTopicAttributesCommand,
  Subscribe: SubscribeCommand,
  Unsubscribe: UnsubscribeCommand,
});

/** The 12 SNS operations the engine answers, in alphabetical order. */
export const OPERATIONS = Object.freeze(Object.keys(commands));
