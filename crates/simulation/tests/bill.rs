//! The recap's bill: every scenario's outcome says how many requests the
//! run was billed and what they cost at list price, and whose they were,
//! read from the engine's billing meter (never counted again by the
//! simulation).

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
    // The queues' two CreateQueue calls too: every action is a request.
    let bill = sim.snapshot().outcome.bill;
    assert_eq!(bill.requests, 5);
    assert_eq!(bill.fifo_requests, 2);
    assert_eq!(bill.standard_price_nano_usd, PRICE_NANO_USD_STANDARD);
    assert_eq!(bill.fifo_price_nano_usd, PRICE_NANO_USD_FIFO);
    assert_eq!(
        bill.cost_nano_usd,
        3 * PRICE_NANO_USD_STANDARD + 2 * PRICE_NANO_USD_FIFO
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
    // And the queue's CreateQueue.
    assert_eq!(bill.requests, 5);
    assert_eq!(bill.cost_nano_usd, 5 * PRICE_NANO_USD_STANDARD);
}

/// The bill says whose requests they were, most first: a client that
/// creates and deletes a reply queue per request pays for both calls, one
/// that keeps its reply queue does not (the scenario's setup, unnamed, is
/// billed for the request queue's CreateQueue).
#[test]
fn the_bill_names_each_callers_requests_and_a_queue_per_request_costs_more() {
    let client = |name: &str, mode: &str, start: u64| {
        format!(
            r#"{{ "name": "{name}", "queue": "requests", "mode": "{mode}",
               "rate": {{ "startMs": {start}, "everyMs": 10000, "count": 3, "body": "quote {{n}}" }},
               "replyWaitSeconds": 5 }}"#
        )
    };
    let sim = run(&format!(
        r#"{{ "title": "whose", "durationMs": 40000,
        "queues": [{{ "name": "requests" }}],
        "requesters": [{}, {}],
        "responders": [{{ "name": "service", "queue": "requests", "processing": {{ "fixedMs": 100 }} }}] }}"#,
        client("each", "perRequest", 0),
        client("kept", "perClient", 5000)
    ));
    let bill = sim.snapshot().outcome.bill;
    let of = |name: Option<&str>| {
        (bill.callers.iter())
            .find(|c| c.caller.as_deref() == name)
            .map(|c| (c.requests, c.cost_nano_usd))
            .unwrap_or_else(|| panic!("{name:?} in {:?}", bill.callers))
    };
    let calls = |name: &str, action: &str| -> u64 {
        (sim.engine().meter().lines())
            .filter(|(l, _)| l.caller.as_deref() == Some(name) && l.action.name() == action)
            .map(|(_, t)| t.calls)
            .sum()
    };
    assert_eq!(
        (calls("each", "CreateQueue"), calls("each", "DeleteQueue")),
        (3, 3)
    );
    assert_eq!(
        (calls("kept", "CreateQueue"), calls("kept", "DeleteQueue")),
        (1, 0)
    );
    assert_eq!(
        of(None),
        (1, PRICE_NANO_USD_STANDARD),
        "the request queue's creation"
    );
    assert_eq!(
        of(Some("each")).0,
        of(Some("kept")).0 + 5,
        "two more calls for each of 3 requests, one CreateQueue fewer"
    );
    let listed: u64 = bill.callers.iter().map(|c| c.requests).sum();
    assert_eq!(listed, bill.requests);
    assert_eq!(bill.callers_omitted, 0);
    let most: Vec<u64> = bill.callers.iter().map(|c| c.requests).collect();
    assert!(most.windows(2).all(|w| w[0] >= w[1]), "{most:?}");
}
