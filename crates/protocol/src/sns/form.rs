//! The query protocol's request: an `application/x-www-form-urlencoded`
//! body whose keys flatten the members (`Attributes.entry.1.key`,
//! `MessageAttributes.entry.1.Value.StringValue`,
//! `PublishBatchRequestEntries.member.2.Id`), read back into the JSON
//! shape of the members, so one set of serde types reads both wires.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// The most dots a key may have: SNS's deepest member
/// (`PublishBatchRequestEntries.member.N.MessageAttributes.entry.N.Value.StringValue`)
/// has seven, and reading deeper keys would only cost the reader.
const MAX_DEPTH: usize = 8;

/// A key's path so far: leaves and branches, by segment.
enum Node {
    Leaf(String),
    Branch(BTreeMap<String, Node>),
}

/// The form's pairs, percent-decoded (`+` is a space).
pub fn pairs(body: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for pair in body.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        out.push((decode(key)?, decode(value)?));
    }
    Ok(out)
}

fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("\"{text}\" has a % not followed by two hex digits"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("\"{text}\" is not UTF-8 once decoded"))
}

/// The pairs as one JSON object of members: `member.N` lists become
/// arrays in N's order, `entry.N` maps objects keyed by each entry's
/// `key`/`Name`, holding its `value`/`Value`. `Err` names the key that
/// cannot be read.
pub fn members(pairs: &[(String, String)]) -> Result<Map<String, Value>, String> {
    let mut root = BTreeMap::new();
    for (key, value) in pairs {
        let path: Vec<&str> = key.split('.').collect();
        if path.len() > MAX_DEPTH || path.iter().any(|s| s.is_empty()) {
            return Err(format!("\"{key}\" is not a member's name"));
        }
        insert(&mut root, &path, value, key)?;
    }
    match branch(root) {
        Value::Object(map) => Ok(map),
        _ => Ok(Map::new()),
    }
}

fn insert(
    map: &mut BTreeMap<String, Node>,
    path: &[&str],
    value: &str,
    key: &str,
) -> Result<(), String> {
    let (first, rest) = path.split_first().expect("a key has a segment");
    if rest.is_empty() {
        if map
            .insert(first.to_string(), Node::Leaf(value.to_string()))
            .is_some()
        {
            return Err(format!("\"{key}\" is given twice"));
        }
        return Ok(());
    }
    let node = (map.entry(first.to_string())).or_insert_with(|| Node::Branch(BTreeMap::new()));
    match node {
        Node::Branch(children) => insert(children, rest, value, key),
        Node::Leaf(_) => Err(format!("\"{key}\" is both a value and a structure")),
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
