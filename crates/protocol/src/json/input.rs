//! Reading request members with the errors SQS gives: a missing required
//! member is `MissingParameter`, a member of the wrong JSON type is a
//! `SerializationException`, as AWS's JSON front end answers.

use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use queuelab_engine::{
    attribute_base_type, echo, AttributeValue, ErrorCode, MessageAttribute, SqsError, SqsResult,
};
use serde_json::{Map, Value};

/// Why a number member that is not a whole number in range is refused
/// (the query protocol's reader says the same of its number text).
pub const WHOLE_NUMBER: &str = "Must be a whole number within range.";

/// A JSON object being read as a request (or a batch entry).
pub struct Input<'a> {
    object: &'a Map<String, Value>,
    /// Where this object sits, for messages: "" or "Entries.3.".
    path: String,
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "NULL_VALUE",
        Value::Bool(_) => "BOOLEAN_VALUE",
        Value::Number(_) => "NUMBER_VALUE",
        Value::String(_) => "STRING_VALUE",
        Value::Array(_) => "START_ARRAY",
        Value::Object(_) => "START_OBJECT",
    }
}

fn wrong_type(found: &Value, wanted: &str, member: &str) -> SqsError {
    SqsError::new(
        ErrorCode::Serialization,
        format!(
            "{} can not be converted to {wanted} (member {})",
            type_name(found),
            echo(member)
        ),
    )
}

pub fn parse_body(body: &str) -> SqsResult<Map<String, Value>> {
    if body.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(other) => Err(wrong_type(&other, "a structure", "request body")),
        Err(e) => Err(SqsError::new(
            ErrorCode::Serialization,
            format!("The request body is not valid JSON: {e}"),
        )),
    }
}

impl<'a> Input<'a> {
    pub fn new(object: &'a Map<String, Value>) -> Self {
        Input {
            object,
            path: String::new(),
        }
    }

    fn name(&self, member: &str) -> String {
        format!("{}{member}", self.path)
    }

    /// The member, treating JSON `null` as absent.
    fn get(&self, member: &str) -> Option<&'a Value> {
        self.object.get(member).filter(|v| !v.is_null())
    }

    /// Is the member given (JSON `null` counting as absent)?
    pub fn has(&self, member: &str) -> bool {
        self.get(member).is_some()
    }

    pub fn string(&self, member: &str) -> SqsResult<Option<String>> {
        match self.get(member) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(wrong_type(other, "a String", &self.name(member))),
        }
    }

    pub fn required_string(&self, member: &str) -> SqsResult<String> {
        self.string(member)?
            .ok_or_else(|| SqsError::missing(&self.name(member)))
    }

    pub fn int(&self, member: &str) -> SqsResult<Option<i64>> {
        match self.get(member) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(i) => Ok(Some(i)),
                // Out of i64 range or fractional: as SQS, name the value.
                None => Err(SqsError::invalid_value(&self.name(member), n, WHOLE_NUMBER)),
            },
            Some(other) => Err(wrong_type(other, "an Integer", &self.name(member))),
        }
    }

    pub fn required_int(&self, member: &str) -> SqsResult<i64> {
        self.int(member)?
            .ok_or_else(|| SqsError::missing(&self.name(member)))
    }

    pub fn string_list(&self, member: &str) -> SqsResult<Vec<String>> {
        match self.get(member) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(wrong_type(other, "a String", &self.name(member))),
                })
                .collect(),
            Some(other) => Err(wrong_type(other, "a List", &self.name(member))),
        }
    }

    pub fn string_map(&self, member: &str) -> SqsResult<BTreeMap<String, String>> {
        match self.get(member) {
            None => Ok(BTreeMap::new()),
            Some(Value::Object(map)) => {
                // Inserted one by one: collecting into a B-tree compiles a
                // sort for its element type (wasm size). The first member
                // of the wrong type is the one refused, as before.
                let mut out = BTreeMap::new();
                for (k, v) in map {
                    match v {
                        Value::String(s) => out.insert(k.clone(), s.clone()),
                        other => {
                            return Err(wrong_type(
                                other,
                                "a String",
                                &format!("{}.{k}", self.name(member)),
                            ))
                        }
                    };
                }
                Ok(out)
            }
            Some(other) => Err(wrong_type(other, "a Map", &self.name(member))),
        }
    }

    /// A required list of objects (batch `Entries`), each read as an `Input`.
    pub fn entries(&self, member: &str) -> SqsResult<Vec<Input<'a>>> {
        match self.get(member) {
            None => Err(SqsError::missing(&self.name(member))),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Object(object) => Ok(Input {
                        object,
                        path: format!("{}{member}.{}.", self.path, i + 1),
                    }),
                    other => Err(wrong_type(other, "a structure", &self.name(member))),
                })
                .collect(),
            Some(other) => Err(wrong_type(other, "a List", &self.name(member))),
        }
    }

    /// `MessageAttributes` / `MessageSystemAttributes`: name -> {DataType, StringValue | BinaryValue}.
    pub fn message_attributes(&self, member: &str) -> SqsResult<Vec<MessageAttribute>> {
        let map = match self.get(member) {
            None => return Ok(Vec::new()),
            Some(Value::Object(map)) => map,
            Some(other) => return Err(wrong_type(other, "a Map", &self.name(member))),
        };
        map.iter()
            .map(|(name, value)| {
                let Value::Object(fields) = value else {
                    return Err(wrong_type(value, "a structure", &format!("{member}.{name}")));
                };
                let fields = Input {
                    object: fields,
                    path: format!("{}{member}.{name}.", self.path),
                };
                let data_type = fields.string("DataType")?.unwrap_or_default();
                if data_type.is_empty() {
                    return Err(SqsError::invalid_parameter(format!(
                        "The message attribute '{}' must contain non-empty message attribute type.",
                        echo(name)
                    )));
                }
                let value = if attribute_base_type(&data_type) == Some("Binary") {
                    let text = fields.string("BinaryValue")?.unwrap_or_default();
                    let bytes = STANDARD.decode(text.as_bytes()).map_err(|_| {
                        SqsError::invalid_parameter(format!(
                            "Message (user) attribute '{}' has a BinaryValue that is not valid base64.",
                            echo(name)
                        ))
                    })?;
                    AttributeValue::Binary(bytes)
                } else {
                    AttributeValue::String(fields.string("StringValue")?.unwrap_or_default())
                };
                Ok(MessageAttribute {
                    name: name.clone(),
                    data_type,
                    value,
                })
            })
            .collect()
    }
}
