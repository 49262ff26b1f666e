//! A subscription's filter policy, as SNS reads and applies it: read once
//! from its JSON (refused in SNS's own words where they are known: "Filter
//! policy can not have more than 5 keys", "Filter policy is too complex",
//! …), then matched against each message's attributes or, with scope
//! `MessageBody`, its JSON body.
//!
//! Matching: the keys of a policy are ANDed, the values of one key's list
//! ORed, `$or` a choice between whole sub-policies. A value matches by
//! exact string or number, `prefix`, `suffix`, `equals-ignore-case`,
//! `anything-but` (a value, a list, or a `prefix`/`suffix`), `numeric`
//! (`=`, or a range of `>`/`>=` then `<`/`<=`) or `exists`. In a body,
//! nested objects are nested keys, and an array stands for each of its
//! elements.

use queuelab_engine::{AttributeValue, MessageAttribute};
use serde_json::{Map, Value};

use crate::document::FilterPolicyScope;

/// The most top-level keys a policy has (SNS: "five keys").
pub const MAX_KEYS: usize = 5;
/// The most combinations of values (SNS: "must not exceed 150").
pub const MAX_COMBINATIONS: u64 = 150;
/// The longest policy, in bytes of its JSON (SNS: 256 KB).
pub const MAX_POLICY_BYTES: usize = 256 * 1024;

/// A policy read and checked: the ways a message may match (each `$or`
/// choice multiplies them, at most `MAX_COMBINATIONS`), each a list of
/// keys that must all match.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterPolicy {
    scope: FilterPolicyScope,
    branches: Vec<Vec<Rule>>,
}

/// One key (a path of nested keys in a body) and the conditions, any of
/// which matches.
#[derive(Clone, Debug, PartialEq)]
struct Rule {
    path: Vec<String>,
    conditions: Vec<Condition>,
}

