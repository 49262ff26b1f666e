//! The digests SQS returns and the SDKs verify, and the content-based
//! deduplication hash.

use md5::{Digest as _, Md5};
use sha2::Sha256;

use crate::message::{AttributeValue, MessageAttribute};

pub(crate) fn md5(bytes: &[u8]) -> [u8; 16] {
    Md5::digest(bytes).into()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// `MD5OfMessageAttributes` (and `MD5OfMessageSystemAttributes`): attributes
/// sorted by name, each encoded as length-prefixed name, length-prefixed data
/// type, a transport byte (1 string/number, 2 binary) and the length-prefixed
/// value, all lengths 4-byte big-endian.
pub(crate) fn md5_of_attributes<'a>(
    attributes: impl IntoIterator<Item = &'a MessageAttribute>,
) -> [u8; 16] {
    // An insertion sort: a message has at most 10 attributes (checked
    // before any is stored), and `sort_by` would compile a whole sorting
    // algorithm for this one list (wasm size).
    let mut sorted: Vec<&MessageAttribute> = Vec::new();
    for attribute in attributes {
        let at = sorted.partition_point(|a| a.name <= attribute.name);
        sorted.insert(at, attribute);
    }
    let mut hasher = Md5::new();
    let field = |hasher: &mut Md5, bytes: &[u8]| {
        hasher.update((bytes.len() as u32).to_be_bytes());
        hasher.update(bytes);
    };
    for attribute in sorted {
        field(&mut hasher, attribute.name.as_bytes());
        field(&mut hasher, attribute.data_type.as_bytes());
        let (transport, value): (u8, &[u8]) = match &attribute.value {
            AttributeValue::String(s) => (1, s.as_bytes()),
            AttributeValue::Binary(b) => (2, b),
        };
        hasher.update([transport]);
        field(&mut hasher, value);
    }
    hasher.finalize().into()
}

/// The content-based deduplication id: SHA-256 of the body, as hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}
