//! SNS's query-protocol request: a form (read by `crate::form`) whose keys
//! flatten the members with `member.N` lists and `entry.N` maps
//! (`Attributes.entry.1.key`, `MessageAttributes.entry.1.Value.StringValue`,
//! `PublishBatchRequestEntries.member.2.Id`), read back into the JSON
//! shape of the members, so one reader serves both wires.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::form::{tree, Node};

/// The pairs as one JSON object of members: `member.N` lists become
/// arrays in N's order, `entry.N` maps objects keyed by each entry's
/// `key`/`Name`, holding its `value`/`Value`. `Err` names the key that
/// cannot be read.
pub fn members(pairs: &[(String, String)]) -> Result<Map<String, Value>, String> {
    match branch(tree(pairs)?) {
        Value::Object(map) => Ok(map),
        _ => Ok(Map::new()),
    }
}

fn convert(node: Node) -> Value {
    match node {
        Node::Leaf(text) => Value::String(text),
        Node::Branch(children) => branch(children),
    }
}

/// A structure, a list (`member.N`) or a map (`entry.N`).
fn branch(mut children: BTreeMap<String, Node>) -> Value {
    if children.len() == 1 {
        for (marker, is_map) in [("member", false), ("entry", true)] {
            if let Some(Node::Branch(items)) = children.remove(marker) {
                return numbered(items, is_map);
            }
        }
    }
    Value::Object(children.into_iter().map(|(k, v)| (k, convert(v))).collect())
}

/// The numbered items of a list or map, in their numbers' order.
fn numbered(items: BTreeMap<String, Node>, is_map: bool) -> Value {
    let mut items: Vec<(u64, Node)> = items
        .into_iter()
        .map(|(n, node)| (n.parse().unwrap_or(u64::MAX), node))
        .collect();
    items.sort_by_key(|(n, _)| *n);
    if !is_map {
        return Value::Array(items.into_iter().map(|(_, n)| convert(n)).collect());
    }
    let mut map = Map::new();
    for (_, item) in items {
        let Node::Branch(mut entry) = item else {
            continue;
        };
        let key = entry.remove("key").or_else(|| entry.remove("Name"));
        let value = entry.remove("value").or_else(|| entry.remove("Value"));
        if let (Some(Node::Leaf(key)), Some(value)) = (key, value) {
            map.insert(key, convert(value));
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::pairs;
    use serde_json::json;

    fn read(body: &str) -> Value {
        Value::Object(members(&pairs(body).unwrap()).unwrap())
    }

    #[test]
    fn lists_maps_and_nested_members_read_as_json() {
        let body = "Action=PublishBatch&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A1%3At\
                    &PublishBatchRequestEntries.member.2.Id=b\
                    &PublishBatchRequestEntries.member.1.Id=a\
                    &PublishBatchRequestEntries.member.1.Message=hi+there\
                    &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Name=kind\
                    &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.DataType=String\
                    &PublishBatchRequestEntries.member.1.MessageAttributes.entry.1.Value.StringValue=x";
        assert_eq!(
            read(body),
            json!({
                "Action": "PublishBatch",
                "TopicArn": "arn:aws:sns:us-east-1:1:t",
                "PublishBatchRequestEntries": [
                    { "Id": "a", "Message": "hi there",
                      "MessageAttributes": { "kind": { "DataType": "String", "StringValue": "x" } } },
                    { "Id": "b" }
                ]
            })
        );
    }

    #[test]
    fn attribute_maps_read_by_key_and_value() {
        let body = "Attributes.entry.1.key=FifoTopic&Attributes.entry.1.value=true&Name=t.fifo";
        assert_eq!(
            read(body),
            json!({ "Attributes": { "FifoTopic": "true" }, "Name": "t.fifo" })
        );
    }

    #[test]
    fn a_key_too_deep_a_repeated_key_and_a_bad_escape_are_refused() {
        let deep = format!("{}=1", ["a"; 9].join("."));
        assert!(members(&pairs(&deep).unwrap()).is_err());
        assert!(members(&pairs("Name=a&Name=b").unwrap()).is_err());
        assert!(pairs("Name=%zz").is_err());
    }
}
