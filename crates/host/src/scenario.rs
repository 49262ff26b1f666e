//! Reading a scenario (or a lab) from its text, and a lab's knob settings
//! from theirs, with refusals in plain words and placed (`Placed`): what
//! every host shows beside the field or line at fault.

use std::collections::BTreeMap;

use queuelab_simulation::{Consumer, FieldError, KnobValue, Scenario, Settings};

use crate::scenario_error::{self, Placed};

/// A scenario's text parsed and checked, the options' seed (when one is
/// given) replacing its own: serde_json names missing and unknown fields
/// and the expected variants, with the line and column of the mistake;
/// the path in front names the field of a value of the wrong type or
/// range. The message begins "invalid scenario: ".
pub fn parse_scenario(text: &str, seed: Option<u64>) -> Result<Scenario, Placed> {
    let mut scenario: Scenario =
        serde_json::from_str(text).map_err(|e| invalid(scenario_error::from_serde(text, &e)))?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    // Checked here too (Simulation::new checks again) for the field's place in the text.
    scenario
        .validate()
        .map_err(|e| invalid(scenario_error::from_field(text, &e)))?;
    Ok(scenario)
}

/// A worker's card line (`Consumer::traits`) for one consumer of a
/// scenario, from its JSON text; refused as a scenario's consumer would be.
pub fn consumer_traits(text: &str) -> Result<Vec<String>, Placed> {
    let refused = |message: String, path, rule, line, column| Placed {
        message: format!("invalid consumer: {message}"),
        path,
        rule,
        line,
        column,
    };
    // serde's own words: `from_serde` rewords by a scenario's paths, which
    // a lone consumer does not have; held to the engine's echo bound.
    let consumer: Consumer = serde_json::from_str(text).map_err(|e| {
        let words = queuelab_engine::echo(&e.to_string()).into_owned();
        refused(words, None, None, Some(e.line()), Some(e.column()))
    })?;
    consumer.validate().map_err(|e| {
        refused(
            e.to_string(),
            Some(e.path.clone()),
            Some(e.rule.clone()),
            None,
            None,
        )
    })?;
    Ok(consumer.traits())
}

fn invalid(placed: Placed) -> Placed {
    Placed {
        message: format!("invalid scenario: {}", placed.message),
        ..placed
    }
}

/// Knob values by knob id, from their JSON text; refused in words naming
/// the value that is no knob value (`method` names the call).
pub fn parse_settings(method: &str, json: &str) -> Result<Settings, String> {
    let refused = |why: String| {
        format!(
            "{method}: settings must be an object of knob values by knob id \
             ({{\"visibility\": 10, \"heartbeat\": \"off\"}}): {why}"
        )
    };
    serde_json::from_str(json).map_err(|e| {
        // Name the value that is no knob value, in words rather than serde's.
        let values: BTreeMap<String, serde_json::Value> = match serde_json::from_str(json) {
            Ok(values) => values,
            Err(_) => return refused(e.to_string()),
        };
        let bad = values
            .iter()
            .find(|(_, v)| serde_json::from_str::<KnobValue>(&v.to_string()).is_err());
        match bad {
            Some((id, value)) => refused(format!(
                "settings.{} is {}, not a whole number, true or false, a choice or \"off\"",
                queuelab_engine::echo(id),
                queuelab_engine::echo(&value.to_string())
            )),
            None => refused(e.to_string()),
        }
    })
}

/// A lab refused with its settings: a setting outside its knob ("invalid
/// settings: …", path `settings.<id>`), a check past its budget ("check
/// refused: …", path `check`), or a scenario that is no lab ("not a lab: …").
pub fn lab_refusal(e: &FieldError) -> Placed {
    let what = match e.path.as_str() {
        "check" => "check refused",
        path if path.starts_with("settings") => "invalid settings",
        _ => "not a lab",
    };
    Placed {
        message: format!("{what}: {e}"),
        ..scenario_error::from_field("", e)
    }
}
