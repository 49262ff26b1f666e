// Generated from the Rust types by crates/wasm/tests/contract.rs (ts-rs); do not edit.
// Regenerate: QUEUELAB_BLESS=1 cargo test -p queuelab-wasm --features contract --test contract

/**
 * An SNS topic: what it published and what became of each subscription's
 * deliveries, for the page to draw the topic and its arrows.
 */
export type TopicSnapshot = { name: string, arn: string, fifo: boolean, 
/**
 * Publishes made (duplicates a FIFO topic dropped included).
 */
published: number, 
/**
 * Publishes a FIFO topic dropped as duplicates.
 */
deduplicated: number, subscriptions: Array<SubscriptionSnapshot>, };

/**
 * One queue subscribed to a topic, and what its deliveries came to.
 */
export type SubscriptionSnapshot = { queue: string, rawMessageDelivery: boolean, 
/**
 * It has a filter policy.
 */
filtered: boolean, deadLetterQueue?: string, 
/**
 * Messages the queue accepted.
 */
delivered: number, 
/**
 * Messages its filter policy kept from it.
 */
filteredOut: number, 
/**
 * Delivery attempts SQS refused.
 */
failed: number, 
/**
 * Messages sent to its dead-letter queue.
 */
deadLettered: number, 
/**
 * Messages discarded.
 */
dropped: number, 
/**
 * Deliveries waiting for a retry.
 */
retrying: number, 
/**
 * The latest refusal: SQS's code and words.
 */
lastFailure?: FailureSnapshot, };

/**
 * A refused delivery, as SQS answered it.
 */
export type FailureSnapshot = { code: string, error: string, clientSide: boolean, };

/**
 * An Amazon SNS topic in the queues' account and region: its ARN is
 * `arn:aws:sns:<region>:<account>:<name>`. It sends to each subscribed
 * queue as `sns.amazonaws.com` with `aws:SourceArn` the topic's ARN, so
 * a queue policy decides whether it may.
 */
export type Topic = { 
/**
 * Letters, digits, hyphens or underscores, a FIFO topic's ending in
 * .fifo (SNS's rule), at most 80 characters (SNS allows 256; every
 * name in the log stops at 80).
 */
name: string, 
/**
 * A FIFO topic (its name ends in .fifo): it keeps each publish's
 * group id and deduplicates publishes.
 */
fifo?: boolean, 
/**
 * FIFO only: the deduplication id of a publish without `dedupId` is
 * the SHA-256 of its message.
 */
contentBasedDeduplication?: boolean, 
/**
 * The queues it delivers to, each with its own options. At most 20.
 */
subscriptions: Array<Subscription>, 
/**
 * Messages published at given moments. At most 1,000.
 */
publishes?: Array<Publish>, 
/**
 * Messages published at a steady rate (`body` is the message; `{n}`
 * in it and in `groupId` numbers each publish).
 */
rate?: Rate, };

/**
 * A queue subscribed to a topic (an SNS subscription with protocol `sqs`).
 */
export type Subscription = { 
/**
 * One of the scenario's queues.
 */
queue: string, 
/**
 * RawMessageDelivery: the queue receives the message itself, its
 * attributes as SQS message attributes, rather than SNS's JSON
 * envelope. Default false.
 */
rawMessageDelivery?: boolean, 
/**
 * FilterPolicy: which messages this queue receives, as SNS's
 * subscription filter policy (a JSON object). Without one, all.
 */
filterPolicy?: Record<string, unknown>, 
/**
 * FilterPolicyScope: what the policy reads, the message's attributes
 * (the default) or its JSON body.
 */
filterPolicyScope?: FilterPolicyScope, 
/**
 * RedrivePolicy's deadLetterTargetArn: the queue that gets a message
 * SNS could not deliver (a client-side error, or retries used up).
 * Without one, such a message is dropped.
 */
deadLetterQueue?: string, };

/**
 * What a subscription's filter policy reads (SNS's `FilterPolicyScope`).
 */
export type FilterPolicyScope = "MessageAttributes" | "MessageBody";

/**
 * One Publish of a topic, at its moment.
 */
export type Publish = { atMs: number, 
/**
 * The message, 1 byte to 256 KiB (262,144 bytes) of UTF-8.
 */
message: string, 
/**
 * The Subject, at most 100 characters (the envelope's `Subject`).
 */
subject?: string, 
/**
 * Message attributes, at most 10: a string is a `String` attribute,
 * a number a `Number`, a list a `String.Array`.
 */
attributes?: Record<string, PublishAttribute>, 
/**
 * MessageGroupId (FIFO topics, where it is required).
 */
groupId?: string, 
/**
 * MessageDeduplicationId (FIFO topics without contentBasedDeduplication).
 */
dedupId?: string, };

/**
 * A message attribute's value, its SNS type chosen by its JSON type
 * (for the schema and the TypeScript types: the document keeps the JSON
 * value, which `Scenario::validate` holds to these three, as an untagged
 * enum's decoder would have cost the page's wasm kilobytes).
 */
export type PublishAttribute = string | number | Array<string | number | boolean | null>;

/**
 * A scenario bucket, as the page draws it.
 */
export type BucketSnapshot = { name: string, 
/**
 * `arn:aws:s3:::<name>`: the `aws:SourceArn` of its deliveries.
 */
arn: string, 
/**
 * `pending` until the configuration is saved, then `valid`, or
 * `failed` when S3 refused it (a queue refused its test event).
 */
configuration: "pending" | "valid" | "failed", 
/**
 * Why S3 refused the configuration: its words, the destination's
 * ARN and the queue's answer.
 */
configurationError?: string, notifications: Array<NotificationSnapshot>, 
/**
 * Objects held now.
 */
objects: number, 
/**
 * Objects put and deleted so far.
 */
puts: number, deletes: number, 
/**
 * The keys of the latest objects put (at most 10), newest last.
 */
recentKeys: Array<string>, 
/**
 * Notifications the queues took, and those they refused (lost).
 */
sent: number, failed: number, };

/**
 * One queue configuration of a bucket: the arrow to its queue.
 */
export type NotificationSnapshot = { id: string, queue: string, events: Array<string>, prefix?: string, suffix?: string, sent: number, failed: number, 
/**
 * The latest refusal of a delivery: SQS's code and words.
 */
lastError?: string, };

/**
 * An S3 bucket of the queues' account that tells queues of its objects:
 * its notification configuration is saved at `configuredAtMs` (S3 then
 * sends each queue its `s3:TestEvent`, and refuses the whole
 * configuration if a queue refuses that), then each object put or
 * deleted at its moment sends S3's event JSON to the queues whose
 * notification wants it.
 */
export type Bucket = { 
/**
 * S3's bucket naming rules: 3 to 63 lowercase letters, numbers,
 * periods and hyphens, beginning and ending with a letter or number.
 * Its deliveries carry it in the log (and `aws:SourceArn`
 * `arn:aws:s3:::<name>`).
 */
name: string, 
/**
 * When the notification configuration is saved
 * (PutBucketNotificationConfiguration). Default 0.
 */
configuredAtMs?: number, 
/**
 * The queue configurations, at most 10.
 */
notifications: Array<BucketNotification>, 
/**
 * Objects put and deleted, each at its `atMs`, at most 1,000.
 */
objects: Array<ObjectOperation>, };

/**
 * One queue configuration: these events of keys that match the filter go
 * to `queue`. Two configurations whose events meet may not have
 * overlapping filters (S3 refuses them).
 */
export type BucketNotification = { 
/**
 * Its `Id`, the records' `configurationId`, at most 80 characters.
 * Default: "notification-1", "notification-2", … by its place.
 */
id?: string, 
/**
 * One of the scenario's standard queues (S3 does not send to FIFO queues).
 */
queue: string, 
/**
 * `s3:ObjectCreated:*`, `s3:ObjectCreated:Put`, `:Post`, `:Copy`,
 * `:CompleteMultipartUpload`, `s3:ObjectRemoved:*`, `:Delete` or
 * `:DeleteMarkerCreated`.
 */
events: Array<string>, 
/**
 * Only keys that start with this (a key name filter's prefix rule).
 */
prefix?: string, 
/**
 * Only keys that end with this (a key name filter's suffix rule).
 */
suffix?: string, };

/**
 * A PutObject (`put`, with its `sizeBytes`) or a DeleteObject (`delete`)
 * of a key, at its moment.
 */
export type ObjectOperation = { atMs: number, 
/**
 * The key of an object put (1 to 1,024 bytes): `s3:ObjectCreated:Put`.
 */
put?: string, 
/**
 * The key of an object deleted: `s3:ObjectRemoved:Delete`.
 */
delete?: string, 
/**
 * A put object's size in bytes, up to S3's 5 TiB. Default 0.
 */
sizeBytes?: number, };

/**
 * What the page's snapshot shows of a function and its mapping.
 */
export type LambdaSnapshot = { name: string, queue: string, 
/**
 * The mapping: `enabled` (it polls), `disabled` (created stopped),
 * `refused` (Lambda refused to create it) or `creating` (before the
 * run's first moment).
 */
state: "creating" | "enabled" | "disabled" | "refused", 
/**
 * Pollers: the most batches the mapping hands over at once now.
 */
pollers: number, 
/**
 * Invocations running now.
 */
concurrency: number, 
/**
 * The first `MAX_SNAPSHOT_INVOCATIONS` (100) of them.
 */
running: Array<InvocationSnapshot>, 
/**
 * Invocations so far, those that ended in an error or a timeout, and
 * throttled hand-overs.
 */
invocations: number, errors: number, throttles: number, };

/**
 * One invocation running now: its batch and when it ends.
 */
export type InvocationSnapshot = { invocation: number, 
/**
 * The batch's first `MAX_SNAPSHOT_IDS` (100) message ids, in order.
 */
messages: Array<string>, 
/**
 * How many messages the batch holds.
 */
size: number, startedAt: number, 
/**
 * When it ends; while it waits for your code's answer (`awaiting`),
 * its timeout: the latest it can end.
 */
endsAt: number, 
/**
 * It waits for the answer of your code (the code cell's
 * `lambda.attach`), not yet given.
 */
awaiting: boolean, };

/**
 * One invocation waiting for the learner's code.
 */
export type PendingInvocation = { 
/**
 * The function's name.
 */
function: string, 
/**
 * The invocation's number (the log's `invocation`): what the answer names.
 */
invocation: number, startedAt: number, 
/**
 * Its timeout: with no answer by then, it times out.
 */
deadline: number, 
/**
 * The event JSON Lambda builds for the batch (`Records`), as text.
 */
event: string, };

/**
 * A Lambda function and its event source mapping on one of the
 * scenario's queues (CreateEventSourceMapping's parameters for Amazon
 * SQS, and the function's own settings). Lambda's pollers long-poll the
 * queue (WaitTimeSeconds 20, up to 10 messages a receive) under the
 * function's name, gather a batch, invoke the function with it, and
 * delete the messages it processed with DeleteMessageBatch.
 */
export type Lambda = { 
/**
 * The function's name, 1 to 64 letters, digits, hyphens or
 * underscores (Lambda's rule): the caller of its mapping's SQS calls
 * in the log.
 */
name: string, 
/**
 * The queue it reads: one of the scenario's queues.
 */
queue: string, 
/**
 * BatchSize: the most records in one invocation, 1 to 10,000 for a
 * standard queue, 1 to 10 for a FIFO queue. Above 10 needs a batching
 * window of at least 1 second. Default 10.
 */
batchSize: number, 
/**
 * MaximumBatchingWindowInSeconds: how long the pollers gather
 * records before invoking the function, counted from the batch's
 * first record, 0 to 300. A batch goes to the function as soon as it
 * holds `batchSize` records, the window ends, or the next record
 * would pass the 6 MB invocation payload. FIFO queues take no window.
 * Default 0.
 */
maximumBatchingWindowInSeconds: number, 
/**
 * FunctionResponseTypes: `["ReportBatchItemFailures"]` lets the
 * function return the records that failed (`batchItemFailures`), so
 * only those return to the queue. Without it, any error returns the
 * whole batch.
 */
functionResponseTypes?: Array<string>, 
/**
 * ScalingConfig's MaximumConcurrency: the most batches this mapping
 * hands to the function at once, 2 to 1,000. Default: no cap but
 * Lambda's own 1,000.
 */
maximumConcurrency?: number, 
/**
 * The function's reserved concurrency, 0 to 1,000: the most
 * invocations that run at once. The mapping does not read it: a
 * batch handed over when they are all busy is throttled, and stays
 * in flight while the poller retries. 0 throttles every invocation.
 * Default: none reserved (the account's 1,000).
 */
reservedConcurrency?: number, 
/**
 * The function's timeout, 1 to 900 seconds (Lambda's range): an
 * invocation still running then is stopped and its whole batch
 * returns to the queue. Lambda refuses to create the mapping when it
 * is above the queue's visibility timeout; AWS advises a visibility
 * timeout of at least six times the function's timeout, because a
 * batch can wait in the poller and be retried while the function is
 * throttled, its messages in flight all along. Default 3.
 */
timeoutSeconds: number, 
/**
 * Enabled: false creates the mapping stopped, so nothing polls.
 * Default true.
 */
enabled: boolean, 
/**
 * What the function's code does with each batch.
 */
handler: LambdaHandler, };

