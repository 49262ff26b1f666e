//! S3's naming rules for general purpose buckets (S3 User Guide, "General
//! purpose bucket naming rules"): what CreateBucket refuses, said as the
//! rule broken.

/// Prefixes and suffixes S3 reserves for other things (aliases, access
/// points, directory buckets, its documentation's examples).
const RESERVED_PREFIXES: [&str; 3] = ["xn--", "sthree-", "amzn-s3-demo-"];
const RESERVED_SUFFIXES: [&str; 5] = ["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"];

/// The rule `name` breaks, in S3's words, or None for a good name.
pub(crate) fn broken_rule(name: &str) -> Option<String> {
    let len = name.len();
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-';
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !(3..=63).contains(&len) {
        return Some("between 3 and 63 characters long".into());
    }
    if !name.chars().all(allowed) {
        return Some("only lowercase letters, numbers, periods (.) and hyphens (-)".into());
    }
    if !alnum(name.chars().next()) || !alnum(name.chars().last()) {
        return Some("a name that begins and ends with a letter or number".into());
    }
    if name.contains("..") {
        return Some("a name without two adjacent periods".into());
    }
    if is_ip_address(name) {
        return Some("a name not formatted as an IP address (such as 192.168.5.4)".into());
    }
    if let Some(p) = RESERVED_PREFIXES.iter().find(|p| name.starts_with(*p)) {
        return Some(format!(
            "a name that does not start with {p} (S3 reserves it)"
        ));
    }
    if let Some(s) = RESERVED_SUFFIXES.iter().find(|s| name.ends_with(*s)) {
        return Some(format!(
            "a name that does not end with {s} (S3 reserves it)"
        ));
    }
    None
}

/// Four dot-separated numbers of 1 to 3 digits.
fn is_ip_address(name: &str) -> bool {
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::broken_rule;

    #[test]
    fn s3s_naming_rules() {
        for good in ["uploads", "my.bucket-1", "abc"] {
            assert_eq!(broken_rule(good), None, "{good}");
        }
        for bad in [
            "ab",
            "Uploads",
            "-uploads",
            "up..loads",
            "192.168.5.4",
            "xn--uploads",
            "uploads-s3alias",
            "up_loads",
        ] {
            assert!(broken_rule(bad).is_some(), "{bad}");
        }
    }
}
