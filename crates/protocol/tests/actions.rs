//! The operations are listed once, as the engine's `Action`: the protocol's
//! table is that list (alphabetically), and every action is answered.

mod common;
use common::Sqs;
use queuelab_engine::Action;
use serde_json::json;

#[test]
fn the_protocol_table_is_the_engines_action_list() {
    let table: Vec<&str> = queuelab_protocol::OPERATIONS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    let actions: Vec<&str> = Action::BY_NAME.iter().map(|a| a.name()).collect();
    assert_eq!(table, actions);
    let mut all: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
    all.sort_unstable();
    assert_eq!(table, all, "BY_NAME is every action, by name");
}

/// Every action's target reaches its operation (an empty body is answered
/// with that operation's own error, never UnknownOperationException).
#[test]
fn every_action_is_answered_by_its_operation() {
    let unknown = "com.amazon.coral.service#UnknownOperationException";
    let mut sqs = Sqs::new();
    for action in Action::ALL {
        let reply = sqs.call(action.name(), json!({}));
        assert_ne!(reply.body["__type"], unknown, "{action}");
    }
    assert_eq!(sqs.call("Shout", json!({})).body["__type"], unknown);
}
