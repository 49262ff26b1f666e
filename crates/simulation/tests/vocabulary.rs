//! Every field of the scenario format has words from the engine, and every
//! worker behaviour says itself on a worker's card: the fields are read
//! from the generated schema (web/scenarios/scenario.schema.json, written
//! from the scenario's types by the contract test), so a field added to a
//! type without its row in the vocabulary fails here, not on a page.

use std::collections::BTreeSet;

use queuelab_simulation::{vocabulary, Consumer, FieldKind, FieldWords};
use serde_json::{json, Map, Value};

/// The lab's and the story's parts: words a page shows as written, not
/// settings of the simulated system (a page never lists them as changed).
const NOT_SETTINGS: [&str; 7] = [
    "title",
    "summary",
    "narration",
    "checkpoints",
    "goal",
    "knobs",
    "explain",
];

/// Fields of a shared type (a rate) that validation holds to a narrower
/// range where they are used than the type's schema states.
const NARROWED: [&str; 1] = ["requesters[].rate.count"];

fn schema() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/scenarios/scenario.schema.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("the schema")).expect("JSON")
}

/// The definition a node refers to (itself when it refers to none).
fn resolve<'a>(defs: &'a Map<String, Value>, node: &'a Value) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(defs, &defs[r.rsplit('/').next().unwrap_or(r)]),
        None => node,
    }
}

/// The schema's fields by path (a list's items as `[]`): every leaf, and
/// every object a field holds (a group, said as one setting when it
/// appears or goes).
fn paths(defs: &Map<String, Value>, node: &Value, path: &str, out: &mut BTreeSet<String>) {
    let node = resolve(defs, node);
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = node.get(key).and_then(Value::as_array) {
            let nullable = list.iter().any(|n| n.get("type") == Some(&json!("null")));
            let object = list
                .iter()
                .any(|n| resolve(defs, n).get("properties").is_some());
            if nullable && object {
                out.insert(path.to_string());
            }
            for n in list {
                paths(defs, n, path, out);
            }
            return;
        }
    }
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        // An object a field holds is a group (a list's items and the
        // behaviours, a set of settings rather than one, are not).
        if !path.is_empty() && !path.ends_with("[]") && !path.ends_with(".behaviour") {
            out.insert(path.to_string());
        }
        for (key, value) in props {
            let inner = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            paths(defs, value, &inner, out);
        }
        return;
    }
    let items = node.get("items").map(|i| resolve(defs, i));
    if let Some(items) = items.filter(|i| i.get("properties").is_some() || i.get("oneOf").is_some())
    {
        return paths(defs, items, &format!("{path}[]"), out);
    }
    if node.get("type") != Some(&json!("null")) && !path.is_empty() {
        out.insert(path.to_string());
    }
}

fn schema_fields() -> BTreeSet<String> {
    let schema = schema();
    let defs = schema["definitions"].as_object().expect("definitions");
    let mut out = BTreeSet::new();
    paths(defs, &schema, "", &mut out);
    out.retain(|p| !NOT_SETTINGS.contains(&p.split(['.', '[']).next().unwrap_or(p)));
    // The enum's forms are its leaves' parents: `processing` is one of them, not a group.
    out.retain(|p| {
        !p.ends_with("processing.uniformMs") && !p.ends_with("processing.exponentialMs")
    });
    out
}

fn row(path: &str) -> Option<FieldWords> {
    vocabulary().fields.into_iter().find(|f| f.path == path)
}

#[test]
fn every_scenario_field_has_words_from_the_engine() {
    let fields = schema_fields();
    assert!(
        fields.contains("consumers[].behaviour.retryImmediately"),
        "the walk finds the behaviours: {fields:?}"
    );
    let missing: Vec<&String> = fields.iter().filter(|p| row(p).is_none()).collect();
    assert!(
        missing.is_empty(),
        "fields without words in scenario/vocabulary.rs: {missing:?}"
    );
    let rows: BTreeSet<String> = vocabulary().fields.into_iter().map(|f| f.path).collect();
    let stale: Vec<&String> = rows.difference(&fields).collect();
    assert!(
        stale.is_empty(),
        "rows for no field of the schema: {stale:?}"
    );
    for f in vocabulary().fields {
        assert!(
            !f.label.is_empty() && !f.name.is_empty(),
            "{} has a label and a name",
            f.path
        );
    }
}

