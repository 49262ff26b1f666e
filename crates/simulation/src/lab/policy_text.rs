//! A queue policy as a learner edits it in a text knob: the scenario's
//! JSON written with two-space indents and its members in the order AWS's
//! documentation writes them (`Version` before `Statement`; `Sid`,
//! `Effect`, `Principal`, `Action`, `Resource`, `Condition`), not the
//! alphabetical order the scenario's JSON value keeps. Only the layout is
//! chosen here: what the policy means is read by `queuelab_policy::read`.

use serde_json::Value;

/// A policy's own members, in the order AWS's examples write them; a
/// statement's follow (`queuelab_policy::STATEMENT_MEMBERS`).
const POLICY_MEMBERS: [&str; 3] = ["Version", "Id", "Statement"];

/// A member's place: a policy's own, then a statement's, then any other
/// (alphabetically among themselves).
fn rank(key: &str) -> usize {
    let order = POLICY_MEMBERS
        .iter()
        .chain(&queuelab_policy::STATEMENT_MEMBERS);
    order
        .clone()
        .position(|k| *k == key)
        .unwrap_or(order.count())
}

/// The policy as text, indented, members in AWS's order.
pub(super) fn pretty(value: &Value) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out
}

fn write(value: &Value, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    match value {
        Value::Object(members) if !members.is_empty() => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_by_key(|k| rank(k));
            out.push_str("{\n");
            for (i, key) in keys.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push_str(": ");
                write(&members[*key], depth + 1, out);
                out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        // A list of scalars stays on one line: ["sqs:ReceiveMessage", "sqs:DeleteMessage"].
        Value::Array(items) if items.iter().any(|v| v.is_object() || v.is_array()) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                write(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(Value::to_string).collect();
            out.push('[');
            out.push_str(&items.join(", "));
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}
