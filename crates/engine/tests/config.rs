//! `Config::validate`: every option held to its range, named as the
//! host's option, so that no configuration can make the engine trap later.

use queuelab_engine::{Config, Engine, MAX_EPOCH_MS, MAX_EVENT_CAPACITY, MAX_START_EPOCH_MS};

#[test]
fn the_default_config_is_valid() {
    Config::default().validate().expect("valid");
}

/// The issue's `eventCapacity` of 2^32 − 1 trapped at the 2^24th event,
/// when the ring buffer asked for a 2 GiB allocation.
#[test]
fn an_event_capacity_of_2_to_the_32_is_refused_and_lowered_to_the_largest() {
    let config = Config {
        event_capacity: u32::MAX as usize,
        ..Config::default()
    };
    let error = config.validate().unwrap_err();
    assert_eq!(
        error,
        format!(
            "eventCapacity must be a whole number from 0 to {MAX_EVENT_CAPACITY}, got 4294967295"
        )
    );
    assert_eq!(
        Engine::new(config).config().event_capacity,
        MAX_EVENT_CAPACITY
    );
}

#[test]
fn budgets_of_0_are_refused_naming_the_option() {
    for (config, option) in [
        (
            Config {
                max_stored_bytes: 0,
                ..Config::default()
            },
            "maxStoredBytes",
        ),
        (
            Config {
                max_stored_messages: 0,
                ..Config::default()
            },
            "maxStoredMessages",
        ),
        (
            Config {
                max_queues: 0,
                ..Config::default()
            },
            "maxQueues",
        ),
    ] {
        let error = config.validate().unwrap_err();
        assert!(
            error.starts_with(&format!("{option} must be a whole number from 1 to")),
            "{error}"
        );
    }
}

/// The issue's `startEpochMs` near 2^64 gave timestamps like "2952".
#[test]
fn a_start_epoch_near_2_to_the_64_is_refused_and_timestamps_stop_at_the_last_date() {
    let config = Config {
        start_epoch_ms: u64::MAX - 10,
        ..Config::default()
    };
    assert!(config.validate().unwrap_err().starts_with("startEpochMs"));
    let engine = Engine::new(Config {
        start_epoch_ms: MAX_START_EPOCH_MS,
        ..Config::default()
    });
    assert_eq!(engine.epoch_ms(0), MAX_START_EPOCH_MS);
    assert_eq!(engine.epoch_ms(u64::MAX), MAX_EPOCH_MS);
}

/// The realism knobs are probabilities: the binding checked them, now
/// `Config::validate` does, for every host.
#[test]
fn config_validate_refuses_a_realism_probability_outside_0_to_1() {
    use queuelab_engine::Realism;
    let with = |realism: Realism| Config {
        realism,
        ..Config::default()
    };
    let cases = [
        (
            Realism {
                short_poll_sample_rate: 1.5,
                ..Realism::default()
            },
            "realism.shortPollSampleRate must be between 0 and 1, got 1.5",
        ),
        (
            Realism {
                duplicate_delivery_probability: -0.1,
                ..Realism::default()
            },
            "realism.duplicateDeliveryProbability must be between 0 and 1, got -0.1",
        ),
        (
            Realism {
                fewer_messages_probability: f64::NAN,
                ..Realism::default()
            },
            "realism.fewerMessagesProbability must be between 0 and 1, got NaN",
        ),
    ];
    for (realism, message) in cases {
        assert_eq!(with(realism).validate().unwrap_err(), message);
    }
    let edges = Realism {
        short_poll_sample_rate: 1.0,
        duplicate_delivery_probability: 0.0,
        fewer_messages_probability: 0.5,
        throttling: true,
    };
    with(edges).validate().expect("0 and 1 are probabilities");
}
