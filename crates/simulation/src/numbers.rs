//! How the simulation writes numbers in its sentences: "1,563", "22nd".
//! A leaf, so the goal's verdicts, the worker card and the host's
//! refusals say a number the same way.

/// 1563 -> "1,563": numbers in the words the simulation and the binding write.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 1061 -> "1,061st".
pub(crate) fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{}{suffix}", thousands(n))
}

/// (1, "receive", "receives") -> "1 receive", (1563, …) -> "1,563 receives":
/// a count said with its noun in the number it needs.
pub(crate) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A metric's value as a person reads it: a whole number without a
/// fraction, else at most three decimals ("1204", "0.25", "1.333").
pub(crate) fn plain(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{}", value as i64);
    }
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_said_with_thousands_separators_and_english_ordinals() {
        assert_eq!(thousands(1563), "1,563");
        assert_eq!(thousands(999), "999");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(ordinal(1061), "1,061st");
    }

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(count(1, "receive", "receives"), "1 receive");
        assert_eq!(count(0, "receive", "receives"), "0 receives");
        assert_eq!(count(1563, "request", "requests"), "1,563 requests");
    }
}
