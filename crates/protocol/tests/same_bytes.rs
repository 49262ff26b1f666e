//! The same seed and calls give the same bytes in every process and every
//! build, not only twice in one process: the answers are golden files under
//! `tests/fixtures/determinism/`, rewritten with `QUEUELAB_BLESS=1 cargo
//! test -p queuelab-protocol --test same_bytes` (which then fails: run it
//! again without the variable). The wasm build's browser test
//! (`crates/wasm/tests/web.rs`, `same_seed_same_calls_give_the_golden_bytes`)
//! compares its own answers with the same file, so native and wasm are held
//! to one record.

mod common;
use common::Sqs;
use queuelab_engine::Config;
use serde_json::json;

#[test]
fn seed_42_creating_sending_and_receiving_answers_the_golden_bytes() {
    let mut sqs = Sqs::with(Config {
        seed: 42,
        ..Config::default()
    });
    let created = sqs.call("CreateQueue", json!({ "QueueName": "det" })).ok();
    let url = created["QueueUrl"].as_str().unwrap();
    let sent = sqs
        .call(
            "SendMessage",
            json!({ "QueueUrl": url, "MessageBody": "a" }),
        )
        .ok();
    let received = sqs.call("ReceiveMessage", json!({ "QueueUrl": url })).ok();
    let answers = json!({ "sent": sent, "received": received });
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/determinism/seed-42-send-receive.json");
    let mut golden = queuelab_golden::Golden::from_env();
    golden.check_text(
        &path,
        &(serde_json::to_string_pretty(&answers).unwrap() + "\n"),
    );
    golden.finish();
}
