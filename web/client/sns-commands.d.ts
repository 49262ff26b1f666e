// Generated from the simulation's SNS operations (sns/api.rs) by crates/wasm/tests/contract.rs; do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

import type {
  MetadataBearer,
  CreateTopicInput,
  CreateTopicOutput,
  DeleteTopicInput,
  DeleteTopicOutput,
  GetSubscriptionAttributesInput,
  GetSubscriptionAttributesOutput,
  GetTopicAttributesInput,
  GetTopicAttributesOutput,
  ListSubscriptionsByTopicInput,
  ListSubscriptionsByTopicOutput,
  ListTopicsInput,
  ListTopicsOutput,
  PublishInput,
  PublishOutput,
  PublishBatchInput,
  PublishBatchOutput,
  SetSubscriptionAttributesInput,
  SetSubscriptionAttributesOutput,
  SetTopicAttributesInput,
  SetTopicAttributesOutput,
  SubscribeInput,
  SubscribeOutput,
  UnsubscribeInput,
  UnsubscribeOutput,
} from "./sns-client.js";

export type OperationName =
  | "CreateTopic"
  | "DeleteTopic"
  | "GetSubscriptionAttributes"
  | "GetTopicAttributes"
  | "ListSubscriptionsByTopic"
  | "ListTopics"
  | "Publish"
  | "PublishBatch"
  | "SetSubscriptionAttributes"
  | "SetTopicAttributes"
  | "Subscribe"
  | "Unsubscribe"
;

/** The 12 operations, in alphabetical order. */
export declare const OPERATIONS: readonly OperationName[];

import type { Command, InputArgs } from "./service-client.js";
export type { Command, InputArgs } from "./service-client.js";

export declare class CreateTopicCommand extends Command<CreateTopicInput, CreateTopicOutput> { static readonly operation: "CreateTopic" }
export declare class DeleteTopicCommand extends Command<DeleteTopicInput, DeleteTopicOutput> { static readonly operation: "DeleteTopic" }
export declare class GetSubscriptionAttributesCommand extends Command<GetSubscriptionAttributesInput, GetSubscriptionAttributesOutput> { static readonly operation: "GetSubscriptionAttributes" }
export declare class GetTopicAttributesCommand extends Command<GetTopicAttributesInput, GetTopicAttributesOutput> { static readonly operation: "GetTopicAttributes" }
export declare class ListSubscriptionsByTopicCommand extends Command<ListSubscriptionsByTopicInput, ListSubscriptionsByTopicOutput> { static readonly operation: "ListSubscriptionsByTopic" }
export declare class ListTopicsCommand extends Command<ListTopicsInput, ListTopicsOutput> { static readonly operation: "ListTopics" }
export declare class PublishCommand extends Command<PublishInput, PublishOutput> { static readonly operation: "Publish" }
export declare class PublishBatchCommand extends Command<PublishBatchInput, PublishBatchOutput> { static readonly operation: "PublishBatch" }
export declare class SetSubscriptionAttributesCommand extends Command<SetSubscriptionAttributesInput, SetSubscriptionAttributesOutput> { static readonly operation: "SetSubscriptionAttributes" }
export declare class SetTopicAttributesCommand extends Command<SetTopicAttributesInput, SetTopicAttributesOutput> { static readonly operation: "SetTopicAttributes" }
export declare class SubscribeCommand extends Command<SubscribeInput, SubscribeOutput> { static readonly operation: "Subscribe" }
export declare class UnsubscribeCommand extends Command<UnsubscribeInput, UnsubscribeOutput> { static readonly operation: "Unsubscribe" }

/** Operation name -> command class: `new commands.Publish(input)`. */
export declare const commands: {
  readonly CreateTopic: typeof CreateTopicCommand;
  readonly DeleteTopic: typeof DeleteTopicCommand;
  readonly GetSubscriptionAttributes: typeof GetSubscriptionAttributesCommand;
  readonly GetTopicAttributes: typeof GetTopicAttributesCommand;
  readonly ListSubscriptionsByTopic: typeof ListSubscriptionsByTopicCommand;
  readonly ListTopics: typeof ListTopicsCommand;
  readonly Publish: typeof PublishCommand;
  readonly PublishBatch: typeof PublishBatchCommand;
  readonly SetSubscriptionAttributes: typeof SetSubscriptionAttributesCommand;
  readonly SetTopicAttributes: typeof SetTopicAttributesCommand;
  readonly Subscribe: typeof SubscribeCommand;
  readonly Unsubscribe: typeof UnsubscribeCommand;
};

/** One camelCase method per operation: `client.publish(input)` is `client.send(new PublishCommand(input))`. */
export interface SnsClientMethods {
  createTopic(...[input]: InputArgs<CreateTopicInput>): Promise<CreateTopicOutput & MetadataBearer>;
  deleteTopic(...[input]: InputArgs<DeleteTopicInput>): Promise<DeleteTopicOutput & MetadataBearer>;
  getSubscriptionAttributes(...[input]: InputArgs<GetSubscriptionAttributesInput>): Promise<GetSubscriptionAttributesOutput & MetadataBearer>;
  getTopicAttributes(...[input]: InputArgs<GetTopicAttributesInput>): Promise<GetTopicAttributesOutput & MetadataBearer>;
  listSubscriptionsByTopic(...[input]: InputArgs<ListSubscriptionsByTopicInput>): Promise<ListSubscriptionsByTopicOutput & MetadataBearer>;
  listTopics(...[input]: InputArgs<ListTopicsInput>): Promise<ListTopicsOutput & MetadataBearer>;
  publish(...[input]: InputArgs<PublishInput>): Promise<PublishOutput & MetadataBearer>;
  publishBatch(...[input]: InputArgs<PublishBatchInput>): Promise<PublishBatchOutput & MetadataBearer>;
  setSubscriptionAttributes(...[input]: InputArgs<SetSubscriptionAttributesInput>): Promise<SetSubscriptionAttributesOutput & MetadataBearer>;
  setTopicAttributes(...[input]: InputArgs<SetTopicAttributesInput>): Promise<SetTopicAttributesOutput & MetadataBearer>;
  subscribe(...[input]: InputArgs<SubscribeInput>): Promise<SubscribeOutput & MetadataBearer>;
  unsubscribe(...[input]: InputArgs<UnsubscribeInput>): Promise<UnsubscribeOutput & MetadataBearer>;
}
