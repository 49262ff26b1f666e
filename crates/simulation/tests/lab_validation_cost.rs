//! What validating a lab costs: its fixes' and non-fixes' settings are
//! checked against the knobs, never by copying the scenario once per fix
//! (a link to a lab of 100,000 sends and 2,000 fixes took 28 s and 2.7 GB
//! to load). Measured in bytes allocated by this thread, counted by the
//! test binary's own allocator: a structural measure, not a timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use queuelab_simulation::{Scenario, MAX_FIXES, MAX_NON_FIXES};
use serde_json::{json, Value};

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|n| n.set(n.get() + layout.size() as u64));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|n| n.set(n.get() + new_size as u64));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes this thread allocated while `f` ran.
fn allocated<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATED.with(Cell::get);
    let out = f();
    (out, ALLOCATED.with(Cell::get) - before)
}

/// A lab of `sends` sends (each with a body and an attribute, as a big
/// share link's) listing `fixes` fixes and `fixes` non-fixes.
fn big_lab(sends: usize, fixes: usize) -> Scenario {
    let sends: Vec<Value> = (0..sends)
        .map(|i| {
            json!({ "atMs": i, "body": format!("order A-{i}: charge $25"),
                         "attributes": { "customer": format!("C-{i}") } })
        })
        .collect();
    let fix = json!({ "name": "Longer", "settings": { "visibility": 10, "idempotent": true } });
    let non_fix = json!({ "name": "Far longer", "settings": { "visibility": 180 },
                          "fails": "processedByMs", "why": "A failure is retried late." });
    serde_json::from_value(json!({
        "title": "Many sends",
        "durationMs": 30000,
        "queues": [{ "name": "orders", "visibilityTimeoutSeconds": 2 }],
        "producers": [{ "name": "shop", "queue": "orders", "sends": sends }],
        "consumers": [{ "name": "worker", "queue": "orders", "processing": { "fixedMs": 3000 } }],
        "goal": { "sideEffectsAtMost": 1, "processedByMs": 30000 },
        "knobs": [
            { "id": "visibility", "label": "Visibility timeout",
              "target": { "visibilityTimeoutSeconds": { "queue": "orders" } }, "min": 1, "max": 180 },
            { "id": "idempotent", "label": "Idempotent handler",
              "target": { "idempotent": { "consumer": "*" } } }
        ],
        "explain": {
            "hints": ["How long does one order take?"],
            "cause": "Processing outlasts the visibility timeout.",
            "fix": "A longer visibility timeout.",
            "doc": { "title": "Visibility timeout",
                     "url": "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html" },
            "fixes": vec![fix; fixes],
            "nonFixes": vec![non_fix; fixes]
        }
    }))
    .expect("a lab")
}

#[test]
fn validating_a_labs_fixes_does_not_copy_the_scenario_per_fix() {
    assert_eq!(MAX_FIXES, MAX_NON_FIXES);
    let one = big_lab(20_000, 1);
    let most = big_lab(20_000, MAX_FIXES);
    let (copy, copy_bytes) = allocated(|| one.clone());
    drop(copy);
    let (ok, one_bytes) = allocated(|| one.validate());
    ok.expect("valid");
    let (ok, most_bytes) = allocated(|| most.validate());
    ok.expect("valid");
    // 14 more settings checked: together less than one copy of the scenario
    // (a copy per fix would be 14 copies more).
    let extra = most_bytes.saturating_sub(one_bytes);
    assert!(
        extra < copy_bytes / 10,
        "{MAX_FIXES} fixes and non-fixes allocated {extra} bytes more than one of each; \
         one copy of the scenario is {copy_bytes} bytes"
    );
}
