//! Checking what JavaScript hands the binding, before it reaches Rust.
//!
//! wasm-bindgen would copy a `&str` argument by asking for its length and
//! allocating that much: a number has no length, and the allocator traps,
//! which breaks the whole module (every playground of the page). So
//! arguments arrive as `JsValue`s and are checked here, and a wrong type
//! throws a `TypeError` naming the method, the argument and what it got.
//!
//! Options objects are read through a copy. Reading a property can run the
//! caller's code (a getter, a Proxy trap) and that code can throw. A throw
//! from a JS function that wasm-bindgen does not expect unwinds through
//! the Rust frames without releasing the Playground's borrow, and every
//! later call would answer "recursive use of an object detected". So every
//! read goes through an import that catches (`Result`), only own
//! enumerable properties are read, each exactly once, into a plain object
//! that serde then decodes. A throwing getter throws its own error to the
//! caller, and the Playground stays usable.
//!
//! The same holds for every import that meets a caller's value: a revoked
//! Proxy throws even from `Array.isArray`, and before it was caught each
//! such throw also lowered wasm's stack pointer for good (about 2,000 of
//! them and every call trapped). Only `typeof` tests (`is_object`,
//! `as_string`, `as_f64`…), which run no code of the caller's, are called
//! without a catch.

use js_sys::{JsString, Object, Reflect};
use wasm_bindgen::prelude::*;

// Optional arguments as they appear in the TypeScript (`options?:
// SnapshotOptions | null`); any JS value arrives, unchecked, and is checked
// here like every other argument.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "number")]
    pub type NumberArg;
    #[wasm_bindgen(typescript_type = "SnapshotOptions")]
    pub type SnapshotOptionsArg;
    #[wasm_bindgen(typescript_type = "QueueMessagesOptions")]
    pub type QueueMessagesOptionsArg;
    #[wasm_bindgen(typescript_type = "PlaygroundOptions")]
    pub type PlaygroundOptionsArg;
    #[wasm_bindgen(typescript_type = "DispatchOptions")]
    pub type DispatchOptionsArg;
}

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`, catching what a Proxy's traps throw.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn own_keys(object: &JsValue) -> Result<js_sys::Array, JsValue>;

    /// `Array.isArray`, catching its `TypeError` for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// What a value is, for an error message: "number", "null", "an array"…
/// (a revoked Proxy, which is no array anyone can use, is its `typeof`).
pub(crate) fn kind(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if is_array(value).unwrap_or(false) {
        "array".into()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

pub(crate) fn type_error(message: String) -> JsValue {
    js_sys::TypeError::new(&message).into()
}

pub(crate) fn range_error(message: String) -> JsValue {
    js_sys::RangeError::new(&message).into()
}

/// A string argument: `dispatch: target must be a string such as
/// "AmazonSQS.SendMessage", got number`.
pub(crate) fn string_arg(
    method: &str,
    name: &str,
    what: &str,
    value: &JsValue,
) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        type_error(format!(
            "{method}: {name} must be {what}, got {}",
            kind(value)
        ))
    })
}

/// A boolean argument: `pauseAtCheckpoints: on must be true or false, got string`.
pub(crate) fn bool_arg(method: &str, name: &str, value: &JsValue) -> Result<bool, JsValue> {
    value.as_bool().ok_or_else(|| {
        type_error(format!(
            "{method}: {name} must be true or false, got {}",
            kind(value)
        ))
    })
}

/// The largest whole number JavaScript counts exactly (2^53 - 1).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// A whole number from 0 to `max` (`undefined` and `null` give `default`):
/// a non-number is a `TypeError`; NaN, infinities, fractions, negatives
/// and numbers above `max` are a `RangeError`.
pub(crate) fn whole_number_arg(
    method: &str,
    name: &str,
    value: &JsValue,
    default: u64,
    max: u64,
) -> Result<u64, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(default);
    }
    let Some(n) = value.as_f64() else {
        return Err(type_error(format!(
            "{method}: {name} must be a whole number, got {}",
            kind(value)
        )));
    };
    // `max` at most 2^53 - 1, so that the comparison below is exact.
    let max = max.min(MAX_SAFE as u64);
    if !n.is_finite() || n.fract() != 0.0 || n < 0.0 || n > max as f64 {
        return Err(range_error(format!(
            "{method}: {name} must be a whole number from 0 to {max}, got {n}"
        )));
    }
    Ok(n as u64)
}

/// A plain copy of an options object's own enumerable properties, or
/// `None` for `undefined`/`null` (defaults). `known` are its field names
/// (any other is an Error, so that a misspelt option is not ignored);
/// `nested` those of them that may hold an object (decoded by their own
/// `copy_options` later); every other value must be a primitive, since
/// decoding an object would read its properties outside this catching path.
pub(crate) fn copy_options(
    value: &JsValue,
    method: &str,
    what: &str,
    known: &[&str],
    nested: &[&str],
) -> Result<Option<Object>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    // `is_object` is a `typeof` test: unlike `instanceof`, it runs no trap.
    // A revoked Proxy throws its own TypeError here.
    if !value.is_object() || is_array(value)? {
        return Err(type_error(format!(
            "{method}: {what}s must be an object, got {}",
            kind(value)
        )));
    }
    // No prototype, so that no setter on `Object.prototype` runs either.
    let copy = Object::create(JsValue::NULL.unchecked_ref());
    for key in own_keys(value)?.iter() {
        let name = key.as_string().unwrap_or_default();
        if !known.contains(&name.as_str()) {
            return Err(JsError::new(&format!(
                "unknown {what} field \"{name}\"; expected one of: {}",
                known.join(", ")
            ))
            .into());
        }
        let field = Reflect::get(value, &key)?;
        if (field.is_object() || field.is_function()) && !nested.contains(&name.as_str()) {
            return Err(type_error(format!(
                "{method}: {what} \"{name}\" must be a string, number or boolean, got {}",
                kind(&field)
            )));
        }
        // A string is measured before serde copies it into wasm memory,
        // where a string of a gigabyte would trap rather than be refused.
        if let Some(text) = field.dyn_ref::<JsString>() {
            if text.length() as usize > MAX_OPTION_CHARS {
                return Err(range_error(format!(
                    "{method}: {what} \"{name}\" must be at most {MAX_OPTION_CHARS} characters, got {}",
                    text.length()
                )));
            }
        }
        Reflect::set(&copy, &key, &field)?;
    }
    Ok(Some(copy))
}

/// The longest string any option takes (names of at most 80 characters,
/// a region, an account id), in UTF-16 units, checked before it is copied.
pub(crate) const MAX_OPTION_CHARS: usize = 1024;
