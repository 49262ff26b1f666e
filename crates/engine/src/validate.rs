//! Input rules SQS enforces on names, bodies and attributes.

use crate::error::{echo, ErrorCode, SqsError, SqsResult};
use crate::message::{AttributeValue, MessageAttribute};

pub(crate) const MAX_MESSAGE_ATTRIBUTES: usize = 10;

/// A name of who calls short enough for every event of its calls to
/// record ([`crate::MAX_CALLER_CHARS`] characters at most). Public so the
/// hosts that take one (a scenario's workers, `dispatch`'s caller) hold it
/// to the same rule.
pub fn is_caller_name(name: &str) -> bool {
    name.chars().nth(crate::MAX_CALLER_CHARS).is_none()
}

/// 1-80 characters of `[A-Za-z0-9_-]`, with `.fifo` allowed (and counted)
/// at the end. Public so hosts check a name before CreateQueue by the
/// engine's rule (the simulation's `Scenario::validate`).
pub fn is_queue_name(name: &str) -> bool {
    let stem = name.strip_suffix(".fifo").unwrap_or(name);
    !stem.is_empty()
        && name.len() <= 80
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub(crate) fn queue_name(name: &str) -> SqsResult<()> {
    if is_queue_name(name) {
        Ok(())
    } else {
        // AWS's text, without a final period.
        Err(SqsError::invalid_parameter(
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
        ))
    }
}

/// SQS allows `#x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000-#x10FFFF`.
pub(crate) fn allowed_char(c: char) -> bool {
    matches!(c as u32, 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// The sentence AWS answers a body with a disallowed character.
const VALID_CHARACTERS: &str =
    "Invalid characters found. Valid unicode characters are #x9 | #xA | \
     #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF";

fn invalid_contents() -> SqsError {
    SqsError::new(ErrorCode::InvalidMessageContents, VALID_CHARACTERS)
}

pub(crate) fn body(body: &str) -> SqsResult<()> {
    if body.is_empty() {
        return Err(SqsError::missing("MessageBody"));
    }
    if body.chars().all(allowed_char) {
        Ok(())
    } else {
        Err(invalid_contents())
    }
}

/// `MessageGroupId` and `MessageDeduplicationId`: 1-128 characters of
/// alphanumerics and punctuation.
pub(crate) fn fifo_token(parameter: &str, value: &str) -> SqsResult<()> {
    let ok = (1..=128).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            parameter,
            value,
            &format!("{parameter} can only include alphanumeric and punctuation characters. 1 to 128 in length."),
        ))
    }
}

/// A batch entry `Id`: up to 80 characters of `[A-Za-z0-9_-]`.
pub(crate) fn batch_entry_id(id: &str) -> SqsResult<()> {
    let ok = (1..=80).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(SqsError::new(
            ErrorCode::InvalidBatchEntryId,
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. \
             It can be at most 80 letters long.",
        ))
    }
}

/// Message attribute names, types and values (user or system attributes).
pub(crate) fn message_attributes(attributes: &[MessageAttribute]) -> SqsResult<()> {
    if attributes.len() > MAX_MESSAGE_ATTRIBUTES {
        return Err(SqsError::invalid_parameter(format!(
            "Number of message attributes [{}] exceeds the allowed maximum [{MAX_MESSAGE_ATTRIBUTES}].",
            attributes.len()
        )));
    }
    for (i, attribute) in attributes.iter().enumerate() {
        if attributes[..i].iter().any(|a| a.name == attribute.name) {
            return Err(SqsError::invalid_parameter(format!(
                "Message (user) attribute name '{}' is duplicated.",
                attribute.name
            )));
        }
        attribute_name(&attribute.name)?;
        attribute_value(attribute)?;
    }
    Ok(())
}

fn attribute_name(name: &str) -> SqsResult<()> {
    let lower = name.to_ascii_lowercase();
    let shown = echo(name);
    let reason = if name.is_empty() {
        Some("The request must contain non-empty message (user) attribute names.".to_string())
    } else if name.len() > 256 {
        Some(format!(
            "Message (user) attribute name must be shorter than 256 bytes: {shown}"
        ))
    } else if lower.starts_with("aws.") || lower.starts_with("amazon.") {
        Some(format!(
            "You can't use message attribute names beginning with 'AWS.' or 'Amazon.'. These strings \
             are reserved for internal use. Attribute name '{shown}' is invalid."
        ))
    } else if name.starts_with('.') || name.ends_with('.') || name.contains("..") {
        Some(format!(
            "Message (user) attribute name '{shown}' is invalid: it may not start or end with a period \
             nor have two periods in a row."
        ))
    } else if !name.chars().all(attribute_name_char) {
        Some(format!(
            "Message (user) attribute name '{shown}' is invalid: it can contain only alphanumeric \
             characters, hyphens (-), underscores (_) and periods (.)."
        ))
    } else {
        None
    };
    match reason {
        Some(message) => Err(SqsError::invalid_parameter(message)),
        None => Ok(()),
    }
}

