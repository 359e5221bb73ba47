//! Any bytes, read by `xml5dom::de` into a few nested types: errors are
//! fine, panics are not. The bytes go through `from_slice` (any encoding)
//! and, when they are UTF-8, through `from_str` into each type, and every
//! error is formatted (its path and position included).
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

/// Attributes, text, options, a repeated and recursive child (deeper than
/// `de::MAX_DEPTH` is an error), numbers, a boolean, a character, a unit
/// enum, a map, a tuple, a newtype, a unit, and a field matched by
/// expanded name.
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Root {
    #[serde(rename = "@x")]
    x: Option<i32>,
    #[serde(rename = "@flag", default)]
    flag: bool,
    #[serde(rename = "$text", default)]
    text: String,
    name: Option<String>,
    #[serde(rename = "item", default)]
    items: Vec<Item>,
    kind: Option<Kind>,
    #[serde(default)]
    meta: HashMap<String, String>,
    count: Option<u64>,
    ratio: Option<f64>,
    letter: Option<char>,
    pair: Option<(String, u8)>,
    id: Option<Id>,
    empty: Option<()>,
    #[serde(rename = "{http://example.com/ns}extra", default)]
    extra: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Item {
    #[serde(rename = "@id")]
    id: u32,
    #[serde(rename = "@kind")]
    kind: Option<Kind>,
    #[serde(rename = "$text")]
    text: Option<String>,
    #[serde(rename = "item", default)]
    children: Vec<Item>,
    price: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Kind {
    Book,
    Film,
    Song,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Id(u16);

/// Reads `read()` and formats what came back, so that `Display` and
/// `Debug` of values and errors run too.
fn exercise<T: std::fmt::Debug>(read: Result<xml5dom::de::Deserialized<T>, xml5dom::de::DeError>) {
    match read {
        Ok(read) => {
            std::hint::black_box(format!("{:?} {}", read.value, read.errors.len()));
        }
        Err(error) => {
            std::hint::black_box((error.to_string(), error.path(), error.position()));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    exercise(xml5dom::de::from_slice::<Root>(data));
    if let Ok(text) = std::str::from_utf8(data) {
        exercise(xml5dom::de::from_str::<Root>(text));
        exercise(xml5dom::de::from_str::<Item>(text));
        exercise(xml5dom::de::from_str::<Vec<Item>>(text));
        exercise(xml5dom::de::from_str::<HashMap<String, String>>(text));
        exercise(xml5dom::de::from_str::<Kind>(text));
    }
});
