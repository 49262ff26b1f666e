//! A `Policy` attribute read into what the engine keeps of it: the text as
//! given, each top-level member as JSON text in the order written, and the
//! statements typed (their `Sid`, `Effect`, `Principal`, `Action`,
//! `Resource` and `Condition`, made with the engine's constructors, which
//! hold the rules on values). A document that is not a policy is refused
//! here, naming what is wrong. The engine edits that structure for
//! AddPermission and RemovePermission and evaluates it without parsing
//! JSON itself.
//!
//! Objects are read in their written order (serde_json's own `Value` sorts
//! keys), so a statement the engine writes back comes out as the caller
//! wrote it, only without the whitespace.

use std::collections::BTreeMap;
use std::fmt;

use queuelab_engine::{
    malformed_policy, ActionPattern, Condition, Effect, Element, PolicyMember, PolicyStatement,
    PrincipalPattern, QueuePolicy, ResourcePattern, SqsResult,
};
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

    /// The member's text when it is a string.
    fn string(&self) -> Option<&str> {
        match self {
            Json::Scalar(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// A string or a list of strings (a condition's values may also be
    /// JSON booleans or numbers, read as their text: `"Bool": {"aws:SecureTransport": false}`).
    fn strings(&self, what: &str, scalars: bool) -> Result<Vec<String>, String> {
        let one = |item: &Json| match item {
            Json::Scalar(Value::String(s)) => Some(s.clone()),
            Json::Scalar(v @ (Value::Bool(_) | Value::Number(_))) if scalars => Some(v.to_string()),
            _ => None,
        };
        let items: Option<Vec<String>> = match self {
            Json::List(items) => items.iter().map(one).collect(),
            item => one(item).map(|s| vec![s]),
        };
        items.ok_or_else(|| format!("{what} must be a string or a list of strings"))
    }
}

/// The members a statement may have, in the order AWS's documentation
/// writes them.
pub const STATEMENT_MEMBERS: [&str; 9] = [
    "Sid",
    "Effect",
    "Principal",
    "NotPrincipal",
    "Action",
    "NotAction",
    "Resource",
    "NotResource",
    "Condition",
];

/// A statement's element written as `name` or as `Not<name>`, never both,
/// and required: which form, and its value.
fn element<'a>(members: &'a [(String, Json)], name: &str) -> Result<(bool, &'a Json), String> {
    let not = format!("Not{name}");
    let find = |n: &str| members.iter().find(|(m, _)| m == n).map(|(_, v)| v);
    match (find(name), find(&not)) {
        (Some(_), Some(_)) => Err(format!("it has both {name} and {not}")),
        (Some(value), None) => Ok((false, value)),
        (None, Some(value)) => Ok((true, value)),
        (None, None) => Err(format!("it has no {name}")),
    }
}

/// Values of a `Principal`: `"*"`, or `{"AWS": …, "Service": …}`.
fn principals(value: &Json, name: &str) -> Result<Vec<PrincipalPattern>, String> {
    if value.string() == Some("*") {
        return Ok(vec![PrincipalPattern::Anyone]);
    }
    let Json::Object(kinds) = value else {
        return Err(format!(
            "{name} must be \"*\" or an object such as {{\"AWS\": \"111111111111\"}} or \
             {{\"Service\": \"sns.amazonaws.com\"}}"
        ));
    };
    let mut out = Vec::new();
    for (kind, values) in kinds {
        let make: fn(&str) -> Result<PrincipalPattern, String> = match kind.as_str() {
            "AWS" => PrincipalPattern::aws,
            "Service" => PrincipalPattern::service,
            _ => {
                return Err(format!(
                    "{name} has {}: Queuelab takes AWS (accounts and IAM ARNs) and Service \
                     principals",
                    quoted(kind)
                ))
            }
        };
        for v in values.strings(&format!("{name}.{kind}"), false)? {
            out.push(make(&v)?);
        }
    }
    Ok(out)
}

/// `{"<Operator>": {"<key>": value or values}, …}`: one condition per key.
fn conditions(value: &Json) -> Result<Vec<Condition>, String> {
    let Json::Object(operators) = value else {
        return Err("Condition must be an object of operators".into());
    };
    let mut out = Vec::new();
    for (operator, keys) in operators {
        let Json::Object(keys) = keys else {
            return Err(format!(
                "Condition {} must be an object of keys and values",
                quoted(operator)
            ));
        };
        for (key, values) in keys {
            let values = values.strings(&format!("Condition {operator} {key}"), true)?;
            out.push(Condition::new(operator, key, values)?);
        }
    }
    Ok(out)
}

/// The values of an `Action` or `Resource` element, each made by `make`.
fn patterns<T>(
    value: &Json,
    name: &str,
    make: fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let items = value.strings(name, false)?;
    if items.is_empty() {
        return Err(format!("{name} is an empty list"));
    }
    items.iter().map(|i| make(i)).collect()
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", queuelab_engine::echo(text))
}

/// One statement, typed; `Err` says what is wrong with it.
fn statement(value: &Json) -> Result<PolicyStatement, String> {
    let Json::Object(members) = value else {
        return Err("it is not an object".into());
    };
    if let Some((name, _)) = members
        .iter()
        .find(|(n, _)| !STATEMENT_MEMBERS.contains(&n.as_str()))
    {
        return Err(format!(
            "unknown member {}: a statement has {}",
            quoted(name),
            STATEMENT_MEMBERS.join(", ")
        ));
    }
    let sid = match value.member("Sid") {
        None => None,
        Some(sid) => Some(sid.string().ok_or("Sid must be a string")?.to_string()),
    };
    let effect = value.member("Effect").ok_or("it has no Effect")?;
    let effect = Effect::parse(effect.string().ok_or("Effect must be a string")?)?;
    let (not, who) = element(members, "Principal")?;
    let principal = Element::new(
        not,
        principals(who, if not { "NotPrincipal" } else { "Principal" })?,
    );
    let (not, what) = element(members, "Action")?;
    let action = Element::new(not, patterns(what, "Action", ActionPattern::parse)?);
    let (not, on) = element(members, "Resource")?;
    let resource = Element::new(not, patterns(on, "Resource", ResourcePattern::parse)?);
    let conditions = value
        .member("Condition")
        .map_or(Ok(Vec::new()), conditions)?;
    Ok(PolicyStatement {
        sid,
        json: value.text(),
        effect,
        principal,
        action,
        resource,
        conditions,
    })
}

/// `Statement`: one statement object or a list of them, each typed; a
/// refusal names the statement (counting from 1, with its Sid).
fn statements(value: &Json) -> Result<Vec<PolicyStatement>, String> {
    let items = match value {
        Json::List(items) => items.as_slice(),
        one @ Json::Object(_) => std::slice::from_ref(one),
        _ => return Err("Statement must be a statement object or a list of them".into()),
    };
    let typed = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            statement(item).map_err(|why| {
                let sid = item.member("Sid").and_then(Json::string);
                let name = sid.map_or(String::new(), |s| format!(" ({})", quoted(s)));
                format!("statement {}{name}: {why}", i + 1)
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    // Statement ids must be unique in a policy, as IAM requires.
    for (i, s) in typed.iter().enumerate() {
        let Some(sid) = &s.sid else { continue };
        if let Some(first) = typed[..i].iter().position(|t| t.sid.as_ref() == Some(sid)) {
            return Err(format!(
                "statements {} and {} have the same Sid {}: each Sid must be unique",
                first + 1,
                i + 1,
                quoted(sid)
            ));
        }
    }
    Ok(typed)
}

/// The policy language versions IAM knows.
const VERSIONS: [&str; 2] = ["2012-10-17", "2008-10-17"];

/// One top-level member of a policy document.
fn member(name: String, value: &Json) -> Result<PolicyMember, String> {
    match name.as_str() {
        "Statement" => return statements(value).map(PolicyMember::Statements),
        "Version" if !value.string().is_some_and(|v| VERSIONS.contains(&v)) => {
            return Err(format!("Version must be {}", VERSIONS.join(" or ")))
        }
        "Id" if value.string().is_none() => return Err("Id must be a string".into()),
        "Version" | "Id" => {}
        _ => {
            return Err(format!(
                "unknown member {}: a policy has Version, Id and Statement",
                quoted(&name)
            ))
        }
    }
    Ok(PolicyMember::Other {
        json: value.text(),
        name,
    })
}

/// Reads a policy document into the engine's types; a document that is not
/// a policy is refused with `InvalidAttributeValue` saying what is wrong.
pub fn read(text: &str) -> SqsResult<QueuePolicy> {
    let Ok(Json::Object(members)) = serde_json::from_str::<Json>(text) else {
        return Err(malformed_policy("the policy is not a JSON object"));
    };
    let members = members
        .into_iter()
        .map(|(name, value)| member(name, &value))
        .collect::<Result<Vec<_>, String>>()
        .map_err(|why| malformed_policy(&why))?;
    Ok(QueuePolicy::new(text.to_string(), members))
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
