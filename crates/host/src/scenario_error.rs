//! A scenario a host cannot run, said in plain words and placed: the
//! path of the field at fault, the line of the file it is on, and what the
//! field must be ("consumers[0].batchSize must be a whole number from 1 to
//! 10, got 2.5"). The page shows it under the settings field or the JSON
//! editor line it names; these words are made here, once, never by
//! matching serde's text in JavaScript.
//!
//! serde_json says "invalid type: floating point `2.5`, expected i64". To
//! say what the field wants instead, a refused value is replaced by a
//! candidate of another kind (the whole number part, 0, true, text) and
//! the file decoded again: the first candidate that gets past this field
//! tells what the field takes, and `rule_for` gives its range. This runs
//! only after a failure.

use queuelab_simulation::{rule_for, FieldError, Scenario};
use serde_json::{error::Category, Value};

use crate::json_path;

/// Where and why a scenario cannot run.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub message: String,
    /// The field's path, when one field is at fault ("consumers[0].batchSize").
    pub path: Option<String>,
    /// What the field must be, in words, when known ("a whole number from 1 to 10").
    pub rule: Option<String>,
    /// 1-based line and column of the file, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// serde_json refused `text`: the mistake in plain words, with its place.
pub(crate) fn from_serde(text: &str, e: &serde_json::Error) -> Placed {
    let (line, column) = (Some(e.line()), Some(e.column()));
    // serde_json ends its text with " at line L column C": the place is said once, in front.
    let raw = e.to_string();
    let said = raw
        .rsplit_once(" at line ")
        .map_or(raw.as_str(), |(s, _)| s);
    // serde_json calls some refusals of valid JSON "syntax" (an enum
    // written as a number: "expected value"), so the text itself decides.
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        let why = if e.classify() == Category::Eof {
            "it ends before every [, { and \" is closed"
        } else {
            said
        };
        let message = format!(
            "line {} column {}: this is not valid JSON: {why}",
            e.line(),
            e.column()
        );
        return Placed {
            message,
            path: None,
            rule: None,
            line,
            column,
        };
    };
    let path = json_path::path_at(text, e.line(), e.column());
    let found = wanted(&doc, &path);
    let message = match &found {
        Some((rule, got)) => format!(
            "line {} column {}: {path} must be {rule}, got {got}",
            e.line(),
            e.column()
        ),
        None if path.is_empty() => format!("line {} column {}: {said}", e.line(), e.column()),
        None => format!("line {} column {}: {path}: {said}", e.line(), e.column()),
    };
    Placed {
        message,
        rule: found.map(|(rule, _)| rule),
        path: (!path.is_empty()).then_some(path),
        line,
        column,
    }
}

/// A value `Scenario::validate` refused: its sentence, placed on its line.
pub(crate) fn from_field(text: &str, e: &FieldError) -> Placed {
    let place = json_path::position_of(text, &e.path);
    let message = match place {
        Some((line, column)) => format!("line {line} column {column}: {e}"),
        None => e.to_string(),
    };
    Placed {
        message,
        path: Some(e.path.clone()),
        rule: Some(e.rule.clone()),
        line: place.map(|p| p.0),
        column: place.map(|p| p.1),
    }
}

/// What the field at `path` takes, in words, and the value it got, by
/// trying candidates of other kinds in its place.
fn wanted(doc: &Value, path: &str) -> Option<(String, String)> {
    let got = doc.pointer(&pointer(path))?;
    let candidates: Vec<(Value, &str)> = match got {
        Value::Number(n) if n.as_f64().is_some_and(|f| f < 0.0) => {
            vec![(Value::from(0), "0 or more")]
        }
        Value::Number(n) => vec![(
            Value::from(n.as_f64().map_or(0, |f| f.trunc() as i64)),
            "a whole number",
        )],
        Value::String(_) => vec![
            (Value::from(0), "a number"),
            (Value::Bool(true), "true or false"),
        ],
        Value::Bool(_) => vec![(Value::from(0), "a number"), (Value::from("text"), "text")],
        _ => vec![
            (Value::from(0), "a number"),
            (Value::from("text"), "text"),
            (Value::Bool(true), "true or false"),
        ],
    };
    for (candidate, kind) in candidates {
        let mut trial = doc.clone();
        *trial.pointer_mut(&pointer(path))? = candidate;
        // Decoded from text, so an error has a place, and so a path.
        let trial = serde_json::to_string_pretty(&trial).ok()?;
        let passes = match serde_json::from_str::<Scenario>(&trial) {
            Ok(_) => true,
            Err(e) => json_path::path_at(&trial, e.line(), e.column()) != path,
        };
        if passes {
            let rule = match (rule_for(path), kind) {
                (Some(rule), "a whole number" | "0 or more" | "a number") => rule,
                _ => kind.to_string(),
            };
            return Some((rule, got.to_string()));
        }
    }
    // An object no value of another kind replaces (an enum written as
    // `{}`): its rule in words, when the field has one.
    rule_for(path)
        .filter(|_| got.is_object())
        .map(|rule| (rule, got.to_string()))
}

/// A field's path as a JSON pointer, for `Value::pointer`:
/// "consumers[0].batchSize" → "/consumers/0/batchSize".
fn pointer(path: &str) -> String {
    path.split(['.', '['])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let part = p.strip_suffix(']').unwrap_or(p);
            format!("/{}", part.replace('~', "~0").replace('/', "~1"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `processing: {}` names what the field needs, not serde's "expected value".
    #[test]
    fn an_empty_processing_says_which_kinds_it_takes() {
        let text = r#"{ "title": "t", "durationMs": 1000, "queues": [{ "name": "q" }],
            "consumers": [{ "name": "c", "queue": "q", "processing": {} }] }"#;
        let error = serde_json::from_str::<Scenario>(text).expect_err("refused");
        let placed = from_serde(text, &error);
        assert!(
            placed
                .message
                .contains("consumers[0].processing must be one of fixedMs"),
            "{}",
            placed.message
        );
        assert_eq!(placed.path.as_deref(), Some("consumers[0].processing"));
    }
}
