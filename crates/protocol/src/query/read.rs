//! A form's members read into the JSON request of its operation, by one
//! table: the fields of each operation as the query protocol writes them
//! (SQS's query model flattens every list and map: `AttributeName.1`,
//! `Attribute.1.Name` / `Attribute.1.Value`, `SendMessageBatchRequestEntry.1.Id`)
//! beside the JSON member each becomes. Only the wire is read here: which
//! values are right is the JSON protocol's and the engine's to say.

use std::collections::BTreeMap;

use queuelab_engine::{Action, SqsError};
use serde_json::{Map, Value};

use super::QueryError;
use crate::form::Node;

/// The highest index a list or map entry may have (`Attribute.1000.Name`):
/// far past any list SQS takes (ten batch entries, ten message attributes,
/// fifty tags), so a list past SQS's limits still reaches the engine and
/// its own refusal; a larger index is refused, not read.
pub const MAX_INDEX: usize = 1000;

/// How one member is written in a form.
#[derive(Clone, Copy)]
enum Field {
    /// Text, named alike on both wires.
    Text(&'static str),
    /// A whole number, sent as its text and read as a JSON number.
    Int(&'static str),
    /// A list of text: `{form}.N` each (the JSON name with `.N` too, as
    /// newer serializers write it); a bare `{form}=v` is a list of one (old
    /// clients write `AttributeName=All`), and an empty `{json}=` or
    /// `{form}=` an empty list, as botocore sends `[]`.
    List {
        form: &'static str,
        json: &'static str,
    },
    /// A map of text: `{form}.N.{key}` and `{form}.N.Value`.
    TextMap {
        form: &'static str,
        key: &'static str,
        json: &'static str,
    },
    /// A map of message attributes: `{form}.N.Name` and the value's
    /// members under `{form}.N.Value.` ([`ATTRIBUTE_VALUE`]).
    Attributes {
        form: &'static str,
        json: &'static str,
    },
    /// A batch's entries: `{form}.N.` then each entry's fields; JSON
    /// `Entries` (an empty `Entries=` is an empty list, as for `List`).
    Entries {
        form: &'static str,
        fields: &'static [Field],
    },
    /// These fields too, at the same level.
    Also(&'static [Field]),
}

use Field::*;

const QUEUE_URL: Field = Text("QueueUrl");

/// A message attribute's value.
const ATTRIBUTE_VALUE: &[Field] = &[
    Text("DataType"),
    Text("StringValue"),
    Text("BinaryValue"),
    List {
        form: "StringListValue",
        json: "StringListValues",
    },
    List {
        form: "BinaryListValue",
        json: "BinaryListValues",
    },
];

/// A message to send, as SendMessage and each SendMessageBatch entry carry it.
const MESSAGE: &[Field] = &[
    Text("MessageBody"),
    Int("DelaySeconds"),
    Attributes {
        form: "MessageAttribute",
        json: "MessageAttributes",
    },
    Attributes {
        form: "MessageSystemAttribute",
        json: "MessageSystemAttributes",
    },
    Text("MessageGroupId"),
    Text("MessageDeduplicationId"),
];

const QUEUE_ATTRIBUTES: Field = TextMap {
    form: "Attribute",
    key: "Name",
    json: "Attributes",
};

/// A page of a list: ListQueues' and ListDeadLetterSourceQueues'.
const PAGE: &[Field] = &[Text("NextToken"), Int("MaxResults")];

const ATTRIBUTE_NAMES: Field = List {
    form: "AttributeName",
    json: "AttributeNames",
};

/// The fields of each operation (the query model of 2012-11-05, as
/// botocore's serializer writes them).
fn fields(action: Action) -> &'static [Field] {
    use Action as A;
    match action {
        A::AddPermission => &[
            QUEUE_URL,
            Text("Label"),
            List {
                form: "AWSAccountId",
                json: "AWSAccountIds",
            },
            List {
                form: "ActionName",
                json: "Actions",
            },
        ],
        A::CancelMessageMoveTask => &[Text("TaskHandle")],
        A::ChangeMessageVisibility => &[QUEUE_URL, Text("ReceiptHandle"), Int("VisibilityTimeout")],
        A::ChangeMessageVisibilityBatch => &[
            QUEUE_URL,
            Entries {
                form: "ChangeMessageVisibilityBatchRequestEntry",
                fields: &[Text("Id"), Text("ReceiptHandle"), Int("VisibilityTimeout")],
            },
        ],
        A::CreateQueue => &[
            Text("QueueName"),
            QUEUE_ATTRIBUTES,
            // The JSON API spells this member in lower case.
            TextMap {
                form: "Tag",
                key: "Key",
                json: "tags",
            },
        ],
        A::DeleteMessage => &[QUEUE_URL, Text("ReceiptHandle")],
        A::DeleteMessageBatch => &[
            QUEUE_URL,
            Entries {
                form: "DeleteMessageBatchRequestEntry",
                fields: &[Text("Id"), Text("ReceiptHandle")],
            },
        ],
        A::DeleteQueue | A::PurgeQueue | A::ListQueueTags => &[QUEUE_URL],
        A::GetQueueAttributes => &[QUEUE_URL, ATTRIBUTE_NAMES],
        A::GetQueueUrl => &[Text("QueueName"), Text("QueueOwnerAWSAccountId")],
        A::ListDeadLetterSourceQueues => &[QUEUE_URL, Also(PAGE)],
        A::ListMessageMoveTasks => &[Text("SourceArn"), Int("MaxResults")],
        A::ListQueues => &[Text("QueueNamePrefix"), Also(PAGE)],
        A::ReceiveMessage => &[
            QUEUE_URL,
            ATTRIBUTE_NAMES,
            // Newer than the query model: read under both spellings.
            List {
                form: "MessageSystemAttributeName",
                json: "MessageSystemAttributeNames",
            },
            List {
                form: "MessageAttributeName",
                json: "MessageAttributeNames",
            },
            Int("MaxNumberOfMessages"),
            Int("VisibilityTimeout"),
            Int("WaitTimeSeconds"),
            Text("ReceiveRequestAttemptId"),
        ],
        A::RemovePermission => &[QUEUE_URL, Text("Label")],
        A::SendMessage => &[QUEUE_URL, Also(MESSAGE)],
        A::SendMessageBatch => &[
            QUEUE_URL,
            Entries {
                form: "SendMessageBatchRequestEntry",
                fields: &[Text("Id"), Also(MESSAGE)],
            },
        ],
        A::SetQueueAttributes => &[QUEUE_URL, QUEUE_ATTRIBUTES],
        A::StartMessageMoveTask => &[
            Text("SourceArn"),
            Text("DestinationArn"),
            Int("MaxNumberOfMessagesPerSecond"),
        ],
        A::TagQueue => &[
            QUEUE_URL,
            TextMap {
                form: "Tag",
                key: "Key",
                json: "Tags",
            },
        ],
        A::UntagQueue => &[
            QUEUE_URL,
            List {
                form: "TagKey",
                json: "TagKeys",
            },
        ],
    }
}

type Tree = BTreeMap<String, Node>;

/// The JSON members of `action` from the form's keys (`Action` taken out);
/// keys no field names are not read.
pub(super) fn members(
    action: Action,
    mut tree: Tree,
    path_queue_url: Option<&str>,
) -> Result<Map<String, Value>, QueryError> {
    let fields = fields(action);
    if let Some(url) = path_queue_url {
        let takes_url = fields.iter().any(|f| matches!(f, Text("QueueUrl")));
        if takes_url && !tree.contains_key("QueueUrl") {
            tree.insert("QueueUrl".into(), Node::Leaf(url.to_string()));
        }
    }
    let mut out = Map::new();
    read(fields, &mut tree, "", &mut out)?;
    Ok(out)
}

/// Reads `fields` out of `tree`, whose keys sit under `path` in the form.
fn read(
    fields: &[Field],
    tree: &mut Tree,
    path: &str,
    out: &mut Map<String, Value>,
) -> Result<(), QueryError> {
    for field in fields {
        match *field {
            Text(name) => {
                if let Some(node) = tree.remove(name) {
                    out.insert(name.into(), Value::String(leaf(node, path, name)?));
                }
            }
            Int(name) => {
                if let Some(node) = tree.remove(name) {
                    let text = leaf(node, path, name)?;
                    out.insert(name.into(), integer(&text, &format!("{path}{name}"))?);
                }
            }
            List { form, json } => {
                if let Some(items) = either(tree, [form, json], path, texts)? {
                    out.insert(json.into(), Value::Array(items));
                }
            }
            TextMap { form, key, json } => {
                if let Some(node) = tree.remove(form) {
                    let map = entries_by_key(node, &format!("{path}{form}"), key, |value, at| {
                        Ok(Value::String(leaf(value, "", at)?))
                    })?;
                    out.insert(json.into(), Value::Object(map));
                }
            }
            Attributes { form, json } => {
                if let Some(node) = tree.remove(form) {
                    let map =
                        entries_by_key(node, &format!("{path}{form}"), "Name", |value, at| {
                            structure(value, at, ATTRIBUTE_VALUE)
                        })?;
                    out.insert(json.into(), Value::Object(map));
                }
            }
            Entries { form, fields } => {
                let entries = |node, at: &str| {
                    (numbered(node, at)?.into_iter())
                        .map(|(n, entry)| structure(entry, &format!("{at}.{n}"), fields))
                        .collect()
                };
                if let Some(items) = either(tree, [form, "Entries"], path, entries)? {
                    out.insert("Entries".into(), Value::Array(items));
                }
            }
            Also(more) => read(more, tree, path, out)?,
        }
    }
    Ok(())
}

/// A list written under either of `names`, the query model's and the
/// JSON member's (botocore writes `[]` as `Entries=`, `TagKeys=`), each
/// read by `items`; `None` when neither is given.
fn either(
    tree: &mut Tree,
    names: [&str; 2],
    path: &str,
    items: impl Fn(Node, &str) -> Result<Vec<Value>, QueryError>,
) -> Result<Option<Vec<Value>>, QueryError> {
    let mut out = None;
    for name in names {
        if let Some(node) = tree.remove(name) {
            let read = items(node, &format!("{path}{name}"))?;
            out.get_or_insert_with(Vec::new).extend(read);
        }
    }
    Ok(out)
}

/// A structure at `at` (an entry, an attribute's value), read by `fields`.
fn structure(node: Node, at: &str, fields: &[Field]) -> Result<Value, QueryError> {
    let mut tree = match node {
        Node::Branch(tree) => tree,
        Node::Leaf(_) => return Err(not_a_value(at)),
    };
    let mut out = Map::new();
    read(fields, &mut tree, &format!("{at}."), &mut out)?;
    Ok(Value::Object(out))
}

/// A value's text; `path` and `name` say where it is for the refusal.
fn leaf(node: Node, path: &str, name: &str) -> Result<String, QueryError> {
    match node {
        Node::Leaf(text) => Ok(text),
        Node::Branch(_) => Err(QueryError::invalid_parameter(format!(
            "\"{path}{name}\" is a value, not a list or structure (it has keys below it)"
        ))),
    }
}

fn not_a_value(at: &str) -> QueryError {
    QueryError::invalid_parameter(format!(
        "\"{at}\" is a list or structure, written as \"{at}.1...\", not a value"
    ))
}

/// A whole number's text as a JSON number; else SQS's refusal naming it.
fn integer(text: &str, name: &str) -> Result<Value, QueryError> {
    match text.parse::<i64>() {
        Ok(n) => Ok(Value::from(n)),
        Err(_) => Err(SqsError::invalid_value(name, text, crate::json::WHOLE_NUMBER).into()),
    }
}

/// A list of text at `at`: numbered values, one bare value, or none.
fn texts(node: Node, at: &str) -> Result<Vec<Value>, QueryError> {
    match node {
        Node::Leaf(text) if text.is_empty() => Ok(Vec::new()),
        Node::Leaf(text) => Ok(vec![Value::String(text)]),
        branch => numbered(branch, at)?
            .into_iter()
            .map(|(n, item)| leaf(item, &format!("{at}."), &n.to_string()).map(Value::String))
            .collect(),
    }
}

/// A flattened list's items at `at` (`{at}.1`, `{at}.2`, …) in their
/// indexes' order; an empty `{at}=` is an empty list (botocore's `[]`).
fn numbered(node: Node, at: &str) -> Result<Vec<(usize, Node)>, QueryError> {
    let items = match node {
        Node::Branch(items) => items,
        Node::Leaf(text) if text.is_empty() => return Ok(Vec::new()),
        Node::Leaf(_) => return Err(not_a_value(at)),
    };
    let mut out = Vec::with_capacity(items.len());
    for (index, item) in items {
        // Digits with no leading zero, so two keys never name one place.
        let n = Some(&index)
            .filter(|i| i.bytes().all(|b| b.is_ascii_digit()) && !i.starts_with('0'))
            .and_then(|i| i.parse::<usize>().ok())
            .filter(|n| (1..=MAX_INDEX).contains(n))
            .ok_or_else(|| {
                QueryError::invalid_parameter(format!(
                    "\"{at}.{}\" has an index that is not a whole number from 1 to {MAX_INDEX} \
                     (MAX_INDEX)",
                    queuelab_engine::echo(&index)
                ))
            })?;
        out.push((n, item));
    }
    out.sort_by_key(|(n, _)| *n);
    Ok(out)
}

/// A flattened map at `at`: entries `{at}.N.{key}` and `{at}.N.Value`, the
/// value read by `value`. A missing key or value is a missing parameter; a
/// key given in two entries is refused.
fn entries_by_key(
    node: Node,
    at: &str,
    key: &str,
    value: impl Fn(Node, &str) -> Result<Value, QueryError>,
) -> Result<Map<String, Value>, QueryError> {
    let mut out = Map::new();
    let mut first_at: BTreeMap<String, String> = BTreeMap::new();
    for (n, entry) in numbered(node, at)? {
        let entry_at = format!("{at}.{n}");
        let Node::Branch(mut entry) = entry else {
            return Err(not_a_value(&entry_at));
        };
        let name = match entry.remove(key) {
            Some(node) => leaf(node, &format!("{entry_at}."), key)?,
            None => return Err(SqsError::missing(&format!("{entry_at}.{key}")).into()),
        };
        let Some(node) = entry.remove("Value") else {
            return Err(SqsError::missing(&format!("{entry_at}.Value")).into());
        };
        let key_at = format!("{entry_at}.{key}");
        if let Some(first) = first_at.get(&name) {
            let why = format!("{first} names it already.");
            return Err(SqsError::invalid_value(&key_at, &name, &why).into());
        }
        out.insert(name.clone(), value(node, &format!("{entry_at}.Value"))?);
        first_at.insert(name, key_at);
    }
    Ok(out)
}