#[test]
fn a_fields_range_is_the_one_the_schema_states() {
    let schema = schema();
    let defs = schema["definitions"].as_object().expect("definitions");
    for f in vocabulary()
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::Number)
    {
        // The schema's node of this field: walk its path.
        let mut node = resolve(defs, &schema);
        for part in f.path.split('.') {
            let (name, list) = part.strip_suffix("[]").map_or((part, false), |n| (n, true));
            // An enum of objects (`oneOf`), or of a word and an object
            // (`anyOf`: a queue's `encryption`).
            let found = node["properties"].get(name).or_else(|| {
                (["oneOf", "anyOf"].iter())
                    .flat_map(|forms| node[*forms].as_array().into_iter().flatten())
                    .find_map(|form| resolve(defs, form)["properties"].get(name))
            });
            node = resolve(
                defs,
                found.unwrap_or_else(|| panic!("{} in the schema", f.path)),
            );
            // An optional field (`anyOf` with null): its value's node.
            // Another `anyOf` is an enum, searched at the next part.
            let forms = node["anyOf"].as_array();
            let optional = forms.is_some_and(|l| l.iter().any(|n| n["type"] == json!("null")));
            if let Some(inner) = forms
                .filter(|_| optional)
                .and_then(|l| l.iter().find(|n| n["type"] != json!("null")))
            {
                node = resolve(defs, inner);
            }
            if list {
                node = resolve(defs, &node["items"]);
            }
        }
        for (bound, ours) in [("minimum", f.min), ("maximum", f.max)] {
            if let (Some(theirs), Some(ours)) = (node[bound].as_u64(), ours) {
                // A requester's rate is a producer's type held to fewer
                // requests: within the schema's range, not at its end.
                if NARROWED.contains(&f.path.as_str()) {
                    assert!(ours <= theirs, "{}'s {bound}", f.path);
                    continue;
                }
                assert_eq!(ours, theirs, "{}'s {bound}", f.path);
            }
        }
    }
}

/// A value a field may take, for a card: on, a pattern, its smallest number above 0.
fn sample(f: &FieldWords) -> Value {
    match f.kind {
        FieldKind::Toggle => json!(true),
        FieldKind::List => json!(["poison"]),
        FieldKind::Number => json!(f.min.unwrap_or(1).max(3)),
        FieldKind::Group => {
            let prefix = format!("{}.", f.path);
            let inner = vocabulary().fields.into_iter().filter(|c| {
                c.path
                    .strip_prefix(&prefix)
                    .is_some_and(|r| !r.contains('.'))
            });
            Value::Object(
                inner
                    .map(|c| (c.path[prefix.len()..].to_string(), sample(&c)))
                    .collect(),
            )
        }
        FieldKind::Choice | FieldKind::Text => json!("x"),
    }
}

/// Behaviour fields that only mean something beside another one.
const NEEDS: [(&str, &str); 2] = [
    ("restartMs", "crashesBeforeSideEffectOn"),
    ("heartbeatVisibilitySeconds", "heartbeatEveryMs"),
];

fn card(behaviour: Value) -> Vec<String> {
    let consumer = json!({ "name": "w", "queue": "q", "processing": { "fixedMs": 100 }, "behaviour": behaviour });
    serde_json::from_value::<Consumer>(consumer)
        .expect("a consumer")
        .traits()
}

#[test]
fn every_worker_behaviour_is_said_on_its_card() {
    let prefix = "consumers[].behaviour.";
    let fields = vocabulary().fields;
    let behaviours = fields.iter().filter(|f| {
        f.path
            .strip_prefix(prefix)
            .is_some_and(|r| !r.contains('.'))
    });
    let mut said = 0;
    for f in behaviours {
        let key = &f.path[prefix.len()..];
        let mut base = Map::new();
        if let Some((_, partner)) = NEEDS.iter().find(|(k, _)| *k == key) {
            let partner = fields
                .iter()
                .find(|p| p.path == format!("{prefix}{partner}"))
                .expect("the partner's row");
            base.insert(partner.path[prefix.len()..].to_string(), sample(partner));
        }
        let without = card(Value::Object(base.clone()));
        base.insert(key.to_string(), sample(f));
        let with = card(Value::Object(base));
        assert_ne!(with, without, "{key} changes nothing on a worker's card: give its behaviour words (behaviours::REGISTRY)");
        said += 1;
    }
    assert!(said >= 12, "every behaviour field was tried ({said})");
}

#[test]
fn every_shipped_labs_number_and_toggle_knob_is_a_field_the_vocabulary_names() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/scenarios/labs");
    let mut knobs = 0;
    for entry in std::fs::read_dir(dir).expect("the labs") {
        let path = entry.expect("an entry").path();
        if path.file_name().is_some_and(|n| n == "index.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a lab");
        let lab: queuelab_simulation::Scenario = serde_json::from_str(&text).expect("a lab parses");
        for knob in lab.lab_view().expect("a lab has a goal").knobs {
            if knob.kind == queuelab_simulation::KnobKind::Choice {
                continue;
            }
            let field = knob
                .field
                .unwrap_or_else(|| panic!("{}: knob {} names its field", path.display(), knob.id));
            assert!(
                row(&field).is_some(),
                "{}: knob {}'s field {field} has words",
                path.display(),
                knob.id
            );
            knobs += 1;
        }
    }
    assert!(knobs > 10, "the labs' knobs were tried ({knobs})");
}