/**
 * The function's code, described: how long each record takes, which
 * records fail, and what it returns for them. It reads the event Lambda
 * builds (its `Records`' ids, bodies and group ids) and answers as a
 * handler would: a response, an error, or no answer before the timeout.
 */
export type LambdaHandler = { 
/**
 * How long one record takes, fixed or drawn from the seeded PRNG; an
 * invocation takes the sum over its batch's records.
 */
processing: Processing, 
/**
 * Records whose body contains any of these fail every time (poison
 * messages). At most 20, each at most 80 characters.
 */
failsOn?: Array<string>, 
/**
 * Fails every Nth record it handles (the Nth, 2Nth, …, counting
 * retries), whatever the body: a flaky dependency. 0: never. Default 0.
 */
failEveryNth: number, 
/**
 * A record whose body contains any of these hangs the function: the
 * invocation runs until its timeout. At most 20, each at most 80
 * characters.
 */
timesOutOn?: Array<string>, 
/**
 * With ReportBatchItemFailures, what the function returns when
 * records failed. Default "valid".
 */
response: BatchResponse, 
/**
 * What the function does for each record it processes without
 * failing (counted per message, as a consumer's side effect: a record
 * processed twice did it twice), at most 80 characters. Default
 * "charged".
 */
sideEffect: string, };

/**
 * What a function with ReportBatchItemFailures returns for its failed
 * records (with none failed, it returns an empty `batchItemFailures`).
 */
export type BatchResponse = "valid" | "unknownId" | "null" | "malformed" | "empty";

/**
 * An alarm's state, in CloudWatch's words.
 */
export type AlarmState = "OK" | "ALARM" | "INSUFFICIENT_DATA";

/**
 * One change of an alarm's state, at the end of the period that caused it.
 */
export type AlarmTransition = { atMs: number, from: AlarmState, to: AlarmState, reason: string, };

/**
 * A metric's identity: namespace, name and dimensions (sorted by name).
 */
export type MetricId = { namespace: string, metricName: string, dimensions: { [key in string]: string }, };

/**
 * The run's metrics, each with its datapoints, one per resolution step.
 */
export type MetricsSnapshot = { resolutionMs: number, series: Array<SeriesSnapshot>, };

/**
 * One metric and its steps: (step start, values), oldest first.
 */
export type SeriesSnapshot = { metric: MetricId, unit: string, points: Array<[number, StatSet]>, };

/**
 * The values a step or a period received: what every statistic needs.
 */
export type StatSet = { sum: number, sampleCount: number, minimum: number, maximum: number, };

/**
 * The run's metrics.
 */
export type Metrics = { 
/**
 * Seconds per datapoint: 60, as SQS and Lambda publish their metrics
 * (the default), or a finer teaching resolution (1, 5, 10 or 30) so
 * that a run of a minute or two shows periods and alarms.
 */
resolutionSeconds: number, 
/**
 * The metric the page's CloudWatch panel opens on, every queue's (or
 * function's) line of it on one picture: a name SQS or Lambda
 * publishes ("NumberOfEmptyReceives"). Without it the panel opens on
 * the first alarm, else on the visible messages.
 */
plot?: string | null, };

/**
 * How a period's datapoints become one value.
 */
export type Statistic = "Sum" | "Average" | "Minimum" | "Maximum" | "SampleCount";

/**
 * How a period's value is compared with the threshold.
 */
export type ComparisonOperator = "GreaterThanOrEqualToThreshold" | "GreaterThanThreshold" | "LessThanThreshold" | "LessThanOrEqualToThreshold";

/**
 * What a period with no datapoint counts as.
 */
export type TreatMissingData = "missing" | "notBreaching" | "breaching" | "ignore";

/**
 * KMS requests an SSE-KMS queue made, by operation (kms.rs).
 */
export type KmsRequests = { generateDataKey: number, decrypt: number, };

/**
 * The two KMS operations SQS calls for SSE-KMS.
 */
export type KmsApi = "GenerateDataKey" | "Decrypt";

/**
 * A customer managed KMS key, made at time 0.
 */
export type KeySpec = { 
/**
 * Its alias, `alias/` then letters, digits, `/`, `_` or `-`
 * (`alias/aws/` is AWS's).
 */
alias: string, 
/**
 * Who the key policy lets use the key (kms:GenerateDataKey,
 * kms:Decrypt) besides the owner account: `sns.amazonaws.com`,
 * `s3.amazonaws.com` or a 12-digit account id. A service that sends
 * to a queue encrypted with a key that does not allow it fails with
 * KMS.AccessDeniedException.
 */
allow?: Array<string>, };

/**
 * A queue's server-side encryption.
 */
export type Encryption = EncryptionName | KmsEncryption;

export type EncryptionName = "sqs" | "none";

/**
 * SSE-KMS with a key: SQS asks KMS for a data key (GenerateDataKey) and
 * to decrypt one (Decrypt) once per reuse period per caller.
 */
export type KmsEncryption = { 
/**
 * The key's alias: one of the scenario's `keys`, or `alias/aws/sqs`.
 */
kmsKey: string, 
/**
 * KmsDataKeyReusePeriodSeconds, 60 to 86400 (default 300).
 */
dataKeyReusePeriodSeconds?: number, };

/**
 * Why a call was allowed or refused, as data (the page words it).
 */
export type AccessReason = { "kind": "ownerAccount" } | { "kind": "allowed", statement: StatementRef, matched: Array<ConditionMatch>, } | { "kind": "denied", statement: StatementRef, matched: Array<ConditionMatch>, } | { "kind": "noStatementAllows" } | { "kind": "ownerOnly" } | { "kind": "otherAccount" } | { "kind": "noSuchQueue" };

/**
 * Which statement decided: its `Sid`, if it has one, and its place in the
 * policy (counting from 1).
 */
export type StatementRef = { sid: string | null, index: number, };

/**
 * A condition that held: its operator, key, and the request's value of
 * the key (`None` when the request has none, which a negated or
 * IfExists operator accepts).
 */
export type ConditionMatch = { operator: string, key: string, value: string | null, };

/**
 * One entry of the log: what changed (its `EventKind`), its place in the
 * log (`seq`, counting from 1 and never reused) and the virtual moment.
 */
export type SqsEvent = { seq: number, timeMs: number, } & ({ "type": "queueCreated", queue: string, fifo: boolean, } | { "type": "queueDeleted", queue: string, } | { "type": "queuePurged", queue: string, count: number, } | { "type": "sent", queue: string, messageId: MessageId, 
/**
 * The first 80 characters of the body, to name the message by.
 */
label: string, group: string | null, delayedUntil: number | null, 
/**
 * Its size as SQS counts it, body and attributes, in bytes
 * (CloudWatch's SentMessageSize).
 */
size: number, by: string | null, } | { "type": "duplicateDropped", queue: string, messageId: MessageId, dedupId: string, by: string | null, } | { "type": "delayEnded", queue: string, messageId: MessageId, } | { "type": "received", queue: string, messageId: MessageId, by: string | null, receiveCount: number, visibleAt: number, previousHolder: string | null, } | { "type": "visibilityChanged", queue: string, messageId: MessageId, by: string | null, visibleAt: number, } | { "type": "visibilityExpired", queue: string, messageId: MessageId, holder: string | null, } | { "type": "deleted", queue: string, messageId: MessageId, by: string | null, } | { "type": "deleteMissedCopy", queue: string, messageId: MessageId, by: string | null, } | { "type": "movedToDeadLetterQueue", queue: string, deadLetterQueue: string, messageId: MessageId, receiveCount: number, } | { "type": "redriven", queue: string, destination: string, messageId: MessageId, newMessageId: MessageId, } | { "type": "expired", queue: string, messageId: MessageId, } | { "type": "purged", queue: string, messageId: MessageId, } | { "type": "groupLocked", queue: string, group: string, } | { "type": "groupUnlocked", queue: string, group: string, cause: UnlockCause, } | { "type": "emptyReceive", queue: string, by: string | null, } | { "type": "moveTaskStarted", source: string, task: number, } | { "type": "moveTaskCancelling", source: string, task: number, moved: number, } | { "type": "moveTaskEnded", source: string, task: number, status: string, moved: number, } | { "type": "permissionAdded", queue: string, label: string, accounts: Array<string>, actions: Array<string>, by: string | null, } | { "type": "permissionRemoved", queue: string, label: string, by: string | null, } | { "type": "accessDecided", queue: string, action: string, by: string | null, 
/**
 * Who called: an account id, an IAM ARN, or a service's name.
 */
principal: string, allowed: boolean, reason: AccessReason, } | { "type": "kmsRequested", queue: string, api: KmsApi, key: string, by: string | null, });

/**
 * What changed: one variant per kind of state change of a queue, a message,
 * a FIFO group, a move task or a queue's policy, tagged by `type`
 * (camelCase). `by`, where a kind has it, names the caller who acted
 * (none for a call with no caller's name). A stored message leaves its
 * queue by one of `deleted`, `expired`, `purged`,
 * `movedToDeadLetterQueue` or `redriven` (as a new message with a new
 * id), or with its whole queue (`queueDeleted`).
 */
export type EventKind = { "type": "queueCreated", queue: string, fifo: boolean, } | { "type": "queueDeleted", queue: string, } | { "type": "queuePurged", queue: string, count: number, } | { "type": "sent", queue: string, messageId: MessageId, 
/**
 * The first 80 characters of the body, to name the message by.
 */
label: string, group: string | null, delayedUntil: number | null, 
/**
 * Its size as SQS counts it, body and attributes, in bytes
 * (CloudWatch's SentMessageSize).
 */
size: number, by: string | null, } | { "type": "duplicateDropped", queue: string, messageId: MessageId, dedupId: string, by: string | null, } | { "type": "delayEnded", queue: string, messageId: MessageId, } | { "type": "received", queue: string, messageId: MessageId, by: string | null, receiveCount: number, visibleAt: number, previousHolder: string | null, } | { "type": "visibilityChanged", queue: string, messageId: MessageId, by: string | null, visibleAt: number, } | { "type": "visibilityExpired", queue: string, messageId: MessageId, holder: string | null, } | { "type": "deleted", queue: string, messageId: MessageId, by: string | null, } | { "type": "deleteMissedCopy", queue: string, messageId: MessageId, by: string | null, } | { "type": "movedToDeadLetterQueue", queue: string, deadLetterQueue: string, messageId: MessageId, receiveCount: number, } | { "type": "redriven", queue: string, destination: string, messageId: MessageId, newMessageId: MessageId, } | { "type": "expired", queue: string, messageId: MessageId, } | { "type": "purged", queue: string, messageId: MessageId, } | { "type": "groupLocked", queue: string, group: string, } | { "type": "groupUnlocked", queue: string, group: string, cause: UnlockCause, } | { "type": "emptyReceive", queue: string, by: string | null, } | { "type": "moveTaskStarted", source: string, task: number, } | { "type": "moveTaskCancelling", source: string, task: number, moved: number, } | { "type": "moveTaskEnded", source: string, task: number, status: string, moved: number, } | { "type": "permissionAdded", queue: string, label: string, accounts: Array<string>, actions: Array<string>, by: string | null, } | { "type": "permissionRemoved", queue: string, label: string, by: string | null, } | { "type": "accessDecided", queue: string, action: string, by: string | null, 
/**
 * Who called: an account id, an IAM ARN, or a service's name.
 */
principal: string, allowed: boolean, reason: AccessReason, } | { "type": "kmsRequested", queue: string, api: KmsApi, key: string, by: string | null, };

