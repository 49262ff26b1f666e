//! What the SNS and S3 API tests share: SQS calls on the simulation's
//! engine, as the owner, to make and read the queues the neighbours send to.

use queuelab_engine::Principal;
use queuelab_protocol::{dispatch_as, Dispatched};
use queuelab_simulation::Simulation;
use serde_json::{json, Value};

/// An SQS call that must succeed at once: its answer.
pub fn sqs(sim: &mut Simulation, op: &str, body: Value) -> Value {
    let target = format!("AmazonSQS.{op}");
    match dispatch_as(
        sim.engine_mut(),
        &target,
        &body.to_string(),
        &Principal::owner(),
    ) {
        Dispatched::Done(r) => {
            assert_eq!(r.status, 200, "{op}: {}", r.body);
            r.json()
        }
        Dispatched::Waiting(_) => panic!("{op} waited"),
    }
}

/// Up to 10 messages of the queue, with their attributes.
pub fn receive(sim: &mut Simulation, url: &str) -> Vec<Value> {
    let got = sqs(
        sim,
        "ReceiveMessage",
        json!({ "QueueUrl": url, "MaxNumberOfMessages": 10, "MessageAttributeNames": ["All"] }),
    );
    got["Messages"].as_array().cloned().unwrap_or_default()
}

/// A queue whose policy lets `service` send for `source_arn`, compared
/// with `operator`: its URL and ARN.
pub fn queue_open_to(
    sim: &mut Simulation,
    name: &str,
    service: &str,
    operator: &str,
    source_arn: &str,
) -> (String, String) {
    let arn = format!("arn:aws:sqs:us-east-1:000000000000:{name}");
    let policy = json!({ "Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": { "Service": service },
        "Action": "sqs:SendMessage", "Resource": arn,
        "Condition": { operator: { "aws:SourceArn": source_arn } } }] });
    let created = sqs(
        sim,
        "CreateQueue",
        json!({ "QueueName": name, "Attributes": { "Policy": policy.to_string() } }),
    );
    (created["QueueUrl"].as_str().unwrap().to_string(), arn)
}
