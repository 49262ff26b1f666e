//! The run's bill for the recap: the requests the engine's billing meter
//! counted, from every caller, and their cost at list price. The meter
//! (`queuelab_engine::billing`) decides what a request is (an empty
//! receive, a batch, each 64 KiB chunk of a payload); this only adds up
//! its lines, so the recap and a lab's cost goal never count apart. S3
//! requests of the run's buckets are counted here as the S3 API answers
//! them (`S3Requests`), and priced at S3 Standard's list price.

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
    /// The SQS requests of each caller who made the most (at most
    /// [`MAX_BILL_CALLERS`], most requests first, then by name; `null`:
    /// calls made under no name, the scenario's setup among them), so a
    /// recap can say who the bill is for.
    pub callers: Vec<CallerBill>,
    /// Callers past [`MAX_BILL_CALLERS`] whose requests are in `requests`
    /// but not listed in `callers`.
    pub callers_omitted: u64,
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
    /// S3 requests made of the run's buckets (a large payload's PutObject,
    /// GetObject and DeleteObject among them), billed by S3, not SQS:
    /// apart from `requests` and `costNanoUsd`.
    pub s3_requests: u64,
    /// Of those, PUT, COPY, POST and LIST requests (PutObject,
    /// ListObjectsV2, CreateBucket, PutBucketNotificationConfiguration).
    pub s3_put_requests: u64,
    /// Of those, GET requests (GetObject). DELETE requests are free.
    pub s3_get_requests: u64,
    /// Their cost at S3 Standard's list price, in nano-US-dollars (exact).
    pub s3_cost_nano_usd: u64,
    /// The price of one PUT-class request ($0.005 per 1,000), nano-US-dollars.
    pub s3_put_price_nano_usd: u64,
    /// The price of one GET request ($0.0004 per 1,000), nano-US-dollars.
    pub s3_get_price_nano_usd: u64,
}

/// One caller's share of the bill.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CallerBill {
    /// The caller's name, as the log names it (`null`: no name).
    pub caller: Option<String>,
    /// Its SQS requests.
    pub requests: u64,
    /// Their cost at list price, in nano-US-dollars (exact).
    pub cost_nano_usd: u64,
}

/// The most callers a bill lists (a snapshot's bound: the meter names up
/// to 1,000).
pub const MAX_BILL_CALLERS: usize = 12;

/// S3 Standard's request prices (us-east-1): PUT, COPY, POST and LIST
/// $0.005 per 1,000; GET $0.0004 per 1,000; DELETE free.
pub const PRICE_NANO_USD_S3_PUT: u64 = 5_000;
pub const PRICE_NANO_USD_S3_GET: u64 = 400;

/// The S3 requests a run made, by price class.
#[derive(Clone, Debug, Default)]
pub(crate) struct S3Requests {
    put: u64,
    get: u64,
    delete: u64,
}

impl S3Requests {
    /// One call of the S3 API: S3 bills a request whatever its answer.
    pub(crate) fn count(&mut self, call: &crate::s3::api::S3Call) {
        use crate::s3::api::S3Call as C;
        match call {
            C::GetObject(_) => self.get += 1,
            C::DeleteObject(_) => self.delete += 1,
            C::CreateBucket(_)
            | C::PutBucketNotificationConfiguration(_)
            | C::PutObject(_)
            | C::ListObjectsV2(_) => self.put += 1,
        }
    }
}

impl Bill {
    pub(crate) fn of(meter: &Meter, s3: &S3Requests) -> Self {
        let mut bill = Bill {
            standard_price_nano_usd: price_nano_usd(false),
            fifo_price_nano_usd: price_nano_usd(true),
            kms_requests: meter.kms_requests(|_| true),
            kms_price_nano_usd: PRICE_NANO_USD_KMS,
            s3_requests: s3.put + s3.get + s3.delete,
            s3_put_requests: s3.put,
            s3_get_requests: s3.get,
            s3_cost_nano_usd: s3.put * PRICE_NANO_USD_S3_PUT + s3.get * PRICE_NANO_USD_S3_GET,
            s3_put_price_nano_usd: PRICE_NANO_USD_S3_PUT,
            s3_get_price_nano_usd: PRICE_NANO_USD_S3_GET,
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
        bill.callers = by_caller(meter);
        bill.callers_omitted = bill.callers.len().saturating_sub(MAX_BILL_CALLERS) as u64;
        bill.callers.truncate(MAX_BILL_CALLERS);
        bill
    }
}

/// Every caller's requests and their cost, most requests first, then by
/// name (the meter's lines come in caller order).
fn by_caller(meter: &Meter) -> Vec<CallerBill> {
    let mut callers: Vec<CallerBill> = Vec::new();
    for (line, tally) in meter.lines() {
        let caller = line.caller.as_deref().map(str::to_string);
        let cost = tally.requests * price_nano_usd(line.fifo);
        match callers.last_mut() {
            Some(last) if last.caller == caller => {
                last.requests += tally.requests;
                last.cost_nano_usd += cost;
            }
            _ => callers.push(CallerBill {
                caller,
                requests: tally.requests,
                cost_nano_usd: cost,
            }),
        }
    }
    callers.sort_by(|a, b| {
        b.requests
            .cmp(&a.requests)
            .then_with(|| a.caller.cmp(&b.caller))
    });
    callers
}