/**
 * One event of the run. Serialized exactly like the engine's `Event`:
 * `seq`, `timeMs` and the fields of its kind, with `type` naming it.
 */
export type QueuelabEvent = { seq: number, timeMs: number, } & (EventKind | SimEvent);

/**
 * Whose event: the engine's (SQS) or the simulation's.
 */
export type EventKindOfRun = EventKind | SimEvent;

/**
 * What a scenario's simulated workers, producers, narration and alarms do.
 */
export type SimEvent = { "type": "narration", text: string, } | { "type": "processingStarted", consumer: string, queue: string, messageId: string, receiveCount: number, until: number, } | { "type": "duplicateDelivery", consumer: string, queue: string, messageId: string, receiveCount: number, alsoHeldBy: string, } | { "type": "sideEffectPerformed", consumer: string, messageId: string, effect: string, count: number, } | { "type": "skippedAlreadyProcessed", consumer: string, messageId: string, } | { "type": "processingFailed", consumer: string, messageId: string, receiveCount: number, } | { "type": "workerCrashed", consumer: string, messageId: string, beforeSideEffect: boolean, } | { "type": "workerRestarted", consumer: string, } | { "type": "messageLost", consumer: string, messageId: string, handlerCrashed: boolean, } | { "type": "payloadResolved", consumer: string, messageId: string, bucket: string, key: string, sizeBytes: number, } | { "type": "payloadMissing", consumer: string, messageId: string, bucket: string, key: string, code: string, error: string, } | { "type": "operatorCalled", operator: string, action: string, queue: string, destination?: string, rate?: number, } | { "type": "actionFailed", actor: string, action: string, code: string, error: string, } | { "type": "requestSent", requester: string, correlationId: string, messageId: string, replyQueue: string, } | { "type": "replySent", responder: string, correlationId: string, messageId: string, requestId: string, queue: string, } | { "type": "replyMatched", requester: string, correlationId: string, queue: string, latencyMs: number, late: boolean, } | { "type": "replyWaitEnded", requester: string, correlationId: string, queue: string, waitedMs: number, } | { "type": "replyLost", responder: string, correlationId: string, queue: string, } | { "type": "bucketObjectChanged", bucket: string, eventName: string, key: string, sizeBytes?: number, } | { "type": "bucketConfigured", bucket: string, queues: Array<string>, } | { "type": "bucketConfigurationFailed", bucket: string, queue: string, destination: string, code: string, error: string, s3Code: string, s3Error: string, } | { "type": "bucketNotified", bucket: string, queue: string, eventName: string, key: string, } | { "type": "bucketDeliveryFailed", bucket: string, queue: string, eventName: string, key: string, code: string, error: string, } | { "type": "topicPublished", topic: string, messageId: string, deduplicated: boolean, } | { "type": "topicFilteredOut", topic: string, queue: string, messageId: string, } | { "type": "topicDelivered", topic: string, queue: string, messageId: string, attempt: number, } | { "type": "topicDeliveryFailed", topic: string, queue: string, messageId: string, attempt: number, code: string, error: string, clientSide: boolean, retryAt?: number, } | { "type": "topicDeadLettered", topic: string, queue: string, deadLetterQueue: string, messageId: string, } | { "type": "topicDropped", topic: string, queue: string, messageId: string, reason: "noDeadLetterQueue" | "deadLetterQueueRefused", } | { "type": "alarmChanged", alarm: string, 
/**
 * The queue of an AWS/SQS metric.
 */
queue: string | null, metric: string, from: AlarmState, to: AlarmState, reason: string, actions: Array<string>, } | { "type": "lambdaInvoked", function: string, invocation: number, messages: Array<string>, bytes: number, } | { "type": "lambdaReturned", function: string, invocation: number, durationMs: number, result: "success" | "error" | "timeout" | "partial" | "invalidResponse", failed: Array<string>, why?: string, } | { "type": "lambdaThrottled", function: string, messages: Array<string>, } | { "type": "eventSourceMappingRefused", function: string, queue: string, code: string, error: string, } | { "type": "lambdaScaled", function: string, pollers: number, } | { "type": "narrationWithheld", text: string, reason: string, } | { "type": "checkpointAsked", id: string, question: string, choices: Array<string>, } | { "type": "checkpointAnswered", id: string, choice?: number, 
/**
 * The choice's text, or words saying none of them happened.
 */
answer: string, because?: string, };

/**
 * A message id: 16 random bytes shown as a version-4 UUID.
 */
export type MessageId = string;

/**
 * The engine's snapshot with the scenario's workers and counts beside it.
 */
export type Snapshot = { 
/**
 * The scenario's part (empty lists without a scenario).
 */
simulation: SimulationSnapshot, timeMs: number, nextEventSeq: number, waitingPolls: number, queues: Array<QueueSnapshot>, };

export type EngineSnapshot = { timeMs: number, nextEventSeq: number, waitingPolls: number, queues: Array<QueueSnapshot>, };

export type QueueSnapshot = { name: string, url: string, arn: string, fifo: boolean, visibilityTimeoutSeconds: number, delaySeconds: number, messageRetentionPeriodSeconds: number, deadLetterTargetArn: string | null, maxReceiveCount: number | null, 
/**
 * Its role in redrive: the name of the dead-letter queue its redrive
 * policy names (when that queue exists) ...
 */
deadLetterQueue: string | null, 
/**
 * ... and the queues whose redrive policy names it as theirs, by name.
 */
deadLetterSources: Array<string>, visible: number, inFlight: number, delayed: number, 
/**
 * Virtual ms when the oldest message was enqueued (retention age).
 */
oldestEnqueuedAt: number | null, 
/**
 * Its stored messages in queue order (the order they were stored in,
 * which is the order the page draws them); in a windowed snapshot
 * only the first `messagesPerQueue` of them.
 */
messages: Array<MessageSnapshot>, 
/**
 * Only in a windowed snapshot: the stored messages the window left out
 * of `messages` (`visible + inFlight + delayed - messages.length`).
 */
messagesOmitted?: number, 
/**
 * FIFO message groups in name order; in a windowed snapshot only the
 * groups of the messages listed.
 */
groups: Array<GroupSnapshot>, 
/**
 * Only in a windowed snapshot: the groups it left out of `groups`.
 */
groupsOmitted?: number, 
/**
 * Server-side encryption: `sse-sqs` (SqsManagedSseEnabled, AWS's
 * default), `sse-kms` (a KmsMasterKeyId) or `none`.
 */
encryption: "none" | "sse-sqs" | "sse-kms", 
/**
 * SSE-KMS: the key, named by its first alias when it exists, else
 * the queue's KmsMasterKeyId as set.
 */
kmsKey: string | null, 
/**
 * SSE-KMS: the data key reuse period (KmsDataKeyReusePeriodSeconds).
 */
kmsDataKeyReusePeriodSeconds: number | null, 
/**
 * The KMS requests SQS made for this queue's sends and receives.
 */
kmsRequests: KmsRequests, };

export type MessageSnapshot = { messageId: MessageId, 
/**
 * The body's first `BODY_PREVIEW_BYTES` (1 KiB, cut on a character
 * boundary) in a snapshot or a page; the whole body in a peek.
 */
body: string, 
/**
 * The whole body's length in bytes of UTF-8 (as SQS counts it).
 */
bodyBytes: number, 
/**
 * `body` is only the body's beginning: `peek` gives the whole of it.
 */
bodyTruncated: boolean, 
/**
 * `delayed`, `visible` or `in-flight`.
 */
state: "delayed" | "visible" | "in-flight", group: string | null, receiveCount: number, 
/**
 * When a delayed or in-flight message becomes visible.
 */
visibleAt: number | null, sentAt: number, 
/**
 * The caller that received it last: kept after its visibility timeout
 * runs out, until the next receive (none before the first receive, or
 * after a dead-letter move or a redrive).
 */
holder: string | null, 
/**
 * Every consumer that received it in this queue, the current holder
 * last (an earlier one may still be working on it after its
 * visibility timeout ran out).
 */
holders: Array<string>, 
/**
 * When an in-flight message's visibility window began (its latest
 * receive or visibility change).
 */
inFlightSince: number | null, receiptHandle: string | null, sequenceNumber: string | null, deadLetterSourceArn: string | null, };

export type GroupSnapshot = { group: string, locked: boolean, messages: number, };

/**
 * A snapshot without messages or settings: counts by state per queue.
 */
export type Counts = { timeMs: number, queues: Array<QueueCounts>, };

export type QueueCounts = { name: string, visible: number, inFlight: number, delayed: number, };

/**
 * The simulation's part of a snapshot.
 */
export type SimulationSnapshot = { title: string, 
/**
 * The scenario's summary, its `{placeholders}` filled from the run's
 * settings (a learner's 5 s is said as 5 s).
 */
summary: string, durationMs: number, finished: boolean, 
/**
 * The latest narration line shown.
 */
narration: string | null, 
/**
 * The simulation's own sentence for the latest key moment (a duplicate
 * delivery, a DLQ move, a group lock…), unless an authored line was
 * shown at or after it: the message, the worker, the numbers and the
 * SQS rule, from the run's events.
 */
explanation: string | null, 
/**
 * What the run did so far, counted from its events (the recap at its end).
 */
outcome: Outcome, producers: Array<ProducerSnapshot>, workers: Array<WorkerSnapshot>, 
/**
 * The first `MAX_SIDE_EFFECT_DETAILS` messages' side effects (or
 * those changed since the page's last read).
 */
sideEffects: Array<SideEffect>, 
/**
 * Messages handled past those, whose details the ledger did not keep
 * (only their counts, while they may still be handled).
 */
sideEffectsOmitted: number, 
/**
 * The CloudWatch alarms, their states and changes of state.
 */
alarms: Array<AlarmSnapshot>, 
/**
 * The scenario's S3 buckets, their notifications' arrows and counts.
 */
buckets: Array<BucketSnapshot>, 
/**
 * SNS topics and their subscriptions.
 */
topics: Array<TopicSnapshot>, 
/**
 * Lambda functions, their event source mappings' pollers and the
 * invocations running.
 */
lambdas: Array<LambdaSnapshot>, };

/**
 * What the run did, counted from its events: the end-of-run recap.
 */
export type Outcome = { 
/**
 * Receives of a message another worker still held.
 */
duplicateDeliveries: number, 
/**
 * Work lost: deleted before processing, then the worker failed.
 */
lost: number, 
/**
 * Messages whose retention period ended before anyone deleted them.
 */
expired: number, 
/**
 * Messages moved to a dead-letter queue.
 */
deadLettered: number, 
/**
 * Receives that returned no message.
 */
emptyReceives: number, 
/**
 * The longest a message waited between being sent (or its delay
 * ending) and its first receive, or until now if it is still waiting.
 */
longestWaitMs: number, 
/**
 * The body of the message that waited longest (its label).
 */
longestWaitLabel: string | null, 
/**
 * The requests the run was billed and their cost (the engine's meter).
 */
bill: Bill, 
/**
 * Queues created and deleted while the run went (a requester's reply
 * queues; the scenario's own, made at time 0, are not counted).
 */
queuesCreated: number, queuesDeleted: number, 
/**
 * Requesters' replies matched to their requests (`repliesLate` of
 * them after the wait had ended), waits that ended with no reply,
 * and replies lost because their reply queue was gone.
 */
repliesMatched: number, repliesLate: number, replyWaitsEnded: number, repliesLost: number, };

/**
 * What the run's SQS requests cost, with the prices it was billed at so
 * a page says them without a copy of the price list.
 */
