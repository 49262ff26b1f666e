//! The run's bill for the recap: the requests the engine's billing meter
//! counted, from every caller, and their cost at list price. The meter
//! (`queuelab_engine::billing`) decides what a request is (an empty
//! receive, a batch, each 64 KiB chunk of a payload); this only adds up
//! its lines, so the recap and a lab's cost goal never count apart.

use queuelab_engine::billing::{price_nano_usd, Meter, PRICE_NANO_USD_KMS};
use serde::Serialize;

/// What the run's SQS requests cost, with the prices it was billed at so
/// a page says them without a copy of the price list.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Bill {
    /// Requests billed, every caller's (scenario's and learner's).
    pub requests: u64,
    /// Of those, the ones on FIFO queues (billed at the FIFO price).
    pub fifo_requests: u64,
    /// Their cost at list price, in nano-US-dollars (exact).
    pub cost_nano_usd: u64,
    /// The price of one request on a standard queue, nano-US-dollars.
    pub standard_price_nano_usd: u64,
    /// The price of one request on a FIFO queue, nano-US-dollars.
    pub fifo_price_nano_usd: u64,
    /// KMS requests SSE-KMS queues made (GenerateDataKey and Decrypt),
    /// billed by KMS, not SQS: apart from `requests` and `costNanoUsd`.
    pub kms_requests: u64,
    /// Their cost at KMS's list price, in nano-US-dollars (exact).
    pub kms_cost_nano_usd: u64,
    /// The price of one KMS request, nano-US-dollars ($0.03 per 10,000).
    pub kms_price_nano_usd: u64,
}

impl Bill {
    pub(crate) fn of(meter: &Meter) -> Self {
        let mut bill = Bill {
            standard_price_nano_usd: price_nano_usd(false),
            fifo_price_nano_usd: price_nano_usd(true),
            kms_requests: meter.kms_requests(|_| true),
            kms_price_nano_usd: PRICE_NANO_USD_KMS,
            ..Bill::default()
        };
        bill.kms_cost_nano_usd = bill.kms_requests * PRICE_NANO_USD_KMS;
        for (line, tally) in meter.lines() {
            bill.requests += tally.requests;
            if line.fifo {
                bill.fifo_requests += tally.requests;
            }
            bill.cost_nano_usd += tally.requests * price_nano_usd(line.fifo);
        }
        bill
    }
}
