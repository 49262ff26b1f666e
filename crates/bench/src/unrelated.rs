//! What unrelated queues add to a call (issue 10: "the cost per call is
//! within 2x of the cost with one queue"). One subject queue gets the calls
//! a learner makes, and `advance` fires the subject's own deadlines; the
//! same stretch runs in an engine holding only the subject, and in one that
//! also holds 100,000 unrelated queues, each with an in-flight message whose
//! deadlines are hours away and a long poll waiting on it.
//!
//! Long polls wait at most 20 s, so a measured stretch spans 16 s of virtual
//! time; between stretches, untimed, both engines move 20 s on (the crowd's
//! polls end) and the crowd's polls are started again. The two engines take
//! turns, stretch by stretch, so a noisy machine slows both alike; each row
//! reports the median over stretches of the mean cost per call.

use std::time::Instant;

use queuelab_engine::{workload, Engine, NewMessage, ReceiveMessage, ReceiveOutcome, SendMessage};

/// The calls measured, in the order of [`Stretch::costs`].
pub const CALLS: [&str; 8] = [
    "SendMessage",
    "ReceiveMessage (1 message)",
    "ChangeMessageVisibility",
    "DeleteMessage",
    "advance: a delay ends",
    "advance: a visibility timeout ends",
    "advance: a long poll is answered",
    "advance: a long poll times out",
];

/// Each of the `advance` kinds fires this often per stretch, 1 s apart:
/// 4 kinds x 4 = 16 s, under the crowd's 20 s waits.
const ENDS_PER_STRETCH: u64 = 4;
const CROWD_WAIT_S: i64 = 20;

/// An engine with the subject queue and `others` unrelated queues.
pub struct Subject {
    engine: Engine,
    url: String,
    crowd: Vec<String>,
}

fn receive(e: &mut Engine, url: &str, visibility: Option<i64>, wait: i64) -> ReceiveOutcome {
    let request = ReceiveMessage {
        queue_url: url.to_string(),
        visibility_timeout: visibility,
        wait_time_seconds: Some(wait),
        ..ReceiveMessage::default()
    };
    e.receive_message(&request, None).expect("a receive")
}

/// The one message a short poll must find.
fn receive_one(e: &mut Engine, url: &str, visibility: Option<i64>) -> String {
    match receive(e, url, visibility, 0) {
        ReceiveOutcome::Done(got) if got.len() == 1 => got[0].receipt_handle.clone(),
        other => panic!("a receive must find one message, got {other:?}"),
    }
}

fn long_poll(e: &mut Engine, url: &str, seconds: i64) {
    match receive(e, url, None, seconds) {
        ReceiveOutcome::Waiting(_) => {}
        other => panic!("a long poll with nothing visible must wait, got {other:?}"),
    }
}

fn send(e: &mut Engine, url: &str, delay: Option<i64>) {
    let request = SendMessage {
        queue_url: url.to_string(),
        message: NewMessage {
            body: "order A-1001".into(),
            delay_seconds: delay,
            ..NewMessage::default()
        },
    };
    e.send_message(&request, None).expect("a send");
}

impl Subject {
    /// The subject queue, plus `others` queues each holding one message in
    /// flight for 12 hours (its retention ends in 4 days) and, once
    /// [`Subject::arm`] ran, a long poll waiting on it.
    pub fn new(engine: Engine, others: u64) -> Self {
        let mut engine = engine;
        let url = workload::queue(&mut engine, "subject", false);
        let crowd = (0..others)
            .map(|i| {
                let url = workload::queue(&mut engine, &format!("unrelated-{i}"), false);
                send(&mut engine, &url, None);
                receive_one(&mut engine, &url, Some(43_200));
                url
            })
            .collect();
        Subject { engine, url, crowd }
    }

    /// Starts the crowd's long polls (20 s each), untimed.
    fn arm(&mut self) {
        for url in &self.crowd {
            long_poll(&mut self.engine, url, CROWD_WAIT_S);
        }
    }

    /// Moves past the crowd's polls, untimed: they end empty.
    fn disarm(&mut self) {
        self.engine.advance(CROWD_WAIT_S as u64 * 1_000);
        let ended = self.engine.take_answered_polls();
        assert_eq!(ended.len(), self.crowd.len(), "every crowd poll ended");
    }