export type Bill = { 
/**
 * Requests billed, every caller's (scenario's and learner's).
 */
requests: number, 
/**
 * Of those, the ones on FIFO queues (billed at the FIFO price).
 */
fifoRequests: number, 
/**
 * Their cost at list price, in nano-US-dollars (exact).
 */
costNanoUsd: number, 
/**
 * The SQS requests of each caller who made the most (at most
 * [`MAX_BILL_CALLERS`], most requests first, then by name; `null`:
 * calls made under no name, the scenario's setup among them), so a
 * recap can say who the bill is for.
 */
callers: Array<CallerBill>, 
/**
 * Callers past [`MAX_BILL_CALLERS`] whose requests are in `requests`
 * but not listed in `callers`.
 */
callersOmitted: number, 
/**
 * The price of one request on a standard queue, nano-US-dollars.
 */
standardPriceNanoUsd: number, 
/**
 * The price of one request on a FIFO queue, nano-US-dollars.
 */
fifoPriceNanoUsd: number, 
/**
 * KMS requests SSE-KMS queues made (GenerateDataKey and Decrypt),
 * billed by KMS, not SQS: apart from `requests` and `costNanoUsd`.
 */
kmsRequests: number, 
/**
 * Their cost at KMS's list price, in nano-US-dollars (exact).
 */
kmsCostNanoUsd: number, 
/**
 * The price of one KMS request, nano-US-dollars ($0.03 per 10,000).
 */
kmsPriceNanoUsd: number, 
/**
 * S3 requests made of the run's buckets (a large payload's PutObject,
 * GetObject and DeleteObject among them), billed by S3, not SQS:
 * apart from `requests` and `costNanoUsd`.
 */
s3Requests: number, 
/**
 * Of those, PUT, COPY, POST and LIST requests (PutObject,
 * ListObjectsV2, CreateBucket, PutBucketNotificationConfiguration).
 */
s3PutRequests: number, 
/**
 * Of those, GET requests (GetObject). DELETE requests are free.
 */
s3GetRequests: number, 
/**
 * Their cost at S3 Standard's list price, in nano-US-dollars (exact).
 */
s3CostNanoUsd: number, 
/**
 * The price of one PUT-class request ($0.005 per 1,000), nano-US-dollars.
 */
s3PutPriceNanoUsd: number, 
/**
 * The price of one GET request ($0.0004 per 1,000), nano-US-dollars.
 */
s3GetPriceNanoUsd: number, };

/**
 * One caller's share of the bill.
 */
export type CallerBill = { 
/**
 * The caller's name, as the log names it (`null`: no name).
 */
caller: string | null, 
/**
 * Its SQS requests.
 */
requests: number, 
/**
 * Their cost at list price, in nano-US-dollars (exact).
 */
costNanoUsd: number, };

/**
 * What one of the scenario's senders (a producer, or a schedule) has
 * done so far.
 */
export type ProducerSnapshot = { name: string, queue: string, 
/**
 * Sends that put a new message in the queue.
 */
sent: number, 
/**
 * Sends SQS accepted but dropped as duplicates (FIFO deduplication).
 */
deduplicated: number, 
/**
 * Sends SQS refused (an `actionFailed` event says why).
 */
failed: number, };

export type WorkerSnapshot = { name: string, queue: string, 
/**
 * `idle`, `polling`, `processing`, `crashed` or `stopped`.
 */
state: "idle" | "polling" | "processing" | "crashed" | "stopped", holding: Array<HeldSnapshot>, 
/**
 * Start and end of the current message's processing.
 */
startedAt: number | null, doneAt: number | null, sideEffects: number, 
/**
 * ReceiveMessage requests the engine billed to this worker so far
 * (empty ones included): what short and long polling cost.
 */
receiveRequests: number, };

export type HeldSnapshot = { messageId: string, 
/**
 * The body's first `BODY_PREVIEW_BYTES` (1 KiB, cut on a character
 * boundary), as the engine's snapshot gives a stored message's: a
 * worker holding 1 MiB bodies must not put them in every snapshot.
 */
body: string, 
/**
 * The whole body's length in bytes of UTF-8.
 */
bodyBytes: number, 
/**
 * `body` is only the body's beginning: `peek` gives the whole of it.
 */
bodyTruncated: boolean, receiveCount: number, 
/**
 * Being processed now (the others of a batch wait their turn or are done).
 */
current: boolean, done: boolean, failed: boolean, };

/**
 * How often a side effect happened to one message.
 */
export type SideEffect = { messageId: string, 
/**
 * The message's body, up to its first 100 characters (then "…").
 */
body: string, effect: string, count: number, 
/**
 * Who performed it, in order (a name repeats if it did it twice).
 */
by: Array<string>, };

/**
 * An alarm as the page shows it: its definition, its state and why, and
 * its changes of state.
 */
export type AlarmSnapshot = { name: string, 
/**
 * The queue of an AWS/SQS metric (its QueueName dimension).
 */
queue: string | null, metric: MetricId, statistic: Statistic, periodSeconds: number, evaluationPeriods: number, datapointsToAlarm: number, threshold: number, comparisonOperator: ComparisonOperator, treatMissingData: TreatMissingData, state: AlarmState, 
/**
 * In ALARM now.
 */
inAlarm: boolean, 
/**
 * Why it is in its state, from its latest evaluation.
 */
reason: string, 
/**
 * Its changes of state, oldest first (the latest `MAX_ALARM_HISTORY`).
 */
history: Array<AlarmTransition>, 
/**
 * Each period it judged, oldest first: the period's end and the
 * statistic's value (None: no datapoint), the latest
 * `MAX_ALARM_DATAPOINTS`.
 */
datapoints: Array<[number, number | null]>, };

/**
 * Everything about one stored message, without changing it (the page's
 * "peek"): unlike a receive, this is not an SQS operation and has no effect.
 */
export type MessagePeek = { queue: string, message: MessageSnapshot, 
/**
 * String and Number attributes as text, Binary ones as base64.
 */
attributes: Array<PeekAttribute>, dedupId: string | null, 
/**
 * Every receipt handle this queue issued for the message, oldest first
 * (a dead-lettered message's earlier handles belong to its source queue).
 */
receiptHandles: Array<string>, };

export type PeekAttribute = { name: string, dataType: string, value: string, };

/**
 * One page of one queue's messages (`queueMessages`): messages
 * `offset .. offset + messages.length` of `total`, in queue order.
 */
export type MessagePage = { queue: string, url: string, 
/**
 * Every message the queue stores now.
 */
total: number, offset: number, messages: Array<MessageSnapshot>, 
/**
 * The offset of the next page, or null when this page is the last.
 */
nextOffset: number | null, };

/**
 * Queues, producers, simulated consumers and narration, replayed
 * deterministically from a seed. Times are virtual milliseconds from the
 * start of the run.
 */
export type Scenario = { 
/**
 * Short title shown in the picker.
 */
title: string, 
/**
 * One or two sentences on what the scenario teaches; `{queue.property}`
 * placeholders quote the run's settings, as in narration.
 */
summary: string, 
/**
 * PRNG seed: the same seed replays the same run. Default 0.
 */
seed: number, 
/**
 * How long the run lasts, in virtual ms.
 */
durationMs: number, 
/**
 * SQS's request quotas apply (a FIFO queue's 300 transactions per
 * second per action; high throughput's per region and message group):
 * a call past one answers `RequestThrottled`. Off by default.
 */
throttling?: boolean, 
/**
 * The wall-clock moment virtual time 0 stands for, in epoch
 * milliseconds (`1796374800000` is 2026-12-04T09:00:00Z): every
 * timestamp SQS reports, and the time a schedule's `at` names,
 * count from it. Replaces the host's own start when given; at most
 * 253402300799999 (9999-12-31T23:59:59.999Z).
 */
startEpochMs?: number, 
/**
 * KMS keys made at time 0, before the queues, for queues encrypted
 * with SSE-KMS (`encryption.kmsKey`). The AWS managed key
 * `alias/aws/sqs` always exists besides them. At most 20.
 */
keys?: Array<KeySpec>, 
/**
 * Queues created at time 0, in this order: a dead-letter queue comes
 * before the queues that use it. At most 100.
 */
queues: Array<QueueSpec>, 
/**
 * At most 100.
 */
producers: Array<Producer>, 
/**
 * Messages sent at given moments, however far ahead (`Schedule`).
 */
schedule?: Array<Schedule>, 
/**
 * Clients of the request-response pattern (`Requester`): each sends
 * requests with `ReplyTo` and `CorrelationId` and waits for the
 * reply on its reply queue. At most 20.
 */
requesters?: Array<Requester>, 
/**
 * Services that answer requests to the queue each names in `ReplyTo`
 * (`Responder`). At most 20.
 */
responders?: Array<Responder>, 
/**
 * At most 100 workers in all, each consumer counting its `replicas`.
 */
consumers: Array<Consumer>, 
/**
 * An operator's calls at given moments (`Operator`): purging a queue,
 * redriving a dead-letter queue and cancelling the redrive.
 */
operators?: Array<Operator>, 
/**
 * SNS topics that publish and fan out to subscribed queues (`Topic`).
 */
topics?: Array<Topic>, 
/**
 * Lines shown and announced at given moments.
 */
narration: Array<Narration>, 
/**
 * Questions the run pauses on ("predict, then see"): the learner
 * answers, then the run shows what happened.
 */
checkpoints?: Array<Checkpoint>, 
/**
 * How finely the run keeps CloudWatch metrics (default: each minute,
 * as SQS publishes them).
 */
metrics?: Metrics | null, 
/**
 * CloudWatch alarms on the run's metrics, at most 20.
 */
alarms?: Array<Alarm>, 
/**
 * S3 buckets whose event notifications send to the scenario's queues
 * (`Bucket`), at most 20.
 */
buckets?: Array<Bucket>, 
/**
 * Lambda functions, each with an event source mapping on one of the
 * queues (`Lambda`), at most 20.
 */
lambdas?: Array<Lambda>, 
/**
 * A lab's goal: what a fixed system achieves over every seed of
 * "Check my fix". A scenario with a goal is a lab.
 */
goal?: Goal, 
/**
 * A lab's settings the learner may change, with their ranges.
 */
knobs?: Array<Knob>, 
/**
 * A lab's hints, cause and standard fix, and the fixes and non-fixes
 * its tests prove.
 */
explain?: Explain, };

/**
 * A queue to create at time 0. Queues are created in the order listed, so
 * a dead-letter queue comes before the queues that use it.
 */
export type QueueSpec = { 
/**
 * FIFO queue names end in .fifo.
 */
name: string, visibilityTimeoutSeconds: number | null, delaySeconds: number | null, messageRetentionPeriodSeconds: number | null, receiveMessageWaitTimeSeconds: number | null, 
/**
 * `MaximumMessageSize`: the largest message the queue takes, 1,024 to
 * 1,048,576 bytes (SQS's default, 1 MiB; 262,144 was the largest
 * before August 2025). A larger send is refused in SQS's words.
 */
maximumMessageSizeBytes?: number, 
/**
 * FIFO only.
 */
contentBasedDeduplication: boolean | null, 
/**
 * FIFO only.
 */
deduplicationScope: "queue" | "messageGroup" | null, 
/**
 * FIFO only: `perMessageGroupId` with `deduplicationScope`
 * `messageGroup` is high throughput mode (its quotas apply per message
 * group when the scenario's `throttling` is on); `perQueue` is not.
 */
fifoThroughputLimit?: "perQueue" | "perMessageGroupId" | null, 
/**
 * Moves messages to `deadLetterQueue` after `maxReceiveCount` receives.
 */
redrive: Redrive | null, 
/**
 * The queue's access policy (its `Policy` attribute), a JSON object as
 * SetQueueAttributes takes it: who besides the queues' own account may
 * call (an SNS topic, an S3 bucket, another account). Without one,
 * only the queues' own account.
 */
policy?: Record<string, unknown>, 
/**
 * Server-side encryption: `"sqs"` (SSE-SQS, AWS's default for a new
 * queue, when left out), `"none"`, or SSE-KMS with one of the
 * scenario's `keys` (or `alias/aws/sqs`).
 */
encryption?: Encryption, };

export type Redrive = { 
/**
 * Name of a queue listed earlier.
 */
deadLetterQueue: string, maxReceiveCount: number, };

/**
 * Something that sends messages: at fixed moments, or at a steady rate.
 */
