//! Strict tool definitions (`"strict": true` on the Messages API): the model's input for such a tool is generated to
//! fit its schema. Which models take them, how a tool's schema is brought into the strict subset of JSON Schema
//! (constraints the subset lacks move into the description; local validation still applies them), and the limits
//! per request (tools, optional and union-typed parameters), spent on the asking tools in list order.

use serde_json::{Map, Value};

use super::ToolSpec;

/// The most strict tools one request may carry.
pub const MAX_STRICT_TOOLS: usize = 20;
/// The most optional parameters all strict schemas of a request may have together.
pub const MAX_OPTIONAL_PARAMS: usize = 24;
/// The most parameters with a union type (`anyOf`, a list of types) all strict schemas may have together.
pub const MAX_UNION_PARAMS: usize = 16;

/// String formats the strict subset keeps.
pub const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords the strict subset does not take; they are moved into the description.
pub const UNSUPPORTED_KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// Whether `model` takes strict tool definitions: Claude Opus 4.1 and later, Sonnet and Haiku 4.5 and later (by
/// the model's id, e.g. `claude-sonnet-4-5-20250929`). Other names (other providers, local models, unknown ids)
/// get plain definitions.
pub fn model_supports_strict(model: &str) -> bool {
    let Some(rest) = model.strip_prefix("claude-") else {
        return false;
    };
    let mut parts = rest.split('-');
    let family = parts.next().unwrap_or_default();
    let major: u32 = match parts.next().and_then(|p| p.parse().ok()) {
        Some(major) => major,
        None => return false,
    };
    // A date (`20250514`) is not a minor version.
    let minor: u32 = parts
        .next()
        .filter(|p| p.len() <= 2)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let first = match family {
        "opus" => (4, 1),
        "sonnet" | "haiku" => (4, 5),
        _ => return false,
    };
    (major, minor) >= first
}

/// What a strict schema costs against the request's limits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StrictCost {
    pub optional: usize,
    pub unions: usize,
}

/// `schema` in the strict subset, and what it costs; `None` when it cannot be brought there (an object open to
/// properties of a schema, a recursive reference, a `$ref` to somewhere else than `$defs`).
pub fn strict_schema(schema: &Value) -> Option<(Value, StrictCost)> {
    if is_recursive(schema) {
        return None;
    }
    let mut cost = StrictCost::default();
    let out = convert(schema, &mut cost)?;
    Some((out, cost))
}