#[derive(Clone, Debug, PartialEq)]
enum Condition {
    Equals(Literal),
    Prefix(String),
    Suffix(String),
    EqualsIgnoreCase(String),
    AnythingBut(Vec<Literal>),
    AnythingButPrefix(String),
    AnythingButSuffix(String),
    /// Comparisons that must all hold.
    Numeric(Vec<(Compare, f64)>),
    Exists(bool),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Compare {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A value in a message (or a policy's exact value).
#[derive(Clone, Debug, PartialEq)]
enum Literal {
    Text(String),
    Number(f64),
    Bool(bool),
    Null,
}

impl FilterPolicy {
    /// Reads `policy` for `scope`. `Err` is SNS's reason after
    /// "FilterPolicy: " where SNS's words are known.
    pub fn parse(policy: &Value, scope: FilterPolicyScope) -> Result<Self, String> {
        let Value::Object(top) = policy else {
            return Err("FilterPolicy: the policy must be a JSON object".into());
        };
        let bytes = policy.to_string().len();
        if bytes > MAX_POLICY_BYTES {
            return Err(format!(
                "FilterPolicy: the policy is {bytes} bytes, more than SNS's 262,144 (256 KB)"
            ));
        }
        if top.len() > MAX_KEYS {
            return Err("FilterPolicy: Filter policy can not have more than 5 keys".into());
        }
        let combinations = combinations(top, 1, 1, scope)?;
        if combinations > MAX_COMBINATIONS {
            return Err("FilterPolicy: Filter policy is too complex".into());
        }
        let branches = branches(top, &[])?;
        Ok(FilterPolicy { scope, branches })
    }

    pub fn scope(&self) -> FilterPolicyScope {
        self.scope
    }

    /// Whether a message with these attributes and this body matches.
    pub fn matches(&self, attributes: &[MessageAttribute], body: &str) -> bool {
        match self.scope {
            FilterPolicyScope::MessageAttributes => {
                self.any_branch(|path| attribute_values(attributes, path))
            }
            FilterPolicyScope::MessageBody => {
                // SNS filters only a body that is a JSON object.
                let body = match serde_json::from_str::<Value>(body) {
                    Ok(object @ Value::Object(_)) => object,
                    _ => return false,
                };
                self.any_branch(|path| {
                    let mut found = Vec::new();
                    leaves(&body, path, &mut found);
                    Some(found).filter(|f| !f.is_empty())
                })
            }
        }
    }

    /// Some branch whose every rule matches the values `at` finds for its
    /// path (None: the key is not there).
    fn any_branch(&self, at: impl Fn(&[String]) -> Option<Vec<Literal>>) -> bool {
        self.branches.iter().any(|rules| {
            rules.iter().all(|rule| {
                let values = at(&rule.path);
                rule.conditions.iter().any(|c| c.holds(values.as_deref()))
            })
        })
    }
}

/// The combinations of a (sub-)policy at `depth`, as SNS counts them: each
/// list of values multiplies them by its length and its depth, a `$or`
/// adds up its choices'. Also refuses what SNS refuses while it counts.
fn combinations(
    policy: &Map<String, Value>,
    depth: u64,
    mut so_far: u64,
    scope: FilterPolicyScope,
) -> Result<u64, String> {
    for (key, value) in policy {
        match value {
            Value::Object(nested) => {
                if scope == FilterPolicyScope::MessageAttributes {
                    return Err(
                        "Filter policy scope MessageAttributes does not support nested \
                                filter policy"
                            .into(),
                    );
                }
                so_far = combinations(nested, depth + 1, so_far, scope)?;
            }
            Value::Array(values) if values.is_empty() => {
                return Err("FilterPolicy: Empty arrays are not allowed".into())
            }
            Value::Array(choices) if is_or(key, value) => {
                let mut sum = 0u64;
                for choice in choices.iter().filter_map(Value::as_object) {
                    sum = sum.saturating_add(combinations(choice, depth, so_far, scope)?);
                }
                so_far = sum;
            }
            Value::Array(values) => {
                so_far = so_far.saturating_mul(values.len() as u64 * depth);
            }
            _ => {
                return Err(format!(
                    "FilterPolicy: \"{key}\" must be an object or an array"
                ))
            }
        }
        // Bounded work: past the limit, counting further says nothing new.
        if so_far > MAX_COMBINATIONS {
            return Ok(so_far);
        }
    }
    Ok(so_far)
}

/// `"$or": [ {…}, {…}, … ]`: SNS reads `$or` as a choice only with two or
/// more objects; otherwise it is a key like any other.
fn is_or(key: &str, value: &Value) -> bool {
    matches!(value, Value::Array(choices)
        if key == "$or" && choices.len() > 1 && choices.iter().all(Value::is_object))
}

/// The policy's branches (one per `$or` choice taken), each a list of
/// rules, the keys' paths under `prefix`.
fn branches(policy: &Map<String, Value>, prefix: &[String]) -> Result<Vec<Vec<Rule>>, String> {
    let mut out: Vec<Vec<Rule>> = vec![Vec::new()];
    for (key, value) in policy {
        let choices: Vec<Vec<Rule>> = if is_or(key, value) {
            let mut all = Vec::new();
            for choice in value.as_array().into_iter().flatten() {
                if let Value::Object(choice) = choice {
                    all.extend(branches(choice, prefix)?);
                }
            }
            all
        } else {
            let mut path = prefix.to_vec();
            path.push(key.clone());
            match value {
                Value::Object(nested) => branches(nested, &path)?,
                Value::Array(values) => {
                    let conditions = values.iter().map(condition).collect::<Result<_, _>>()?;
                    vec![vec![Rule { path, conditions }]]
                }
                _ => {
                    return Err(format!(
                        "FilterPolicy: \"{key}\" must be an object or an array"
                    ))
                }
            }
        };
        // Every branch so far, with each choice (bounded: the combinations
        // were counted and held to 150 before).
        out = out
            .iter()
            .flat_map(|rules| {
                choices.iter().map(move |choice| {
                    let mut joined = rules.clone();
                    joined.extend(choice.iter().cloned());
                    joined
                })
            })
            .collect();
    }
    Ok(out)
}

/// One value of a key's list: an exact value, or a match expression.
fn condition(value: &Value) -> Result<Condition, String> {
    let Value::Object(expression) = value else {
        return literal(value).map(Condition::Equals);
    };
    let mut entries = expression.iter();
    let (Some((operator, operand)), None) = (entries.next(), entries.next()) else {
        return Err("FilterPolicy: Only one key allowed in match expression".into());
    };
    let text = |what: &str| match operand {
        Value::String(s) => Ok(s.clone()),
        _ => Err(format!(
            "FilterPolicy: {what} match pattern must be a string"
        )),
    };
    Ok(match operator.as_str() {
        "prefix" => Condition::Prefix(text("prefix")?),
        "suffix" => Condition::Suffix(text("suffix")?),
        "equals-ignore-case" => Condition::EqualsIgnoreCase(text("equals-ignore-case")?),
        "exists" => match operand {
            Value::Bool(b) => Condition::Exists(*b),
            _ => {
                return Err(
                    "FilterPolicy: exists match pattern must be either true or false.".into(),
                )
            }
        },
        "anything-but" => anything_but(operand)?,
        "numeric" => Condition::Numeric(numeric(operand)?),
        other => return Err(format!("FilterPolicy: Unrecognized match type {other}")),
    })
}

fn literal(value: &Value) -> Result<Literal, String> {
    Ok(match value {
        Value::String(s) => Literal::Text(s.clone()),
        Value::Number(n) => Literal::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Null => Literal::Null,
        _ => {
            return Err(
                "FilterPolicy: Match value must be String, number, true, false, or null".into(),
            )
        }
    })
}

/// `anything-but`: a value, a list of values, or `{"prefix": …}` /
/// `{"suffix": …}`.
fn anything_but(operand: &Value) -> Result<Condition, String> {
    match operand {
        Value::Array(values) => Ok(Condition::AnythingBut(
            values.iter().map(literal).collect::<Result<_, _>>()?,
        )),
        Value::Object(inner) => {
            let mut entries = inner.iter();
            match (entries.next(), entries.next()) {
                (Some((kind, Value::String(s))), None) if kind == "prefix" => {
                    Ok(Condition::AnythingButPrefix(s.clone()))
                }
                (Some((kind, Value::String(s))), None) if kind == "suffix" => {
                    Ok(Condition::AnythingButSuffix(s.clone()))
                }
                (Some((kind, _)), None) if kind == "prefix" || kind == "suffix" => Err(format!(
                    "FilterPolicy: {kind} match pattern must be a string"
                )),
                (Some((kind, _)), _) => Err(format!(
                    "FilterPolicy: Unsupported anything-but pattern: {kind}"
                )),
                (None, _) => Err("FilterPolicy: Empty objects are not allowed".into()),
            }
        }
        single => Ok(Condition::AnythingBut(vec![literal(single)?])),
    }
}

/// `numeric`: `["=", n]`, `[op, n]`, or a range `[">"|">=", low,
/// "<"|"<=", high]` with low below high.
fn numeric(operand: &Value) -> Result<Vec<(Compare, f64)>, String> {
    let err = |words: String| Err(format!("FilterPolicy: {words}"));
    let Value::Array(terms) = operand else {
        return err("Value of numeric must be an array.".into());
    };
    let operator = |term: &Value, first: bool| -> Result<Compare, String> {
        let Value::String(op) = term else {
            let what = if first {
                "Invalid member in numeric match"
            } else {
                "Bad value in numeric range"
            };
            return Err(format!("FilterPolicy: {what}: {term}"));
        };
        Ok(match (op.as_str(), first) {
            ("=", true) => Compare::Eq,
            (">", true) => Compare::Gt,
            (">=", true) => Compare::Ge,
            ("<", _) => Compare::Lt,
            ("<=", _) => Compare::Le,
            (_, true) => {
                return Err(format!(
                    "FilterPolicy: Unrecognized numeric range operator: {op}"
                ))
            }
            (_, false) => return Err(format!("FilterPolicy: Bad numeric range operator: {op}")),
        })
    };
    let number = |op: Compare, term: Option<&Value>| -> Result<f64, String> {
        match term.and_then(Value::as_f64) {
            Some(n) => Ok(n),
            None => {
                let name = match op {
                    Compare::Eq => "equals",
                    Compare::Lt => "<",
                    Compare::Le => "<=",
                    Compare::Gt => ">",
                    Compare::Ge => ">=",
                };
                Err(format!("FilterPolicy: Value of {name} must be numeric"))
            }
        }
    };
    let Some(first) = terms.first() else {
        return err("Invalid member in numeric match: ]".into());
    };
    let op = operator(first, true)?;
    let low = number(op, terms.get(1))?;
    if terms.len() == 2 {
        return Ok(vec![(op, low)]);
    }
    if !matches!(op, Compare::Gt | Compare::Ge) {
        return err("Too many elements in numeric expression".into());
    }
    let op2 = operator(&terms[2], false)?;
    let high = number(op2, terms.get(3))?;
    if high <= low {
        return err("Bottom must be less than top".into());
    }
    if terms.len() > 4 {
        return err("Too many terms in numeric range expression".into());
    }
    Ok(vec![(op, low), (op2, high)])
}

/// SNS compares numbers to five digits after the decimal point.
fn fixed(n: f64) -> i64 {
    (n * 100_000.0).round() as i64
}

impl Condition {
    /// Whether the values of a key (None: the key is absent) satisfy it.
    fn holds(&self, values: Option<&[Literal]>) -> bool {
        if let Condition::Exists(wanted) = self {
            return values.is_some() == *wanted;
        }
        values.is_some_and(|values| values.iter().any(|v| self.holds_for(v)))
    }

    fn holds_for(&self, value: &Literal) -> bool {
        let text = match value {
            Literal::Text(s) => Some(s.as_str()),
            _ => None,
        };
        match self {
            Condition::Equals(want) => same(want, value),
            Condition::Prefix(p) => text.is_some_and(|s| s.starts_with(p.as_str())),
            Condition::Suffix(p) => text.is_some_and(|s| s.ends_with(p.as_str())),
            Condition::EqualsIgnoreCase(p) => {
                text.is_some_and(|s| s.to_lowercase() == p.to_lowercase())
            }
            Condition::AnythingBut(values) => !values.iter().any(|v| same(v, value)),
            Condition::AnythingButPrefix(p) => text.is_some_and(|s| !s.starts_with(p.as_str())),
            Condition::AnythingButSuffix(p) => text.is_some_and(|s| !s.ends_with(p.as_str())),
            Condition::Numeric(terms) => match value {
                Literal::Number(n) => terms.iter().all(|(op, bound)| {
                    let (n, bound) = (fixed(*n), fixed(*bound));
                    match op {
                        Compare::Eq => n == bound,
                        Compare::Lt => n < bound,
                        Compare::Le => n <= bound,
                        Compare::Gt => n > bound,
                        Compare::Ge => n >= bound,
                    }
                }),
                _ => false,
            },
            Condition::Exists(_) => true,
        }
    }
}

/// Equal values of one type (numbers to five decimal places).
fn same(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        (Literal::Number(x), Literal::Number(y)) => fixed(*x) == fixed(*y),
        _ => a == b,
    }
}

/// A message attribute's values: a `String`'s text, a `Number`'s number,
/// each element of a `String.Array`. None: no attribute of that name.
fn attribute_values(attributes: &[MessageAttribute], path: &[String]) -> Option<Vec<Literal>> {
    let [name] = path else { return None };
    let attribute = attributes.iter().find(|a| &a.name == name)?;
    let AttributeValue::String(text) = &attribute.value else {
        // Binary attributes are present, with nothing to compare.
        return Some(Vec::new());
    };
    let base = attribute.data_type.split('.').next().unwrap_or("");
    Some(match (base, attribute.data_type.as_str()) {
        (_, "String.Array") => match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => items.iter().filter_map(|v| literal(v).ok()).collect(),
            _ => Vec::new(),
        },
        ("Number", _) => text
            .trim()
            .parse::<f64>()
            .map(Literal::Number)
            .into_iter()
            .collect(),
        _ => vec![Literal::Text(text.clone())],
    })
}

/// The leaf values at `path` in `value`, each element of an array on the
/// way standing for the array.
fn leaves(value: &Value, path: &[String], out: &mut Vec<Literal>) {
    match (value, path.split_first()) {
        (Value::Array(items), _) => {
            for item in items {
                leaves(item, path, out);
            }
        }
        (Value::Object(map), Some((key, rest))) => {
            if let Some(next) = map.get(key) {
                leaves(next, rest, out);
            }
        }
        (Value::Object(_), None) | (_, Some(_)) => {}
        (leaf, None) => out.extend(literal(leaf).ok()),
    }
}