export type Producer = { 
/**
 * Its name in the log, at most 80 characters (every send records it).
 */
name: string, queue: string, 
/**
 * The AWS account it calls from: another account's 12-digit id
 * ("111111111111") or an IAM ARN in it (`arn:aws:iam::111111111111:root`,
 * `…:user/name`, `…:role/name`). Default: the queues' own account.
 * Its calls are that account's, under its name in the log (a queue
 * policy decides whether it may make them).
 */
account?: string, sends: Array<ScheduledSend>, rate: Rate | null, 
/**
 * Sends bodies too large for its threshold through one of the
 * scenario's buckets: each such body is put there as an object (a
 * UUID key) and a pointer to it is sent instead.
 */
offload?: Offload, };

export type ScheduledSend = { 
/**
 * When it is sent, in virtual ms from the start (default 0). Not with `at`.
 */
atMs: number, 
/**
 * When it is sent, as a wall-clock time in UTC
 * ("2026-12-04T09:00:00Z"), counted from the scenario's
 * `startEpochMs` (which it needs): a one-time schedule, as
 * EventBridge Scheduler's `at(…)`. Within the run. Not with `atMs`.
 */
at?: string, body: string, 
/**
 * MessageGroupId (required on FIFO queues).
 */
groupId: string | null, 
/**
 * MessageDeduplicationId (FIFO).
 */
dedupId: string | null, delaySeconds: number | null, 
/**
 * String message attributes.
 */
attributes: { [key in string]: string }, 
/**
 * Fills the body out with dots to this many bytes (a large payload
 * without writing it out: an invoice scan, a report), at most 2 MiB
 * (2,097,152), so a send can be too big for SQS. A body already as
 * long is sent as written.
 */
padToBytes?: number, 
/**
 * The character `padToBytes` fills with, instead of dots ("語": a
 * body of multibyte text, whose UTF-8 bytes outnumber its characters).
 */
padWith?: string, };

/**
 * count sends, one every everyMs from startMs; {n} in body and groupId
 * becomes the send's number (in groupId, the group's among groupCount).
 */
export type Rate = { startMs: number, everyMs: number, count: number, body: string, groupId: string | null, 
/**
 * A producer's sends per SendMessageBatch call, 1 to 10: sends are
 * made as they fall due and go out ten (or this many) at a time, as
 * a buffering client batches them; the last batch goes when the rate
 * ends. Without it, each send is its own SendMessage. Not a topic's.
 */
batchSize?: number | null, 
/**
 * How many message groups the sends take turns in, 1 to 10,000: `{n}`
 * in `groupId` becomes ((n - 1) mod groupCount) + 1, so send 1 and send
 * groupCount + 1 share a group. Without it, `{n}` is the send's number.
 */
groupCount?: number | null, };

/**
 * A scheduler (EventBridge Scheduler, a cron job) that sends each message
 * at its moment: it waits in the run, so a moment may be hours or days
 * ahead, where SQS's own DelaySeconds stops at 900 seconds (15 minutes).
 */
export type Schedule = { 
/**
 * Its name in the log, at most 80 characters (every send records it).
 */
name: string, 
/**
 * One of the scenario's queues.
 */
queue: string, 
/**
 * The messages, each sent at its `atMs` (a FIFO queue's with their
 * `groupId`, and a `dedupId` unless the queue has
 * contentBasedDeduplication); a `delaySeconds` delays it further.
 */
sends: Array<ScheduledSend>, };

/**
 * A client that sends requests and waits for each reply, one request at
 * a time, as the request-response pattern's client code does.
 */
export type Requester = { 
/**
 * Its name in the log, at most 80 characters.
 */
name: string, 
/**
 * The request queue, one of the scenario's queues.
 */
queue: string, 
/**
 * Its reply queue: `perRequest` (a temporary queue created for each
 * request and deleted when its wait ends, as the guide's `finally`
 * does) or `perClient` (one queue, created once and kept).
 */
mode: ReplyMode, 
/**
 * Its requests: `count` of them, one every `everyMs` from `startMs`,
 * `{n}` in `body` numbering each. A request due while the previous
 * one still waits is sent when that wait ends.
 */
rate: Rate, 
/**
 * How long it waits for each reply, in seconds (1 to 3,600): long
 * polls of at most 20 s each, until the reply or the wait's end.
 */
replyWaitSeconds: number, 
/**
 * The start of its reply queues' names: `perRequest` names each
 * `<prefix>-<n>` (unique), `perClient` names its one queue `<prefix>`.
 * Default: `<name>-replies`. Letters, digits, `-` and `_`, at most 60.
 */
queueNamePrefix?: string, 
/**
 * `perRequest` only: every temporary queue gets this same name
 * instead of a unique one, so a name deleted less than 60 seconds
 * ago is created again (SQS refuses: `QueueDeletedRecently`).
 */
reuseQueueName?: boolean, };

/**
 * Where a requester's replies come back.
 */
export type ReplyMode = "perRequest" | "perClient";

/**
 * A service that answers requests: it receives one request at a time
 * from `queue`, works `processing` ms, sends its reply to the queue the
 * request's `ReplyTo` attribute names with the same `CorrelationId`,
 * then deletes the request.
 */
export type Responder = { 
/**
 * Its name in the log, at most 80 characters.
 */
name: string, 
/**
 * The request queue, one of the scenario's queues.
 */
queue: string, 
/**
 * How long each request takes (drawn from the scenario's seed).
 */
processing: Processing, };

/**
 * Someone at the console, or a runbook's script: makes each listed call
 * at its moment, under its name, through SQS's own operations.
 */
export type Operator = { 
/**
 * Its name in the log, at most 80 characters (every call records it).
 */
name: string, 
/**
 * Its calls, each at its `atMs` (listed order within one moment).
 */
calls: Array<OperatorCall>, };

/**
 * One call of an operator, at its moment.
 */
export type OperatorCall = { atMs: number, 
/**
 * What it calls: one of the operations below.
 */
call: Operation, };

/**
 * The operations an operator calls, each on queues the scenario names.
 */
export type Operation = { "purgeQueue": { queue: string, } } | { "startMessageMoveTask": { source: string, destination?: string, maxNumberOfMessagesPerSecond?: number, } } | { "cancelMessageMoveTask": { source: string, } } | { "disableKey": { key: string, } } | { "enableKey": { key: string, } } | { "addPermission": { queue: string, label: string, accounts: Array<string>, actions: Array<string>, } };

/**
 * A simulated worker running the loop real consumer code runs.
 */
export type Consumer = { 
/**
 * Its name in the log, at most 80 characters (every event of its
 * calls records it).
 */
name: string, queue: string, 
/**
 * The AWS account it calls from: another account's 12-digit id
 * ("111111111111") or an IAM ARN in it (`arn:aws:iam::111111111111:root`,
 * `…:user/name`, `…:role/name`). Default: the queues' own account.
 * Its workers' calls are that account's, under its name in the log (a queue
 * policy decides whether it may make them).
 */
account?: string, 
/**
 * When the worker starts polling.
 */
startMs: number, 
/**
 * When it stops: it receives nothing new after this, but finishes the
 * batch it holds and what a long poll already waiting then returns.
 */
stopMs: number | null, 
/**
 * MaxNumberOfMessages of each receive. Default 1.
 */
batchSize: number, 
/**
 * 0 short-polls; up to 20 long-polls. Default 0.
 */
waitTimeSeconds: number, 
/**
 * Pause after an empty short poll. Default 1000; from 1 ms to a year.
 */
pollIntervalMs: number, 
/**
 * How long handling one message takes: fixed or drawn from the seeded PRNG.
 */
processing: Processing, 
/**
 * What the handler does, in counts and sentences, at most 80
 * characters. Default "charged".
 */
sideEffect: string, 
/**
 * How many identical workers run this consumer, 1 to 20. The first
 * keeps `name`, the others are `name-2`, `name-3`, …; each draws its
 * own processing times. Default 1.
 */
replicas?: number, 
/**
 * Added to the processing time of the first message of each batch
 * received: a cost paid once per receive (a connection, a commit), so
 * bigger batches spread it. Default 0.
 */
batchOverheadMs?: number, behaviour: Behaviour, 
/**
 * Publishes custom metrics to CloudWatch after each message it
 * handles, as AWS's guide to SQS consumers shows: one PutMetricData
 * to `namespace` with `ProcessingTime` (Milliseconds: how long the
 * message took) and `ProcessingSuccess` (Count: 1 handled, 0 failed).
 * They are the run's metrics like the queue's: drawn, listed, and
 * watched by alarms of that namespace.
 */
publishMetrics?: PublishMetrics, 
/**
 * Reads pointers to payloads in S3 (the extended client's and the
 * guide's): GetObject on receive, the body replaced by the payload;
 * a pointer to nothing (NoSuchKey) fails the message's processing.
 */
payloads?: ReadPayloads, };

/**
 * Processing time: fixed, or drawn from the seeded PRNG.
 */
export type Processing = { "fixedMs": number } | { "uniformMs": { min: number, max: number, } } | { "exponentialMs": { mean: number, } };

/**
 * How the worker's handler behaves; every field defaults to the plain
 * "process, then delete" loop.
 */
export type Behaviour = { 
/**
 * Keeps a set of processed message ids and skips the side effect for
 * one it has seen (an idempotent consumer).
 */
idempotent: boolean, 
/**
 * Bodies containing any of these fail every time (poison messages).
 */
failsOn: Array<string>, 
/**
 * Fails on every Nth message it handles (the Nth, 2Nth, ..., counting
 * redeliveries), whatever the body: a flaky dependency. Above 0.
 */
failsEveryNth: number | null, 
/**
 * Crashes after the side effect and before the delete, on bodies
 * containing any of these (empty: never). Restarts after `restartMs`.
 */
crashesAfterSideEffectOn: Array<string>, 
/**
 * Deletes each message as soon as it is received, before processing;
 * with `crashesBeforeSideEffectOn` this loses the message.
 */
deletesBeforeProcessing: boolean, 
/**
 * Crashes during processing, before the side effect, on these bodies.
 */
crashesBeforeSideEffectOn: Array<string>, 
/**
 * How long a crashed worker stays down. Default 5000.
 */
restartMs: number, 
/**
 * Extend visibility this often while processing.
 */
heartbeatEveryMs: number | null, 
/**
 * The new visibility timeout each heartbeat sets, in seconds
 * (default: the queue's).
 */
heartbeatVisibilitySeconds: number | null, 
/**
 * Fails every message whose processing ends within this window of the
 * run, whatever the body: a dependency that is down for a while.
 */
failsDuringMs?: Window, 
/**
 * After a failure, releases the message at once (ChangeMessageVisibility
 * 0): it is received again immediately. Not with `retryBackoff`.
 */
retryImmediately?: boolean, 
/**
 * After a failure, hides the message for baseSeconds × 2^(receive
 * count − 1), at most maxSeconds (ChangeMessageVisibility), so each
 * retry waits longer than the last. Not with `retryImmediately`.
 */
retryBackoff?: RetryBackoff, 
/**
 * The message attribute holding each message's due time (`DeliverAt`:
 * a UTC time such as "2026-12-04T09:00:00Z", or epoch milliseconds).
 * A message received before it is due is sent again with DelaySeconds
 * of the time left (at most 900, SQS's longest delay) and deleted, so
 * it is handled at its time: the way past SQS's 15 minutes. A message
 * without a readable due time is handled at once. Default: none.
 */
redelayUntil?: string, };

/**
 * Where a consumer publishes its custom metrics.
 */
export type PublishMetrics = { 
/**
 * The metrics' namespace ("OrderProcessing"): 1 to 255 ASCII
 * characters, not beginning with "AWS/" (kept for AWS's own).
 */
namespace: string, };

/**
 * How a consumer reads payloads a producer offloaded to S3.
 */
export type ReadPayloads = { 
/**
 * When it deletes a payload's object: `withMessage` (when it deletes
 * the message: the extended client's `deletePayloadFromS3`, and the
 * safe way), `onReceive` (as soon as it has read it, before
 * processing: the guide's code; a crash then leaves the redelivered
 * message pointing at nothing), or `never`.
 */
deleteObject: DeleteObject, };

/**
 * When a consumer deletes a payload's object.
 */
export type DeleteObject = "withMessage" | "onReceive" | "never";

/**
 * How a producer offloads large bodies to S3.
 */
