//! A `Policy` attribute read into what the engine keeps of it: the text as
//! given, each top-level member as JSON text in the order written, and the
//! statements with their `Sid`s. The engine edits that structure for
//! AddPermission and RemovePermission without parsing JSON itself.
//!
//! Objects are read in their written order (serde_json's own `Value` sorts
//! keys), so a statement the engine writes back comes out as the caller
//! wrote it, only without the whitespace.

use std::collections::BTreeMap;
use std::fmt;

use queuelab_engine::{PolicyMember, PolicyStatement, QueuePolicy};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// A JSON value whose objects keep their members' order.
enum Json {
    Scalar(Value),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn member(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    fn statement(&self) -> Option<PolicyStatement> {
        let Json::Object(_) = self else {
            return None;
        };
        let sid = match self.member("Sid") {
            Some(Json::Scalar(Value::String(s))) => Some(s.clone()),
            _ => None,
        };
        let principals = |value: &Json| match value {
            // {"AWS": [...], "Service": "..."}: every value of every key.
            Json::Object(members) => members.iter().map(|(_, v)| v.count()).sum(),
            star => star.count(),
        };
        let conditions = |value: &Json| match value {
            // {"ArnLike": {"aws:SourceArn": ...}, ...}: the keys under each operator.
            Json::Object(operators) => operators.iter().map(|(_, keys)| keys.keys()).sum(),
            _ => 0,
        };
        Some(PolicyStatement {
            sid,
            json: self.text(),
            actions: self.either("Action", "NotAction").map_or(0, Json::count),
            principals: self
                .either("Principal", "NotPrincipal")
                .map_or(0, principals),
            conditions: self.member("Condition").map_or(0, conditions),
        })
    }

    /// The member named `name`, else the one named `not` (a statement has
    /// `Action` or `NotAction`, `Principal` or `NotPrincipal`).
    fn either(&self, name: &str, not: &str) -> Option<&Json> {
        self.member(name).or_else(|| self.member(not))
    }

    /// Values a policy element lists: a list's items, else one.
    fn count(&self) -> usize {
        match self {
            Json::List(items) => items.len(),
            _ => 1,
        }
    }

    /// Members of an object (0 for anything else).
    fn keys(&self) -> usize {
        match self {
            Json::Object(members) => members.len(),
            _ => 0,
        }
    }
}

/// Reads a policy document; `None` when the text is not a JSON object.
pub fn read(text: &str) -> Option<QueuePolicy> {
    let Ok(Json::Object(members)) = serde_json::from_str::<Json>(text) else {
        return None;
    };
    let members = members
        .into_iter()
        .map(|(name, value)| {
            let statements = match (&*name, &value) {
                ("Statement", Json::List(items)) => items
                    .iter()
                    .map(Json::statement)
                    .collect::<Option<Vec<_>>>(),
                ("Statement", one) => one.statement().map(|s| vec![s]),
                _ => None,
            };
            match statements {
                Some(list) => PolicyMember::Statements(list),
                None => PolicyMember::Other {
                    json: value.text(),
                    name,
                },
            }
        })
        .collect();
    Some(QueuePolicy::new(text.to_string(), members))
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Scalar(v) => v.serialize(serializer),
            Json::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Scalar(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Scalar(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Scalar(Value::from(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Scalar(Value::String(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Scalar(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        while let Some((name, value)) = map.next_entry::<String, Json>()? {
            // A repeated name keeps its last value, as serde_json's own
            // `Value` does, in the place it was first written.
            match seen.get(&name) {
                Some(&at) => members[at].1 = value,
                None => {
                    seen.insert(name.clone(), members.len());
                    members.push((name, value));
                }
            }
        }
        Ok(Json::Object(members))
    }
}
