//! The matrix of changed runs, made from the engine's own vocabulary, never
//! from a list kept here: every setting the page's form offers
//! (`vocabulary()`'s `setting` rows, on each queue or consumer that has
//! the field's group) at its bounds and one value in between, each worker
//! behaviour switched the other way, and each lab knob at its bounds, in
//! between, off, and at each of its choices (`lab_view()`), plus the lab's
//! named fixes and non-fixes. A cell is one change of one file; each cell
//! is played with seeds 1 to 5, realism off and on.
//!
//! The page writes a change into a copy of the file's JSON (its form's
//! `readInto`); so does this module, and a change the scenario's own
//! validation refuses is a cell the page could not run, counted apart.

use queuelab_simulation::{vocabulary, FieldKind, FieldWords, KnobKind, KnobValue, Scenario};
use serde_json::{json, Value};

/// One changed run's scenario: which file, what changed, the scenario.
pub struct Cell {
    pub file: String,
    pub change: String,
    pub scenario: Scenario,
}

/// The seeds every cell is played with.
pub const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

pub fn repo_file(rel: &str) -> String {
    let path = format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The shipped scenarios and labs (their index files' order): (path, JSON).
pub fn shipped() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in ["web/scenarios", "web/scenarios/labs"] {
        let index: Vec<String> =
            serde_json::from_str(&repo_file(&format!("{dir}/index.json"))).unwrap();
        for name in index {
            let name = if name.ends_with(".json") {
                name
            } else {
                format!("{name}.json")
            };
            let path = format!("{dir}/{name}");
            let value = serde_json::from_str(&repo_file(&path)).unwrap();
            out.push((path, value));
        }
    }
    out
}

/// Every cell of every shipped file, and the number of changes refused
/// (a value the scenario's validation does not accept together with the
/// file's other values).
pub fn cells() -> (Vec<Cell>, usize) {
    let mut cells = Vec::new();
    let mut refused = 0;
    for (file, value) in shipped() {
        let changes = if value
            .get("knobs")
            .is_some_and(|k| !k.as_array().unwrap().is_empty())
        {
            lab_changes(&value)
        } else {
            setting_changes(&value)
        };
        let unchanged = std::iter::once(("the file's run".to_string(), value.clone()));
        for (change, changed) in unchanged.chain(changes) {
            match serde_json::from_value::<Scenario>(changed) {
                Ok(scenario) if scenario.validate().is_ok() => cells.push(Cell {
                    file: file.clone(),
                    change,
                    scenario,
                }),
                other => {
                    if std::env::var("CLAIMS_REFUSED").is_ok() {
                        let why = other.map(|s| s.validate().unwrap_err().to_string());
                        eprintln!("refused: {file} {change}: {why:?}");
                    }
                    refused += 1;
                }
            }
        }
    }
    (cells, refused)
}

/// The value at a dotted path inside `item`.
fn get<'a>(item: &'a Value, rel: &str) -> Option<&'a Value> {
    rel.split('.')
        .try_fold(item, |v, k| v.get(k))
        .filter(|v| !v.is_null())
}

/// Sets (or with None removes) the value at a dotted path inside `item`.
fn set(item: &mut Value, rel: &str, value: Option<Value>) {
    let mut keys: Vec<&str> = rel.split('.').collect();
    let last = keys.pop().unwrap();
    let mut at = item;
    for k in keys {
        if at.get(k).is_none_or(Value::is_null) {
            at[k] = json!({});
        }
        at = &mut at[k];
    }
    match value {
        Some(v) => at[last] = v,
        None => {
            if let Some(o) = at.as_object_mut() {
                o.remove(last);
            }
        }
    }
}

/// The numbers a field is tried at: its bounds and one value in between
/// (the file's value doubled, or the middle of a small range). A number
/// the vocabulary leaves unranged is tried at 1, 3 and 100.
fn numbers(f: &FieldWords, file: Option<u64>) -> Vec<u64> {
    let (lo, hi) = match (f.min, f.max) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => return vec![1, 3, 100],
    };
    let doubled = file.map(|v| (v * 2).max(lo + 1));
    let between = match doubled {
        Some(v) if v < hi => v,
        _ => lo + (hi - lo) / 2,
    };
    let mut out = vec![lo, between, hi];
    out.dedup();
    out
}

