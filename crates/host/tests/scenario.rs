//! `consumer_traits`: a worker's card line for one consumer, refused as a
//! scenario's consumer would be, in a bounded message.

#[test]
fn consumer_traits_refuses_a_consumer_out_of_range_naming_the_field() {
    // Longer than a year, which a scenario's consumer may not be.
    let text = r#"{"name":"w","queue":"q","processing":{"fixedMs":40000000000}}"#;
    let refused = queuelab_host::consumer_traits(text).unwrap_err();
    assert_eq!(
        refused.path.as_deref(),
        Some("consumer.processing.fixedMs"),
        "{}",
        refused.message
    );
}

#[test]
fn consumer_traits_names_an_unknown_field_in_a_bounded_message() {
    let list = vec!["a"; 10_000];
    let text = serde_json::json!({
        "name": "w", "queue": "q", "processing": { "fixedMs": 1 },
        "behaviour": { "failsOnBodies": list }
    })
    .to_string();
    let refused = queuelab_host::consumer_traits(&text).unwrap_err();
    assert!(
        refused.message.contains("unknown field `failsOnBodies`"),
        "{}",
        refused.message
    );
    assert!(
        refused.message.chars().count() < 1_200,
        "{} chars",
        refused.message.len()
    );
}
