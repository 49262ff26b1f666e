//! What SNS does when a delivery to a queue fails, as its developer guide
//! documents it ("Amazon SNS message delivery retries", "Amazon SNS
//! dead-letter queues"): a client-side error (the queue deleted, the queue
//! policy or the KMS key refusing SNS) is not retried; a server-side error
//! is retried by the delivery policy of AWS-managed endpoints (SQS,
//! Lambda), which no one can change: 3 immediate attempts, 2 one second
//! apart, 10 with exponential backoff from 1 to 20 seconds, then 100,000
//! twenty seconds apart, 100,015 in all over 23 days. Then, or at once for
//! a client-side error, the message goes to the subscription's
//! dead-letter queue, or is discarded without one.

use queuelab_engine::Millis;

/// Every attempt the policy makes, the first included.
pub const TOTAL_ATTEMPTS: u32 = 100_015;

/// The policy as GetTopicAttributes shows it (`EffectiveDeliveryPolicy`):
/// the HTTP policy's default shape SNS reports for every topic.
pub const EFFECTIVE_DELIVERY_POLICY: &str = "{\"http\":{\"defaultHealthyRetryPolicy\":{\"minDelayTarget\":20,\"maxDelayTarget\":20,\"numRetries\":3,\"numMaxDelayRetries\":0,\"numNoDelayRetries\":0,\"numMinDelayRetries\":0,\"backoffFunction\":\"linear\"},\"disableSubscriptionOverrides\":false,\"defaultRequestPolicy\":{\"headerContentType\":\"text/plain; charset=UTF-8\"}}}";

/// The SQS error codes of the failures SNS retries: the queue's service
/// is briefly unable to take the message. Every other refusal is the
/// client's (SNS's stale view of the endpoint: a deleted queue, a policy
/// or key that refuses it, a message SQS will never take), and retrying
/// would not change it (docs/fidelity.md says which codes).
const SERVER_SIDE: &[&str] = &[
    "InternalError",
    "InternalFailure",
    "ServiceUnavailable",
    "RequestThrottled",
    "ThrottlingException",
    "KMS.ThrottlingException",
    "KmsThrottled",
];

/// Whether a failure with this SQS error code is server-side (retried).
pub fn is_server_side(code: &str) -> bool {
    SERVER_SIDE.contains(&code)
}

/// How long after failed attempt number `attempt` (1 for the first) the
/// next one is made, or None when the policy is used up. Without the
/// jitter AWS adds: the simulation's retries are exactly on schedule.
pub fn next_delay(attempt: u32) -> Option<Millis> {
    Some(match attempt {
        // Attempts 1 to 3: no delay.
        1..=2 => 0,
        // Attempts 4 and 5: one second apart.
        3..=4 => 1_000,
        // Attempts 6 to 15: from 1 s to 20 s, each 20^(1/9) times the last.
        5..=14 => {
            let k = f64::from(attempt - 5);
            (1_000.0 * libm::pow(20.0, k / 9.0)).round() as Millis
        }
        // Then every 20 s, up to the last attempt.
        _ if attempt < TOTAL_ATTEMPTS => 20_000,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sqs_delivery_policy_retries_3_at_once_2_a_second_apart_10_backing_off_then_every_20_seconds(
    ) {
        let delays: Vec<Millis> = (1..=16).map(|a| next_delay(a).unwrap()).collect();
        assert_eq!(&delays[..4], &[0, 0, 1_000, 1_000]);
        assert_eq!(delays[4], 1_000);
        assert_eq!(delays[13], 20_000);
        assert!(delays[4..14].windows(2).all(|w| w[0] < w[1]), "{delays:?}");
        assert_eq!(delays[14], 20_000);
        assert_eq!(next_delay(TOTAL_ATTEMPTS - 1), Some(20_000));
        assert_eq!(next_delay(TOTAL_ATTEMPTS), None);
        // Over 23 days in all, as AWS says.
        let total: Millis = (1..TOTAL_ATTEMPTS).filter_map(next_delay).sum();
        assert!(
            (23 * 86_400_000..24 * 86_400_000).contains(&total),
            "{total}"
        );
    }

    #[test]
    fn a_deleted_queue_or_a_refusal_is_a_client_side_error_and_throttling_is_server_side() {
        assert!(!is_server_side("AWS.SimpleQueueService.NonExistentQueue"));
        assert!(!is_server_side("AccessDenied"));
        assert!(!is_server_side("KMS.DisabledException"));
        assert!(!is_server_side("InvalidParameterValue"));
        assert!(is_server_side("KMS.ThrottlingException"));
        assert!(is_server_side("ServiceUnavailable"));
    }
}
