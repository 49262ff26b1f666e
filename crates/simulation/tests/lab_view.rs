//! A lab as a page shows it (`Scenario::lab_view`): the goal in words,
//! each knob's kind, range and choices, and the settings the scenario has
//! now, read back from the scenario the learner's settings made.

use std::path::PathBuf;

use queuelab_simulation::{KnobKind, KnobValue, Scenario, Settings};

fn shipped(file: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios/labs")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_lab_view_gives_the_goal_in_words_and_each_knobs_kind_and_range() {
    let lab = shipped("01-duplicate-orders.json");
    let view = lab.lab_view().expect("a lab");
    assert_eq!(view.summary, lab.goal.as_ref().unwrap().summary);
    let ids: Vec<&str> = view.conditions.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["sideEffectsAtMost", "noneLost", "processedByMs"]);
    assert_eq!(
        view.conditions[0].text,
        "Each message is charged at most once"
    );
    let visibility = &view.knobs[0];
    assert_eq!(
        (
            visibility.kind,
            visibility.min,
            visibility.max,
            visibility.off
        ),
        (KnobKind::Number, Some(1), Some(180), false)
    );
    assert_eq!(view.knobs[1].kind, KnobKind::Number);
    assert!(view.knobs[1].off, "the heartbeat may be off");
    assert_eq!(view.knobs[3].kind, KnobKind::Toggle);
    assert_eq!(view.seeds.len(), 12);
    assert!(view.explain.is_some());
}

#[test]
fn a_lab_view_reads_the_settings_back_from_the_scenario_they_made() {
    let lab = shipped("01-duplicate-orders.json");
    let own = lab.lab_view().unwrap().settings;
    assert_eq!(own["visibility"], KnobValue::Int(2));
    assert_eq!(own["heartbeat"], KnobValue::OFF);
    let mine: Settings =
        serde_json::from_str(r#"{"heartbeat": 1000, "heartbeatVisibility": 3}"#).unwrap();
    let now = lab
        .with_settings(&mine)
        .unwrap()
        .lab_view()
        .unwrap()
        .settings;
    assert_eq!(now["heartbeat"], KnobValue::Int(1000));
    assert_eq!(now["heartbeatVisibility"], KnobValue::Int(3));
    assert_eq!(
        now["visibility"],
        KnobValue::Int(2),
        "a knob left out keeps the file's value"
    );
}

#[test]
fn a_choice_knob_lists_its_choices_in_words() {
    let lab = shipped("06-fifo-order.json");
    let view = lab.lab_view().unwrap();
    let words = |id: &str| -> Vec<(String, String)> {
        let knob = view.knobs.iter().find(|k| k.id == id).unwrap();
        assert_eq!(knob.kind, KnobKind::Choice);
        knob.choices
            .iter()
            .map(|c| (c.value.clone(), c.label.clone()))
            .collect()
    };
    assert_eq!(
        words("queueType"),
        [
            ("standard".into(), "Standard".into()),
            ("fifo".into(), "FIFO".into())
        ]
    );
    let groups = words("groupId");
    assert_eq!(
        groups.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>(),
        ["one", "perAttribute", "perMessage"]
    );
    assert_eq!(groups[1].1, "A group per customer");
}

#[test]
fn a_scenario_without_a_goal_has_no_lab_view() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/scenarios/02-slow-consumer-duplicate.json");
    let s: Scenario = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(s.lab_view().is_none());
}