export type Offload = { 
/**
 * One of the scenario's buckets.
 */
bucket: string, 
/**
 * `extendedClient`: the Amazon SQS Extended Client Library's format
 * (a body whose UTF-8 bytes, with its attributes', exceed
 * `thresholdBytes`; the pointer body and the `ExtendedPayloadSize`
 * attribute). `guide`: the patterns guide's own code (a body of more
 * than `thresholdChars` characters; a JSON pointer body and a
 * `PayloadLocation` attribute).
 */
style: OffloadStyle, 
/**
 * `extendedClient` only: 1 to 1,048,576 bytes. Default 262,144 (the
 * library's 256 KiB).
 */
thresholdBytes?: number, 
/**
 * `guide` only: 1 to 1,048,576 characters. Default 200,000 (the guide's).
 */
thresholdChars?: number, };

/**
 * Whose code offloads: the extended client library's, or the guide's.
 */
export type OffloadStyle = "extendedClient" | "guide";

/**
 * A window of the run, from `startMs` up to (not including) `endMs`.
 */
export type Window = { startMs: number, endMs: number, };

/**
 * Exponential backoff through the visibility timeout.
 */
export type RetryBackoff = { 
/**
 * The delay after the first failed receive, in seconds.
 */
baseSeconds: number, 
/**
 * The longest delay, in seconds (SQS's visibility timeout at most).
 */
maxSeconds: number, };

/**
 * One narration line. It is shown at the first moment every condition it
 * gives holds: `atMs` reached, the `when` event happened (at or after
 * `atMs`), the `after` line shown; an `atEnd` line waits for the end of
 * the run and is shown only if its condition holds for the run (and, with
 * `when`, only if that event happened). A line
 * with none of them is shown at time 0. Each line is shown at most once.
 * The simulation decides which lines fire, from the run's own events.
 */
export type Narration = { 
/**
 * Alone: the moment a scene-setting line is shown. With `when`: the
 * earliest moment its event counts. Default 0.
 */
atMs: number, 
/**
 * What must happen in the run for the line to apply: the first event
 * matching this trigger shows it.
 */
when?: Trigger, 
/**
 * Shown at the end of the run (`durationMs`), only if this holds for
 * the whole run (and, with `when`, only if that event happened).
 */
atEnd?: EndCondition, 
/**
 * A name other lines' `after` can refer to.
 */
id?: string, 
/**
 * Shown only after the line with this `id` was shown.
 */
after?: string, text: string, 
/**
 * What the text says beyond its trigger, checked against the run when
 * the line fires: if one does not hold, the text is withheld (the log
 * says so, and why) and `otherwise` is shown instead, if given.
 */
claims?: Array<Claim>, 
/**
 * Shown instead of `text` when one of its `claims` does not hold.
 */
otherwise?: string, };

/**
 * A question asked before the moment it is about ("predict, then see").
 * It is asked at the first moment `atMs` has come, the `when` event (if
 * any) has happened and the `after` line (if any) was shown, once that
 * moment's events have happened; a page
 * playing the run pauses there for the learner's answer. The answer is
 * decided by the run, never by the file: the first choice whose `when`
 * event happens after the question is the truth, at once; if none has by
 * the end of the run, the first choice whose `atEnd` condition holds, or
 * else the choice that gives neither ("anything else"). When no choice
 * matches, the page says none of them happened.
 */
export type Checkpoint = { 
/**
 * A name unique among the scenario's checkpoints (a page remembers
 * the learner's answer by it).
 */
id: string, 
/**
 * The earliest moment it is asked. Default 0.
 */
atMs: number, 
/**
 * Asked only once the narration line with this `id` was shown.
 */
after?: string, 
/**
 * Asked only once this event has happened (at or after `atMs`): at
 * the end of its moment, before anything later.
 */
when?: Trigger, question: string, 
/**
 * What the question says about the run so far ("A-2 is next"),
 * checked when it would be asked: if one does not hold, it is not
 * asked (the log says so, and why).
 */
claims?: Array<Claim>, 
/**
 * From 2 to 6 possible answers.
 */
choices: Array<Choice>, };

/**
 * One possible answer to a checkpoint, and what in the run makes it true.
 * Give `when`, or `atEnd`, or neither (true when no other choice is).
 */
export type Choice = { text: string, 
/**
 * True at once if this event happens after the question is asked.
 */
when?: Trigger, 
/**
 * True if this holds for the whole run, at its end.
 */
atEnd?: EndCondition, 
/**
 * Said with the answer when this choice is what happened: why.
 */
because?: string, 
/**
 * What `because` says beyond the choice's own `when` or `atEnd`,
 * checked when the answer is decided: if one does not hold, the
 * answer is given without its `because` (the log says why).
 */
claims?: Array<Claim>, };

/**
 * An event of the run, with optional filters; every filter given must match.
 * A filter that the event does not carry (a group on a delete) never matches.
 */
export type Trigger = { event: TriggerEvent, 
/**
 * The queue it happened on.
 */
queue?: string, 
/**
 * The consumer (or producer, for `sent`) that did it.
 */
consumer?: string, 
/**
 * The FIFO message group (`groupLocked`, `groupUnlocked`, `sent`, `received`).
 */
group?: string, 
/**
 * The message's receive count at that moment (1 = its first
 * receive): a number, or a setting of the run such as
 * `"{orders.maxReceiveCount}"` (filled from the scenario as run, with
 * the learner's changes; a setting the run does not have, such as a
 * removed redrive policy, matches nothing).
 */
receiveCount?: Count, 
/**
 * `sideEffect`: how many times, in total, the side effect has now
 * happened to this message (2 = the second time); `queuePurged`,
 * `moveTaskCancelled`, `moveTaskCompleted`: how many messages. A
 * number or a setting.
 */
count?: Count, 
/**
 * The message's body contains this text ("A-1002"). A message is
 * known by its body from its send until it leaves the queue (its
 * delete, expiry or purge).
 */
message?: string, 
/**
 * `groupUnlocked` only: how the group's head left flight. `deleted`
 * delivers the group's next message; `visibilityTimeout` (or
 * `released`) leaves the same message at the head, delivered again.
 */
cause?: UnlockCause, 
/**
 * `callFailed` only: the error code SQS answered, as the log gives
 * it (`"KMS.DisabledException"`, `"AccessDenied"`).
 */
code?: string, 
/**
 * `lambdaReturned`: the invocation's result (`success`, `error`,
 * `timeout`, `partial`, `invalidResponse`); `alarmChanged`: the state
 * the alarm went to (`ALARM`, `OK`, `INSUFFICIENT_DATA`).
 */
result?: string, };

/**
 * The kinds of event a narration line (or a checkpoint) can wait for;
 * docs/scenario-format.md says when each happens. (Plain comments on the
 * variants keep the schema a plain `enum` of names.)
 */
export type TriggerEvent = "sent" | "received" | "duplicateDelivery" | "processingOutlastsVisibility" | "visibilityChanged" | "visibilityExpired" | "deleted" | "deletedWithStaleHandle" | "deletedBeforeProcessing" | "sideEffect" | "skippedAlreadyProcessed" | "processingFailed" | "movedToDeadLetterQueue" | "duplicateDropped" | "groupLocked" | "groupUnlocked" | "emptyReceive" | "expired" | "workerCrashed" | "messageLost" | "redriven" | "moveTaskCancelled" | "moveTaskCompleted" | "queuePurged" | "purgedInFlight" | "purgedProcessed" | "callFailed" | "topicFilteredOut" | "bucketObjectChanged" | "payloadResolved" | "payloadMissing" | "bucketNotified" | "accessDenied" | "accessAllowed" | "kmsRequested" | "lambdaReturned" | "lambdaThrottled" | "lambdaScaled" | "alarmChanged" | "replyMatched" | "replyWaitEnded" | "replyLost";

/**
 * A count a trigger or claim compares with: a number, or a
 * `"{queue.property}"` placeholder naming a count the run has
 * (`maxReceiveCount`, `batchSize`), filled from the scenario as run.
 */
export type Count = number | string;

/**
 * Why a FIFO group unlocked: how its head message left flight. A group
 * unlocked by a visibility timeout (or a release) still has that message
 * as its head, so the same message is delivered next; one unlocked by a
 * delete (or a move, expiry or purge) delivers its next message.
 */
export type UnlockCause = "deleted" | "visibilityTimeout" | "released" | "movedToDeadLetterQueue" | "redriven" | "expired" | "purged";

/**
 * One thing a narration line or a checkpoint's `because` says about the
 * run beyond its trigger, in the vocabulary of lab goals: checked against
 * the run so far when the words would be shown (an `atEnd` line: the
 * whole run). An event is written as a trigger (`event` and filters).
 */
export type Claim = { "happened": Trigger } | { "notHappened": Trigger } | { "before": { first: Trigger, then: Trigger, } } | { "receiveCount": { message: string, equals: Count, } } | { "quiet": { fromMs: number, toMs: number, } } | { "atOnce": { first: Trigger, then: Trigger, } } | "noDuplicateDelivery" | "noneLost" | "allDeleted" | { "behaviour": { consumer: string, is: string, } } | { "noBehaviour": { consumer: string, is: string, } } | { "settingIs": { value: string, is: string, } } | { "settingIsNot": { value: string, is: string, } };

/**
 * What must hold for a whole run for an `atEnd` line to be shown. Every
 * condition given must hold; none given always holds.
 */
export type EndCondition = { 
/**
 * Every message that had a side effect had it exactly this many times
 * (1: "every order was charged exactly once"), and at least one had one.
 */
sideEffectsEach?: number, 
/**
 * No message was received while another worker still held it.
 */
noDuplicateDelivery?: boolean, 
/**
 * No message was lost, expired or dead-lettered.
 */
noneLost?: boolean, 
/**
 * This consumer made more empty receives than any other consumer.
 */
mostEmptyReceives?: string, 
/**
 * This queue made more KMS requests (SSE-KMS) than any other queue.
 */
mostKmsRequests?: string, };

/**
 * A CloudWatch alarm on one metric, evaluated as CloudWatch evaluates
 * alarms: at the end of each period, over the latest `evaluationPeriods`
 * datapoints ("M out of N" with `datapointsToAlarm`). It starts in
 * INSUFFICIENT_DATA.
 */
export type Alarm = { 
/**
 * The alarm's name (1 to 255 characters).
 */
name: string, 
/**
 * Shorthand for an AWS/SQS metric of this queue (the dimension
 * QueueName).
 */
queue?: string | null, 
/**
 * The metric's namespace: AWS/SQS (the default), AWS/Lambda, or one a
 * consumer publishes to with PutMetricData.
 */
namespace?: string | null, 
/**
 * The metric, by CloudWatch's name (default
 * ApproximateNumberOfMessagesVisible).
 */
metricName?: string | null, 
/**
 * The metric's dimensions besides `queue` (FunctionName for
 * AWS/Lambda).
 */
dimensions?: { [key in string]: string }, 
/**
 * Default Maximum.
 */
statistic?: Statistic | null, 
/**
 * The period in seconds, a multiple of the metrics' resolution
 * (default: the resolution). Period times evaluationPeriods is at
 * most a day, as CloudWatch requires.
 */
periodSeconds?: number | null, 
/**
 * N: how many of the latest periods are evaluated (default 1).
 */
evaluationPeriods?: number | null, 
/**
 * M: how many of them must breach for ALARM (default N).
 */
datapointsToAlarm?: number | null, threshold: number, 
/**
 * Default GreaterThanOrEqualToThreshold.
 */
comparisonOperator?: ComparisonOperator | null, treatMissingData?: TreatMissingData | null, 
/**
 * SNS topics (names of the scenario's topics) published to when the
 * alarm goes into ALARM.
 */
alarmActions?: Array<string>, 
/**
 * SNS topics published to when it goes back to OK.
 */
okActions?: Array<string>, };

/**
 * What a fixed system achieves, over every seed the check runs. Each
 * condition given must hold; its id (in failures, in
 * `explain.nonFixes[].fails`) is its field name.
 */
