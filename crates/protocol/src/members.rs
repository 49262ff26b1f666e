//! Reading the members of an SNS or S3 request (a JSON object, or a
//! query-protocol form read into one) into the simulation's typed calls,
//! by hand: each member read by name and type, a wrong one refused naming
//! it. (serde's derived readers did the same for 45 KB of wasm.)

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// An object's members, and where it sits ("" or "Entries.2.").
pub(crate) struct Members<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

/// What is wrong with a member: its name (with its path) and why.
pub(crate) type Wrong = (String, &'static str);

impl<'a> Members<'a> {
    pub(crate) fn new(map: &'a Map<String, Value>) -> Self {
        Members {
            map,
            path: String::new(),
        }
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn wrong(&self, name: &str, why: &'static str) -> Wrong {
        (format!("{}{name}", self.path), why)
    }

    /// A text member; a number or boolean is read as its text (the query
    /// protocol's values are all text, and a JSON caller may write `true`).
    pub(crate) fn text(&self, name: &str) -> Result<Option<String>, Wrong> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v @ (Value::Number(_) | Value::Bool(_))) => Ok(Some(v.to_string())),
            Some(_) => Err(self.wrong(name, "must be a string")),
        }
    }

    /// A whole number, from a number or its text.
    pub(crate) fn integer(&self, name: &str) -> Result<Option<i64>, Wrong> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or(self.wrong(name, "must be a whole number")),
            Some(Value::String(s)) => s
                .parse()
                .map(Some)
                .map_err(|_| self.wrong(name, "must be a whole number")),
            Some(_) => Err(self.wrong(name, "must be a whole number")),
        }
    }

    /// A number (a double), from a number or its text.
    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, Wrong> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => number_of(v)
                .map(Some)
                .ok_or(self.wrong(name, "must be a number")),
        }
    }

    /// A list of numbers (`Values`).
    pub(crate) fn numbers(&self, name: &str) -> Result<Vec<f64>, Wrong> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => (items.iter())
                .map(|v| number_of(v).ok_or(self.wrong(name, "must be a list of numbers")))
                .collect(),
            Some(_) => Err(self.wrong(name, "must be a list of numbers")),
        }
    }

    /// A boolean, from `true`/`false` or their text.
    pub(crate) fn boolean(&self, name: &str) -> Result<Option<bool>, Wrong> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(Some(s == "true")),
            Some(_) => Err(self.wrong(name, "must be true or false")),
        }
    }

    /// A map of text to text (`Attributes`).
    pub(crate) fn text_map(&self, name: &str) -> Result<BTreeMap<String, String>, Wrong> {
        let mut out = BTreeMap::new();
        let Some(map) = self.object(name)? else {
            return Ok(out);
        };
        for key in map.map.keys() {
            let value = map.text(key)?.unwrap_or_default();
            out.insert(key.clone(), value);
        }
        Ok(out)
    }

    /// A nested structure.
    pub(crate) fn object(&self, name: &str) -> Result<Option<Members<'a>>, Wrong> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Members {
                map,
                path: format!("{}{name}.", self.path),
            })),
            Some(_) => Err(self.wrong(name, "must be a structure")),
        }
    }

    /// A map of structures (`MessageAttributes`), by key.
    pub(crate) fn object_map(&self, name: &str) -> Result<Vec<(String, Members<'a>)>, Wrong> {
        let Some(map) = self.object(name)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for key in map.map.keys() {
            let entry = map
                .object(key)?
                .ok_or(map.wrong(key, "must be a structure"))?;
            out.push((key.clone(), entry));
        }
        Ok(out)
    }

    /// A list of structures.
    pub(crate) fn list(&self, name: &str) -> Result<Vec<Members<'a>>, Wrong> {
        let items = match self.get(name) {
            None => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(self.wrong(name, "must be a list")),
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let Value::Object(map) = item else {
                return Err(self.wrong(name, "must be a list of structures"));
            };
            out.push(Members {
                map,
                path: format!("{}{name}.{}.", self.path, i + 1),
            });
        }
        Ok(out)
    }

    /// A list of text (`Events`).
    pub(crate) fn texts(&self, name: &str) -> Result<Vec<String>, Wrong> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => (items.iter())
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or(self.wrong(name, "must be a list of strings"))
                })
                .collect(),
            Some(_) => Err(self.wrong(name, "must be a list of strings")),
        }
    }

    /// Whether a member is given at all (a list or structure not read here).
    pub(crate) fn has(&self, name: &str) -> bool {
        match self.get(name) {
            Some(Value::Array(items)) => !items.is_empty(),
            Some(_) => true,
            None => false,
        }
    }
}

/// A JSON number, or a number's text, as a double.
fn number_of(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}