/// A field the form shows with an on-box: a group switched as one (a
/// backoff, an outage), or an optional time left out to mean off (a
/// heartbeat) — `switched` in web/ui/setting-fields.js.
fn switched(f: &FieldWords) -> bool {
    f.kind == FieldKind::Group || (f.kind == FieldKind::Number && f.optional && f.unit == "ms")
}

/// A switched-on field's starting value, as the page starts it: a time at
/// 1 s (or its minimum, when more), another number at its minimum.
fn start(f: &FieldWords) -> u64 {
    match f.unit.as_str() {
        "ms" => f.min.unwrap_or(0).max(1000),
        _ => f.min.unwrap_or(1),
    }
}

/// The file with a field set (None: left out) and other fields of the item set too.
type Change<'a> = dyn Fn(Option<Value>, &[(&str, Value)]) -> Value + 'a;

/// An on-box's changes: switched the other way (a group on at the page's
/// starting values, or off), and a switched time at each of its values.
fn switch_changes(
    at: &str,
    f: &FieldWords,
    current: Option<Value>,
    inner: &[(String, Value)],
    changed: &Change,
) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if current.is_some() {
        out.push((format!("{at} off"), changed(None, &[])));
    } else if f.kind == FieldKind::Group {
        let inner: Vec<(&str, Value)> =
            inner.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        out.push((format!("{at} on"), changed(None, &inner)));
    }
    if f.kind != FieldKind::Group {
        for n in numbers(f, current.as_ref().and_then(Value::as_u64)) {
            out.push((format!("{at} = {n}"), changed(Some(json!(n)), &[])));
        }
    }
    out
}

/// The fields of the group at `group` (but `except`), each at the value
/// the page starts it at when the group's box is checked: (its path in
/// the item, value).
fn started(rows: &[FieldWords], part: &str, group: &str, except: &str) -> Vec<(String, Value)> {
    (rows.iter())
        .filter(|r| r.path.starts_with(&format!("{group}.")) && r.path != except)
        .map(|r| (r.path[part.len() + 3..].to_string(), json!(start(r))))
        .collect()
}

