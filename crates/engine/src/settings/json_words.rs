//! Naming a JSON value in a message about a wrong type: "a string", or "a string (\"30\")" when it is short.

use serde_json::Value;

/// What kind of JSON value `value` is: "null", "a boolean", "a number", "a string", "an array", "an object".
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A wrong value in a message: its kind and, when short, the value itself (`a string ("30")`).
pub fn json_shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        format!("{} ({text})", json_kind(value))
    } else {
        json_kind(value).to_string()
    }
}