fn convert(schema: &Value, cost: &mut StrictCost) -> Option<Value> {
    let Value::Object(map) = schema else {
        return Some(schema.clone());
    };
    let mut out = Map::new();
    let mut moved = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "$ref" => {
                let target = value.as_str()?;
                if !target.starts_with("#/$defs/") && !target.starts_with("#/definitions/") {
                    return None;
                }
                out.insert(key.clone(), value.clone());
            }
            "properties" => {
                let props = value.as_object()?;
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut converted = Map::new();
                for (name, prop) in props {
                    if !required.contains(&name.as_str()) {
                        cost.optional += 1;
                    }
                    if is_union(prop) {
                        cost.unions += 1;
                    }
                    converted.insert(name.clone(), convert(prop, cost)?);
                }
                out.insert(key.clone(), Value::Object(converted));
            }
            "additionalProperties" => match value {
                Value::Bool(false) => {}
                Value::Bool(true) => return None,
                _ => return None,
            },
            "$defs" | "definitions" => {
                let defs = value.as_object()?;
                let mut converted = Map::new();
                for (name, def) in defs {
                    converted.insert(name.clone(), convert(def, &mut StrictCost::default())?);
                }
                out.insert(key.clone(), Value::Object(converted));
            }
            "items" => {
                out.insert(key.clone(), convert(value, cost)?);
            }
            "anyOf" | "allOf" | "oneOf" => {
                let branches = value.as_array()?;
                let converted: Option<Vec<Value>> =
                    branches.iter().map(|b| convert(b, cost)).collect();
                // `oneOf` is not in the subset; its branches here exclude each other, so `anyOf` says the same.
                let key = if key == "oneOf" {
                    "anyOf"
                } else {
                    key.as_str()
                };
                out.insert(key.to_string(), Value::Array(converted?));
            }
            "format" => {
                if value.as_str().is_some_and(|f| FORMATS.contains(&f)) {
                    out.insert(key.clone(), value.clone());
                }
            }
            "minItems" => match value.as_u64() {
                Some(0 | 1) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => moved.push(format!("{key}: {value}")),
            },
            k if UNSUPPORTED_KEYWORDS.contains(&k) => moved.push(format!("{key}: {value}")),
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if is_object_schema(map) {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    if !moved.is_empty() {
        let note = format!("{{{}}}", moved.join(", "));
        let description = match out.get("description").and_then(Value::as_str) {
            Some(text) => format!("{text}\n\n{note}"),
            None => note,
        };
        out.insert("description".into(), Value::String(description));
    }
    Some(Value::Object(out))
}

/// Whether a schema describes an object (by its type or its properties).
pub fn is_object_schema(map: &Map<String, Value>) -> bool {
    map.get("type").and_then(Value::as_str) == Some("object") || map.contains_key("properties")
}

/// Whether a property has a union type (`anyOf`, `oneOf`, or a list of types), which the limits count.
pub fn is_union(prop: &Value) -> bool {
    prop.get("anyOf").is_some()
        || prop.get("oneOf").is_some()
        || prop
            .get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// Whether a definition of `schema` refers to itself, directly or through others.
fn is_recursive(schema: &Value) -> bool {
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(Value::as_object);
    let Some(defs) = defs else {
        return false;
    };
    defs.keys().any(|start| {
        let mut seen = vec![start.clone()];
        let mut todo = refs_in(&defs[start]);
        while let Some(next) = todo.pop() {
            if next == *start {
                return true;
            }
            if !seen.contains(&next)
                && let Some(def) = defs.get(&next)
            {
                todo.extend(refs_in(def));
                seen.push(next);
            }
        }
        false
    })
}

/// The `$defs` names `value` refers to.
fn refs_in(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "$ref"
                    && let Some(name) = v.as_str().and_then(|r| {
                        r.strip_prefix("#/$defs/")
                            .or_else(|| r.strip_prefix("#/definitions/"))
                    })
                {
                    out.push(name.to_string());
                } else {
                    out.extend(refs_in(v));
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| out.extend(refs_in(v))),
        _ => {}
    }
    out
}

/// For each tool of a request to `model`: its strict schema, or `None` to send it plain. Tools that ask for strict
/// get it in list order while the request's limits allow; none does when the model does not take it.
pub fn choose(tools: &[ToolSpec], model: &str) -> Vec<Option<Value>> {
    if !model_supports_strict(model) {
        return vec![None; tools.len()];
    }
    let mut spent = (0, StrictCost::default());
    tools
        .iter()
        .map(|tool| {
            if !tool.strict || tool.server.is_some() {
                return None;
            }
            let (schema, cost) = strict_schema(&tool.input_schema)?;
            let (count, total) = spent;
            let optional = total.optional + cost.optional;
            let unions = total.unions + cost.unions;
            if count + 1 > MAX_STRICT_TOOLS
                || optional > MAX_OPTIONAL_PARAMS
                || unions > MAX_UNION_PARAMS
            {
                return None;
            }
            spent = (count + 1, StrictCost { optional, unions });
            Some(schema)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn models_that_take_strict_definitions() {
        for (model, yes) in [
            ("claude-opus-4-1-20250805", true),
            ("claude-opus-4-20250514", false),
            ("claude-opus-4-5", true),
            ("claude-opus-4-6", true),
            ("claude-sonnet-4-5-20250929", true),
            ("claude-sonnet-4-20250514", false),
            ("claude-sonnet-5", true),
            ("claude-haiku-4-5", true),
            ("claude-3-5-haiku-20241022", false),
            ("claude-3-7-sonnet-latest", false),
            ("gpt-4o", false),
            ("qwen2.5-coder", false),
            ("claude-", false),
        ] {
            assert_eq!(model_supports_strict(model), yes, "{model}");
        }
    }

    #[test]
    fn constraints_outside_the_subset_move_into_the_description() {
        let schema = json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "format": "uint", "minimum": 0, "description": "Lines."},
                "when": {"type": "string", "format": "date-time"},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}, "minItems": 2},
                "mode": {"type": ["string", "null"]}
            },
            "required": ["when"]
        });
        let (out, cost) = strict_schema(&schema).expect("strict");
        assert_eq!(out["additionalProperties"], false);
        assert_eq!(
            out["properties"]["limit"],
            json!({"type": "integer", "description": "Lines.\n\n{minimum: 0}"})
        );
        assert_eq!(out["properties"]["when"]["format"], "date-time");
        assert_eq!(out["properties"]["tags"]["description"], "{minItems: 2}");
        assert_eq!(
            out["properties"]["tags"]["items"]["description"],
            "{maxLength: 5}"
        );
        assert_eq!(
            cost,
            StrictCost {
                optional: 3,
                unions: 1
            }
        );
    }

    #[test]
    fn schemas_the_subset_cannot_hold_stay_plain() {
        for schema in [
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}},
                   "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}}),
            json!({"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}}),
        ] {
            assert!(strict_schema(&schema).is_none(), "{schema}");
        }
    }

    fn spec(name: &str, strict: bool, optional: usize) -> ToolSpec {
        let props: Map<String, Value> = (0..optional)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        ToolSpec {
            name: name.into(),
            description: String::new(),
            input_schema: json!({"type": "object", "properties": props}),
            server: None,
            strict,
        }
    }

    #[test]
    fn the_request_limits_are_spent_in_list_order() {
        let tools = [
            spec("A", true, 20),
            spec("B", false, 0),
            spec("C", true, 5),
            spec("D", true, 4),
        ];
        let chosen = choose(&tools, "claude-sonnet-4-5");
        let strict: Vec<bool> = chosen.iter().map(Option::is_some).collect();
        // C would take the optional parameters to 25; D fits at 24.
        assert_eq!(strict, [true, false, false, true]);
        assert!(
            choose(&tools, "claude-sonnet-4")
                .iter()
                .all(Option::is_none)
        );
        let many: Vec<ToolSpec> = (0..25).map(|i| spec(&format!("T{i}"), true, 0)).collect();
        let chosen = choose(&many, "claude-opus-4-6");
        assert_eq!(
            chosen.iter().filter(|c| c.is_some()).count(),
            MAX_STRICT_TOOLS
        );
    }
}
