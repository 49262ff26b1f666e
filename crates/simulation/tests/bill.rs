//! The recap's bill: every scenario's outcome says how many requests the
//! run was billed and what they cost at list price, read from the
//! engine's billing meter (never counted again by the simulation).

use queuelab_engine::billing::{PRICE_NANO_USD_FIFO, PRICE_NANO_USD_STANDARD};
use queuelab_engine::Config;
use queuelab_simulation::{Scenario, Simulation};

fn run(text: &str) -> Simulation {
    let scenario: Scenario = serde_json::from_str(text).unwrap();
    let duration = scenario.duration_ms;
    let mut sim = Simulation::new(scenario, Config::default()).unwrap();
    sim.advance(duration);
    sim
}

#[test]
fn the_outcome_bills_every_request_at_the_price_of_its_queue_type() {
    // Two sends and one long poll's work on each queue, nothing else.
    let sim = run(r#"{
        "title": "bill", "durationMs": 3000,
        "queues": [{ "name": "plain" }, { "name": "ordered.fifo", "contentBasedDeduplication": true }],
        "producers": [
            { "name": "p", "queue": "plain", "sends": [{ "atMs": 0, "body": "a" }, { "atMs": 10, "body": "b" }] },
            { "name": "f", "queue": "ordered.fifo", "sends": [{ "atMs": 0, "body": "c", "groupId": "g" }] }
        ]
    }"#);
    let bill = sim.snapshot().outcome.bill;
    assert_eq!(bill.requests, 3);
    assert_eq!(bill.fifo_requests, 1);
    assert_eq!(bill.standard_price_nano_usd, PRICE_NANO_USD_STANDARD);
    assert_eq!(bill.fifo_price_nano_usd, PRICE_NANO_USD_FIFO);
    assert_eq!(
        bill.cost_nano_usd,
        2 * PRICE_NANO_USD_STANDARD + PRICE_NANO_USD_FIFO
    );
    let total = sim.engine().meter().requests(|_| true);
    assert_eq!(bill.requests, total, "the meter's own count");
}

#[test]
fn a_payload_over_64_kib_is_billed_as_one_request_per_chunk() {
    let body = "x".repeat(3 * 65_536 + 1);
    let text = format!(
        r#"{{ "title": "chunks", "durationMs": 100, "queues": [{{ "name": "q" }}],
        "producers": [{{ "name": "p", "queue": "q", "sends": [{{ "atMs": 0, "body": "{body}" }}] }}] }}"#
    );
    let bill = run(&text).snapshot().outcome.bill;
    assert_eq!(bill.requests, 4);
    assert_eq!(bill.cost_nano_usd, 4 * PRICE_NANO_USD_STANDARD);
}
