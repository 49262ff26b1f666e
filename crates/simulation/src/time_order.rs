//! Sorting by time without a sort per element type.
//!
//! `sort_by_key` compiles a whole sorting algorithm (about 5 KB of wasm)
//! for every element type it sorts; the simulation sorts sends, narration
//! lines and planned moments by time, none of them on a hot path. Here
//! they share one: `(time, original index)` pairs, whose index breaks ties
//! so the order is stable, sorted by the one `sort_unstable` of
//! `(u64, usize)`.

use queuelab_engine::Millis;

/// Reorders `items` by `time`, keeping equal times in their order (as a
/// stable `sort_by_key` would).
pub(crate) fn sort_by_time<T>(items: &mut Vec<T>, time: impl Fn(&T) -> Millis) {
    let mut order: Vec<(Millis, usize)> = items.iter().map(&time).zip(0..).collect();
    order.sort_unstable();
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|(_, i)| slots[i].take()));
}

#[cfg(test)]
mod tests {
    use super::sort_by_time;

    #[test]
    fn sort_by_time_keeps_equal_times_in_their_order() {
        let mut items = vec![(5, 'a'), (1, 'b'), (5, 'c'), (0, 'd'), (1, 'e'), (5, 'f')];
        sort_by_time(&mut items, |(t, _)| *t);
        assert_eq!(
            items,
            vec![(0, 'd'), (1, 'b'), (1, 'e'), (5, 'a'), (5, 'c'), (5, 'f')]
        );
    }
}