export type Goal = { 
/**
 * One sentence shown above the conditions.
 */
summary?: string, 
/**
 * Body substrings marking the messages meant to fail (poison): they
 * are left out of `sideEffects*`, `processedByMs` and `orderKeptPer`,
 * and are the ones `deadLetterQueue` expects.
 */
poison?: Array<string>, 
/**
 * At the end this queue holds exactly the poison messages (none when
 * `poison` is empty), and no other message was ever moved there.
 */
deadLetterQueue?: string, 
/**
 * No message had its side effect more than this many times.
 */
sideEffectsAtMost?: number, 
/**
 * At the end, every message sent had its side effect exactly this
 * many times (1 or more).
 */
sideEffectsExactly?: number, 
/**
 * No message was lost (deleted, then its handler failed) or expired.
 */
noneLost?: boolean, 
/**
 * No message was received while another worker still held it.
 */
noDuplicateDelivery?: boolean, 
/**
 * No message stayed in the queue longer than this (the age of the
 * oldest message, as CloudWatch's ApproximateAgeOfOldestMessage).
 */
oldestAge?: OldestAge, 
/**
 * The consumers' receives that returned nothing, at most this many.
 */
emptyReceivesAtMost?: number, 
/**
 * Billable requests of the scenario's producers and consumers, as SQS
 * counts them, at most this many.
 */
requestsAtMost?: number, 
/**
 * Those requests at SQS's list price per million, at most this many
 * millionths of a US dollar.
 */
costAtMostMicroUsd?: number, 
/**
 * A message attribute: for each of its values, the messages had their
 * first side effect in the order they were sent.
 */
orderKeptPer?: string, 
/**
 * A message attribute holding each message's due time (`DeliverAt`:
 * a UTC time or epoch milliseconds): no message had its side effect
 * before it. A message sent again by a worker that re-delays it is
 * the same message (its due time, its side effects).
 */
notHandledBefore?: string, 
/**
 * By this moment every message sent before it had its side effect.
 */
processedByMs?: number, 
/**
 * No message a topic sent to a subscribed queue was lost: none was
 * dropped or moved to the subscription's dead-letter queue after SQS
 * refused the delivery (AccessDenied, a disabled key). A message the
 * subscription's filter policy kept from the queue is not a delivery.
 */
noDeliveryLost?: boolean, 
/**
 * No requester's reply was lost: no responder's reply was refused
 * because its reply queue no longer existed (the requester had given
 * up and deleted it).
 */
noReplyLost?: boolean, 
/**
 * No call of the scenario's producers, consumers, operators, topics or
 * buckets was refused with AccessDenied.
 */
noAccessDenied?: boolean, 
/**
 * No call of the scenario's producers, consumers, operators or
 * schedules was refused with RequestThrottled (SQS's request quotas,
 * with the scenario's `throttling` on).
 */
noCallThrottled?: boolean, 
/**
 * At the end, the queue's policy grants no more than `grants`: SQS's
 * own evaluation is asked, for every action a policy can name, whether
 * each grant's principal may call it (only its `actions`) and whether
 * a stranger may (another account, another topic, another bucket: no
 * action at all).
 */
leastPrivilege?: LeastPrivilege, 
/**
 * SSE-KMS requests (GenerateDataKey and Decrypt) SQS made to KMS for
 * the scenario's queues, at most this many.
 */
kmsRequestsAtMost?: number, 
/**
 * At the end this queue is encrypted with SSE-KMS (a KMS key of its
 * own), not SSE-SQS or unencrypted.
 */
encryptedWithKms?: string, 
/**
 * This alarm went into ALARM at some moment by `byMs`.
 */
alarmFires?: AlarmBy, 
/**
 * An alarm's action notified this SNS topic (a change into ALARM
 * published to it) by `byMs`.
 */
alarmNotifies?: TopicBy, };

export type OldestAge = { queue: string, atMostSeconds: number, };

/**
 * `leastPrivilege`: the queue whose policy is judged, and what it may grant.
 */
export type LeastPrivilege = { queue: string, 
/**
 * Who needs what (1 to 8 grants). Anyone else may call nothing.
 */
grants: Array<Need>, };

/**
 * `alarmFires`: the alarm, by its name, and the moment.
 */
export type AlarmBy = { alarm: string, byMs: number, 
/**
 * Not before this moment either: a change into ALARM earlier is a
 * false alarm (before the trouble it is meant to catch began).
 */
notBeforeMs?: number, };

/**
 * `alarmNotifies`: the SNS topic, by its name, and the moment.
 */
export type TopicBy = { topic: string, byMs: number, };

/**
 * One principal and the SQS actions it needs.
 */
export type Need = { 
/**
 * A 12-digit account id, an IAM ARN in another account, or a service
 * (`sns.amazonaws.com`, `s3.amazonaws.com`).
 */
principal: string, 
/**
 * A service's resource it calls for (`aws:SourceArn`): the topic's
 * or bucket's ARN.
 */
sourceArn?: string, 
/**
 * SQS action names ("ReceiveMessage"): what the principal may be
 * allowed, and nothing more.
 */
actions: Array<string>, };

/**
 * One setting the learner may change. An integer knob gives `min` and
 * `max` (inside the field's own range); `off: true` also allows "off"
 * (the field left out: no heartbeat, no redrive). A toggle gives none.
 */
export type Knob = { 
/**
 * The name settings use: unique among the lab's knobs.
 */
id: string, label: string, help?: string, target: Target, min?: number, max?: number, 
/**
 * The setting may be "off": the field is left out.
 */
off?: boolean, };

/**
 * The scenario setting a knob changes: `{ "<target>": { selector } }`.
 * `consumer: "*"` means every consumer.
 */
export type Target = { "visibilityTimeoutSeconds": { queue: string, } } | { "queuePolicy": { queue: string, } } | { "encryption": { queue: string, kmsKey: string, } } | { "kmsDataKeyReusePeriodSeconds": { queue: string, } } | { "delaySeconds": { queue: string, } } | { "receiveMessageWaitTimeSeconds": { queue: string, } } | { "redrive": { queue: string, deadLetterQueue: string, } } | { "batchSize": { consumer: string, } } | { "replicas": { consumer: string, } } | { "waitTimeSeconds": { consumer: string, } } | { "pollIntervalMs": { consumer: string, } } | { "heartbeatEveryMs": { consumer: string, } } | { "heartbeatVisibilitySeconds": { consumer: string, } } | { "idempotent": { consumer: string, } } | { "deletesBeforeProcessing": { consumer: string, } } | { "deleteObject": { consumer: string, } } | { "retryImmediately": { consumer: string, } } | { "retryBackoff": { consumer: string, maxSeconds: number, } } | { "redelayUntil": { consumer: string, attribute: string, } } | { "queueType": { queue: string, } } | { "groupId": { producer: string, attribute: string, } } | { "sendBatchSize": { producer: string, } } | { "groupCount": { producer: string, } } | { "highThroughput": { queue: string, } } | { "moveTaskAt": { operator: string, source: string, } } | { "replyQueue": { requester: string, } } | { "replyWaitSeconds": { requester: string, } } | { "functionResponseTypes": { lambda: string, } } | { "lambdaBatchSize": { lambda: string, } } | { "maximumBatchingWindowInSeconds": { lambda: string, } } | { "functionTimeoutSeconds": { lambda: string, } } | { "batchResponse": { lambda: string, } } | { "alarmStatistic": { alarm: string, } } | { "alarmMetricName": { alarm: string, } } | { "alarmPeriodSeconds": { alarm: string, } } | { "alarmEvaluationPeriods": { alarm: string, } } | { "alarmDatapointsToAlarm": { alarm: string, } } | { "alarmThreshold": { alarm: string, } } | { "alarmComparisonOperator": { alarm: string, } } | { "alarmTreatMissingData": { alarm: string, } } | { "addAlarm": { alarm: Alarm, } };

/**
 * A knob's value: a toggle, a whole number, or "off" (the field left
 * out: no heartbeat, no redrive). "off" is a word rather than JSON's
 * null so that it reads the same in a file, a share link and the page.
 */
export type KnobValue = boolean | number | Off | string;

/**
 * The word "off".
 */
export type Off = "off";

/**
 * Hints, the cause, the standard fix, and the settings the tests prove.
 */
export type Explain = { 
/**
 * 1 to 5 hints, revealed one at a time.
 */
hints: Array<string>, 
/**
 * Why the lab's settings fail.
 */
cause: string, 
/**
 * The standard fix.
 */
fix: string, 
/**
 * How the fixes compare.
 */
compare?: string, 
/**
 * The AWS documentation page about it.
 */
doc: Doc, 
/**
 * Settings that meet the goal over every seed of the check (1 to 8).
 */
fixes: Array<Fix>, 
/**
 * Settings that only move the problem: each fails the named condition
 * (1 to 8).
 */
nonFixes: Array<NonFix>, };

export type Doc = { title: string, 
/**
 * An https://docs.aws.amazon.com/ or https://aws.amazon.com/ address.
 */
url: string, };

export type Fix = { name: string, settings: { [key in string]: KnobValue }, };

export type NonFix = { name: string, settings: { [key in string]: KnobValue }, 
/**
 * The id of the goal condition these settings break.
 */
fails: string, 
/**
 * Why this is also wrong.
 */
why: string, };

/**
 * The verdict over every seed.
 */
export type CheckReport = { 
/**
 * Every condition held on every seed.
 */
met: boolean, seeds: Array<number>, 
/**
 * The first breach of each failing seed, in seed order.
 */
failures: Array<CheckFailure>, 
/**
 * One sentence: what held (with the worst figures), or how many
 * seeds failed and the first failure.
 */
summary: string, 
/**
 * When the settings are one of the lab's "moves the problem" non-fixes
 * and a seed failed the condition it breaks: why that fix is also
 * wrong.
 */
movesTheProblem?: MovedProblem, };

/**
 * A seed whose run broke the goal: its first breach.
 */
export type CheckFailure = { seed: number, 
/**
 * The condition's id ("sideEffectsAtMost").
 */
condition: string, 
/**
 * The virtual moment it broke: open the run with this seed there.
 */
atMs: number, 
/**
 * The message it is about, when it is about one.
 */
messageId?: string, 
/**
 * "with seed 7, order A-1003 was charged twice at t = 12.4 s (by
 * worker-1, then worker-2)".
 */
message: string, };

/**
 * A non-fix the learner chose: its name and why it is also wrong.
 */
export type MovedProblem = { name: string, why: string, };

/**
 * How far a check has come.
 */
export type CheckProgress = { 
/**
 * Seeds whose runs have ended.
 */
seedsDone: number, 
/**
 * Every seed the check runs (12).
 */
seeds: number, 
/**
 * The seed running now (once done, the last one).
 */
seed: number, 
/**
 * The running seed's virtual moment, and the moment its run ends.
 */
atMs: number, durationMs: number, 
/**
 * Work done so far: the events the runs logged, at least one per
 * moment run (the closest measure of the estimate's units).
 */
units: number, 
/**
 * The whole check's estimate, which the check's budget bounds
 * (`CHECK_WORK_BUDGET`).
 */
estimatedUnits: number, 
/**
 * Every seed has run: the report is ready.
 */
done: boolean, };

/**
 * What a page needs to show a lab.
 */
export type LabView = { 
/**
 * The goal's one sentence (may be empty).
 */
summary: string, 
/**
 * The goal's conditions, in words.
 */
conditions: Array<ConditionText>, knobs: Array<KnobView>, 
/**
 * Each knob's value in this scenario now: the lab's broken settings
 * for the file itself, the learner's for a scenario made with them.
 */
settings: { [key in string]: KnobValue }, explain?: Explain, 
/**
 * The seeds Check my fix runs.
 */
seeds: Array<number>, };

/**
 * One of the goal's conditions, readable: `{ id, text }`.
 */
export type ConditionText = { id: string, text: string, };

/**
 * One knob, ready for a form.
 */
export type KnobView = { id: string, label: string, help: string, kind: KnobKind, 
/**
 * A number knob's range.
 */
min?: number, max?: number, 
/**
 * A number knob may be "off" (the field left out).
 */
off: boolean, 
/**
 * The scenario field the knob's value is, by its path in the
 * vocabulary (`vocabulary()`: its unit and the engine's range), or
 * null when it is no one field (a queue's type).
 */
field: string | null, 
/**
 * A choice knob's choices, in order.
 */
choices: Array<KnobChoice>, };

export type KnobKind = "number" | "toggle" | "choice" | "text";

/**
 * A choice: its value in settings, and its words.
 */
export type KnobChoice = { value: string, label: string, };

/**
 * Every field of the scenario format, in words (the binding's `vocabulary()`).
 */
export type Vocabulary = { fields: Array<FieldWords>, };

/**
 * One field of the scenario format.
 */