/// `[A-Za-z0-9_.-]`, and the Latin-1 and Latin Extended-A letters
/// U+00C0–U+017F (recorded against AWS: `attr.1øßä` is accepted; the whole
/// range is taken as written, × and ÷ included).
fn attribute_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '\u{C0}'..='\u{17F}')
}

/// The base type of a data type: `String`, `Number` or `Binary`, optionally
/// followed by `.custom-label`.
pub fn attribute_base_type(data_type: &str) -> Option<&'static str> {
    let (base, custom) = match data_type.split_once('.') {
        Some((base, custom)) => (base, Some(custom)),
        None => (data_type, None),
    };
    if custom.is_some_and(|c| c.is_empty() || data_type.len() > 256) {
        return None;
    }
    ["String", "Number", "Binary"]
        .into_iter()
        .find(|b| *b == base)
}

fn attribute_value(attribute: &MessageAttribute) -> SqsResult<()> {
    let name = &*echo(&attribute.name);
    let Some(base) = attribute_base_type(&attribute.data_type) else {
        return Err(SqsError::invalid_parameter(format!(
            "The type of message (user) attribute '{name}' is invalid. You must use only the \
             following supported type prefixes: Binary, Number, String."
        )));
    };
    let empty = |kind: &str| {
        SqsError::invalid_parameter(format!(
            "Message (user) attribute '{name}' must contain a non-empty value of type '{kind}'."
        ))
    };
    match (&attribute.value, base) {
        (AttributeValue::Binary(b), "Binary") if b.is_empty() => Err(empty("Binary")),
        (AttributeValue::Binary(_), "Binary") => Ok(()),
        (AttributeValue::String(s), "String" | "Number") if s.is_empty() => Err(empty(base)),
        (AttributeValue::String(s), "Number") => number(name, s),
        // The body's rule, but a parameter error: `InvalidMessageContents`
        // is the body's code alone (recorded against AWS).
        (AttributeValue::String(s), _) if !s.chars().all(allowed_char) => {
            Err(SqsError::invalid_parameter(format!(
                "Message (user) attribute '{name}' has a String value with invalid characters. \
                 {VALID_CHARACTERS}"
            )))
        }
        (AttributeValue::String(_), "String") => Ok(()),
        _ => Err(empty(base)),
    }
}

/// SQS numbers: up to 38 significant digits, magnitude between 10^-128 and 10^+126.
fn number(name: &str, text: &str) -> SqsResult<()> {
    let bad = || {
        SqsError::invalid_parameter(format!(
            "Could not cast message (user) attribute '{name}' to a number: \"{}\" is not a valid \
             number between 10^-128 and 10^+126 with at most 38 digits.",
            echo(text)
        ))
    };
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().map_err(|_| bad())?),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let digits: String = int.chars().chain(frac.chars()).collect();
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Ok(()); // zero
    }
    let leading_zeros = digits.len() - significant.len();
    // Decimal exponent of the first significant digit.
    let magnitude = exponent + int.len() as i32 - leading_zeros as i32 - 1;
    if significant.trim_end_matches('0').len() > 38 || !(-128..=126).contains(&magnitude) {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_sqs_range() {
        for ok in [
            "0",
            "-1.5",
            "1e126",
            "1E-128",
            "12345678901234567890123456789012345678",
            ".5",
        ] {
            assert!(number("n", ok).is_ok(), "{ok}");
        }
        for bad in [
            "abc",
            "1e127",
            "1e-129",
            "123456789012345678901234567890123456789",
            "",
            "1.2.3",
        ] {
            assert!(number("n", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn queue_names() {
        assert!(queue_name("orders-1_a").is_ok());
        assert!(queue_name("orders.fifo").is_ok());
        assert!(queue_name(&"a".repeat(80)).is_ok());
        assert!(queue_name(&"a".repeat(81)).is_err());
        assert!(queue_name(&format!("{}.fifo", "a".repeat(76))).is_err());
        assert!(queue_name("").is_err());
        assert!(queue_name("a b").is_err());
        assert!(queue_name(".fifo").is_err());
    }
}
