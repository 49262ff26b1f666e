//! S3 over the run's buckets (`Simulation::s3`), on Queuelab's JSON wire
//! for its own `S3Client`: target `AmazonS3.<Operation>`, the members as a
//! JSON object (an object's content as the text `Body`), a JSON answer, or
//! the error envelope SQS's JSON protocol uses, with S3's code. (The real
//! @aws-sdk/client-s3 speaks REST-XML: an operation is a method and a path,
//! which `dispatch(target, body)` does not carry; docs/sdk.md.)

use queuelab_engine::Principal;
use queuelab_simulation::s3::api::{
    BucketOnly, Filter, FilterRule, KeyFilterInput, ListObjects, NotificationConfiguration,
    ObjectKey, PutNotification, PutObject, QueueConfigurationInput, S3Call, S3Error, OPERATIONS,
};
use queuelab_simulation::Simulation;

use crate::members::{Members, Wrong};
use crate::neighbour::{json_error, json_object, json_response, Failure};
use crate::Response;

/// The prefix of an S3 request's target (`AmazonS3.PutObject`).
pub const PREFIX: &str = "AmazonS3.";

/// Whether a request is S3's.
pub fn is_s3(target: &str) -> bool {
    target.starts_with(PREFIX)
}

/// One S3 request made by `by`.
pub fn dispatch(sim: &mut Simulation, target: &str, body: &str, by: &Principal) -> Response {
    let action = target.strip_prefix(PREFIX).unwrap_or("");
    let result = read(action, body).and_then(|call| sim.s3(call, by));
    let request_id = sim.engine_mut().next_request_id();
    let failure = |e: &S3Error| Failure {
        code: e.code,
        status: e.status,
        body: json_error("com.amazonaws.s3", e.code, &e.message),
    };
    json_response(request_id, result.as_ref().map_err(failure))
}

fn read(action: &str, body: &str) -> Result<S3Call, S3Error> {
    if !OPERATIONS.contains(&action) {
        return Err(S3Error::new(
            "NotImplemented",
            501,
            format!(
                "Queuelab's buckets answer {}; \"{action}\" is not one of them",
                OPERATIONS.join(", ")
            ),
        ));
    }
    let members = json_object(body).ok_or_else(|| {
        S3Error::new(
            "MalformedRequest",
            400,
            "The request's body is not a JSON object",
        )
    })?;
    call(action, &Members::new(&members))
        .map_err(|(name, why)| S3Error::new("InvalidArgument", 400, format!("{name} {why}")))
}

/// The call `action` names, with `m`'s members.
fn call(action: &str, m: &Members) -> Result<S3Call, Wrong> {
    let key = || {
        Ok::<_, Wrong>(ObjectKey {
            bucket: m.text("Bucket")?,
            key: m.text("Key")?,
        })
    };
    Ok(match action {
        "CreateBucket" => S3Call::CreateBucket(BucketOnly {
            bucket: m.text("Bucket")?,
        }),
        "PutBucketNotificationConfiguration" => {
            let configuration = match m.object("NotificationConfiguration")? {
                None => None,
                Some(c) => Some(NotificationConfiguration {
                    queue_configurations: (c.list("QueueConfigurations")?.iter())
                        .map(queue_configuration)
                        .collect::<Result<_, _>>()?,
                    other_destinations: c.has("TopicConfigurations")
                        || c.has("LambdaFunctionConfigurations")
                        || c.has("EventBridgeConfiguration"),
                }),
            };
            S3Call::PutBucketNotificationConfiguration(PutNotification {
                bucket: m.text("Bucket")?,
                notification_configuration: configuration,
            })
        }
        "PutObject" => S3Call::PutObject(PutObject {
            bucket: m.text("Bucket")?,
            key: m.text("Key")?,
            body: m.text("Body")?,
            content_type: m.text("ContentType")?,
        }),
        "GetObject" => S3Call::GetObject(key()?),
        "DeleteObject" => S3Call::DeleteObject(key()?),
        _ => S3Call::ListObjectsV2(ListObjects {
            bucket: m.text("Bucket")?,
            prefix: m.text("Prefix")?,
            max_keys: m.integer("MaxKeys")?,
            continuation_token: m.text("ContinuationToken")?,
            start_after: m.text("StartAfter")?,
        }),
    })
}

fn queue_configuration(c: &Members) -> Result<QueueConfigurationInput, Wrong> {
    let rules = match c
        .object("Filter")?
        .map(|f| f.object("Key"))
        .transpose()?
        .flatten()
    {
        None => None,
        Some(key) => Some(KeyFilterInput {
            filter_rules: (key.list("FilterRules")?.iter())
                .map(|r| {
                    Ok(FilterRule {
                        name: r.text("Name")?,
                        value: r.text("Value")?,
                    })
                })
                .collect::<Result<_, Wrong>>()?,
        }),
    };
    Ok(QueueConfigurationInput {
        id: c.text("Id")?,
        queue_arn: c.text("QueueArn")?,
        events: c.texts("Events")?,
        filter: Some(Filter { key: rules }),
    })
}