export type FieldWords = { 
/**
 * Its path, a list's items as `[]`: "queues[].visibilityTimeoutSeconds",
 * "consumers[].behaviour.retryBackoff" (a group: its own fields follow).
 */
path: string, 
/**
 * In a form: "Visibility timeout".
 */
label: string, 
/**
 * In a sentence, after its owner's name: "orders' visibility timeout".
 */
name: string, 
/**
 * More words for a form, or "".
 */
help: string, kind: FieldKind, 
/**
 * "s", "ms", or "" (a count, a name, a switch).
 */
unit: string, 
/**
 * A number's range, as `Scenario::validate` holds it (None: unbounded there).
 */
min?: number, max?: number, 
/**
 * A choice's values, in order.
 */
choices: Array<KnobChoice>, 
/**
 * The field may be left out, which means "off" (or the default).
 */
optional: boolean, 
/**
 * The settings form offers it (a name, a body or a moment is edited in the JSON).
 */
setting: boolean, };

export type FieldKind = "number" | "toggle" | "list" | "choice" | "text" | "group";

/**
 * What a queue, a consumer and a producer get for what they leave out,
 * from the engine's settings and the scenario format's own defaults, so
 * that the page never keeps a copy.
 */
export type Defaults = { queue: QueueDefaults, 
/**
 * A consumer given only its required fields (empty names, processing
 * `{ fixedMs: 0 }`): every other field is its default.
 */
consumer: Consumer, 
/**
 * A producer given only its name and queue.
 */
producer: Producer, };

/**
 * SQS's queue attribute defaults, named as in a scenario's queue.
 */
export type QueueDefaults = { visibilityTimeoutSeconds: number, delaySeconds: number, messageRetentionPeriodSeconds: number, receiveMessageWaitTimeSeconds: number, maximumMessageSize: number, };

/**
 * A moment a timeline marks before the run: a scene-setting narration
 * line, or a checkpoint's question (`checkpoint`).
 */
export type PlannedMoment = { t: number, text: string, checkpoint: boolean, };

/**
 * Bounds a host needs before it runs anything, read from where they are
 * decided (the page keeps no copy). Units of work are those of
 * `Playground.workEstimate`: one engine call, one timer firing, or one
 * producer or worker action.
 */
export type Limits = { 
/**
 * Units of work a host runs without asking the learner first (a share
 * link that needs more opens paused and offers to run it).
 */
maxWorkWithoutAsking: number, 
/**
 * Units of work a scenario's whole run (0 to `durationMs`) may take:
 * `fromScenario` refuses a scenario estimated past it.
 */
maxScenarioWork: number, 
/**
 * The last moment virtual time can reach, in ms (2^53 − 1: every
 * time stays an exact JavaScript integer).
 */
maxVirtualMs: number, 
/**
 * The latest `startEpochMs` (9999-12-31T23:59:59.999Z).
 */
maxStartEpochMs: number, 
/**
 * The longest span a scenario may give (a poll interval, a rate's
 * step, a processing time): one year, in ms.
 */
maxSpanMs: number, 
/**
 * The most sends one producer's `rate` makes.
 */
maxRateCount: number, 
/**
 * The most characters of a caller's value an error message repeats.
 */
maxEchoChars: number, 
/**
 * The longest name of who makes a call: a scenario's producer or
 * consumer (and a consumer's `sideEffect`), or `dispatch`'s `caller`.
 */
maxCallerChars: number, 
/**
 * The bytes of a body a snapshot message carries (`body`, cut on a
 * character boundary; `bodyBytes` is the whole length, `peek` the
 * whole body).
 */
bodyPreviewBytes: number, 
/**
 * The bytes of messages (about their JSON) a windowed snapshot lists
 * at most, across its queues; past it, `messagesOmitted` counts the rest.
 */
snapshotWindowBytes: number, 
/**
 * The most bytes one `dispatch` may carry (target and body, as UTF-8):
 * past it the answer is a 413 before the text is read.
 */
maxRequestBytes: number, 
/**
 * The messages whose side effects the simulation keeps in detail (the
 * first ones handled); the snapshot's `sideEffectsOmitted` counts the rest.
 */
maxSideEffectDetails: number, 
/**
 * The external calls a playground's journal records (`journal()`);
 * past it (or past `maxJournalBytes`) a call is counted in its
 * `unrecorded`, and a replay from the journal stops short of it.
 */
maxJournalCalls: number, 
/**
 * The bytes of calls (operation, body, caller) a journal records.
 */
maxJournalBytes: number, 
/**
 * What a playground gets when its options leave a budget out.
 */
defaultBudgets: Budgets, 
/**
 * The largest value each budget option accepts.
 */
largestBudgets: Budgets, };

/**
 * The engine's budgets, named as the options that set them.
 */
export type Budgets = { maxStoredBytes: number, maxStoredMessages: number, maxQueues: number, eventCapacity: number, };

/**
 * Options for `new Playground(...)`. Every field is optional.
 */
export type PlaygroundOptions = { 
/**
 * Seed of the engine's PRNG (PCG-64); same seed + same calls = same results. Default 0
 * (with `fromScenario`, the scenario's own seed).
 */
seed?: number, 
/**
 * Region in queue URLs and ARNs. Default "us-east-1".
 */
region?: string, 
/**
 * Account id in queue URLs and ARNs. Default "000000000000".
 */
accountId?: string, 
/**
 * Epoch milliseconds that virtual time 0 stands for. Default 2024-01-01T00:00:00Z.
 * At most `limits().maxStartEpochMs` (9999-12-31T23:59:59.999Z), so every timestamp
 * is an exact integer and a valid `Date` (timestamps stop at the last `Date`).
 */
startEpochMs?: number, 
/**
 * How many recent events the log keeps. Default 100000, at most
 * `limits().largestBudgets.eventCapacity`.
 */
eventCapacity?: number, 
/**
 * Budget: bytes of stored messages (bodies and attributes) across every queue.
 * Default `limits().defaultBudgets.maxStoredBytes` (256 MiB), from 1 to
 * `limits().largestBudgets.maxStoredBytes`. Past it, a send answers `OverLimit` naming this option.
 */
maxStoredBytes?: number, 
/**
 * Budget: messages stored across every queue. Default
 * `limits().defaultBudgets.maxStoredMessages` (1,000,000), from 1 to
 * `limits().largestBudgets.maxStoredMessages`. Past it, a send answers `OverLimit`.
 */
maxStoredMessages?: number, 
/**
 * Budget: queues that may exist at once. Default `limits().defaultBudgets.maxQueues`
 * (200,000), from 1 to `limits().largestBudgets.maxQueues`. Past it, CreateQueue answers `OverLimit`.
 */
maxQueues?: number, 
/**
 * Teaching knobs, all off (0) by default.
 */
realism?: RealismOptions, };

/**
 * `PlaygroundOptions.realism`: the teaching knobs, each a probability,
 * and throttling, on or off.
 */
export type RealismOptions = { 
/**
 * Standard short polls see each visible message with this probability.
 */
shortPollSampleRate?: number, 
/**
 * Probability that a standard-queue delete misses a copy (the message comes back).
 */
duplicateDeliveryProbability?: number, 
/**
 * Probability that a receive returns fewer messages than it could.
 */
fewerMessagesProbability?: number, 
/**
 * SQS's request quotas: a FIFO queue's call past one answers `RequestThrottled`.
 */
throttling?: boolean, };

/**
 * Per-call options for `dispatch`.
 */
export type DispatchOptions = { 
/**
 * Who makes the call, as the event log should name them ("worker-1"):
 * at most 80 characters (`limits().maxCallerChars`; a longer one is a
 * RangeError), since every event of the call records it.
 */
caller?: string, 
/**
 * Who the call is made as: an AWS account id ("111111111111"), an IAM
 * ARN (`arn:aws:iam::111111111111:root`, `…:user/name`, `…:role/name`)
 * or a service principal ("sns.amazonaws.com", "s3.amazonaws.com").
 * Default: the queues' own account. Without `caller`, the log names
 * the call by this principal.
 */
principal?: string, 
/**
 * With a service principal only: the ARN of the resource it calls for
 * (`aws:SourceArn` in a queue policy's conditions).
 */
sourceArn?: string, 
/**
 * With a service principal only: the 12-digit account that owns that
 * resource (`aws:SourceAccount`).
 */
sourceAccount?: string, };

/**
 * Options for `snapshot(...)`.
 */
export type SnapshotOptions = { 
/**
 * List only each queue's first N stored messages (in queue order, the
 * order the page draws them), and only their FIFO groups; each queue then
 * says how many it left out (`messagesOmitted`, `groupsOmitted`). Its
 * counts (`visible`, `inFlight`, `delayed`) always cover every message.
 * A window also lists at most `limits().snapshotWindowBytes` (1 MiB) of
 * messages across its queues, in queue order: past it, the rest are
 * counted in `messagesOmitted` too. 0 gives every queue's settings and
 * counts without messages. A whole number; default: every message. A
 * full snapshot listing more than 1,000,000 messages, or more than
 * 256 MiB of JSON, is refused with an Error that says to ask for a
 * window. Every message carries its body's first
 * `limits().bodyPreviewBytes` (1 KiB) with `bodyBytes` and
 * `bodyTruncated`; `peek(messageId)` gives the whole body. (For counts
 * alone, `counts()` is cheaper.)
 */
messagesPerQueue?: number, 
/**
 * List in `simulation.sideEffects` only the side effects performed at or
 * after event number N: pass the `nextEventSeq` of your previous snapshot
 * and merge the entries by `messageId` into the list you keep (each entry
 * is whole: its count and performers so far; new ones come in the order
 * they first happened). A whole number; default 0: every side effect.
 */
sideEffectsSince?: number, };

/**
 * Options for `queueMessages(queueUrl, ...)`: which page of the queue.
 */
export type QueueMessagesOptions = { 
/**
 * How many messages to skip, in queue order. A whole number; default 0.
 */
offset?: number, 
/**
 * How many messages at most: a whole number from 0 to 10000; default 100.
 */
limit?: number, };

/**
 * A run's journal as a host hands it over, listing the calls from the
 * `from`-th on (all of them from 0), so a caller that read the first
 * calls already is not handed them again. (In Rust, a view of `Journal`.)
 */
export type Journal = { 
/**
 * The scenario's text as given to `fromScenario`; null for a
 * playground made with `new`.
 */
scenario: string | null, 
/**
 * The seed in force: the scenario's, or the options' that replaced it.
 */
seed: number, 
/**
 * The options the playground was made with.
 */
options: PlaygroundOptions, 
/**
 * The index of the first call listed.
 */
from: number, 
/**
 * The calls recorded, from `from` on, in the order they were made.
 */
calls: Array<JournalCall>, 
/**
 * How many calls are recorded in all.
 */
recorded: number, 
/**
 * Calls made past the journal's budget and not recorded.
 */
unrecorded: number, 
/**
 * The moment of the first call not recorded: a replay from this
 * journal is the run up to then. Null while every call is recorded.
 */
unrecordedFrom: number | null, };

/**
 * One external call, as it was dispatched.
 */
export type JournalCall = { 
/**
 * The virtual moment of the call, in ms.
 */
t: number, 
/**
 * The operation ("SendMessage"): the target without its `AmazonSQS.`
 * prefix; "" for a target that names none, or a request too large to
 * read; an SNS or S3 request's whole target ("AmazonSNS", its action
 * in its form body, "AmazonSNS.Publish", "AmazonS3.PutObject").
 */
op: string, 
/**
 * The request's JSON as a value (its text when it is not JSON; null
 * for a request past `limits().maxRequestBytes`, answered without
 * being read).
 */
body: unknown, 
/**
 * Who made the call, as the log names them (`dispatch`'s `caller`, or
 * the name it gave a principal), or null.
 */
caller: string | null, 
/**
 * Who the call was made as (`dispatch`'s `principal`): an account id,
 * an IAM ARN or a service principal. Absent for the queues' own account
 * (as in journals written before principals).
 */
principal?: string, 
/**
 * A service principal's `aws:SourceArn` (`dispatch`'s `sourceArn`).
 */
sourceArn?: string, 
/**
 * A service principal's `aws:SourceAccount` (`dispatch`'s `sourceAccount`).
 */
sourceAccount?: string, };