/// The first body each consumer's queue receives from the file: the
/// pattern a learner types into a "fails on bodies containing" list.
fn first_body(file: &Value, queue: &str) -> String {
    let senders = ["producers", "schedule"].iter().flat_map(|k| {
        file.get(*k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    });
    for s in senders {
        if s["queue"] != queue {
            continue;
        }
        if let Some(body) = s["sends"].get(0).and_then(|x| x["body"].as_str()) {
            return body.to_string();
        }
        if let Some(body) = s["rate"]["body"].as_str() {
            return body.to_string();
        }
    }
    "order".to_string()
}

/// Each change the settings form offers for `file`, one at a time.
fn setting_changes(file: &Value) -> Vec<(String, Value)> {
    let rows: Vec<FieldWords> = vocabulary().fields;
    let mut out = Vec::new();
    for part in ["queues", "consumers"] {
        let count = file[part].as_array().map_or(0, Vec::len);
        for i in 0..count {
            for f in rows
                .iter()
                .filter(|f| f.setting && f.path.starts_with(&format!("{part}[].")))
            {
                let rel = &f.path[part.len() + 3..];
                for (change, value) in field_changes(file, part, i, rel, f, &rows) {
                    out.push((change, value));
                }
            }
        }
    }
    out
}

/// The changes of one field of `file[part][i]`.
fn field_changes(
    file: &Value,
    part: &str,
    i: usize,
    rel: &str,
    f: &FieldWords,
    rows: &[FieldWords],
) -> Vec<(String, Value)> {
    let item = &file[part][i];
    let parent_rel = rel.rsplit_once('.').map(|(p, _)| p);
    let parent = parent_rel.and_then(|p| rows.iter().find(|r| r.path == format!("{part}[].{p}")));
    // A box the form shows: a switched group that is itself a setting.
    let in_box = parent.is_some_and(|p| p.setting && switched(p));
    // A field inside a group the form does not switch (a redrive policy,
    // a processing distribution) is changed only where the item has it:
    // its redrive policy's count, its own distribution's numbers.
    let in_group = (rows.iter())
        .any(|r| r.kind == FieldKind::Group && f.path.starts_with(&format!("{}.", r.path)));
    if in_group && !in_box && get(item, rel).is_none() {
        return Vec::new();
    }
    let at = format!("{part}[{i}].{rel}");
    let changed = |value: Option<Value>, extra: &[(&str, Value)]| {
        let mut next = file.clone();
        let target = &mut next[part][i];
        set(target, rel, value);
        for (k, v) in extra {
            set(target, k, Some(v.clone()));
        }
        next
    };
    let current = get(item, rel).cloned();
    let mut out = Vec::new();
    if switched(f) {
        return switch_changes(&at, f, current, &started(rows, part, &f.path, ""), &changed);
    }
    // A number inside a switched group: the group on, this number at each value.
    let group_on: Vec<(String, Value)> = match (in_box, parent, parent_rel) {
        (true, Some(p), Some(_)) if get(item, &p.path[part.len() + 3..]).is_none() => {
            started(rows, part, &p.path, &f.path)
        }
        _ => Vec::new(),
    };
    let extra: Vec<(&str, Value)> = group_on
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    match f.kind {
        FieldKind::Toggle => {
            let on = current.as_ref().and_then(Value::as_bool).unwrap_or(false);
            out.push((format!("{at} = {}", !on), changed(Some(json!(!on)), &extra)));
        }
        FieldKind::List => {
            let empty = current
                .as_ref()
                .and_then(Value::as_array)
                .is_none_or(Vec::is_empty);
            if empty {
                let queue = item["queue"].as_str().unwrap_or("");
                let body = first_body(file, queue);
                out.push((
                    format!("{at} = [{body:?}]"),
                    changed(Some(json!([body])), &extra),
                ));
            } else {
                out.push((format!("{at} = []"), changed(None, &extra)));
            }
        }
        FieldKind::Number => {
            if f.optional && current.is_some() {
                out.push((format!("{at} = none"), changed(None, &extra)));
            }
            for n in numbers(f, current.as_ref().and_then(Value::as_u64)) {
                out.push((format!("{at} = {n}"), changed(Some(json!(n)), &extra)));
            }
        }
        FieldKind::Choice => {
            for c in &f.choices {
                out.push((
                    format!("{at} = {}", c.value),
                    changed(Some(json!(c.value)), &extra),
                ));
            }
        }
        FieldKind::Text | FieldKind::Group => {}
    }
    out
}

/// Each change a lab's knobs offer, one knob at a time, and the lab's
/// named fixes and non-fixes (several knobs at once).
fn lab_changes(file: &Value) -> Vec<(String, Value)> {
    let lab: Scenario = serde_json::from_value(file.clone()).unwrap();
    let view = lab.lab_view().expect("a lab has a view");
    let mut settings: Vec<(String, Vec<(String, KnobValue)>)> = Vec::new();
    for k in &view.knobs {
        let mut values = Vec::new();
        match k.kind {
            KnobKind::Toggle => {
                values.extend([KnobValue::Bool(true), KnobValue::Bool(false)]);
            }
            KnobKind::Choice => {
                values.extend(k.choices.iter().map(|c| KnobValue::Text(c.value.clone())));
            }
            _ => {
                if let (Some(lo), Some(hi)) = (k.min, k.max) {
                    values.extend([lo, lo + (hi - lo) / 2, hi].map(KnobValue::Int));
                }
                if k.off {
                    values.push(KnobValue::OFF);
                }
            }
        }
        for v in values {
            settings.push((format!("knob {} = {v:?}", k.id), vec![(k.id.clone(), v)]));
        }
    }
    if let Some(explain) = &lab.explain {
        let named = (explain.fixes.iter().map(|f| (&f.name, &f.settings)))
            .chain(explain.non_fixes.iter().map(|f| (&f.name, &f.settings)));
        for (name, s) in named {
            settings.push((format!("“{name}”"), s.clone().into_iter().collect()));
        }
    }
    let mut out = Vec::new();
    for (change, s) in settings {
        // A refused combination stays in as nothing a scenario reads: counted as refused.
        let changed = lab.with_settings(&s.into_iter().collect());
        let value = changed.map_or(Value::Null, |c| serde_json::to_value(&c).unwrap());
        out.push((change, value));
    }
    out
}
