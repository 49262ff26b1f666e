//! An SQS answer handed to JavaScript as `{ status, headers, body }`.
//!
//! Built property by property rather than written as JSON and parsed back
//! (what `to_js` does for the larger values): the body is already JSON text,
//! and writing it into JSON escaped every quote of it, for JavaScript's
//! `JSON.parse` to unescape them again; that round trip was a third of a
//! `dispatch` call. The property names, the header names and the fixed
//! content type are made into JavaScript strings once, so a response
//! crosses the boundary as its status, its request id and its body.

use js_sys::Object;
use queuelab_protocol::{Response, CONTENT_TYPE, HEADER_NAMES};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsError, JsValue};

#[wasm_bindgen]
extern "C" {
    /// A plain object being filled in.
    #[wasm_bindgen(extends = Object)]
    type Record;

    /// `record[key] = value`: a plain property set, much cheaper than
    /// `Reflect.set` called from wasm. `catch`: a setter a page script put
    /// on `Object.prototype` may throw, and its exception must not unwind
    /// through the engine's frames (which would leave the playground
    /// borrowed for good).
    #[wasm_bindgen(method, structural, indexing_setter, catch)]
    fn set(this: &Record, key: &JsValue, value: &JsValue) -> Result<(), JsValue>;
}

/// The strings every response repeats, as JavaScript values. Never
/// changed once made, so a setter that calls back into a playground while
/// a response is built finds nothing borrowed.
struct Constants {
    status: JsValue,
    headers: JsValue,
    body: JsValue,
    content_type: JsValue,
    names: [JsValue; HEADER_NAMES.len()],
}

thread_local! {
    static CONSTANTS: Constants = Constants {
        status: JsValue::from_str("status"),
        headers: JsValue::from_str("headers"),
        body: JsValue::from_str("body"),
        content_type: JsValue::from_str(CONTENT_TYPE),
        names: HEADER_NAMES.map(JsValue::from_str),
    };
}

impl Constants {
    /// `headers[name] = value`, with the interned name and content type
    /// passed by reference: cloning a `JsValue` takes a slot of wasm's
    /// table of JavaScript references, a call across the boundary.
    fn set_header(&self, headers: &Record, name: &str, value: &str) -> Result<(), JsValue> {
        let (own_name, own_value);
        let name = match HEADER_NAMES.iter().position(|known| *known == name) {
            Some(at) => &self.names[at],
            None => {
                own_name = JsValue::from_str(name);
                &own_name
            }
        };
        let value = match value == CONTENT_TYPE {
            true => &self.content_type,
            false => {
                own_value = JsValue::from_str(value);
                &own_value
            }
        };
        headers.set(name, value)
    }
}

/// `{ status, headers, body }`: the headers an object with their names in
/// sorted order (a later header of the same name wins).
pub(crate) fn to_js(response: &Response) -> Result<JsValue, JsError> {
    let failed = |_: JsValue| JsError::new("could not hand a response to JavaScript");
    CONSTANTS.with(|c| {
        let headers: Record = Object::new().unchecked_into();
        for (name, value) in sorted(&response.headers) {
            c.set_header(&headers, name, value).map_err(failed)?;
        }
        let out: Record = Object::new().unchecked_into();
        out.set(&c.status, &JsValue::from(response.status))
            .map_err(failed)?;
        out.set(&c.headers, &headers).map_err(failed)?;
        out.set(&c.body, &JsValue::from_str(&response.body))
            .map_err(failed)?;
        Ok(out.into())
    })
}

/// Headers by name, a later one of the same name replacing an earlier one.
/// A sorted list instead of a map: a response has a handful of headers,
/// and a `BTreeMap` of `&str` would compile its own B-tree (wasm size).
fn sorted(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut sorted: Vec<(&str, &str)> = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        match sorted.binary_search_by(|(n, _)| (*n).cmp(name.as_str())) {
            Ok(at) => sorted[at].1 = value,
            Err(at) => sorted.insert(at, (name, value)),
        }
    }
    sorted
}
