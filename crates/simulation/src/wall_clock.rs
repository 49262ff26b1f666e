//! Wall-clock times as scenarios and messages write them: a UTC time in
//! ISO 8601 ("2026-12-04T09:00:00Z", seconds' fraction optional) or epoch
//! milliseconds ("1796374800000"), read into epoch milliseconds. A
//! schedule's `at` and a due-time message attribute (`DeliverAt`) are read
//! here, so both accept the same forms and refuse the same way.

/// The latest wall-clock time read: the engine's last start epoch
/// (9999-12-31T23:59:59.999Z), so a moment read is always one a run can be at.
const LATEST: u64 = queuelab_engine::MAX_START_EPOCH_MS;

/// Epoch milliseconds of `text`, or what is wrong with it, in words.
pub(crate) fn epoch_ms(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let ms = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<u64>().ok()
    } else {
        iso(text)
    };
    match ms {
        Some(ms) if ms <= LATEST => Ok(ms),
        Some(_) => Err("a time no later than 9999-12-31T23:59:59.999Z".into()),
        None => Err("a UTC time such as \"2026-12-04T09:00:00Z\", or epoch milliseconds".into()),
    }
}

/// "YYYY-MM-DDTHH:MM:SS[.fff]Z" as epoch milliseconds (years 1970 to 9999).
fn iso(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let rest = text.strip_suffix('Z').or_else(|| text.strip_suffix('z'))?;
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<u64> {
        let part = rest.get(from..to)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let milli = match rest.get(19..)? {
        "" => 0,
        fraction => {
            let digits = fraction.strip_prefix('.')?;
            if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|c| c.is_ascii_digit())
            {
                return None;
            }
            // ".5" is 500 ms, ".05" 50 ms.
            digits.parse::<u64>().ok()? * 10u64.pow(3 - digits.len() as u32)
        }
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    if year < 1970 || day == 0 || day > days_in_month || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli)
}

/// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, for dates on or after the epoch).
fn days_from_civil(year: u64, month: u64, day: u64) -> u64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y / 400;
    let yoe = y % 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::epoch_ms;

    #[test]
    fn a_utc_time_is_read_as_epoch_milliseconds() {
        assert_eq!(epoch_ms("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(epoch_ms("2024-01-01T00:00:00Z"), Ok(1_704_067_200_000));
        assert_eq!(epoch_ms("2024-02-29T12:30:15.5Z"), Ok(1_709_209_815_500));
        assert_eq!(epoch_ms("2026-12-04T09:00:00.000Z"), Ok(1_796_374_800_000));
        assert_eq!(epoch_ms("1796374800000"), Ok(1_796_374_800_000));
    }

    #[test]
    fn a_malformed_time_is_refused_in_words() {
        for bad in [
            "",
            "tomorrow 09:00",
            "2026-12-04T09:00:00",
            "2026-12-04 09:00:00Z",
            "2026-13-04T09:00:00Z",
            "2025-02-29T09:00:00Z",
            "2026-12-04T24:00:00Z",
            "2026-12-04T09:00:00.1234Z",
            "1969-12-31T23:59:59Z",
            "-5",
            "99999999999999999999999",
        ] {
            let error = epoch_ms(bad).unwrap_err();
            assert!(error.contains("UTC time"), "{bad}: {error}");
        }
        assert!(epoch_ms("999999999999999")
            .unwrap_err()
            .contains("9999-12-31"));
    }
}