    /// One measured stretch: `calls` of each request, then the `advance`
    /// kinds. Returns the mean nanoseconds per call, in [`CALLS`] order.
    pub fn stretch(&mut self, calls: u64) -> [f64; 8] {
        self.arm();
        let (e, url) = (&mut self.engine, self.url.as_str());
        let mut spent = [0u128; 8];
        for _ in 0..calls {
            timed(&mut spent[0], || send(e, url, None));
        }
        let mut handles = Vec::new();
        for _ in 0..calls {
            handles.push(timed(&mut spent[1], || receive_one(e, url, None)));
        }
        for handle in &handles {
            timed(&mut spent[2], || {
                e.change_message_visibility(url, handle, 60, None)
            })
            .expect("a visibility change");
        }
        for handle in &handles {
            timed(&mut spent[3], || e.delete_message(url, handle, None)).expect("a delete");
        }
        let mut polls_answered = Vec::new();
        for _ in 0..ENDS_PER_STRETCH {
            // A delay ends.
            send(e, url, Some(1));
            timed(&mut spent[4], || e.advance(1_000));
            let handle = receive_one(e, url, None);
            e.delete_message(url, &handle, None).unwrap();
            // A visibility timeout ends.
            send(e, url, None);
            receive_one(e, url, Some(1));
            timed(&mut spent[5], || e.advance(1_000));
            let handle = receive_one(e, url, None);
            e.delete_message(url, &handle, None).unwrap();
            // A delayed message comes out to a waiting poll.
            long_poll(e, url, 5);
            send(e, url, Some(1));
            timed(&mut spent[6], || e.advance(1_000));
            polls_answered.extend(e.take_answered_polls());
            // A poll's wait ends.
            long_poll(e, url, 1);
            timed(&mut spent[7], || e.advance(1_000));
            polls_answered.extend(e.take_answered_polls());
        }
        // Only the subject's own polls ended, alternately with a message and empty.
        assert_eq!(polls_answered.len() as u64, 2 * ENDS_PER_STRETCH);
        for (i, (_, answer)) in polls_answered.iter().enumerate() {
            let got = answer.as_ref().expect("a poll's answer");
            assert_eq!(got.len(), 1 - i % 2, "poll {i} of the stretch");
            if let Some(message) = got.first() {
                e.delete_message(url, &message.receipt_handle, None)
                    .unwrap();
            }
        }
        self.disarm();
        let mut means = [0.0; 8];
        for (slot, mean) in means.iter_mut().enumerate() {
            let n = if slot < 4 { calls } else { ENDS_PER_STRETCH };
            *mean = spent[slot] as f64 / n as f64;
        }
        means
    }
}

/// Runs `f`, adding the nanoseconds it took to `spent`.
fn timed<R>(spent: &mut u128, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let result = f();
    *spent += start.elapsed().as_nanos();
    result
}

/// The median of each column over stretches.
pub fn medians(rows: &[[f64; 8]]) -> [f64; 8] {
    let mut out = [0.0; 8];
    for (slot, median) in out.iter_mut().enumerate() {
        let mut column: Vec<f64> = rows.iter().map(|r| r[slot]).collect();
        column.sort_by(f64::total_cmp);
        *median = column[column.len() / 2];
    }
    out
}

/// Alone and among `others` unrelated queues, stretch by stretch in turn:
/// the median cost per call of each, in [`CALLS`] order.
pub fn alone_and_among(
    engine: fn() -> Engine,
    others: u64,
    stretches: usize,
    calls: u64,
) -> ([f64; 8], [f64; 8]) {
    let mut alone = Subject::new(engine(), 0);
    let mut among = Subject::new(engine(), others);
    // One untimed stretch each: warm caches and grow the subject's indexes.
    alone.stretch(calls);
    among.stretch(calls);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..stretches {
        a.push(alone.stretch(calls));
        b.push(among.stretch(calls));
    }
    (medians(&a), medians(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crowd must stay unrelated: its polls keep waiting through a
    /// stretch and its messages stay in flight; only the subject's own
    /// deadlines fire (`stretch` asserts it; a stretch longer than the
    /// crowd's 20 s waits turns this red).
    #[test]
    fn a_stretch_fires_only_the_subjects_own_deadlines() {
        let mut subject = Subject::new(crate::engine(), 50);
        for _ in 0..3 {
            let costs = subject.stretch(5);
            assert!(costs.iter().all(|ns| *ns > 0.0));
            assert_eq!(
                subject.engine.waiting_polls(),
                0,
                "the crowd's polls ended after it"
            );
        }
        // Every crowd message is still in flight: none came back.
        for url in &subject.crowd {
            match receive(&mut subject.engine, url, None, 0) {
                ReceiveOutcome::Done(got) => assert!(got.is_empty(), "{url} gave a message back"),
                other => panic!("a short poll answers at once, got {other:?}"),
            }
        }
    }
}
