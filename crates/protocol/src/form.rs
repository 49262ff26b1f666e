//! The query protocol's request, as every AWS query service sends it: an
//! `application/x-www-form-urlencoded` text of `key=value` pairs whose keys
//! flatten the members with dots (`Attribute.1.Name`). Read here into a
//! tree of segments; each service's codec (`sns/form.rs`, `query/read.rs`)
//! then reads its own naming rules off that tree.

use std::collections::BTreeMap;

/// The most dots a key may have: the deepest member either codec reads
/// (SNS's `PublishBatchRequestEntries.member.N.MessageAttributes.entry.N.Value.StringValue`,
/// SQS's `SendMessageBatchRequestEntry.N.MessageAttribute.N.Value.StringListValue.N`)
/// has seven, and reading deeper keys would only cost the reader.
pub(crate) const MAX_DEPTH: usize = 8;

/// A key's path so far: leaves and branches, by segment.
pub(crate) enum Node {
    Leaf(String),
    Branch(BTreeMap<String, Node>),
}

/// The form's pairs, percent-decoded (`+` is a space).
pub(crate) fn pairs(body: &str) -> Result<Vec<(String, String)>, String> {
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
                    .ok_or_else(|| {
                        format!("\"{}\" has a % not followed by two hex digits", echo(text))
                    })?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("\"{}\" is not UTF-8 once decoded", echo(text)))
}

fn echo(text: &str) -> std::borrow::Cow<'_, str> {
    queuelab_engine::echo(text)
}

/// The pairs as a tree of their keys' dot-separated segments. `Err` names
/// the key that cannot be read: deeper than [`MAX_DEPTH`] segments, with an
/// empty segment, given twice, or both a value and a structure.
pub(crate) fn tree(pairs: &[(String, String)]) -> Result<BTreeMap<String, Node>, String> {
    let mut root = BTreeMap::new();
    for (key, value) in pairs {
        let path: Vec<&str> = key.split('.').collect();
        if path.len() > MAX_DEPTH {
            return Err(format!(
                "\"{}\" has more than {MAX_DEPTH} dot-separated parts, the most a member's name has",
                echo(key)
            ));
        }
        if path.iter().any(|s| s.is_empty()) {
            return Err(format!("\"{}\" is not a member's name", echo(key)));
        }
        insert(&mut root, &path, value, key)?;
    }
    Ok(root)
}

fn insert(
    map: &mut BTreeMap<String, Node>,
    path: &[&str],
    value: &str,
    key: &str,
) -> Result<(), String> {
    let Some((first, rest)) = path.split_first() else {
        return Err(format!("\"{}\" is not a member's name", echo(key)));
    };
    if rest.is_empty() {
        return match map.insert(first.to_string(), Node::Leaf(value.to_string())) {
            None => Ok(()),
            Some(Node::Leaf(_)) => Err(format!("\"{}\" is given twice", echo(key))),
            Some(Node::Branch(_)) => {
                Err(format!("\"{}\" is both a value and a structure", echo(key)))
            }
        };
    }
    let node = (map.entry(first.to_string())).or_insert_with(|| Node::Branch(BTreeMap::new()));
    match node {
        Node::Branch(children) => insert(children, rest, value, key),
        Node::Leaf(_) => Err(format!("\"{}\" is both a value and a structure", echo(key))),
    }
}
