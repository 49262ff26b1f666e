//! An SQS answer handed to JavaScript as `{ status, headers, body }`.
//!
//! Not written whole as JSON and parsed back (what `to_js` does for the
//! larger values): the body is already JSON text, and writing it into JSON
//! escaped every quote of it, for JavaScript's `JSON.parse` to unescape
//! them again; that round trip was a third of a `dispatch` call. So the
//! small part (`status` and `headers`) is JSON parsed by `JSON.parse`, and
//! the body is added beside it with `Object.defineProperty`.
//!
//! Both create their properties as data properties: no setter a page
//! script put on `Object.prototype` runs. That matters because this runs
//! after the engine acted (a message stored, a handle spent): a throwing
//! setter used to make `dispatch` throw for a call that had happened, so a
//! page's journal missed it. Nothing here runs page code, and nothing can
//! fail short of a page replacing `JSON.parse` or `Object.defineProperty`.

use std::fmt::Write;

use js_sys::Object;
use queuelab_protocol::Response;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsError, JsValue};

#[wasm_bindgen]
extern "C" {
    /// A property descriptor with no prototype, reused for every body.
    #[wasm_bindgen(extends = Object)]
    type Descriptor;

    /// `descriptor[key] = value`: the descriptor has no prototype, so no
    /// setter exists to run.
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn set(this: &Descriptor, key: &JsValue, value: &JsValue);

    /// `Object.defineProperty`: defines, never assigns, so no setter runs.
    /// It cannot fail on the fresh object it is given; `catch` for a page
    /// that replaced it.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = defineProperty)]
    fn define_property(
        target: &JsValue,
        key: &JsValue,
        descriptor: &Descriptor,
    ) -> Result<JsValue, JsValue>;
}

/// What every response reuses, made once. Never changed by a call that
/// can run page code, so nothing is ever found half-filled.
struct Constants {
    body: JsValue,
    value: JsValue,
    /// `{ value, writable, enumerable, configurable }` with no prototype:
    /// read by `defineProperty`, which would otherwise also find a `get`
    /// or `set` a page put on `Object.prototype`.
    descriptor: Descriptor,
}

thread_local! {
    static CONSTANTS: Constants = {
        let null = JsValue::NULL;
        let descriptor: Descriptor = Object::create(null.unchecked_ref::<Object>()).unchecked_into();
        for flag in ["writable", "enumerable", "configurable"] {
            descriptor.set(&JsValue::from_str(flag), &JsValue::TRUE);
        }
        Constants {
            body: JsValue::from_str("body"),
            value: JsValue::from_str("value"),
            descriptor,
        }
    };
}

/// `{ status, headers, body }`: the headers an object with their names in
/// sorted order (a later header of the same name wins).
pub(crate) fn to_js(response: &Response) -> Result<JsValue, JsError> {
    let failed = |_: JsValue| JsError::new("could not hand a response to JavaScript");
    let out = js_sys::JSON::parse(&head(response)).map_err(failed)?;
    CONSTANTS.with(|c| {
        c.descriptor
            .set(&c.value, &JsValue::from_str(&response.body));
        let defined = define_property(&out, &c.body, &c.descriptor);
        // Not kept alive by the descriptor until the next response.
        c.descriptor.set(&c.value, &JsValue::UNDEFINED);
        defined.map_err(failed)
    })?;
    Ok(out)
}

/// `{"status":200,"headers":{…}}` as JSON text.
fn head(response: &Response) -> String {
    let mut head = String::with_capacity(160);
    let _ = write!(head, "{{\"status\":{},\"headers\":{{", response.status);
    for (i, (name, value)) in sorted(&response.headers).into_iter().enumerate() {
        if i > 0 {
            head.push(',');
        }
        // serde_json escapes what a header could hold; it never fails on a &str.
        head.push_str(&serde_json::to_string(name).unwrap_or_default());
        head.push(':');
        head.push_str(&serde_json::to_string(value).unwrap_or_default());
    }
    head.push_str("}}");
    head
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
